"""Common hand (two-player poker dice) rule sets, and the tables each rule set plays by."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import ClassVar

from bluffdice.games.base import Scoring
from bluffdice.games.common_hand.actions import (
    Challenge,
    Claim,
    CommonHandAction,
    Reroll,
    claim_of,
)
from bluffdice.games.common_hand.hands import claim_keys, hand_key
from bluffdice.games.liars_dice.dice import RulesValue
from bluffdice.games.rulestring import option

_CHALLENGE = Challenge()


@dataclass(frozen=True)
class CommonHandRules(RulesValue):
    """One common-hand rule set; the defaults are documented in docs/rules/common-hand.md."""

    game_name: ClassVar[str] = "common-hand"

    lives: int = option(
        3,
        "rounds a player may lose; the first to lose them all loses the game",
        minimum=1,
        maximum=99,
    )
    straights: bool = option(
        True,
        "five faces in a row (9 to K, 10 to A) are a straight, between three of a kind "
        "and a full house; off: they are nothing",
    )
    reroll: bool = option(
        True,
        "instead of answering at once, a player may reroll some or all of their own "
        "dice (once a turn), then must name a higher hand",
    )
    start: str = option(
        "random",
        "who opens the first round",
        choices={
            "random": "a seat drawn at random (a chance outcome)",
            "first-seat": "seat 0",
        },
    )

    def scoring(self) -> Scoring:
        return Scoring(left="lives", count_losses=False)

    @cached_property
    def table(self) -> ClaimTable:
        return ClaimTable(self)


class ClaimTable:
    """The claims of a rule set, lowest first, and legal-action tables built on first use."""

    def __init__(self, rules: CommonHandRules) -> None:
        self.rules = rules
        self.claims: tuple[Claim, ...] = tuple(claim_of(k) for k in claim_keys(rules.straights))
        self.index: dict[Claim, int] = {c: i for i, c in enumerate(self.claims)}
        self._actions: dict[tuple[tuple[int, ...], int, bool], tuple[CommonHandAction, ...]] = {}
        self._sets: dict[tuple[tuple[int, ...], int, bool], frozenset[CommonHandAction]] = {}
        self._rerolls: dict[tuple[int, ...], tuple[Reroll, ...]] = {}

    def makes(self, hand: tuple[int, ...], claim: Claim) -> bool:
        """Whether five dice make at least the claimed hand."""
        return hand_key(hand, self.rules.straights) >= claim.key

    def best(self, hand: tuple[int, ...]) -> tuple[int, int, int]:
        return hand_key(hand, self.rules.straights)

    def rerolls(self, hand: tuple[int, ...]) -> tuple[Reroll, ...]:
        """Every non-empty choice of own dice to roll again, as sorted faces."""
        found = self._rerolls.get(hand)
        if found is None:
            counts = sorted(Counter(hand).items())
            choices = []
            for takes in product(*(range(n + 1) for _, n in counts)):
                dice = tuple(f for (f, _), k in zip(counts, takes, strict=True) for _ in range(k))
                if dice:
                    choices.append(Reroll(dice))
            found = self._rerolls[hand] = tuple(
                sorted(choices, key=lambda r: (len(r.dice), r.dice))
            )
        return found

    def legal_actions(
        self, hand: tuple[int, ...], last: int, must_claim: bool
    ) -> tuple[CommonHandAction, ...]:
        """Claims above claim index `last` (-1: none yet), then liar and rerolls when
        answering a claim (`must_claim`: after a reroll only a higher claim will do)."""
        key = (hand if (last >= 0 and not must_claim) else (), last, must_claim)
        found = self._actions.get(key)
        if found is None:
            actions: list[CommonHandAction] = list(self.claims[last + 1 :])
            if last >= 0 and not must_claim:
                actions.append(_CHALLENGE)
                if self.rules.reroll and last + 1 < len(self.claims):
                    actions.extend(self.rerolls(hand))
            found = self._actions[key] = tuple(actions)
            self._sets[key] = frozenset(found)
        return found

    def is_legal(self, hand: tuple[int, ...], last: int, must_claim: bool, action: object) -> bool:
        key = (hand if (last >= 0 and not must_claim) else (), last, must_claim)
        if key not in self._sets:
            self.legal_actions(hand, last, must_claim)
        return action in self._sets[key]


DEFAULT = CommonHandRules()

PRESETS: dict[str, CommonHandRules] = {
    "common-hand-round": CommonHandRules(lives=1),
}
PRESET_DOCS: dict[str, str] = {
    "common-hand-round": "one round decides the game (for solvers)",
}
