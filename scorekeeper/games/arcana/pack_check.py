"""The checks of one Arcana card pack's cards, in words that name the card and the field.

Pure Python (no pydantic): pack_data.py runs ``check_cards`` before its model sees a pack, so
every card's fields are checked here and come back in their plain form (whole numbers, "-",
lists); the model then only types them for the schema and the data editor.

A message reads "stake_002 (Ayane): threshold in sword is 6 but its sword value is 5" or
"ferrymen_03 (Crossbowman): values.sword 'x' is not a whole number or -" (docs/games/arcana.md,
"The card pack"). ``PackError.at`` is the path of the node it is about, below the pack
(``("cards", "stake_002", "threshold", "sword")``), so a file's message also names its line.

Hazard: YAML scalars arrive as ``Scalar`` text (core/yaml_model.py). A name is its text as
written ("No" stays "No"); a number is what YAML reads (``'3'`` quoted is text, refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from scorekeeper.errors import ScorekeeperError
from scorekeeper.games.arcana.cards import (
    AGENT,
    ALL_DOMAINS,
    ARCANA,
    BADGE,
    CITIZEN,
    EVENT,
    FIRST_PLAYER,
    FIRST_PLAYER_CARD,
    GUILD_CARD_TYPES,
    GUILD_WORDS,
    LOCATION,
    MAJOR_ARCANA,
    MASTER,
    OBJECTIVE,
    PIECES,
    PRINCES_GAMES,
    PRINCES_GAMES_CARD,
    RELIC,
    STAKE_TYPES,
    WATCH,
    guild_of_id,
)
from scorekeeper.games.arcana.pack_vocab import a_card, check_ability

MAX_VALUE = 99
MAX_VP = 50
FIELDS = (
    "name",
    "type",
    "guild",
    "domain",
    "values",
    "major",
    "threshold",
    "vp",
    "letter",
    "once_per_round",
    "objective",
    "ability",
)
VALUED = (AGENT, LOCATION, RELIC, CITIZEN, WATCH)
"""The types that print the four arcana."""
OPTION_LETTERS = {OBJECTIVE: "C", WATCH: "D", MASTER: "E", EVENT: "F"}
"""The letter an optional rule's card prints (spec 1.4); guild cards print A or B."""


class PackError(ScorekeeperError, ValueError):
    """A pack refused: ``message`` in words, ``at`` the path of the node it is about."""

    def __init__(self, message: str, *at: str | int) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def allowed_types(piece: str) -> tuple[str, ...]:
    """The types a piece id may have (its place in the copy fixes most of them)."""
    if piece.startswith("badge_"):
        return (BADGE,)
    if piece.startswith("stake_"):
        return STAKE_TYPES
    if piece.startswith(("captain_", "constable_")):
        return (WATCH,)
    if piece.startswith("master_"):
        return (MASTER,)
    if piece.startswith("objective_"):
        return (OBJECTIVE,)
    if piece.startswith("event_"):
        return (EVENT,)
    if piece == FIRST_PLAYER_CARD:
        return (FIRST_PLAYER,)
    if piece == PRINCES_GAMES_CARD:
        return (PRINCES_GAMES,)
    return GUILD_CARD_TYPES


def text_of(value: Any) -> str | None:
    """A scalar's text as written (a YAML ``Scalar`` is a str), None for anything else."""
    if isinstance(value, str):
        return str(value).strip()
    return None


def number_of(value: Any) -> Any:
    """A value as YAML reads it: a ``Scalar``'s native value, anything else unchanged."""
    native = getattr(value, "native", None)
    return native() if callable(native) else value


def whole(value: Any) -> int | None:
    """A whole number (not true/false), else None. Digits as text count too: the data editor's
    text boxes and a CSV cell send "3"."""
    got = number_of(value)
    if isinstance(got, str) and got.strip().isdigit():
        return int(got.strip())
    if isinstance(got, int) and not isinstance(got, bool):
        return got
    return None


