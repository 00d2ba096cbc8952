"""Small helpers every Mia bot uses to read its view.

They only read the view (rule string, legal actions, public calls): a bot built on them
sees exactly what a human at the table sees. Rules are parsed once per rule string.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from bluffdice.bots.base import Bot
from bluffdice.games.mia import Announce, MiaAction, MiaRules, MiaView, Pass
from bluffdice.games.mia.values import VALUES, Ranking, probability
from bluffdice.games.registry import parse_rules

MiaBot = Bot[MiaView, MiaAction]
"""The base of every Mia bot: mypy holds its `act` to Mia's views and actions."""


@lru_cache(maxsize=64)
def rules_of(text: str) -> MiaRules:
    rules: MiaRules = parse_rules(text, game="mia")
    return rules


def ranking_of(view: MiaView) -> Ranking:
    return rules_of(view.rules).ranking


def announcements(view: MiaView) -> list[int]:
    """The values this player may announce now, worst first (the engine's order)."""
    return [a.value for a in view.legal_actions if isinstance(a, Announce)]


def passes(view: MiaView) -> list[int]:
    """The values this player may pass with now, worst first; empty if passing is off."""
    return [a.value for a in view.legal_actions if isinstance(a, Pass)]


@lru_cache(maxsize=256)
def _reach(ranking: Ranking, value: int) -> Fraction:
    floor = ranking.rank(value)
    return sum((probability(v) for v in VALUES if ranking.rank(v) >= floor), Fraction(0))


def reach_chance(ranking: Ranking, value: int) -> Fraction:
    """The chance that a fresh roll is at least as good as `value` (ties count)."""
    return _reach(ranking, value)


def step_up(values: list[int], start: int, steps: int) -> int:
    """The value `steps` places above `start` in the worst-first list `values`, capped.

    `start` need not be in the list: counting begins at the first value not below it.
    """
    if not values:
        raise ValueError("no values to choose from")
    index = values.index(start) if start in values else 0
    return values[min(index + steps, len(values) - 1)]


def my_calls_this_round(view: MiaView) -> int:
    """How often this player already announced or passed in the current round."""
    return sum(1 for call in view.calls if call.player == view.player)
