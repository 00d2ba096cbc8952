"""`run_matches` with several worker processes: the same seed gives the same report for
any number of workers, in the simulator and in the engine, and the work is cut into the
same seeded chunks whatever the count."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from bluffdice.games.registry import parse_rules
from bluffdice.sim.match import CHUNK, ENGINE_CHUNK, MatchReport, child_seed, plan, run_matches


def report_json(
    rules: str, bots: list[str], games: int, seed: int, workers: int, progress: Any = None
) -> str:
    report = run_matches(parse_rules(rules), bots, games, seed, progress, workers)
    return json.dumps(report.to_json())


def test_simulator_pairs_give_the_same_report_for_one_two_and_three_workers() -> None:
    # Each seating plays two chunks, so the chunks really are spread out.
    games = 2 * CHUNK + 6
    bots = ["honest", "liar"]
    seen: list[int] = []
    reports = {
        w: report_json("classic", bots, games, 11, w, seen.append if w == 2 else None)
        for w in (1, 2, 3)
    }
    assert reports[1] == reports[2] == reports[3]
    pair = json.loads(reports[1])["pairs"][0]
    assert pair["vectorised"] and pair["wins_a"] + pair["wins_b"] + pair["draws"] == games
    assert reports[1] != report_json("classic", bots, games, 12, 1)
    # the progress bar hears of every chunk once, as it is counted
    assert seen == [CHUNK, 3, CHUNK, 3]


def test_engine_pairs_give_the_same_report_for_one_two_and_three_workers() -> None:
    # odds weighs passes, which its table cannot hold: the engine plays it
    games = 2 * ENGINE_CHUNK + 7
    bots = ["odds", "honest"]
    reports = {w: report_json("mia(lives=1)", bots, games, 3, w) for w in (1, 2, 3)}
    assert reports[1] == reports[2] == reports[3]
    assert json.loads(reports[1])["pairs"][0]["vectorised"] is False
    assert reports[1] != report_json("mia(lives=1)", bots, games, 4, 1)


def test_the_plan_does_not_depend_on_workers_and_every_chunk_has_its_own_seed() -> None:
    report = MatchReport("mia", "classic", ["honest", "liar", "odds"], 2 * CHUNK + 1, 5)
    report.why_not = {"honest": None, "liar": None, "odds": "engine"}
    chunks = list(plan(report))
    # honest-liar: each seating in chunks of CHUNK; the pairs with odds: ENGINE_CHUNK games
    assert [c.size for c in chunks if c.pair == 0] == [CHUNK, 1, CHUNK]
    engine = [c for c in chunks if c.pair == 1]
    assert sum(c.size for c in engine) == report.games_per_pair
    assert all(c.size <= ENGINE_CHUNK for c in engine)
    keys = [(tuple(c.seed.entropy), c.seed.spawn_key) for c in chunks]
    assert len(set(keys)) == len(keys)
    assert [c.pair for c in chunks] == sorted(c.pair for c in chunks)
    # chunk seeds are the children SeedSequence.spawn makes
    parent = np.random.SeedSequence([5, 0, 1])
    children = child_seed(parent, 1).spawn(2)
    assert chunks[2].seed.generate_state(4).tolist() == children[0].generate_state(4).tolist()
