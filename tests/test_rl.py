"""The learning adapters: PettingZoo's own API test on every Mia and Liar's Dice preset,
observations that hide what a player may not know, and the OpenSpiel adapter checked
against pyspiel's own liars_dice and against bluffdice's solver on a Mia round."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from bluffdice.games.base import CHANCE
from bluffdice.games.common_hand import PRESETS as CH_PRESETS
from bluffdice.games.liars_dice import PRESETS as LD_PRESETS
from bluffdice.games.mia import PRESETS as MIA_PRESETS
from bluffdice.games.registry import parse_rules
from bluffdice.rl.spaces import Encoding
from bluffdice.sim.engine import sample_outcome

RULE_SETS = [
    *MIA_PRESETS,
    *LD_PRESETS,
    "mia(joker32=on,beat_mia=on,mia_end=receiver)",
    "common-hand",
    *CH_PRESETS,
    "common-hand(straights=off,reroll=off,start=first-seat)",
]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_api_test_passes(rules: str) -> None:
    """On raw_env in PettingZoo's standard wrappers (`env`), as its own games are tested."""
    api_test = pytest.importorskip("pettingzoo.test").api_test
    from bluffdice.rl.pettingzoo_env import env

    two_only = rules.startswith("common-hand")
    for players in (2,) if two_only else (2, 3):
        api_test(env(rules, players), num_cycles=300, verbose_progress=False)


def test_env_is_raw_env_in_pettingzoos_standard_wrappers() -> None:
    wrappers = pytest.importorskip("pettingzoo.utils.wrappers")
    from bluffdice.rl.pettingzoo_env import BluffdiceEnv, env, raw_env

    assert type(raw_env("classic", 2)) is BluffdiceEnv
    layers = []
    e: Any = env("classic", 2)
    while isinstance(e, wrappers.BaseWrapper):
        layers.append(type(e))
        e = e.env
    assert layers == [
        wrappers.OrderEnforcingWrapper,
        wrappers.AssertOutOfBoundsWrapper,
        wrappers.TerminateIllegalWrapper,
    ]
    assert type(e) is BluffdiceEnv


def test_an_illegal_action_ends_the_game_with_a_penalty_for_its_player() -> None:
    pytest.importorskip("pettingzoo")
    from bluffdice.rl.pettingzoo_env import env

    e = env("classic", 2)
    e.reset(seed=2)
    agent = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


@pytest.mark.parametrize("rules", ["classic", "liars-dice", "common-hand"])
def test_ansi_render_is_the_table_as_text(rules: str) -> None:
    pytest.importorskip("pettingzoo")
    from bluffdice.rl.pettingzoo_env import env

    e = env(rules, 2, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert isinstance(text, str) and "Round 1" in text and "player_1" in text
    assert not text.lstrip().startswith("{") and "\x1b[" not in text
    rng = np.random.default_rng(4)
    for _ in e.agent_iter(max_iter=5000):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents  # the game ended: the result screen is shown
    assert "player_" in str(e.render())


def test_pettingzoo_games_end_with_the_engines_returns() -> None:
    pytest.importorskip("pettingzoo")
    from bluffdice.rl.pettingzoo_env import env

    e = env("mia(lives=2)", 3)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        assert info["information_state"].startswith(f"p{e.agent_name_mapping[agent]}|")
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) in ([-0.5, -0.5, 1.0], [-1.0, 0.5, 0.5])


@pytest.mark.parametrize(
    ("rules", "players"),
    [("mia(lives=2)", 3), ("meyer(lives=2)", 3), ("dudo", 3), ("openspiel", 3), ("common-hand", 2)],
)
def test_observations_hide_what_the_player_may_not_know(rules: str, players: int) -> None:
    """States a player cannot tell apart (other dice, whether a roller looked) give that
    player the same observation, mask and legal actions."""
    parsed = parse_rules(rules)
    from bluffdice.games.registry import game_of

    spec = game_of(parsed)
    enc = Encoding(parsed, players)
    rng = random.Random(1)
    compared = 0
    for _ in range(6):
        state = spec.new_game(parsed, players)
        while not state.is_terminal:
            for player in range(players):
                mine = enc.observe(state.view(player))
                assert mine.shape == (enc.size,)
                assert np.all(mine >= -1) and np.all(mine <= 1)
                for other in state.indistinguishable(player):
                    assert np.array_equal(mine, enc.observe(other.view(player)))
                    compared += 1
            if state.current_player == CHANCE:
                action = sample_outcome(state.chance_outcomes(), rng)
            else:
                legal = state.legal_actions()
                mask = enc.mask(legal)
                assert mask.sum() == len(legal)
                assert [enc.actions[i] for i in np.flatnonzero(mask)] == sorted(
                    legal, key=lambda a: enc.action_index[a]
                )
                action = rng.choice(list(legal))
            state = state.apply(action).state
    assert compared > 50


