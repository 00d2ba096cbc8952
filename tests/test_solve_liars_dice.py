"""The solver's Liar's Dice: agreement with the rules engine, the known game value, and
exploitability checked against a best response computed the slow way on the engine."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from bluffdice.games.liars_dice import Dice, hand_outcomes, new_game, parse_action
from bluffdice.games.registry import parse_rules
from bluffdice.solve import Solver, evaluate, problem, run
from bluffdice.solve import liars_dice as ld
from bluffdice.solve.tree import DECISION, JUMP, TERMINAL

RULE_SETS = [
    "openspiel",
    "openspiel(faces=4)",
    "openspiel(faces=5)",
    "openspiel(dice=2,faces=3)",
    "openspiel(faces=4,raise=reset-quantity)",
    "openspiel(faces=4,raise=strict)",
    "openspiel(faces=4,raise=no-lowering)",
    "openspiel(faces=4,wild=off)",
    "openspiel(dice=2,faces=3,wild=ones,ones_bids=on)",
    "openspiel(faces=5,wild=ones)",
    "openspiel(wild=ones,ones_bids=plain)",
    "openspiel(dice=2,faces=3,wild=ones,ones_bids=plain)",
    "openspiel(cups=2:1,faces=3)",
    "openspiel(cups=1:2,faces=4,wild=ones)",
    "openspiel(cups=2:1,faces=3,wild=ones,ones_bids=plain)",
]
"""With plain ones bids and unequal cups (2 against 1, 1 against 2) among them."""


def _engine_at(rules: object, hands: tuple[tuple[int, ...], ...], bids: tuple[str, ...]):
    state = new_game(rules, 2)
    for hand in hands:
        state = state.apply(Dice(hand)).state
    for bid in bids:
        state = state.apply(parse_action(bid)).state
    return state


@pytest.mark.parametrize("text", RULE_SETS)
def test_public_tree_has_the_engines_legal_actions_everywhere(text: str) -> None:
    rules = parse_rules(text, game="liars-dice")
    p = problem("liars-dice", rules)
    g = p.public
    spec = ld.spec_from_rules(rules)
    start = _engine_at(rules, (spec.hands(0)[0], spec.hands(1)[0]), ())
    stack = [(g.start, start)]
    seen = 0
    while stack:
        node, state = stack.pop()
        assert g.kind[node] == DECISION
        assert state.current_player == g.player[node]
        engine = [str(a) for a in state.legal_actions()]
        mine = [g.labels[c] for c in g.children(node)]
        assert sorted(engine) == sorted(mine), g.info[node]
        seen += 1
        for c in g.children(node):
            if g.kind[c] == DECISION:
                stack.append((c, state.apply(parse_action(g.labels[c])).state))
            else:
                assert g.kind[c] == TERMINAL and g.labels[c] == "liar"
    assert seen == int((g.kind == DECISION).sum())
    assert not (g.kind == JUMP).any()


@pytest.mark.parametrize("text", RULE_SETS)
def test_hands_and_their_chances_are_the_engines(text: str) -> None:
    rules = parse_rules(text, game="liars-dice")
    spec = ld.spec_from_rules(rules)
    g = problem("liars-dice", rules).public
    for player, cup in enumerate(rules.starting_cups(2)):
        engine = {hand: prob for hand, prob in hand_outcomes(cup, rules.faces)}
        mine = spec.hands(player)
        assert set(mine) == set(engine)
        for i, hand in enumerate(mine):
            assert g.hand_labels[player][i] == "".join(map(str, hand))
            assert g.dist[player, 0, i] == pytest.approx(float(engine[hand]), abs=1e-15)
            chance = Fraction(spec.hand_probability(hand)).limit_denominator(10_000)
            assert chance == engine[hand]
        assert g.dist[player, 0, : len(mine)].sum() == pytest.approx(1.0)
        assert not g.dist[player, 0, len(mine) :].any()  # the padding is never dealt


@pytest.mark.parametrize("text", RULE_SETS)
def test_every_terminal_pays_what_the_engine_pays(text: str) -> None:
    rules = parse_rules(text, game="liars-dice")
    g = problem("liars-dice", rules).public
    spec = ld.spec_from_rules(rules)
    rng = random.Random(7)
    terminals = list(g.terminals)
    for z in rng.sample(terminals, min(40, len(terminals))):
        parent = int(g.parent[z])
        bids = tuple(ld.bid_text(b) for b in g.info[parent])
        payoff = g.payoffs[g.terminal_payoff[list(g.terminals).index(z)]]
        for (i, h0), (j, h1) in itertools.product(
            enumerate(spec.hands(0)), enumerate(spec.hands(1))
        ):
            state = _engine_at(rules, (h0, h1), bids).apply(parse_action("liar")).state
            assert state.is_terminal
            assert state.returns() == (payoff[i, j], -payoff[i, j]), (bids, h0, h1)


def test_openspiel_preset_reaches_the_known_value_minus_7_over_258() -> None:
    p = problem("liars-dice", "openspiel")
    solver = Solver(p.public, "cfr+")
    history = run(solver, target=1e-4)
    last = history[-1]
    assert last.exploitability <= 1e-4
    assert last.iterations < 1500
    assert abs(last.value - (-7 / 258)) < 1e-4


def test_plain_cfr_converges_too_if_slower() -> None:
    g = problem("liars-dice", "openspiel(faces=4)").public
    plain, plus = Solver(g, "cfr"), Solver(g, "cfr+")
    plain.iterate(300)
    plus.iterate(300)
    e_plain, e_plus = plain.exploitability(), plus.exploitability()
    assert e_plain.exploitability < 0.02
    assert e_plus.exploitability < e_plain.exploitability
    assert e_plain.value == pytest.approx(e_plus.value, abs=5e-3)


def _engine_best_response(rules: object, strategy, g, player: int) -> float:
    """Best response of `player` by walking every history of the engine (no public tree,
    no vectors): the value of an information set's action sums over the histories in it."""
    spec = ld.spec_from_rules(rules)
    hands = spec.hands(player)
    others = spec.hands(1 - player)
    cups = rules.starting_cups(2)
    probs = {h: float(p) for h, p in hand_outcomes(cups[player], rules.faces)}
    other_probs = {h: float(p) for h, p in hand_outcomes(cups[1 - player], rules.faces)}
    index = {g.info[n]: int(n) for n in np.flatnonzero(g.kind == DECISION)}
    edge_row = [{int(e): k for k, e in enumerate(g.edges[p])} for p in (0, 1)]

    def opp_prob(bids: tuple, hand_index: int, label: str) -> float:
        node = index[bids]
        p = int(g.player[node])
        child = next(c for c in g.children(node) if g.labels[c] == label)
        return float(strategy[p][edge_row[p][child], hand_index])

    # Histories grouped by information set (own hand, bids) of `player`.
    def infoset_value(my_hand: int, bids: tuple) -> float:
        """Best value over the opponent's hands, weighted by their chance and play."""
        state0 = {oh: other_probs[others[oh]] for oh in range(len(others))}
        return _walk(my_hand, bids, state0)

    def _walk(my_hand: int, bids: tuple, weights: dict[int, float]) -> float:
        to_move = len(bids) % 2
        state = _engine_at(
            rules, (spec.hands(0)[0], spec.hands(1)[0]), tuple(ld.bid_text(b) for b in bids)
        )
        labels = [str(a) for a in state.legal_actions()]
        if to_move == player:
            best = -np.inf
            for label in labels:
                best = max(best, _after(my_hand, bids, label, weights))
            return best
        total = 0.0
        for label in labels:
            split = {oh: w * opp_prob(bids, oh, label) for oh, w in weights.items()}
            total += _after(my_hand, bids, label, split)
        return total

    def _after(my_hand: int, bids: tuple, label: str, weights: dict[int, float]) -> float:
        if label != "liar":
            q, f = label.split("x")
            return _walk(my_hand, (*bids, (int(q), int(f))), weights)
        total = 0.0
        for oh, w in weights.items():
            if w == 0:
                continue
            pair = (hands[my_hand], others[oh]) if player == 0 else (others[oh], hands[my_hand])
            bid_strings = tuple(ld.bid_text(b) for b in bids)
            state = _engine_at(rules, pair, bid_strings).apply(parse_action("liar")).state
            total += w * state.returns()[player]
        return total

    return sum(probs[hands[h]] * infoset_value(h, ()) for h in range(len(hands)))


