"""Mia rule sets: every variant of docs/rules/mia.md is one field of `MiaRules`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from bluffdice.games.base import RuleError, Scoring
from bluffdice.games.mia.values import Ranking
from bluffdice.games.rulestring import format_rules, option


@dataclass(frozen=True)
class MiaRules:
    """One Mia rule set. The defaults are the `classic` preset (seeds 000 and 002)."""

    game_name: ClassVar[str] = "mia"

    lives: int = option(6, "lives each player starts with (lives mode)", minimum=1, maximum=99)
    doubles_ascending: bool = option(
        False, "11 is the best double and 66 the worst; off: 66 is best"
    )
    little_mia: bool = option(
        False, "31 is the second best value, right under 21 (Danish 'little Meyer')"
    )
    halbmeier: bool = option(
        False, "42 ranks right under Mia (and under little Mia if that is on): German house rule"
    )
    pips: bool = option(
        False,
        "values that are neither Mia nor a double count only their sum of pips: 62 and 53 tie",
    )
    joker32: bool = option(
        False,
        "32 is 'cheers' (Danish skål): a player who looked and holds 32 may show it, and the "
        "round starts again with no penalty",
    )
    pass_allowed: bool = option(
        True,
        "the receiver may pass the cup on without rolling, announcing the same or a higher "
        "value, and takes over the responsibility for it",
        key="pass",
    )
    pass_limit: int = option(
        0,
        "at most this many passes in a row between two rolls; after them the receiver must "
        "believe (roll) or challenge. 0: no limit",
        minimum=0,
        maximum=99,
    )
    relaxed_raise: bool = option(
        False, "an announcement after a roll need only equal the last one; forbids the pass"
    )
    blind: bool = option(True, "a player who rolls may announce without looking at the dice")
    mia_doubled: bool = option(
        False,
        "every loss that involves Mia costs 2 lives instead of 1 (giving up, a lie about Mia "
        "caught, a challenge that finds a real 21)",
    )
    beat_mia: bool = option(
        False,
        "'the roll must be beaten': the receiver of a Mia announcement may roll openly "
        "instead; a 21 beats it and the announcer loses, anything else loses as giving up",
    )
    mia_end: str = option(
        "receiver",
        "how a Mia announcement ends the round",
        choices={
            "receiver": "the next player gives up (1 life) or looks (Mia found: 2 lives, "
            "else the announcer loses 1)",
            "instant": "the dice are shown at once: a true Mia costs every other player 1, "
            "a false one costs the announcer 1 (Maexchen bot contests)",
        },
    )
    mia_starter: str = option(
        "loser",
        "who starts the round after a Mia round",
        choices={
            "loser": "the player who lost (as on Board Game Arena)",
            "next": "the next living player after the loser",
        },
    )
    end: str = option(
        "last_standing",
        "when a lives game ends",
        choices={
            "last_standing": "players with no lives drop out; the last one left wins",
            "first_out": "the first player with no lives left loses and the game is over",
        },
    )
    mode: str = option(
        "lives",
        "what a lost round costs and how the game is scored",
        choices={
            "lives": "lives are lost and players are eliminated",
            "drinking": "sips are drunk instead, a loss that involves Mia is a whole "
            "(stiff) drink; no one is eliminated; fewest drinks, then sips, wins",
            "score": "every round joined scores +1 and every round lost -1 (Maexchen "
            "contests); highest score wins",
        },
    )
    rounds: int = option(
        10, "rounds in a game in drinking and score mode", minimum=1, maximum=10000
    )

    def __post_init__(self) -> None:
        if self.relaxed_raise and self.pass_allowed:
            raise RuleError.said("rule.mia.relaxedPass")

    @staticmethod
    def implied_changes(changes: dict[str, object]) -> dict[str, object]:
        """`relaxed_raise=on` alone also turns the pass off, as the rule says."""
        if changes.get("relaxed_raise") is True and "pass_allowed" not in changes:
            return {**changes, "pass_allowed": False}
        return changes

    @cached_property
    def text(self) -> str:
        """The canonical rule string, e.g. `mia(lives=3,little_mia=on)`."""
        return format_rules(self.game_name, self)

    def scoring(self) -> Scoring:
        if self.mode == "lives":
            return Scoring(left="lives", count_losses=self.end == "first_out")
        return Scoring(left=None, count_losses=False)

    @cached_property
    def ranking(self) -> Ranking:
        return Ranking(
            doubles_ascending=self.doubles_ascending,
            little_mia=self.little_mia,
            halbmeier=self.halbmeier,
            pips=self.pips,
        )


CLASSIC = MiaRules()

PRESETS: dict[str, MiaRules] = {
    "classic": CLASSIC,
    "doubles-ascending": MiaRules(doubles_ascending=True),
    "meyer": MiaRules(little_mia=True, joker32=True),
    "maexchen": MiaRules(
        pass_allowed=False, blind=False, mia_end="instant", mode="score", rounds=10
    ),
    "drinking": MiaRules(mode="drinking", rounds=10),
}

PRESET_DOCS: dict[str, str] = {
    "classic": "the default: 6 lives, 66 the best double, blind pass allowed, last standing",
    "doubles-ascending": "classic, but 11 is the best double",
    "meyer": "Danish Meyer: little Meyer (31) second best and 32 is 'cheers'",
    "maexchen": "the bot-contest rules: no lives, +1 per round joined, -1 per round lost, "
    "every roll fresh and seen, no pass, Mia shown at once",
    "drinking": "sips instead of lives, a stiff drink for Mia losses, 10 rounds",
}