def check_domains(raw: Any) -> list[str]:
    """The pack's ``domains``: a list of distinct names ("all" is not one)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise PackError("domains must be a list of the domain names printed on stakes", "domains")
    out: list[str] = []
    for i, item in enumerate(raw):
        name = text_of(item)
        if not name:
            raise PackError(f"domains: entry {i + 1} must be a domain's name", "domains", i)
        if name.lower() == ALL_DOMAINS:
            raise PackError(
                "domains: 'all' is what a stake of every domain writes, not a domain",
                "domains",
                i,
            )
        if name in out:
            raise PackError(f"domains: {name!r} is listed twice", "domains", i)
        out.append(name)
    return out


def check_cards(raw: Any, domains: list[str]) -> dict[str, dict[str, Any]]:
    """Every card of ``raw`` (id -> fields) checked, in the copy's order, in plain form.
    Raises PackError naming the card and the field for the first thing wrong."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise PackError("cards must be a mapping of card ids to their fields", "cards")
    known = set(PIECES)
    for key in raw:
        if str(key) not in known:
            raise PackError(f"{_unknown_id(str(key))}", "cards", str(key))
    out: dict[str, dict[str, Any]] = {}
    names: dict[tuple[str, str], str] = {}
    for piece in PIECES:
        if piece not in raw:
            continue
        card = check_card(piece, raw[piece], domains)
        guild = guild_of_id(piece)
        if card["type"] in GUILD_CARD_TYPES:
            first = names.setdefault((guild, card["name"].lower()), piece)
            if first != piece:
                raise PackError(
                    f"{piece} ({card['name']}): name is also {first}'s; two cards of one guild "
                    "have different names",
                    "cards",
                    piece,
                    "name",
                )
        out[piece] = card
    return out


def _unknown_id(key: str) -> str:
    """Why ``key`` is no card of the copy, with the ids there are."""
    return (
        f"{key!r} is no card of Arcana's copy; the cards are badge_<guild>, blades_01 … "
        "architects_20, stake_001 … stake_116, first_player, princes_games, captain_1, "
        "captain_2, constable_1 … constable_4, master_<guild>_1 … 3, objective_01 … 24 and "
        "event_01 … 12"
    )


def check_card(piece: str, raw: Any, domains: list[str]) -> dict[str, Any]:
    """One card's fields checked and in plain form (PackError naming it and the field)."""
    if not isinstance(raw, Mapping):
        raise PackError(f"{piece}: must be a mapping of the card's fields", "cards", piece)
    # A field left empty is a field not given: the console's form sends every field of the
    # schema for every card, a badge's majors as an empty list among them.
    fields = {str(k): v for k, v in raw.items() if not _blank(v)}
    name = text_of(fields.get("name"))
    label = f"{piece} ({name})" if name else piece

    def fail(message: str, *at: str | int) -> PackError:
        return PackError(f"{label}: {message}", "cards", piece, *at)

    for key in fields:
        if key not in FIELDS:
            raise fail(f"unknown field {key!r}; a card has {', '.join(FIELDS)}", key)
    if not name:
        raise fail("name is missing (the name printed on the card)", "name")
    kind = _type(piece, fields.get("type"), fail)
    out: dict[str, Any] = {"name": name, "type": kind}
    _guild(piece, kind, fields, out, fail)
    _domain(kind, fields, domains, out, fail)
    _values(kind, fields, out, fail)
    _majors(kind, fields, out, fail)
    _vp(kind, fields, out, fail)
    _letter(kind, fields, out, fail)
    _once(kind, fields, out, fail)
    _objective(kind, fields, domains, out, fail)
    ability = _ability_mapping(fields.get("ability"), fail)
    if ability is not None:
        out["ability"] = check_ability(kind, ability, fail)
    elif kind in (MASTER, EVENT):
        raise fail(
            f"ability is missing ({a_card(kind)} always has one; manual if need be)", "ability"
        )
    return out


def _ability_mapping(raw: Any, fail: Any) -> Any:
    """An ability as written: a mapping, or its YAML on one line (the data editor's text box,
    a CSV cell); "none" or nothing is no ability."""
    if not isinstance(raw, str):
        return raw
    text = str(raw).strip()
    if text.lower() in ("", "none", "-"):
        return None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if not isinstance(data, dict):
        raise fail("ability must be a mapping like {when: play, draw: {n: 1}}", "ability")
    return data