SMALL = [
    "openspiel(faces=3)",
    "openspiel(cups=2:1,faces=3)",
    "openspiel(cups=1:2,faces=3,wild=ones)",
    "openspiel(faces=4,wild=ones,ones_bids=plain)",
]
"""1 against 1, 2 against 1 and 1 against 2 dice, and 1 die with plain ones bids."""


@pytest.mark.parametrize("text", SMALL)
def test_exploitability_matches_a_best_response_walked_on_the_engine(text: str) -> None:
    rules = parse_rules(text, game="liars-dice")
    g = problem("liars-dice", rules).public
    solver = Solver(g, "cfr")
    solver.iterate(7)  # far from equilibrium, so the best responses gain a lot
    strategy = solver.average_strategy()
    fast = evaluate(g, strategy)
    slow = tuple(_engine_best_response(rules, strategy, g, p) for p in (0, 1))
    assert fast.br_values == pytest.approx(slow, abs=1e-12)
    assert fast.exploitability > 0.01


@pytest.mark.parametrize("text", SMALL)
def test_the_solved_policy_is_an_equilibrium_by_the_engines_best_responses(text: str) -> None:
    """Solved to 1e-4, no history walked on the engine gains more against it."""
    rules = parse_rules(text, game="liars-dice")
    g = problem("liars-dice", rules).public
    solver = Solver(g, "cfr+")
    last = run(solver, target=1e-4)[-1]
    strategy = solver.average_strategy()
    slow = [_engine_best_response(rules, strategy, g, p) for p in (0, 1)]
    assert (slow[0] + slow[1]) / 2 <= 1e-4
    # Each best response gains at most the exploitability over the game's value.
    assert slow[0] == pytest.approx(last.value, abs=2e-4)
    assert -slow[1] == pytest.approx(last.value, abs=2e-4)
