"""King of the Elves (issue 13): the elf princes' journeys, planned and refereed card by card.

The table contract is docs/games/king-of-the-elves.md; the rules reference with every R-/G- id
is docs/rules/king-of-the-elves.md.
"""
