"""`best`: the strongest method this project has for the Liar's Dice table at hand.

At every move it looks at the table (players with dice, their cups, the rules) and
plays, in this order:

1. `exact`: two players under rules the lean solver takes
   (`bluffdice.solve.lean_policy`), their cups equal or not (2 dice against 1): the
   stored equilibrium, shipped or cached. In a single-round game (the game the policy
   solves) a missing policy of a cheap game (2 dice each, six faces, wild ones: about
   three minutes, 0.6 GB; 2 against 1 or plain ones bids at one die: seconds) is solved
   on first use with a progress bar on stderr and cached; in a game of many rounds only
   a policy already at hand is played, so no table waits for a solve in mid-game.
2. `cfr`: two players and a public tree small enough for the `cfr` bot's policy
   (rules the lean solver does not take, such as Dudo's bids on ones, at one die).
3. A heuristic, by the measurements of docs/strength.md: `odds` heads-up when a cup
   holds one die (`bayes` is the weakest bot there), else `bayes` (the strongest bot
   at three dice and more, and at every table of three players and more).

It says which it plays: `stand_in` names the heuristic or `cfr` (the tournament prints
it), `method` names the choice for a view, and `moves` counts the moves by method.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bluffdice.bots.base import Bot, load_bot, register_bot
from bluffdice.bots.cfr import CfrBot, _sample
from bluffdice.games.base import BluffdiceError, Event
from bluffdice.games.liars_dice.actions import LiarsDiceAction, parse_action
from bluffdice.games.liars_dice.state import LiarsDiceView
from bluffdice.games.registry import parse_rules

if TYPE_CHECKING:  # the solver (numpy) loads when a policy is first looked for
    from bluffdice.solve.liars_dice import DudoSpec

GAME = "liars-dice"
EXACT = "exact"


@lru_cache(maxsize=64)
def spec_for(rules_text: str, cups: tuple[int, int]) -> tuple[DudoSpec | None, bool]:
    """(the solver's spec of a heads-up round under these rules whose first bidder holds
    `cups[0]` dice and the other `cups[1]`, or None where the solver has no such game;
    whether the rules play a single round)."""
    from bluffdice.solve.liars_dice import spec_of

    try:
        rules = parse_rules(rules_text, game=GAME)
        if rules.calza or rules.palifico:
            return None, False
        spec = spec_of(rules, cups)
    except BluffdiceError:
        return None, False
    return spec, bool(rules.single_round)


def table_cups(view: LiarsDiceView) -> tuple[int, ...]:
    """The cups of the players with dice, in seat order; heads-up, the round's first
    bidder's first, as the exact policy numbers its players (player 0 opens)."""
    cups = tuple(d for d in view.dice if d > 0)
    if len(cups) != 2 or view.player is None:
        return cups
    opener = view.bids[0].player if view.bids else view.player
    other = next(i for i, d in enumerate(view.dice) if d > 0 and i != opener)
    return view.dice[opener], view.dice[other]


def heuristic(cups: Sequence[int]) -> str:
    """The heuristic bot for cups of these sizes (the players with dice)."""
    return "odds" if len(cups) == 2 and min(cups) == 1 else "bayes"


def choose(rules_text: str, cups: Sequence[int], solve: bool = True) -> str:
    """The method for a table whose players with dice hold `cups`: `exact`, `cfr` or a
    heuristic bot's name (heads-up, `cups` is the round's first bidder's first). With
    `solve`, a cheap single-round game counts as exact (it is solved on first use);
    without, only a policy at hand does."""
    if len(cups) == 2:
        spec, single = spec_for(rules_text, (cups[0], cups[1]))
        if spec is not None:
            from bluffdice.solve import lean_policy

            if lean_policy.find(spec) is not None:
                return EXACT
            if solve and single and lean_policy.cheap(spec):
                return EXACT
            if cups[0] == cups[1]:  # the cfr bot's trees have equal cups
                rules = replace(parse_rules(rules_text, game=GAME), dice=cups[0])
                if CfrBot.stand_in(rules, 2) is None:
                    return "cfr"
    return heuristic(cups)


@register_bot
class BestBot(Bot[LiarsDiceView, LiarsDiceAction]):
    """Plays an exact policy where one exists or is cheap to solve, else the best
    heuristic for the table."""

    name = "best"
    games = (GAME,)
    description = (
        "the strongest method for the table: an exact equilibrium heads-up where one is "
        "solved (or cheap to solve), else bayes (odds heads-up at one die)"
    )
    in_default_mix = False
    """It plays the other bots' methods: a tournament of every bot seats it on request."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._bots: dict[str, Bot] = {}
        self.moves: Counter[str] = Counter()

    @classmethod
    def stand_in(cls, rules: Any, players: int) -> str | None:
        """The bot that plays a table of `rules` for it from the start (None: its own
        exact policy, solved here when it is cheap and missing, so that a tournament's
        workers find it cached)."""
        from bluffdice.games.registry import rules_string

        text = rules_string(rules)
        cups = rules.starting_cups(players)
        method = choose(text, cups)
        if method != EXACT:
            return method
        from bluffdice.solve import lean_policy

        # Seat 0 opens at start=first-seat; elsewhere either cup may bid first.
        orders = {cups} if rules.start == "first-seat" else {cups, cups[::-1]}
        for first, second in orders:
            spec, _ = spec_for(text, (first, second))
            assert spec is not None  # exact means the spec exists
            lean_policy.obtain(spec, text)
        return None

    def method(self, view: LiarsDiceView) -> str:
        """What it plays at this view: `exact`, `cfr`, `odds` or `bayes`."""
        return choose(view.rules, table_cups(view))

    def observe(self, events: Sequence[Event]) -> None:
        """Every bot it has played through hears what it may see (bayes learns from it)."""
        for bot in self._bots.values():
            bot.observe(events)

    def act(self, view: LiarsDiceView) -> LiarsDiceAction:
        method = self.method(view)
        if method == EXACT:
            action = self._exact(view)
            if action is not None:
                self.moves[EXACT] += 1
                return action
            method = heuristic([d for d in view.dice if d > 0])
        self.moves[method] += 1
        found: LiarsDiceAction = self._bot(method).act(view)
        return found

    def _bot(self, name: str) -> Bot:
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = load_bot(name, GAME, self.rng)
        return bot

    def _exact(self, view: LiarsDiceView) -> LiarsDiceAction | None:
        """A move sampled from the exact policy, or None where it has none to give."""
        cups = table_cups(view)
        if view.my_dice is None or len(cups) != 2:
            return None
        spec, _ = spec_for(view.rules, (cups[0], cups[1]))
        if spec is None:
            return None
        from bluffdice.solve import lean_policy

        policy = lean_policy.obtain(spec, view.rules)
        if policy is None:
            return None
        dist = policy.distribution([(b.quantity, b.face) for b in view.bids], view.my_dice)
        if not dist:
            return None
        action = parse_action(_sample(dist, self.rng))
        return action if action in view.legal_actions else None
