"""The whole heads-up match: every end of a round pays the continuation of the lives
state the rules engine leads to, one life each is the single round, and the solved match
table is an equilibrium with its exploitability measured."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from bluffdice.games.mia import FirstPlayer, Look, new_game
from bluffdice.games.registry import parse_rules
from bluffdice.solve import Solver, mia
from bluffdice.solve import match as m
from bluffdice.solve.tree import DECISION, TERMINAL


def _continuation(x: int, y: int) -> float:
    """Made-up, distinct continuation values: only the wiring is tested."""
    return round(0.9 * np.sin(3.1 * x + 1.7 * y + 0.3), 6)


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("classic(lives=4,pass_limit=1)", (2, 3)),
        ("classic(lives=4,pass_limit=1,mia_doubled=on,mia_end=instant)", (3, 2)),
        ("classic(lives=3,mia_starter=next,beat_mia=on)", (2, 2)),
        ("classic(lives=3,mia_end=instant,pass=off,mia_doubled=on)", (3, 3)),
    ],
)
def test_every_round_end_pays_what_the_engine_leads_to(text: str, state: tuple[int, int]) -> None:
    rules = m.match_rules(parse_rules(text, game="mia"))
    spec = m.spec_from_rules(rules)
    stakes = m.MatchStakes(spec, state, _continuation, lambda x, y: -_continuation(x, y))
    g = mia.build(spec.round, stakes=stakes)
    keys = {mia.key_text(g.info[n]): int(n) for n in np.flatnonzero(g.kind == DECISION)}
    terminal_index = {int(t): i for i, t in enumerate(g.terminals)}
    rng = random.Random(7)
    start = new_game(rules, 2).apply(FirstPlayer(0)).state
    lost0 = (rules.lives - state[0], rules.lives - state[1])
    start = msgspec.structs.replace(start, lost=lost0)
    ends = checked = 0
    for _ in range(150):
        s = start
        while True:
            player = s.current_player
            if player < 0:
                s = s.apply(rng.choice(s.chance_outcomes())[0]).state
                continue
            legal = list(s.legal_actions())
            if Look() in legal:
                s = s.apply(Look()).state
                continue
            view = s.view(player)
            if view.phase == "open":
                s = s.apply(legal[0]).state
                continue
            calls = [(c.player, c.kind, c.value) for c in view.calls]
            if view.phase == "hold":
                info = mia.hold_info(rules.ranking, calls, player, 0)
            else:
                info = mia.answer_info(rules.ranking, calls, 0)
            node = keys[mia.key_text(info)]
            mine = sorted(g.labels[c] for c in g.children(node))
            # The engine's pass_limit and the solver's forced cap allow the same moves.
            assert mine == sorted(str(a) for a in legal), (text, info)
            checked += 1
            action = rng.choice(legal)
            child = next(c for c in g.children(node) if g.labels[c] == str(action))
            dice = s.dice
            s = s.apply(action).state
            if g.kind[child] != TERMINAL:
                continue
            payoff = g.payoffs[g.terminal_payoff[terminal_index[int(child)]]]
            holder = info[0]
            hand = mia.HAND_INDEX[dice]
            paid = payoff[hand, 0] if holder == 0 else payoff[0, hand]
            if str(action) == "beat":  # an open roll decides: compare the expectation
                expected = sum(
                    float(pr) * _engine_pay(s.apply(o).state, rules.lives)
                    for o, pr in s.chance_outcomes()
                )
            else:
                expected = _engine_pay(s, rules.lives)
            assert paid == pytest.approx(expected, abs=1e-12), (text, info, str(action))
            ends += 1
            break
    assert checked > 300 and ends == 150


def _engine_pay(s, lives: int) -> float:
    """Player 0's continuation after the engine ended a round: the match result if it is
    over, else the made-up value of the lives state, seen from whoever opens next."""
    if s.is_terminal:
        return float(s.returns()[0])
    assert s.phase == "open" and not s.calls
    mine, theirs = lives - s.lost[0], lives - s.lost[1]
    return _continuation(mine, theirs) if s.turn == 0 else -_continuation(theirs, mine)


def test_with_one_life_each_the_match_is_the_single_round() -> None:
    rules = m.match_rules(parse_rules("classic(lives=1,pass_limit=1)", game="mia"))
    spec = m.spec_from_rules(rules)
    boom = lambda x, y: 5.0  # noqa: E731 - never used: every loss ends the match
    match_game = mia.build(spec.round, stakes=m.MatchStakes(spec, (1, 1), boom, boom))
    round_game = mia.build(spec.round)
    a, b = Solver(match_game), Solver(round_game)
    a.iterate(12)
    b.iterate(12)
    assert a.exploitability() == b.exploitability()


def test_the_solved_match_is_monotone_in_lives_and_its_exploitability_is_measured() -> None:
    rules = parse_rules("mia(lives=2,pass=off,mia_end=instant)", game="mia")
    spec = m.spec_from_rules(m.match_rules(rules))
    sol = m.solve(spec, "test", target=3e-3)
    assert len(sol.states) == 4
    for a in (1, 2):
        for b in (1,):
            assert sol.win_probability(a, b + 1) < sol.win_probability(a, b)
            assert sol.win_probability(b + 1, a) > sol.win_probability(b, a)
    for s in sol.states.values():
        assert s.exploitability <= 3e-3
        # Best responses gain at least the equilibrium value, and not much more.
        assert s.br_opener >= s.value - 1e-12 and s.br_other >= -s.value - 1e-12
        assert s.match_exploitability <= 3 * 3e-3
    one = sol.states[(1, 1)]
    assert one.match_exploitability == pytest.approx(one.exploitability, abs=1e-12)
    assert sol.exploitability == max(s.match_exploitability for s in sol.states.values())
