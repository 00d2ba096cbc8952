"""How big OpenSpiel's game tree of a heads-up `maexchen` round is: the number that
decides whether a tree-walking algorithm (CFR, NashConv, best responses) can run on it."""

from __future__ import annotations

from functools import cache


def maexchen_terminal_histories(values: int, floor: int) -> int:
    """Terminal histories of a maexchen round (no pass, a Mia shown at once) after a roll
    that must beat value code `floor` (-1: none), with `values` values coded worst first
    and Mia last: the holder sees one of 21 values and announces any higher one; a Mia
    ends the round at once, anything else is challenged (an end) or believed (the
    answerer rolls, and the same again)."""

    @cache
    def after_roll(f: int) -> int:
        return 21 * sum(1 if v == values - 1 else 1 + after_roll(v) for v in range(f + 1, values))

    return after_roll(floor)