def test_openspiel_adapter_plays_pyspiels_liars_dice() -> None:
    """1 die with 3 faces, sixes... threes wild, reset-face: the adapter's game and
    pyspiel's liars_dice give the same value to the same (uniform) play, exactly."""
    pyspiel = pytest.importorskip("pyspiel")
    policy = pytest.importorskip("open_spiel.python.policy")
    expected_game_score = pytest.importorskip("open_spiel.python.algorithms.expected_game_score")
    from bluffdice.rl.openspiel_game import load

    ours = load("openspiel(faces=3)", 2, first=-1)
    theirs = pyspiel.load_game("liars_dice", {"dice_sides": 3})
    values = []
    for game in (ours, theirs):
        uniform = policy.UniformRandomPolicy(game)
        values.append(expected_game_score.policy_value(game.new_initial_state(), [uniform] * 2))
    assert values[0] == pytest.approx(values[1], abs=1e-12)
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() + 1  # + calza


MAEXCHEN_END = "roll;dice 31;32;roll;dice 31;55;roll"
"""A heads-up maexchen round after the opener claimed 32 and the other player 55 over it:
the opener has rolled again and must beat 55 (66 or Mia), with the other to answer."""


def solved_by_openspiel(game: Any, seat: int, iterations: int) -> tuple[float, float]:
    """OpenSpiel's C++ CFR+ (which runs on Python games) on `game`: the average policy's
    value for `seat` and its NashConv."""
    pyspiel = pytest.importorskip("pyspiel")

    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[seat]
    return value, pyspiel.nash_conv(game, average)


def test_openspiel_cfr_reproduces_the_solvers_value_of_a_maexchen_round() -> None:
    """OpenSpiel's CFR+ on the adapter, against bluffdice's solver on the same subgame (the
    round from a floor of 55), solved whole and by segments (the game cut at the next
    fresh roll, the segment above solved first). For a zero-sum game the value of a
    profile is within its NashConv of the game's value, and a segment's value moves by
    at most the error in its continuation table, so the values may differ by at most the
    sum of the NashConvs involved. The whole round is out of reach of a tree walk (about
    1.6e28 terminal histories) but not of segments: benchmarks/openspiel_maexchen.py."""
    pytest.importorskip("pyspiel")
    from bluffdice.rl.openspiel_game import load
    from bluffdice.solve import Solver, mia

    rules = parse_rules("maexchen")
    ours = Solver(mia.build(mia.spec_from_rules(rules), start_floor=rules.ranking.rank(55)))
    ours.iterate(500)
    e = ours.exploitability()

    whole, conv = solved_by_openspiel(
        load("maexchen(rounds=1)", 2, first=0, prefix=MAEXCHEN_END), 0, 12
    )
    assert conv < 0.02
    assert abs(whole - e.value) <= conv + e.nash_conv
    assert e.value == pytest.approx(-0.8333, abs=1e-3)  # the opener is mostly caught

    top = load("maexchen(rounds=1)", 2, first=0, prefix="roll;dice 31;66;roll", continuation={})
    v66, conv66 = solved_by_openspiel(top, 1, 1)  # nothing to decide: say Mia
    assert v66 == pytest.approx(1 / 18 - 17 / 18) and conv66 == pytest.approx(0)
    segment = load("maexchen(rounds=1)", 2, first=0, prefix=MAEXCHEN_END, continuation={66: v66})
    v55, conv55 = solved_by_openspiel(segment, 0, 12)
    assert abs(v55 - whole) <= conv55 + conv66 + conv
    assert abs(v55 - e.value) <= conv55 + conv66 + e.nash_conv


@pytest.mark.parametrize(
    "rules", ["maexchen(rounds=1)", "mia(mode=score,rounds=1,pass_limit=1,blind=off)"]
)
def test_openspiel_cut_at_a_fresh_roll_is_exact(rules: str) -> None:
    """The same play (uniform at every node) has the same value in the end game from 55
    as in its segment cut at the next fresh roll, with the segment above's value as the
    continuation, to the last bits. With the pass on, passes keep the old dice alive and
    hand the cup back: the next roll may be the first holder's own, with 66 to beat."""
    pyspiel = pytest.importorskip("pyspiel")
    from bluffdice.rl.openspiel_game import load

    def uniform(game: Any) -> float:
        policy = pyspiel.UniformRandomPolicy(game)
        value: float = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[1]
        return value

    v66 = uniform(load(rules, 2, prefix="roll;dice 31;66;roll", continuation={}))
    v55 = uniform(load(rules, 2, prefix="roll;dice 31;55;roll", continuation={66: v66}))
    whole = uniform(load(rules, 2, prefix="roll;dice 31;55;roll"))
    assert v55 == pytest.approx(whole, abs=1e-12)
    assert v55 != pytest.approx(
        uniform(load(rules, 2, prefix="roll;dice 31;55;roll", continuation={66: v66 + 0.5}))
    )


