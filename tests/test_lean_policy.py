"""Lean policies as files, and the `best` bot that plays them."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bluffdice.bots.base import load_bot
from bluffdice.bots.best import BestBot, choose
from bluffdice.games.base import BluffdiceError
from bluffdice.games.liars_dice.state import new_game
from bluffdice.games.registry import parse_rules
from bluffdice.solve import lean_policy as lp
from bluffdice.solve.lean import LeanSolver, lean_game
from bluffdice.solve.liars_dice import DudoSpec

ONE_DIE = DudoSpec(dice=1, faces=6, wild="ones")
ONE_DIE_RULES = "liars-dice(dice=1,single_round=on)"
TWO_ONE = DudoSpec(dice=2, faces=6, wild="ones", cups=(2, 1))
PLAIN_TWO_ONE = replace(TWO_ONE, ones_bids="plain")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    lp._found.cache_clear()
    return lp.cache_dir()


@pytest.fixture(scope="module")
def solved() -> LeanSolver:
    solver = LeanSolver(lean_game(ONE_DIE))
    solver.iterate(200)
    return solver


@pytest.fixture(scope="module")
def solved_cups() -> LeanSolver:
    solver = LeanSolver(lean_game(TWO_ONE))
    solver.iterate(40)
    return solver


def _plays_the_solvers_chances(solved: LeanSolver, spec: DudoSpec, path: Path) -> None:
    lp.from_solver(solved, "rules").save(path)
    policy = lp.LeanPolicy.load(path, spec)
    liar, bid = solved.average_strategy()
    game = solved.g
    # (bids so far as bit indexes, hand): the root, one bid, two bids.
    for bits, hand in (((), 0), ((3,), 2), ((0, 7), 5), ((2, 4), 1), ((1,), 4)):
        actor = len(bits) % 2
        mask = sum(1 << b for b in bits)
        row = mask >> 1
        got = policy.distribution([game.bids[b] for b in bits], game.cups[actor].hands[hand])
        assert got is not None
        want = {} if not bits else {"liar": liar[actor][hand, row]}
        top = max(bits, default=-1)
        for b in range(top + 1, game.n_bids):
            q, f = game.bids[b]
            want[f"{q}x{f}"] = bid[1 - actor][hand, (mask | 1 << b) >> 1]
        if sum(want.values()) < 1e-9:
            continue
        for label, p in want.items():
            assert got.get(label, 0.0) == pytest.approx(p, abs=1e-4)


def test_a_saved_policy_plays_the_solvers_chances(solved: LeanSolver, tmp_path: Path) -> None:
    _plays_the_solvers_chances(solved, ONE_DIE, tmp_path / "p.npz")


def test_unequal_cups_play_each_players_own_hands(solved_cups: LeanSolver, tmp_path: Path) -> None:
    _plays_the_solvers_chances(solved_cups, TWO_ONE, tmp_path / "p.npz")
    policy = lp.LeanPolicy.load(tmp_path / "p.npz")
    assert policy.header["dice"] == [2, 1]
    assert policy.distribution([], (1,)) is None  # the first bidder holds two dice
    assert policy.distribution([(1, 2)], (1, 1)) is None  # the second one die


def test_a_policy_for_other_cups_or_ones_bids_is_refused(
    solved_cups: LeanSolver, tmp_path: Path
) -> None:
    path = tmp_path / "p.npz"
    lp.from_solver(solved_cups, "rules").save(path)
    for other in (replace(TWO_ONE, cups=(1, 2)), replace(TWO_ONE, cups=()), PLAIN_TWO_ONE):
        with pytest.raises(lp.PolicyMismatch, match="not for"):
            lp.LeanPolicy.load(path, other)
    assert lp.file_name(TWO_ONE) != lp.file_name(replace(TWO_ONE, cups=(1, 2)))
    assert lp.file_name(TWO_ONE) != lp.file_name(PLAIN_TWO_ONE)


def test_the_stored_exploitability_is_the_files(solved: LeanSolver, tmp_path: Path) -> None:
    policy = lp.from_solver(solved, ONE_DIE_RULES)
    path = tmp_path / "p.npz"
    policy.save(path)
    again = lp.LeanPolicy.load(path)
    exploitability, nash_conv, value = lp.measure(again)
    assert exploitability == pytest.approx(again.header["exploitability"], abs=1e-9)
    assert nash_conv == pytest.approx(2 * exploitability)
    assert value == pytest.approx(again.header["value"], abs=1e-9)
    # Stored at 65,535 steps, the policy is as good as the solver's strategy.
    assert exploitability == pytest.approx(solved.exploitability()[0], abs=2e-4)
    # Zeros where its player never gets: fewer numbers kept than cells.
    kept = sum(int(np.count_nonzero(a)) for a in again.arrays.values())
    assert kept < sum(a.size for a in again.arrays.values())


def test_a_header_mismatch_is_refused_in_one_line(solved: LeanSolver, tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    lp.from_solver(solved, ONE_DIE_RULES).save(path)
    with pytest.raises(lp.PolicyMismatch) as caught:
        lp.LeanPolicy.load(path, DudoSpec(dice=1, faces=6, wild="highest"))
    assert "\n" not in str(caught.value)
    assert "wild highest" in str(caught.value) and "wild ones" in str(caught.value)
    with pytest.raises(BluffdiceError, match="not a lean policy file"):
        bad = tmp_path / "bad.npz"
        bad.write_bytes(b"nope")
        lp.LeanPolicy.load(bad)


def test_best_picks_exact_where_it_can_and_a_heuristic_elsewhere(cache: Path) -> None:
    two = "liars-dice(dice=2,single_round=on)"
    assert choose(ONE_DIE_RULES, [1, 1]) == "exact"
    assert choose(two, [2, 2]) == "exact"  # cheap: solved on first use
    assert choose("liars-dice(dice=2)", [2, 2], solve=False) != "exact"  # many rounds
    assert choose("liars-dice", [5, 5]) == "bayes"
    assert choose("liars-dice", [5, 5, 5]) == "bayes"
    assert choose("openspiel", [1, 1]) == "exact"
    assert choose("dudo-single-round(dice=1)", [1, 1]) == "cfr"  # bids on ones: the tree
    assert BestBot.stand_in(parse_rules("liars-dice", game="liars-dice"), 2) == "bayes"
    three_two = "liars-dice(cups=3:2,single_round=on,start=first-seat)"  # 25 bids: not cheap
    assert choose(three_two, [3, 2]) == choose(three_two, [2, 3]) == "bayes"


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        (ONE_DIE_RULES, ONE_DIE),
        ("liars-dice(cups=2:1,single_round=on,start=first-seat)", TWO_ONE),
        ("liars-dice(dice=1,ones_bids=plain,single_round=on)", replace(ONE_DIE, ones_bids="plain")),
    ],
)
def test_best_plays_the_exact_policy_solved_on_first_use(
    cache: Path, text: str, spec: DudoSpec
) -> None:
    rules = parse_rules(text, game="liars-dice")
    assert BestBot.stand_in(rules, 2) is None
    assert (cache / lp.file_name(spec)).is_file()
    bots = [load_bot("best", "liars-dice", random.Random(s)) for s in (1, 2)]
    rng = random.Random(3)
    for _ in range(20):
        state = new_game(rules, 2)
        while not state.is_terminal:
            if state.current_player < 0:
                outcomes = state.chance_outcomes()
                pick = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])
                state = state.apply(pick[0]).state
                continue
            view = state.view(state.current_player)
            state = state.apply(bots[state.current_player].act(view)).state
    assert all(isinstance(b, BestBot) and set(b.moves) == {"exact"} for b in bots)


def test_best_plays_two_against_one_exactly_in_a_long_game_once_solved(cache: Path) -> None:
    long_game = "liars-dice(dice=2)"
    assert choose(long_game, [2, 1], solve=False) == "odds"  # nothing at hand
    lp.obtain(TWO_ONE, "liars-dice(cups=2:1,single_round=on,start=first-seat)", show=False)
    assert choose(long_game, [2, 1], solve=False) == "exact"
    assert choose(long_game, [1, 2], solve=False) == "odds"  # the one-die cup opens: unsolved
