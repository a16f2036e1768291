"""Angels & Demons in plain words: cards, zones, prompts and answers as players say them.

Every line a person reads names a card by what is printed on it ("the red angel 4"), never by
its id, and a zone by where it lies on the table ("Ann's discard row"), never by its zone id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.angels_demons.cards import describe

# What each prompt asks, as a noun phrase ("nobody is asked about <this> now").
PROMPT_WORDS = {
    "draw_count": "how many cards were drawn after laying a set",
    "claim": "claiming the discard",
    "claimant": "who goes out on the claimed card",
    "waiting": "declaring 'waiting for one card'",
    "show_item": "showing a conditional item",
}


def card(piece: str) -> str:
    """A card or token with its article: "the red angel 4", "the waiting token 2"."""
    return f"the {describe(piece)}"


def cards(pieces: Iterable[str]) -> str:
    """Several cards in a row: "red angel 4, black human 2 ×2 and plain item T2" (copies that
    read the same are counted, in the order they first come)."""
    counts: dict[str, int] = {}
    for p in pieces:
        name = describe(p)
        counts[name] = counts.get(name, 0) + 1
    names = [name if k == 1 else f"{name} ×{k}" for name, k in counts.items()]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def zone(name: str) -> str:
    """A zone as the players see it: "the talon", "{seat:2}'s sets", "the going-out pad"."""
    kind, _, seat = name.partition(":")
    if seat.isdigit():
        owner = seat_ref(int(seat))
        return {
            "meld": f"{owner}'s sets",
            "discard": f"{owner}'s discard row",
            "wait": f"{owner}'s waiting spot",
        }.get(kind, name)
    return {"talon": "the talon", "out": "the going-out pad", "flip": "the flip pad"}.get(
        name, name
    )


# Each zone kind as printed on its pad of a zone mat (scorekeeper/mats.py), without the seat.
MAT_WORDS = {
    "talon": "Talon",
    "meld": "Sets laid",
    "discard": "Discards",
    "out": "Going out",
    "flip": "Flip",
    "wait": "Waiting token",
}

# A seat's zone kind as put-back instructions and the organiser's log lines name it after the
# seat's name ("Ann's discard pile").
OWNED_WORDS = {"meld": "melds", "discard": "discard pile", "wait": "waiting spot"}


def mat_zone(name: str) -> str:
    """A zone as printed on its mat pad, without its seat: ``discard:2`` -> "Discards"."""
    kind = name.split(":", 1)[0]
    return MAT_WORDS.get(kind, kind.replace("_", " ").replace("-", " ").capitalize())


def owned_zone(name: str, names: Sequence[str]) -> str:
    """A zone with its seat's name, for put-back instructions: "Ann's discard pile", "the
    talon". ``names`` are the players' names."""
    kind, _, arg = name.partition(":")
    if arg.isdigit() and int(arg) < len(names):
        return f"{names[int(arg)]}'s {OWNED_WORDS.get(kind, kind.replace('_', ' '))}"
    return f"the {kind.replace('_', ' ')}" + (f" {arg}" if arg else "")


def seats(numbers: Iterable[int]) -> str:
    """Seats by name, joined with "or": "{seat:2} or {seat:0}"."""
    refs = [seat_ref(s) for s in numbers]
    return f"{', '.join(refs[:-1])} or {refs[-1]}" if len(refs) > 1 else "".join(refs)


def answer(prompt: str, option: str) -> str:
    """One answer to a prompt in words, as a button would say it."""
    if prompt == "draw_count" and option.isdigit():
        return f"drew {plural(int(option), 'card')}"
    if prompt == "claimant" and option.isdigit():
        return seat_ref(int(option))
    return {
        ("claim", "pass"): "nobody claims it",
        ("waiting", "yes"): "yes, waiting",
        ("show_item", "none"): "no item to show",
    }.get((prompt, option), option)


def answers(prompt: str, options: Iterable[str]) -> str:
    """The legal answers of a prompt in words, joined with "or"."""
    words = [answer(prompt, o) for o in options]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"
