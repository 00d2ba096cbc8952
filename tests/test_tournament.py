"""Tournaments: fair seating, seeds that make results independent of the workers,
Wilson intervals, ties in the standings, and the openskill ratings."""

from __future__ import annotations

from collections import Counter

import pytest

from bluffdice.games.base import BluffdiceError
from bluffdice.tournament import make_config, plan, run_tournament, wilson
from bluffdice.tournament.executors import ProcessExecutor, SerialExecutor
from bluffdice.tournament.play import GameJob, play_game
from bluffdice.tournament.seating import game_seed, lineup


@pytest.mark.parametrize(("bots", "seats"), [(4, 4), (5, 3), (8, 4), (3, 2)])
def test_every_bot_sits_in_every_seat_equally_often(bots: int, seats: int) -> None:
    games = bots * 30
    counts = Counter((b, s) for i in range(games) for s, b in enumerate(lineup(bots, seats, 7, i)))
    assert set(counts.values()) == {30}
    assert len(counts) == bots * seats
    # Each block of `bots` games gives every bot the same number of games.
    for block in range(30):
        played = Counter(
            b for i in range(block * bots, (block + 1) * bots) for b in lineup(bots, seats, 7, i)
        )
        assert set(played.values()) == {seats}


def test_neighbours_change_between_blocks() -> None:
    orders = {lineup(4, 4, 3, i * 4) for i in range(40)}
    assert len(orders) > 10  # many different seatings, not one order rotated for ever


def test_seeds_depend_on_the_tournament_seed_and_the_index_only() -> None:
    assert game_seed(7, 10) == game_seed(7, 10)
    assert len({game_seed(7, i) for i in range(1000)} | {game_seed(8, 0)}) == 1001


def test_plan_is_fixed_by_the_config() -> None:
    config = make_config("classic", ["odds", "honest", "liar"], 12, seed=4)
    assert plan(config) == plan(config)
    assert all(len(job.bots) == 3 for job in plan(config))


def test_one_and_two_workers_give_identical_results() -> None:
    config = make_config("mia(lives=2)", ["odds", "adaptive", "liar", "honest", "chain"], 40, 9, 4)
    results_one: list[object] = []
    results_two: list[object] = []
    one = run_tournament(config, SerialExecutor(), 1, lambda r, _s: results_one.extend(r))
    two = run_tournament(config, ProcessExecutor(2), 2, lambda r, _s: results_two.extend(r))
    assert results_one == results_two
    assert [r.index for r in results_one] == list(range(40))  # type: ignore[attr-defined]
    assert one.lines() == two.lines()


def test_the_same_game_job_replays_identically() -> None:
    job = GameJob(index=0, seed=123, entrants=(0, 1, 2), bots=("random", "liar", "adaptive"))
    first, second = play_game(job, "mia"), play_game(job, "mia")
    assert first == second
    other = play_game(GameJob(0, 124, job.entrants, job.bots), "mia")
    assert other.steps != first.steps


def test_places_follow_the_order_of_elimination() -> None:
    job = GameJob(index=0, seed=5, entrants=(0, 1, 2, 3), bots=("odds",) * 4)
    result = play_game(job, "mia(lives=2)")
    assert result.places[result.standings[0]] == 0
    assert sorted(result.places) == [0, 1, 2, 3] or len(set(result.places)) < 4
    assert [result.places[p] for p in result.standings] == sorted(result.places)


def test_score_mode_ties_share_a_place() -> None:
    job = GameJob(index=0, seed=1, entrants=(0, 1, 2), bots=("honest", "honest", "random"))
    result = play_game(job, "maexchen(rounds=3)")
    for p in range(3):
        better = sum(1 for q in range(3) if result.score[q] > result.score[p])
        assert result.places[p] == better


def test_wilson_interval_matches_the_textbook_and_stays_in_bounds() -> None:
    low, high = wilson(81, 263)  # Wilson (1927) style example: p = 0.308
    assert low == pytest.approx(0.2553, abs=1e-3) and high == pytest.approx(0.3662, abs=1e-3)
    assert wilson(0, 50)[0] == 0.0 and 0 < wilson(0, 50)[1] < 0.1
    assert wilson(50, 50)[1] == 1.0


def test_ratings_and_rates_separate_a_strong_bot_from_random() -> None:
    config = make_config("mia(lives=3)", ["odds", "random", "honest"], 90, seed=2)
    lines = run_tournament(config).lines()
    assert list(lines)[-1] == "random"  # sorted best first by openskill ordinal
    assert lines["odds"].mu > lines["random"].mu
    assert lines["odds"].ci_low > lines["random"].ci_high
    assert sum(line.games for line in lines.values()) == 90 * 3


def test_first_out_games_count_losses() -> None:
    config = make_config("mia(end=first_out,lives=2)", ["odds", "random", "liar"], 30, seed=2)
    standings = run_tournament(config)
    assert standings.count_losses
    lines = standings.lines()
    assert sum(line.losses for line in lines.values()) == 30
    assert lines["random"].rate > lines["odds"].rate


@pytest.mark.parametrize(
    ("bots", "games", "seats", "message"),
    [
        (["odds", "genius"], 10, None, "built-in bots: .*adaptive"),
        (["odds"], 10, None, "played by 2 to 10 players, not 1"),
        (["odds", "honest"], 0, None, "--games must be between"),
        (["odds", "honest"], 10, 3, "3 seats need at least 3 bots"),
        ([], 10, None, "name at least one bot"),
    ],
)
def test_bad_tournaments_are_refused_before_any_game(
    bots: list[str], games: int, seats: int | None, message: str
) -> None:
    with pytest.raises(BluffdiceError, match=message):
        make_config("classic", bots, games, 1, seats)


def test_the_same_bot_twice_gets_two_names() -> None:
    config = make_config("classic", ["odds", "odds", "random"], 3, 1)
    assert config.names == ("odds", "odds#2", "random")
    lines = run_tournament(config).lines()
    assert set(lines) == {"odds", "odds#2", "random"}
