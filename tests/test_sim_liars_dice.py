"""The single-round Liar's Dice simulator against the rules engine: tables are
distributions over the ladder's legal actions, the `odds` table makes the bot's own moves
in engine games, and simulated rounds pay out as engine rounds do (z-tests on the mean
payoff and the number of bids, 4.5 standard errors)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from bluffdice.games.base import CHANCE
from bluffdice.games.liars_dice import new_game
from bluffdice.games.registry import parse_rules
from bluffdice.sim.engine import engine_bots, play_engine_game, sample_outcome
from bluffdice.sim.liars_dice import (
    LiarsDiceSim,
    layout_of,
    odds_table,
    random_table,
    why_not_tabular,
)

RULES = [
    "openspiel",
    "liars-dice(dice=2,faces=4,single_round=on,calza=on)",
    "liars-dice(dice=1,faces=6,single_round=on,raise=strict,wild=off)",
    "liars-dice(dice=2,faces=3,single_round=on,raise=reset-quantity,ones_bids=on)",
    "liars-dice(dice=2,faces=4,single_round=on,raise=no-lowering,wild=highest)",
]


@pytest.mark.parametrize("text", RULES)
def test_tables_are_distributions_over_legal_actions(text: str) -> None:
    rules = parse_rules(text)
    for players in (2, 3):
        assert random_table(rules, players).check() == []
    assert odds_table(rules, 2).check() == []


def test_only_single_rounds() -> None:
    assert why_not_tabular("random", parse_rules("dudo")) is not None
    assert why_not_tabular("odds", parse_rules("openspiel")) is None
    with pytest.raises(ValueError, match="single_round"):
        layout_of(parse_rules("dudo"), 2)


@pytest.mark.parametrize("text", RULES[:3])
def test_odds_table_makes_the_bots_moves(text: str) -> None:
    rules = parse_rules(text)
    table = odds_table(rules, 2)
    layout = layout_of(rules, 2)
    rng = random.Random(3)
    checked = 0
    for g in range(60):
        bots = engine_bots(("odds", "random"), "liars-dice", g)
        state = new_game(rules, 2)
        while not state.is_terminal:
            p = state.current_player
            if p == CHANCE:
                state = state.apply(sample_outcome(state.chance_outcomes(), rng)).state
                continue
            action = bots[p].act(state.view(p))
            if p == 0:
                hand = layout.hand_index[state.hands[0]]
                last = 0 if state.bid is None else 1 + layout.bid_index[state.bid]
                assert table.probs[hand, last, layout.code(action)] == 1.0
                checked += 1
            state = state.apply(action).state
    assert checked > 60


def _z(a: np.ndarray, b: np.ndarray) -> float:
    se = math.sqrt(a.var() / len(a) + b.var() / len(b))
    return 0.0 if se == 0 else abs(float(a.mean() - b.mean())) / se


@pytest.mark.parametrize("text", RULES)
@pytest.mark.parametrize("names", [("random", "random"), ("odds", "random"), ("random",) * 3])
def test_simulated_rounds_pay_as_engine_rounds(text: str, names: tuple[str, ...]) -> None:
    rules = parse_rules(text)
    players = len(names)
    tables = {"random": random_table, "odds": odds_table}
    sim = LiarsDiceSim(rules, [tables[n](rules, players) for n in names])
    batch = sim.run(60_000, seed=1)
    rng = random.Random(2)
    pay, bids = [], []
    for g in range(700):
        state = play_engine_game(rules, engine_bots(names, "liars-dice", g), rng)
        pay.append(state.returns())
        bids.append(len(state.last_round.bids))
    engine_pay = np.array(pay)
    for seat in range(players):
        assert _z(engine_pay[:, seat], batch.returns[:, seat]) < 4.5, seat
    assert _z(np.array(bids, dtype=float), batch.bids.astype(float)) < 4.5