@pytest.mark.parametrize(
    ("rules", "players", "why"),
    [
        ("maexchen", 2, "goes on after the round"),
        ("maexchen(rounds=1)", 3, "more than two players"),
        ("meyer(lives=1)", 2, "cheers"),
        ("classic(lives=1)", 2, "for ever"),
        ("openspiel", 2, "only Mia"),
    ],
)
def test_openspiel_cut_refuses_where_it_is_not_exact(rules: str, players: int, why: str) -> None:
    """A cut that would change the game must say so rather than solve another game."""
    pytest.importorskip("pyspiel")
    from bluffdice.rl.openspiel_game import load

    with pytest.raises(ValueError, match=why):
        load(rules, players, continuation={})


def test_openspiel_cut_needs_a_value_for_every_roll() -> None:
    """A missing entry would surface only deep inside a solver's walk: refuse at load."""
    pyspiel = pytest.importorskip("pyspiel")
    from bluffdice.rl.openspiel_game import load, register

    with pytest.raises(ValueError, match="missing 55, 66"):
        load("maexchen(rounds=1)", 2, prefix="roll;dice 31;44;roll", continuation={})
    register()
    with pytest.raises(ValueError, match="needs cut=roll"):
        pyspiel.load_game("python_bluffdice", {"continuation": "66:0.5"})
    with pytest.raises(ValueError, match="worth -1 to 1"):
        load("maexchen(rounds=1)", 2, prefix="roll;dice 31;66;roll", continuation={66: 1.5})
    with pytest.raises(ValueError, match="bad continuation entry"):
        load_table = {"cut": "roll", "continuation": "66=0.5", "prefix": "roll;dice 31;55;roll"}
        pyspiel.load_game("python_bluffdice", {"rules": "maexchen[rounds:1]", **load_table})


def test_the_maexchen_round_is_out_of_reach_of_a_tree_walk() -> None:
    """The benchmark's count of OpenSpiel's tree agrees with the adapter where it can be
    walked: from a floor of 55, every terminal history, counted by the game itself."""
    pytest.importorskip("pyspiel")
    from bluffdice.rl.openspiel_game import load
    from bluffdice.rl.tree_size import maexchen_terminal_histories as terminal_histories

    game = load("maexchen(rounds=1)", 2, first=0, prefix=MAEXCHEN_END)

    def ends(state: Any) -> int:
        if state.is_terminal():
            return 1
        if state.is_chance_node():
            moves = [a for a, _ in state.chance_outcomes()]
        else:
            moves = state.legal_actions()
        return sum(ends(state.child(a)) for a in moves)

    values = parse_rules("maexchen").ranking.worst_first
    assert ends(game.new_initial_state()) == terminal_histories(len(values), values.index(55))
    assert terminal_histories(len(values), -1) > 10**28


@pytest.mark.parametrize("rules", RULE_SETS)
def test_openspiel_adapter_passes_openspiels_random_simulation_test(rules: str) -> None:
    """OpenSpiel's own C++ checks on the adapter (legal actions against the mask, chance
    probabilities summing to 1, returns at the end, cloning), every preset of every game."""
    pyspiel = pytest.importorskip("pyspiel")
    from bluffdice.rl.openspiel_game import load

    for players in (2,) if rules.startswith("common-hand") else (2, 3):
        game = load(rules, players, first=-1)
        pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


def test_common_hand_actions_and_chance_cover_the_engine() -> None:
    """Every claim, liar and reroll the engine offers, and every roll it draws, has an
    index; the reroll indices are the engine's own choices of dice."""
    from bluffdice.games.common_hand import Reroll, new_game

    enc = Encoding("common-hand", 2)
    assert enc.num_actions == len(enc.rules.table.claims) + 1 + 461
    state = new_game("common-hand(start=first-seat)")
    state = state.apply(enc.chance[enc.chance_index[state.chance_outcomes()[-1][0]]]).state
    state = state.apply(state.chance_outcomes()[0][0]).state  # 99999 for the answerer
    state = state.apply(state.legal_actions()[0]).state  # opener: pair 9
    legal = state.legal_actions()
    rerolls = [a for a in legal if isinstance(a, Reroll)]
    assert [a.dice for a in rerolls] == [(1,) * k for k in range(1, 6)]
    assert enc.mask(legal).sum() == len(legal) == len(enc.rules.table.claims) - 1 + 1 + 5
