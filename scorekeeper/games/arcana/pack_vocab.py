"""Arcana's ability vocabulary as a pack writes it: which effects take which fields, which
``when`` fits which card type, the check of one ability and its ``Ability`` for the rules.

An ability is a YAML mapping (docs/games/arcana.md, "Abilities")::

    {when: play, draw_keep: {draw: 2, keep: 1}}
    {when: play, if_stake: citizen, draw: {n: 1}, extra_action: {}}
    {when: play, manual: {text: "Look at an opponent's hand."}}

``when`` first, then any conditions (``if_stake``, ``if_major``), then the effects in the order
they run, and optionally ``text`` (the card's own words). The mapping keeps the order written:
never sort its keys (a JSON key made with ``sort_keys`` would reorder the effects).

Pure Python: the pack's checks (pack_check.py) and ``pack_of`` (pack.py) both use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.games.arcana.cards import (
    AGENT,
    BADGE,
    CITIZEN,
    CONDITIONS,
    EFFECTS,
    EVENT,
    LOCATION,
    MAJOR_ARCANA,
    MASTER,
    STAKE_TYPES,
    WATCH,
    Ability,
    Effect,
)

WHERE = ("here", "neutral", "friendly", "enemy", "any")
"""Where an effect acts: its own district (``here``) or the districts of a relation."""
TO_FROM = ("friendly", "neutral", "enemy", "any")
WHOSE = ("own", "any")

# Each field: (what it takes, its default; None when the field must be written). What it
# takes is a tuple of choices, or one of "count" (1 or more), "count0" (0 or more), "signed"
# (a whole number, not 0), "text", "arcana" or "stake_types" (a list, or one).
Spec = tuple[Any, Any]
EFFECT_FIELDS: dict[str, dict[str, Spec]] = {
    "draw_keep": {"draw": ("count", None), "keep": ("count0", None)},
    "draw": {"n": ("count", None)},
    "tie_win": {"arcanum": ("arcana", []), "stake_type": ("stake_types", [])},
    "copy_agent": {},
    "move_agent": {"whose": (WHOSE, "own"), "from": (TO_FROM, "any"), "to": (TO_FROM, "any")},
    "add": {"arcanum": (MAJOR_ARCANA, None), "n": ("signed", None), "where": (WHERE, "here")},
    "bribe_bonus": {"n": ("count", None)},
    "immediate_win": {"stake_type": ("stake_types", list(STAKE_TYPES)), "where": (WHERE, "any")},
    "return_agent": {"whose": (WHOSE, "any"), "where": (WHERE, "any")},
    "extra_action": {},
    "manual": {"text": ("text", None)},
}
assert tuple(EFFECT_FIELDS) == EFFECTS

WHEN_BY_TYPE: dict[str, tuple[str, ...]] = {
    LOCATION: ("play",),
    BADGE: ("always",),
    MASTER: ("use",),
    EVENT: ("round",),
    AGENT: ("agent", "results"),
    CITIZEN: ("agent", "results"),
    WATCH: ("agent", "results"),
}
"""The ``when`` each type's ability may have; other types (relics, objectives, …) have none."""
_ACTIVE: tuple[str, ...] = (
    "draw_keep",
    "draw",
    "move_agent",
    "immediate_win",
    "return_agent",
    "extra_action",
    "manual",
)
"""What a played location or a used master does at once. ``add`` and ``bribe_bonus`` count in
a sum, and a played location or a used master lies at no district and lasts no while: they
would add to nothing (refused)."""
EFFECTS_BY_WHEN: dict[str, tuple[str, ...]] = {
    "play": _ACTIVE,
    "use": _ACTIVE,
    "agent": ("tie_win", "add", "bribe_bonus"),
    "results": ("copy_agent", "tie_win", "add"),
    "always": ("tie_win", "add", "bribe_bonus"),
    "round": ("add", "draw", "bribe_bonus", "manual"),
}
"""The effects that make sense at each ``when`` (a played location draws; a badge never
does), each carried out by the referee and the world (tests/games/arcana/test_effects.py).
An event (``round``) is everyone's: its ``tie_win`` would favour no one (refused in words of
its own), and it has no turn to give an ``extra_action`` to. ``manual`` is asked of the table
when a location is played or a master used, and an event's words are shown all round; an
agent's, a badge's or a result's ``manual`` would be asked by nobody (refused)."""
EVENT_TIE_WIN = (
    "ability: an event's tie-breaker would favour no one; give it another effect or write it "
    "as manual"
)
CONDITION_CHOICES = {"if_stake": STAKE_TYPES, "if_major": MAJOR_ARCANA}
assert tuple(CONDITION_CHOICES) == CONDITIONS

Fail = Callable[..., Exception]

A_CARD = {
    "agent": "an agent",
    "location": "a location",
    "relic": "a relic",
    "citizen": "a citizen",
    "badge": "a badge",
    "watch": "a watch card",
    "master": "a guild master",
    "objective": "an objective",
    "event": "an event",
    "first_player": "the first-player card",
    "princes_games": "the Prince's Games card",
}


def a_card(kind: str) -> str:
    """A card type with its article, for messages: "an objective", "a guild master"."""
    return A_CARD.get(kind, f"a {kind}")


def _native(value: Any) -> Any:
    native = getattr(value, "native", None)
    return native() if callable(native) else value


def _text(value: Any) -> str | None:
    return str(value).strip() if isinstance(value, str) else None