def _type(piece: str, raw: Any, fail: Any) -> str:
    allowed = allowed_types(piece)
    if raw is None and len(allowed) == 1:
        return allowed[0]
    kind = text_of(raw)
    if not kind:
        raise fail(f"type is missing ({' or '.join(allowed)})", "type")
    if kind not in allowed:
        raise fail(f"type is {kind!r} but this card is {' or '.join(allowed)}", "type")
    return kind


def _blank(value: Any) -> bool:
    """Whether a field's value is empty: None, blank text, or a list or mapping of such."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, Mapping):
        return all(_blank(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_blank(v) for v in value)
    return False


def _guild(piece: str, kind: str, fields: dict[str, Any], out: dict[str, Any], fail: Any) -> None:
    """Guild cards, badges and masters belong to the guild their id names."""
    guild = guild_of_id(piece)
    raw = fields.get("guild")
    if not guild:
        if raw is not None:
            raise fail(f"guild is only for guild cards, badges and masters, not {a_card(kind)}")
        return
    if raw is not None and text_of(raw) != guild:
        shown = text_of(raw) or raw
        raise fail(f"guild is {shown!r} but this is a {GUILD_WORDS[guild]} card ({piece})", "guild")
    out["guild"] = guild


def _domain(
    kind: str, fields: dict[str, Any], domains: list[str], out: dict[str, Any], fail: Any
) -> None:
    raw = fields.get("domain")
    stake = kind in STAKE_TYPES and "guild" not in out
    if not stake:
        if raw is not None:
            raise fail(f"domain is only for stakes, not {a_card(kind)}", "domain")
        return
    domain = text_of(raw)
    if not domain:
        raise fail("domain is missing (the word under the stake's name, or all)", "domain")
    if domain.lower() == ALL_DOMAINS:
        domain = ALL_DOMAINS
    elif domain not in domains:
        listed = ", ".join(domains) or "none yet"
        raise fail(f"domain {domain!r} is not among the pack's domains ({listed}) or all", "domain")
    out["domain"] = domain


def _values(kind: str, fields: dict[str, Any], out: dict[str, Any], fail: Any) -> None:
    raw = fields.get("values")
    if kind not in VALUED:
        if raw is not None:
            raise fail(f"values are printed on agents, stakes and watch cards, not {a_card(kind)}")
        return
    if not isinstance(raw, Mapping):
        missing = "is missing" if raw is None else "must be a mapping"
        raise fail(f"values {missing} (wand, sword, chalice, coin: each a number or -)", "values")
    given = {str(k): v for k, v in raw.items()}
    for key in given:
        if key not in ARCANA:
            raise fail(f"values.{key} is no arcanum; the arcana are {', '.join(ARCANA)}", "values")
    values: dict[str, int | str] = {}
    for arcanum in ARCANA:
        if arcanum not in given:
            raise fail(f"values.{arcanum} is missing (a whole number, or -)", "values")
        cell = given[arcanum]
        number = whole(cell)
        if number is None and text_of(cell) == "-":
            values[arcanum] = "-"
        elif number is None or not 0 <= number <= MAX_VALUE:
            shown = str(cell) if isinstance(cell, str) else repr(cell)
            raise fail(f"values.{arcanum} {shown!r} is not a whole number or -", "values", arcanum)
        else:
            values[arcanum] = number
    out["values"] = values


def _majors(kind: str, fields: dict[str, Any], out: dict[str, Any], fail: Any) -> None:
    raw, thresholds = fields.get("major"), fields.get("threshold")
    if "domain" not in out:
        for key, given in (("major", raw), ("threshold", thresholds)):
            if given is not None:
                raise fail(f"{key} is only for stakes, not {a_card(kind)}", key)
        return
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items:
        raise fail("major is missing (the arcana in yellow circles: wand, sword, chalice)", "major")
    majors: list[str] = []
    for i, item in enumerate(items):
        arcanum = text_of(item) or ""
        if arcanum not in MAJOR_ARCANA:
            why = " (coin is only ever a ducat value)" if arcanum == "coin" else ""
            raise fail(f"major {arcanum!r} is not wand, sword or chalice{why}", "major", i)
        if arcanum in majors:
            raise fail(f"major lists {arcanum} twice", "major", i)
        if out["values"][arcanum] == "-":
            raise fail(f"major {arcanum} has no number: its {arcanum} value is -", "major", i)
        majors.append(arcanum)
    out["major"] = majors
    if thresholds is None:
        out["threshold"] = {a: out["values"][a] for a in majors}
        return
    if not isinstance(thresholds, Mapping):
        raise fail("threshold must be a mapping (arcanum: the value in its yellow circle)")
    given = {str(k): v for k, v in thresholds.items()}
    for arcanum, cell in given.items():
        if arcanum not in majors:
            raise fail(f"threshold in {arcanum}: {arcanum} is not among its majors", "threshold")
        number = whole(cell)
        if number is None:
            raise fail(f"threshold in {arcanum} {str(cell)!r} is not a whole number", "threshold")
        value = out["values"][arcanum]
        if number != value:
            raise fail(
                f"threshold in {arcanum} is {number} but its {arcanum} value is {value}",
                "threshold",
                arcanum,
            )
    out["threshold"] = {a: out["values"][a] for a in majors}


def _vp(kind: str, fields: dict[str, Any], out: dict[str, Any], fail: Any) -> None:
    raw = fields.get("vp")
    if raw is None:
        out["vp"] = 0
        return
    vp = whole(raw)
    if vp is None or not 0 <= vp <= MAX_VP:
        raise fail(f"vp {str(raw)!r} is not a whole number from 0 to {MAX_VP}", "vp")
    if kind == WATCH and vp:
        raise fail("vp: a watch card carries no VP (G-22)", "vp")
    out["vp"] = vp


def _letter(kind: str, fields: dict[str, Any], out: dict[str, Any], fail: Any) -> None:
    raw = fields.get("letter")
    letter = (text_of(raw) or "").upper() if raw is not None else ""
    if letter.lower() in ("", "none", "-"):
        letter = ""
    if "guild" in out and kind in GUILD_CARD_TYPES:
        if letter not in ("A", "B"):
            shown = "is missing" if not letter else f"is {letter!r}"
            raise fail(f"letter {shown}: a guild card is A (starting deck) or B", "letter")
    elif kind in OPTION_LETTERS:
        if letter and letter != OPTION_LETTERS[kind]:
            expected = OPTION_LETTERS[kind]
            raise fail(f"letter is {letter!r} but {a_card(kind)} is {expected}", "letter")
        letter = letter or OPTION_LETTERS[kind]
    elif letter:
        raise fail(f"letter: {a_card(kind)} prints no letter (G-4)", "letter")
    if letter:
        out["letter"] = letter


def _once(kind: str, fields: dict[str, Any], out: dict[str, Any], fail: Any) -> None:
    raw = fields.get("once_per_round")
    if raw is None:
        return
    flag = number_of(raw)
    if not isinstance(flag, bool):
        raise fail(f"once_per_round {str(raw)!r} must be true or false", "once_per_round")
    if flag and kind != MASTER:
        raise fail("once_per_round is only for guild masters", "once_per_round")
    if flag:
        out["once_per_round"] = True


def _objective(
    kind: str, fields: dict[str, Any], domains: list[str], out: dict[str, Any], fail: Any
) -> None:
    raw = fields.get("objective")
    if kind != OBJECTIVE:
        if raw is not None:
            raise fail(f"objective is only for objective cards, not {a_card(kind)}", "objective")
        return
    if not isinstance(raw, Mapping):
        raise fail("objective is missing ({domain, count}: how many stakes of which domain)")
    given = {str(k): v for k, v in raw.items()}
    for key in given:
        if key not in ("domain", "count"):
            raise fail(f"objective.{key} is unknown; an objective has domain and count")
    domain = text_of(given.get("domain"))
    if not domain or domain not in domains:
        listed = ", ".join(domains) or "none yet"
        shown = repr(domain) if domain else "missing"
        raise fail(
            f"objective.domain is {shown}; it is one of the pack's domains ({listed})",
            "objective",
            "domain",
        )
    count = whole(given.get("count"))
    if count is None or not 1 <= count <= 20:
        shown = str(given.get("count"))
        raise fail(
            f"objective.count {shown!r} is not a whole number from 1 to 20", "objective", "count"
        )
    out["objective"] = {"domain": domain, "count": count}
