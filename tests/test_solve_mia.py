"""The solver's heads-up Mia round: agreement with the rules engine on sampled games,
sharing segments changes nothing, and the solved round converges."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bluffdice.games.mia import FirstPlayer, Look, new_game
from bluffdice.games.registry import parse_rules
from bluffdice.solve import Solver, evaluate, mia, problem
from bluffdice.solve.policy import Policy, extract, to_strategy
from bluffdice.solve.tree import DECISION, JUMP, TERMINAL

RULE_SETS = [
    ("maexchen(rounds=1)", None),
    ("maexchen(rounds=1,little_mia=on,doubles_ascending=on)", None),
    ("classic(lives=1)", 2),
    ("classic(lives=1)", 1),
    ("doubles-ascending(lives=1,pips=on)", 2),
    ("classic(lives=1,beat_mia=on,halbmeier=on)", 1),
    ("classic(lives=1,mia_end=instant,pass=off)", None),
]


def _node_of(g, keys, info):
    return keys.get(mia.key_text(info))


@pytest.mark.parametrize(("text", "cap"), RULE_SETS)
def test_sampled_games_agree_with_the_engine(text: str, cap: int | None) -> None:
    rules = parse_rules(text, game="mia")
    p = problem("mia", rules, pass_cap=cap)
    g = p.public
    ranking = rules.ranking
    keys = {mia.key_text(g.info[n]): int(n) for n in np.flatnonzero(g.kind == DECISION)}
    rng = random.Random(hash(text) % 1000)
    checked = terminals = beyond = 0
    roll = g.dist[0, g.root_index[g.start]]
    for _ in range(200):
        state = new_game(rules, 2).apply(FirstPlayer(0)).state
        node = None
        while not state.is_terminal:
            player = state.current_player
            if player < 0:
                outcomes = state.chance_outcomes()
                assert [o.value for o, _ in outcomes] == list(mia.HANDS)
                assert [float(pr) for _, pr in outcomes] == pytest.approx(list(roll))
                state = state.apply(rng.choice(outcomes)[0]).state
                continue
            legal = list(state.legal_actions())
            if Look() in legal:
                state = state.apply(Look()).state
                continue
            view = state.view(player)
            if view.phase == "open":
                state = state.apply(legal[0]).state
                continue
            calls = [(c.player, c.kind, c.value) for c in view.calls]
            if view.phase == "hold":
                info = mia.hold_info(ranking, calls, player, 0)
            else:
                info = mia.answer_info(ranking, calls, 0)
            node = _node_of(g, keys, info)
            engine = [str(a) for a in legal]
            passes_made = len(info[2]) - 1
            if node is None:  # only beyond the pass cap
                assert cap is not None and passes_made > cap, (text, info)
                beyond += 1
                break
            assert g.player[node] == player
            assert bool(g.private[node]) == (view.my_dice is not None)
            mine = [g.labels[c] for c in g.children(node)]
            if cap is not None and passes_made == cap and view.phase == "respond":
                # at the cap only the same value may be passed: the endless exchange, a draw
                engine = [a for a in engine if not a.startswith("pass")]
                engine.append(f"pass {info[2][-1]}")
            assert sorted(engine) == sorted(mine), (text, info)
            checked += 1
            plain = [a for a in legal if not str(a).startswith("pass")]
            action = rng.choice(legal if rng.random() < 0.3 or not plain else plain)
            if str(action) not in mine:  # a pass beyond the cap: the next node is missing
                state = state.apply(action).state
                continue
            child = next(c for c in g.children(node) if g.labels[c] == str(action))
            dice = state.dice
            state = state.apply(action).state
            if g.kind[child] == TERMINAL and str(action).startswith("pass"):
                assert passes_made == cap  # the endless exchange of passes: a draw
                assert g.payoffs[g.terminal_payoff[list(g.terminals).index(child)]].max() == 0
                break
            if g.kind[child] == TERMINAL:
                terminals += 1
                payoff = g.payoffs[g.terminal_payoff[list(g.terminals).index(child)]]
                holder = info[0]
                hand = mia.HAND_INDEX[dice]
                won0 = payoff[hand, 0] if holder == 0 else payoff[0, hand]
                if str(action) == "beat":  # an open roll decides: compare the expectation
                    expected = sum(
                        float(pr) * state.apply(o).state.returns()[0]
                        for o, pr in state.chance_outcomes()
                    )
                    assert expected == pytest.approx(won0)
                    break
                assert state.is_terminal
                assert state.returns() == (won0, -won0), (text, info, str(action))
            elif g.kind[child] == JUMP:
                assert str(action) == "roll"
                assert not state.is_terminal
    assert checked > 300
    assert terminals > 100


@pytest.mark.parametrize(
    ("text", "cap", "above"), [("maexchen(rounds=1)", None, 65), ("classic(lives=1)", 1, 22)]
)
def test_sharing_segments_changes_no_value_and_no_best_response(
    text: str, cap: int | None, above: int
) -> None:
    """The public DAG (one segment per holder and value to beat) against the plain tree
    (a copy per history): the same strategy is exactly as exploitable in both, and
    CFR finds the same value. A best response on the tree may differ per history; that
    it gains nothing more is what makes the small DAG exact."""
    rules = parse_rules(text, game="mia")
    spec = mia.spec_from_rules(rules, cap)
    floor = rules.ranking.rank(above)
    shared = mia.build(spec, start_floor=floor)
    tree = mia.build(spec, start_floor=floor, share=False)
    assert len(tree.roots) > 4 * len(shared.roots)

    solver = Solver(shared, "cfr")
    solver.iterate(5)  # a poor strategy, so best responses have something to find
    policy = Policy("mia", "", {}, "", extract(shared, solver.average_strategy(), mia.key_text))
    on_shared = evaluate(shared, to_strategy(shared, policy, mia.key_text))
    on_tree = evaluate(tree, to_strategy(tree, policy, mia.key_text))
    assert on_shared.exploitability > 0.01
    assert on_tree.br_values == pytest.approx(on_shared.br_values, abs=1e-9)
    assert on_tree.value == pytest.approx(on_shared.value, abs=1e-9)

    a, b = Solver(shared, "cfr+"), Solver(tree, "cfr+")
    a.iterate(400)
    b.iterate(400)
    ea, eb = a.exploitability(), b.exploitability()
    assert ea.exploitability < 2e-3 and eb.exploitability < 2e-3
    assert ea.value == pytest.approx(eb.value, abs=2 * (ea.exploitability + eb.exploitability))


def test_maexchen_round_converges_and_the_opener_is_ahead() -> None:
    p = problem("mia", "maexchen")
    solver = Solver(p.public, "cfr+")
    solver.iterate(600)
    e = solver.exploitability()
    assert e.exploitability < 1e-3
    # The receiver can always challenge the opener's first call; the opener still wins
    # more than half the rounds at equilibrium.
    assert e.value > 0.1


def test_looking_at_the_dice_is_never_worse_than_announcing_blind() -> None:
    """The always-look abstraction: the round where the roller may announce blind has
    the same value as the round where the roller always looks."""
    from dataclasses import replace

    rules = parse_rules("classic(lives=1)", game="mia")
    floor = rules.ranking.rank(64)
    values = []
    for look in ("always", "choose"):
        spec = replace(mia.spec_from_rules(rules, 1), look=look)
        g = mia.build(spec, start_floor=floor)
        solver = Solver(g, "cfr+")
        solver.iterate(500)
        e = solver.exploitability()
        assert e.exploitability < 1e-3
        values.append((e.value, e.exploitability))
        if look == "choose":
            assert any(g.labels[c] == "look" for c in g.children(g.start))
    (a, ea), (b, eb) = values
    assert a == pytest.approx(b, abs=2 * (ea + eb))
