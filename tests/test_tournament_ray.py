"""The Ray executor on a local Ray instance gives the same tournament as the local one."""

from __future__ import annotations

import pytest

from bluffdice.tournament import make_config, run_tournament
from bluffdice.tournament.executors import RayExecutor, SerialExecutor


def test_ray_executor_matches_the_local_run(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)  # start a local instance
    config = make_config("mia(lives=2)", ["odds", "adaptive", "random"], 12, seed=5)
    local: list[object] = []
    remote: list[object] = []
    run_tournament(config, SerialExecutor(), 1, lambda r, _s: local.extend(r))
    standings = run_tournament(config, RayExecutor(), 2, lambda r, _s: remote.extend(r))
    assert remote == local
    assert standings.games == 12
