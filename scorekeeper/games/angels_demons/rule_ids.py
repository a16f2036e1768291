"""Every rule of Angels & Demons' players' reference (docs/rules/angels-and-demons.md), declared
once: the ids a refusal can name, the rules the table carries out itself, and the rules no
reader can see (see ``scorekeeper.core.rule_ids``; tests/games/test_rule_registry.py holds the
code and the reference to this list).

R-TURN-3's two options are "a) lay a set" and "b) discard", as the game's spec names them; they
are one rule with one id, so the code cites "R-TURN-3 option a" in prose and refuses with
"R-TURN-3".
"""

from __future__ import annotations

from scorekeeper.core.rule_ids import RuleRegistry

RULES = RuleRegistry(
    refusals={
        "D-4": "three cards laid together that are neither a group nor a run",
        "R-SETUP-4": "a play before the talon holds N+1 cards, or a card after the round ended",
        "R-TURN-1": "a play by the active seat before it takes, or a take out of turn",
        "R-TURN-3": "a set or discard out of turn, before taking, or a second one in a turn",
        "R-TURN-5": "a waiting seat changing its hand other than by discarding what it took",
        "R-CLAIM-1": "a claim of any card but the last discard, or after the next take",
        "R-CLAIM-2": "a claim to go out by a seat that was not waiting or that the card does "
        "not complete",
        "R-CLAIM-3": 'a "mine!" when someone can go out, or without two cards making a set',
        "R-EXH-2": "a talon refill from a deck too short for it: the round ended",
        "R-OUT-1": "a go-out that is not eight hand cards making one pair and two sets",
        "R-OUT-2": "a laid card put on the going-out pad",
        "R-SCORE-3": "a flip that is not the deck's top card after a go-out",
        "R-ADV-4": "going out on a discard whose twin lies in the claimer's own discard row",
        "R-ADV-6": "a play while a seat may first show a conditional item for the item win",
    },
    applied={
        "D-1": "the table's hand checks treat same-kind, same-name cards as a pair",
        "D-2": "the table's hand checks find groups of three of one identity",
        "D-3": "the table's hand checks find runs of three numbers of one kind, no wrap",
        "D-5": "the table checks a going-out hand splits into one pair and two sets",
        "D-6": "the table knows which cards would complete a seat's seven",
        "D-7": "the table keeps each seat's laid sets from the meld readers",
        "D-8": "the table keeps each seat's discard row from the discard readers",
        "D-9": "the table keeps the talon from its reader and counts the deck",
        "D-10": "the table passes play left and orders claims from the discarder's left",
        "D-11": "the table sizes the talon, targets and rounds by the number of seats",
        "R-SETUP-1": "the table starts round 1 at the chosen seat and moves the start left",
        "R-SETUP-5": "the table starts every score at 0 and carries scores over",
        "R-TURN-2": "the table accepts a go-out after a take; going out is never required",
        "R-TURN-4": "the table counts each hand and says when a seat can no longer go out",
        "R-TURN-6": "the table moves the turn to the left neighbour, claims or not",
        "R-CLAIM-4": "the table takes a claimed card out of the discarder's row for good",
        "R-EXH-1": 'the table counts what each refill, set draw and "mine!" takes',
        "R-EXH-3": "the table plays on with an empty deck after an exact draw",
        "R-EXH-4": "the table stops the flips when the deck is empty, not the round",
        "R-OUT-3": "the table ends the round when a go-out is accepted",
        "R-SCORE-1": "the table adds the points for going out",
        "R-SCORE-2": "the table adds the red cards and plain items in the basic game",
        "R-SCORE-4": "the table adds the gain to the scorer's total",
        "R-END-1": "the table ends the game at the target score or after the last round",
        "R-END-2": "the table names the winner, or the tie, as the table option says",
        "R-END-3": "the table ends the game at an item win",
        "R-ADV-1": "the table scores each red card by its printed condition",
        "R-ADV-2": "the table scores plain items and gives the conditional item nothing",
        "R-ADV-3": "the table adds going out, red cards, items and flips",
        "R-ADV-5": "the table takes the gain off the discarder's score, never below 0",
        "A-3": "the table's hand checks never make a run of items",
        "A-5": "the table asks how many cards were drawn after a set, or draws 2",
        "A-6": "the table gives 1 point for going out unless the option says otherwise",
        "A-7": "the table scores red cards and plain items 1 each in the basic game",
        "A-10": "the table lets a red 1 or 7 meet its own condition unless the option says no",
        "A-12": "the table checks the item win when a set is laid and at a go-out",
        "A-15": "the table uses the target scores, round counts and tie rule of R-END",
    },
    not_observable={
        "R-SETUP-2": "the shuffle happens in the dealer's hands: no reader sees the deck",
        "R-SETUP-3": "hands are dealt face down and held: no reader sees a hand, so the table "
        "only counts the cards",
    },
)
