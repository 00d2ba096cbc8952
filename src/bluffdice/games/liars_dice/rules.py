"""Liar's Dice (single hand, Dudo) rule sets: every variant is one field of `LiarsDiceRules`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from bluffdice.games.base import RuleError, Scoring
from bluffdice.games.liars_dice.bids import BidLadder
from bluffdice.games.liars_dice.dice import RulesValue
from bluffdice.games.rulestring import option

RAISE_RULES: dict[str, str] = {
    "reset-face": "a higher quantity of any face, or the same quantity of a higher face "
    "(rule 1; OpenSpiel's reset-face)",
    "reset-quantity": "a higher quantity of the same face, or any quantity of a higher face "
    "(rule 2; OpenSpiel's reset-quantity)",
    "strict": "a higher quantity of the same face, or the same quantity of a higher face, "
    "never both at once (rule 3, the strictest)",
    "no-lowering": "neither quantity nor face may go down and at least one goes up "
    "(rule 3 read loosely: raising both at once is allowed)",
}


ONES_BIDS = ("off", "on", "plain")


@dataclass(frozen=True)
class LiarsDiceRules(RulesValue):
    """One single-hand rule set. The defaults are the game of docs/rules/liars-dice.md."""

    game_name: ClassVar[str] = "liars-dice"

    dice: int = option(5, "dice each player starts with", minimum=1, maximum=10)
    faces: int = option(
        6, "faces of each die, numbered 1 to faces (small dice for solvers)", minimum=2, maximum=9
    )
    wild: str = option(
        "ones",
        "which face is wild, counting as the face of the bid",
        choices={
            "ones": "ones are wild (the traditional rule)",
            "off": "no face is wild; a one is an ordinary, lowest face",
            "highest": "the highest face is wild (OpenSpiel's liars_dice: sixes)",
        },
    )
    raise_rule: str = option(
        "reset-face", "what a raise must do to the last bid", key="raise", choices=RAISE_RULES
    )
    ones_bids: str = option(
        "off",
        "with wild ones, whether ones may be bid, and how",
        choices={
            "off": "ones are wild only and cannot be bid",
            "on": "ones may be bid (Dudo): from a bid of q to ones needs at least half of q "
            "(rounded up) ones, from q ones back to another face needs 2q+1; a round may "
            "not open on ones",
            "plain": "ones may be bid as the lowest face, ranked as any other (no halving or "
            "doubling); a bid on ones counts the ones alone",
        },
    )
    calza: bool = option(
        False,
        "instead of raising or calling liar, claim the last bid is exactly right: if so the "
        "caller wins a die back (up to the starting number), else loses one",
    )
    palifico: bool = option(
        False,
        "a player who first drops to one die (3 or more players left) opens a palifico "
        "round: ones are not wild, ones may be bid and the opening face cannot change",
    )
    single_round: bool = option(
        False,
        "the game ends after the first challenge or calza: the round's loser pays 1 (the "
        "winners share it); for solvers",
    )
    start: str = option(
        "random",
        "who opens the first round",
        choices={
            "random": "a seat drawn at random (a chance outcome)",
            "first-seat": "seat 0 (as OpenSpiel: player 0 bids first)",
        },
    )
    cups: tuple[int, ...] = option(
        (),
        "unequal cups for a single-round game: the dice of each seat in seat order, e.g. "
        "3:2 (seat 0 holds 3 dice, seat 1 holds 2); dice is the largest; empty: every "
        "seat holds dice",
        minimum=1,
        maximum=10,
        written_at_default=False,
    )

    def __post_init__(self) -> None:
        if self.ones_bids not in ONES_BIDS:  # a bool, as the option was before plain
            raise RuleError(f"ones_bids is one of {', '.join(ONES_BIDS)}, not {self.ones_bids!r}")
        if self.ones_bids != "off" and self.wild != "ones":
            raise RuleError.said("rule.ld.onesBids", value=self.ones_bids)
        if self.cups:
            written = ":".join(map(str, self.cups))
            if len(self.cups) < 2:
                raise RuleError.said("rule.ld.cupsCount", cups=written)
            if not self.single_round:
                raise RuleError.said("rule.ld.cupsSingleRound")
            if self.dice != max(self.cups):
                raise RuleError.said("rule.ld.cupsDice", cups=written, largest=max(self.cups))

    @staticmethod
    def implied_changes(changes: dict[str, object]) -> dict[str, object]:
        """`cups=3:2` alone sets dice to the largest cup, as the option says."""
        cups = changes.get("cups")
        if isinstance(cups, tuple) and cups and "dice" not in changes:
            return {**changes, "dice": max(cups)}
        return changes

    def starting_cups(self, players: int) -> tuple[int, ...]:
        """The dice of each seat in the first round; RuleError when `cups` names another
        number of seats."""
        if not self.cups:
            return (self.dice,) * players
        if len(self.cups) != players:
            raise RuleError(
                f"liars-dice option cups={':'.join(map(str, self.cups))} names "
                f"{len(self.cups)} seats, but the table seats {players}"
            )
        return self.cups

    def scoring(self) -> Scoring:
        return Scoring(left="dice", count_losses=False)

    @cached_property
    def ladder(self) -> BidLadder:
        """The precomputed bid tables of this rule set (see `bids.py`)."""
        return BidLadder(self)


DEFAULT = LiarsDiceRules()

PRESETS: dict[str, LiarsDiceRules] = {
    "dudo": LiarsDiceRules(ones_bids="on"),
    "perudo": LiarsDiceRules(ones_bids="on", calza=True, palifico=True),
    "dudo-single-round": LiarsDiceRules(ones_bids="on", single_round=True),
    "openspiel": LiarsDiceRules(
        dice=1, wild="highest", raise_rule="reset-face", single_round=True, start="first-seat"
    ),
}

PRESET_DOCS: dict[str, str] = {
    "dudo": "classic Dudo: 5 dice, wild ones that may also be bid (half the quantity), "
    "any higher quantity or the same quantity of a higher face",
    "perudo": "dudo plus calza (exact call) and palifico rounds",
    "dudo-single-round": "dudo, but the game ends at the first challenge (for solvers)",
    "openspiel": "OpenSpiel's liars_dice defaults: 1 die each, sixes wild, reset-face bidding, "
    "player 0 bids first, one challenge ends the game (+1 / -1)",
}