def check_ability(kind: str, raw: Any, fail: Fail) -> dict[str, Any]:
    """A card's ability checked against the vocabulary and its type, in plain form (``when``,
    conditions, effects in order, ``text``); ``fail(message, *path)`` makes the error."""
    whens = WHEN_BY_TYPE.get(kind, ())
    if not whens:
        raise fail(f"ability: {a_card(kind)} has no ability the table runs", "ability")
    if not isinstance(raw, Mapping):
        raise fail("ability must be a mapping like {when: play, draw: {n: 1}}", "ability")
    given = {str(k): v for k, v in raw.items()}
    when = _text(given.pop("when", None))
    if not when:
        raise fail(f"ability.when is missing ({' or '.join(whens)} for {a_card(kind)})", "ability")
    if when not in whens:
        raise fail(
            f"ability.when is {when!r} but {a_card(kind)}'s ability acts at {' or '.join(whens)}",
            "ability",
            "when",
        )
    out: dict[str, Any] = {"when": when}
    for name, choices in CONDITION_CHOICES.items():
        if name in given:
            value = _text(given.pop(name))
            if value not in choices:
                raise fail(f"ability.{name} must be {', '.join(choices)}", "ability", name)
            out[name] = value
    if kind == EVENT and "tie_win" in given:
        raise fail(EVENT_TIE_WIN, "ability", "tie_win")
    text = given.pop("text", None)
    effects = 0
    for name, fields in given.items():
        if name not in EFFECT_FIELDS:
            known = ", ".join((*EFFECTS, *CONDITIONS, "text"))
            raise fail(f"ability.{name} is not in the vocabulary ({known})", "ability", name)
        if name not in EFFECTS_BY_WHEN[when]:
            fits = ", ".join(EFFECTS_BY_WHEN[when])
            raise fail(
                f"ability.{name} does not act at {when} (what does: {fits})", "ability", name
            )
        out[name] = _effect(name, fields, fail)
        effects += 1
    if not effects:
        raise fail("ability has no effect (draw, add, tie_win, …, or manual)", "ability")
    if when == "round" and "draw" in out and any(c in out for c in CONDITION_CHOICES):
        raise fail(
            "ability: an event's draw comes at the start of the round, before any stake or "
            "arcanum is counted; write it without if_stake or if_major",
            "ability",
        )
    if text is not None:
        words = _text(text)
        if words is None:
            raise fail("ability.text must be the card's words", "ability", "text")
        if words:
            out["text"] = words
    return out


def _effect(name: str, raw: Any, fail: Fail) -> dict[str, Any]:
    """One effect's fields checked; only the fields written are kept."""
    specs = EFFECT_FIELDS[name]
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        shown = ", ".join(specs) or "nothing"
        raise fail(f"ability.{name} must be a mapping of its fields ({shown})", "ability", name)
    given = {str(k): v for k, v in raw.items()}
    out: dict[str, Any] = {}
    for field in given:
        if field not in specs:
            takes = ", ".join(specs) or "no fields"
            raise fail(f"ability.{name}.{field} is unknown; {name} takes {takes}", "ability")
    for field, (takes, default) in specs.items():
        where = f"ability.{name}.{field}"
        if field not in given:
            if default is None:
                raise fail(f"{where} is missing", "ability", name)
            continue
        out[field] = _field(where, takes, given[field], fail, ("ability", name, field))
    if name == "tie_win" and not (out.get("arcanum") or out.get("stake_type")):
        raise fail("ability.tie_win needs arcanum or stake_type (when it wins ties)", "ability")
    if name == "draw_keep" and out["keep"] > out["draw"]:
        raise fail("ability.draw_keep keeps more cards than it draws", "ability", name)
    return out


def _field(where: str, takes: Any, raw: Any, fail: Fail, at: tuple[str, ...]) -> Any:
    """One effect field's value in plain form."""
    if isinstance(takes, tuple):
        value = _text(raw)
        if value not in takes:
            raise fail(f"{where} {str(raw)!r} is not {' or '.join(takes)}", *at)
        return value
    if takes in ("arcana", "stake_types"):
        choices = MAJOR_ARCANA if takes == "arcana" else STAKE_TYPES
        items = raw if isinstance(raw, list) else [raw]
        out = []
        for item in items:
            value = _text(item)
            if value not in choices:
                raise fail(f"{where} {str(item)!r} is not {', '.join(choices)}", *at)
            if value not in out:
                out.append(value)
        return out
    if takes == "text":
        value = _text(raw)
        if not value:
            raise fail(f"{where} must be the card's words", *at)
        return value
    number = _native(raw)
    low = {"count": 1, "count0": 0, "signed": -20}[takes]
    ok = isinstance(number, int) and not isinstance(number, bool) and low <= number <= 20
    if not ok or (takes == "signed" and number == 0):
        what = "a whole number, not 0" if takes == "signed" else f"a whole number from {low}"
        raise fail(f"{where} {str(raw)!r} is not {what}", *at)
    return number


def ability_of(data: Mapping[str, Any]) -> Ability:
    """The rules' ``Ability`` from a checked ability mapping: effects in the order written,
    each with every field (defaults filled, lists as tuples, ``args`` sorted by name)."""
    effects = []
    conditions = []
    for name, fields in data.items():
        if name in CONDITION_CHOICES:
            conditions.append((name, str(fields)))
        elif name in EFFECT_FIELDS:
            args = {}
            for field, (_, default) in EFFECT_FIELDS[name].items():
                value = (fields or {}).get(field, default)
                args[field] = tuple(value) if isinstance(value, list) else value
            effects.append(Effect(name, tuple(sorted(args.items()))))
    text = str(data.get("text") or "")
    manual = next((e for e in effects if e.kind == "manual"), None)
    if not text and manual is not None:
        text = str(manual.get("text") or "")
    return Ability(str(data["when"]), tuple(effects), tuple(conditions), text)
