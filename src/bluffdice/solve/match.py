"""A whole heads-up Mia match with lives, solved as a stochastic game over the lives.

A match state is (lives of the player who opens the next round, lives of the other).
Every round ends with a loss of one or two lives (under `pass_limit` the passes cannot go
on for ever, so no round is drawn), so the states form a ladder: each round leads to a
state with fewer lives in all. The match is therefore solved exactly from the bottom up,
with no iteration to a fixed point: the round at state (a, b) is the solved round game
whose ends pay, instead of ±1, the match value of the state they lead to (or ±1 where a
player has no lives left). Who opens the next round follows the engine: the challenger
after a caught bluff, the announcer after a challenge that fails (the next player after
the loser, heads-up), the loser after a round that involves Mia (`mia_starter=loser`).

Values are player 0's expected match result (+1 a win, −1 a loss) with player 0 opening
the round; the chance to win is (1 + value) / 2.

Exploitability of the whole match: against the equilibrium strategies of every state,
each player's best response is computed state by state from the bottom up, each round's
ends paying the best responder's own continuation values (their best response over the
rest of the match). NashConv at a state is the sum of the two best-response values, and
exploitability half of it, as for a single round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bluffdice.games.base import RuleError
from bluffdice.games.mia.state import (
    BEAT_FAILED,
    CAUGHT_BLUFFING,
    GAVE_UP,
    LIED_ABOUT_MIA,
    MIA_BEATEN,
    MIA_FOUND,
    SEE_FAILED,
    SEE_FAILED_MIA,
    TRUE_MIA,
)
from bluffdice.solve import mia
from bluffdice.solve.cfr import Solver, evaluate, run
from bluffdice.solve.tree import FloatArray, PublicGame

MIA_REASONS = frozenset(
    {SEE_FAILED_MIA, GAVE_UP, MIA_FOUND, LIED_ABOUT_MIA, TRUE_MIA, BEAT_FAILED, MIA_BEATEN}
)
"""Penalty reasons that involve Mia (they cost 2 lives under mia_doubled)."""

WINNER_STARTS = frozenset({CAUGHT_BLUFFING, SEE_FAILED, SEE_FAILED_MIA})
"""Heads-up, after these the round's winner opens the next one; TRUE_MIA (Mia shown at
once) lets the player after the announcer, the loser, open."""

DEFAULT_PASS_LIMIT = 1

State = tuple[int, int]


@dataclass(frozen=True)
class MatchSpec:
    """What shapes a heads-up match: the round, the lives, what a loss costs."""

    round: mia.MiaRoundSpec
    lives: int
    mia_doubled: bool
    mia_starter: str

    def cost(self, reason: str) -> int:
        """Lives a loss for `reason` costs (as the engine's `_penalty`)."""
        if reason == MIA_FOUND or (self.mia_doubled and reason in MIA_REASONS):
            return 2
        return 1

    def loser_opens(self, reason: str) -> bool:
        if reason in WINNER_STARTS:
            return False
        if reason == TRUE_MIA:
            return True
        return self.mia_starter == "loser"


def match_rules(rules: Any) -> Any:
    """`rules` with a pass limit where the pass is on and unlimited (the match needs
    one: see docs/rules/mia.md); RuleError for rules whose match the solver does not take."""
    if rules.mode != "lives":
        raise RuleError(
            f"a match is solved in lives mode only, not mode={rules.mode} (rounds there are "
            "independent: solve the round)"
        )
    if rules.lives > 9:
        raise RuleError(f"the match table is solved for 1 to 9 lives, not {rules.lives}")
    if rules.pass_allowed and rules.pass_limit == 0:
        rules = replace(rules, pass_limit=DEFAULT_PASS_LIMIT)
    return rules


def spec_from_rules(rules: Any) -> MatchSpec:
    rules = match_rules(rules)
    base = mia.spec_from_rules(rules, pass_cap=rules.pass_limit, at_cap="forced")
    return MatchSpec(
        round=base,
        lives=rules.lives,
        mia_doubled=rules.mia_doubled,
        mia_starter=rules.mia_starter,
    )


class MatchStakes:
    """The ends of the round at state (a, b) paid by continuation values.

    `opener_value(x, y)` is what the player who opens the next round (holding x lives,
    the other y) gets from there on, from that player's point of view, for the player
    the stakes are measured for; `other_value(x, y)` what the other one gets."""

    def __init__(
        self,
        spec: MatchSpec,
        state: State,
        opener_value: Callable[[int, int], float],
        other_value: Callable[[int, int], float],
    ) -> None:
        self.spec = spec
        self.state = state
        self.opener_value = opener_value
        self.other_value = other_value

    def pay(self, loser: int, reason: str) -> float:
        lives = list(self.state)
        lives[loser] -= self.spec.cost(reason)
        if lives[loser] <= 0:
            return -1.0 if loser == 0 else 1.0
        opener = loser if self.spec.loser_opens(reason) else 1 - loser
        if opener == 0:
            return self.opener_value(lives[0], lives[1])
        return self.other_value(lives[1], lives[0])


@dataclass
class StateSolution:
    state: State
    value: float  # to the opener
    exploitability: float  # of this state's round, in its own game
    iterations: int
    seconds: float
    nodes: int
    strategy: tuple[FloatArray, FloatArray] | None = None
    br_opener: float = 0.0  # the opener's best-response value over the rest of the match
    br_other: float = 0.0

    @property
    def match_exploitability(self) -> float:
        return (self.br_opener + self.br_other) / 2


@dataclass
class MatchSolution:
    spec: MatchSpec
    rules_text: str
    states: dict[State, StateSolution] = field(default_factory=dict)

    def value(self, a: int, b: int) -> float:
        return self.states[(a, b)].value

    def win_probability(self, a: int, b: int) -> float:
        """Chance that the player to open, with `a` lives against `b`, wins the match."""
        return (1 + self.value(a, b)) / 2

    @property
    def exploitability(self) -> float:
        return max(s.match_exploitability for s in self.states.values())

    def to_json(self) -> dict[str, Any]:
        n = self.spec.lives
        return {
            "rules": self.rules_text,
            "round": self.spec.round.describe(),
            "lives": n,
            "exploitability": self.exploitability,
            "win_probability": [
                [self.win_probability(a, b) for b in range(1, n + 1)] for a in range(1, n + 1)
            ],
            "states": [
                {
                    "opener_lives": s.state[0],
                    "other_lives": s.state[1],
                    "value": s.value,
                    "win_probability": (1 + s.value) / 2,
                    "round_exploitability": s.exploitability,
                    "match_exploitability": s.match_exploitability,
                    "best_response_opener": s.br_opener,
                    "best_response_other": s.br_other,
                    "iterations": s.iterations,
                    "seconds": round(s.seconds, 3),
                    "nodes": s.nodes,
                }
                for s in self.states.values()
            ],
        }


def states(lives: int) -> list[State]:
    """Every (opener, other) lives state, fewest lives in all first."""
    out = [(a, b) for a in range(1, lives + 1) for b in range(1, lives + 1)]
    return sorted(out, key=lambda s: (s[0] + s[1], s))


def build_round(spec: MatchSpec, stakes: mia.Stakes) -> PublicGame:
    return mia.build(spec.round, stakes=stakes)


def solve(
    spec: MatchSpec,
    rules_text: str,
    target: float = 1e-4,
    max_iterations: int = 20_000,
    on_state: Callable[[StateSolution], None] | None = None,
) -> MatchSolution:
    """Solve every lives state of the match, fewest lives first, then measure how far
    the whole match strategy is from an equilibrium."""
    import time

    solution = MatchSolution(spec, rules_text)
    value: dict[State, float] = {}
    br_open: dict[State, float] = {}
    br_other: dict[State, float] = {}

    def v_open(x: int, y: int) -> float:
        return value[(x, y)]

    def v_other(x: int, y: int) -> float:
        return -value[(x, y)]

    for state in states(spec.lives):
        game = build_round(spec, MatchStakes(spec, state, v_open, v_other))
        solver = Solver(game, "cfr+")
        started = time.perf_counter()
        history = run(solver, target=target, max_iterations=max_iterations)
        seconds = time.perf_counter() - started
        last = history[-1]
        value[state] = last.value
        strategy = solver.average_strategy()
        br0, br1 = _best_responses(spec, state, strategy, br_open, br_other)
        br_open[state], br_other[state] = br0, br1
        solved = StateSolution(
            state=state,
            value=last.value,
            exploitability=last.exploitability,
            iterations=last.iterations,
            seconds=seconds,
            nodes=game.n_nodes,
            strategy=strategy,
            br_opener=br0,
            br_other=br1,
        )
        solution.states[state] = solved
        if on_state is not None:
            on_state(solved)
    return solution


def _best_responses(
    spec: MatchSpec,
    state: State,
    strategy: tuple[FloatArray, FloatArray],
    br_open: dict[State, float],
    br_other: dict[State, float],
) -> tuple[float, float]:
    """Each player's best response to `strategy` in the round at `state`, over the rest
    of the match (the states with fewer lives, already in `br_open` and `br_other`)."""
    # Player 0 (the opener here) is paid by their own best-response continuation, as is
    # player 1.
    as_opener = build_round(
        spec,
        MatchStakes(spec, state, lambda x, y: br_open[(x, y)], lambda x, y: br_other[(x, y)]),
    )
    # Player 1 best-responds in a game paying player 0 the negation of player 1's own
    # continuation: the other's after player 0 opens next, the opener's otherwise.
    as_other = build_round(
        spec,
        MatchStakes(spec, state, lambda x, y: -br_other[(x, y)], lambda x, y: -br_open[(x, y)]),
    )
    return evaluate(as_opener, strategy).br_values[0], evaluate(as_other, strategy).br_values[1]
