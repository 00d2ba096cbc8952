"""Tournaments on a real Ray cluster (issue #36): a head node and a worker node, each
started with `ray start` on this machine, the tournament run as a user runs it
(`bluffdice tournament --executor ray` with RAY_ADDRESS).

- the results equal the local run's for the same seed;
- bot programs are sandboxed on the Ray workers as they are locally: an attack bot that
  reads the other processes of its host (the tournament's command line, with its seed,
  and its environment) gets them as a plain child there, and nothing in the sandbox;
- a worker node killed (`kill -9` of its raylet and its workers) mid-run loses no stored
  game, and the tournament finishes with the local run's results.

Ray is the `ray` extra; these tests run on their own (`pytest -m ray`), as CI does.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray
pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[1]
ATTACK = ROOT / "tests" / "data" / "attack_bot.py"
RAY = Path(sys.executable).with_name("ray")
SECRET = "raysecret-" + secrets.token_hex(8)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    folder: Path
    env: dict[str, str]
    """The environment a user of the cluster has: RAY_ADDRESS and the cluster's token."""
    worker_port: int
    """The worker node's node manager port: how its raylet is told from the head's."""

    def start_worker(self) -> None:
        ray_start(
            self.env,
            f"--address={self.env['RAY_ADDRESS']}",
            "--num-cpus=1",
            f"--node-manager-port={self.worker_port}",
        )

    def kill_worker(self) -> list[int]:
        """`kill -9` of the worker node's raylet and every process it started."""
        found = subprocess.run(
            ["pgrep", "-f", f"raylet.*node_manager_port={self.worker_port}"],
            capture_output=True,
            text=True,
        ).stdout.split()
        pids = [int(p) for p in found]
        for raylet in list(pids):
            children = subprocess.run(
                ["pgrep", "-P", str(raylet)], capture_output=True, text=True
            ).stdout.split()
            pids += [int(c) for c in children]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return pids


def ray_start(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [str(RAY), "start", "--disable-usage-stats", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]


def stop_cluster(folder: Path) -> None:
    """`kill -9` of every process of this cluster: each has the cluster's folder in its
    command line or its environment (its agents rename themselves, but keep the
    environment `ray start` gave them). Other Ray instances on the machine live on."""
    mark = str(folder).encode()
    for _ in range(3):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                seen = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()
            except OSError:
                continue
            if mark in seen:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(entry.name), signal.SIGKILL)
        time.sleep(0.5)


@pytest.fixture(scope="module")
def cluster(request: pytest.FixtureRequest) -> Iterator[Cluster]:
    if "ray" not in (request.config.option.markexpr or ""):
        pytest.skip("the Ray cluster tests run on their own: pytest -m ray")
    # Ray's sockets live in its temp folder, and a socket path must stay short
    folder = Path(tempfile.mkdtemp(prefix="bdray", dir="/tmp"))
    token = folder / "token"
    token.write_text(secrets.token_hex(32))
    port = free_port()
    env = {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token),
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_ADDRESS": f"127.0.0.1:{port}",
    }
    try:
        ray_start(
            env,
            "--head",
            f"--port={port}",
            "--num-cpus=1",
            "--include-dashboard=false",
            f"--temp-dir={folder / 'ray'}",
        )
        made = Cluster(folder, env, free_port())
        made.start_worker()
        yield made
    finally:
        stop_cluster(folder)


def alive_nodes(cluster: Cluster, want: int = 2) -> int:
    """The nodes `ray status` lists as active, once it lists `want` (its report lags a
    node's start by a few seconds) or after 30 s."""
    deadline = time.monotonic() + 30
    while True:
        status = subprocess.run(
            [str(RAY), "status"], env=cluster.env, capture_output=True, text=True, timeout=60
        ).stdout
        active = status.split("Active:")[1].split("Pending:")[0] if "Active:" in status else ""
        if active.count("node_") >= want or time.monotonic() > deadline:
            return active.count("node_")
        time.sleep(1)


def tournament(
    env: dict[str, str], db: Path, *args: str, executor: str = "ray"
) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "bluffdice", "tournament", "--json", "--db", str(db)]
    command += ["--executor", executor, *args]
    if executor == "local":
        env = {k: v for k, v in env.items() if k != "RAY_ADDRESS"}
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def results(process: subprocess.Popen[str], timeout: float = 300) -> dict[str, object]:
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err[-3000:]
    data = json.loads(out)  # standard output is the results and nothing else
    data["tournament"].pop("db")
    return dict(data)


def test_a_tournament_on_two_nodes_equals_the_local_run(cluster: Cluster, tmp_path: Path) -> None:
    assert alive_nodes(cluster) == 2
    args = ("--rules", "classic", "--games", "120", "--seed", "11")
    on_ray = results(tournament(cluster.env, tmp_path / "ray.db", *args))
    local = results(
        tournament(cluster.env, tmp_path / "local.db", *args, "--workers", "2", executor="local")
    )
    assert on_ray == local
    assert sum(b["games"] for b in on_ray["bots"].values()) > 0  # type: ignore[attr-defined]


def test_bot_programs_on_ray_workers_are_sandboxed(cluster: Cluster, tmp_path: Path) -> None:
    """The attack reads every process of its host: the tournament's own command line
    (its seed) and environment. As a plain child on a Ray worker it gets both, so the
    attack works there; in the sandbox it gets neither."""
    bots = ",".join(f"cmd:{sys.executable} {ATTACK} {kind}" for kind in ("cmdline", "environ"))
    seed = "770088112233"
    env = {**cluster.env, "BLUFFDICE_TEST_SECRET": SECRET}

    def names(*extra: str) -> set[str]:
        args = ("--rules", "classic", "--games", "4", "--seed", seed, "--bots", f"odds,{bots}")
        played = results(tournament(env, tmp_path / f"t{len(extra)}.db", *args, *extra))
        return set(played["bots"])  # type: ignore[arg-type]

    sandboxed = names()
    assert {"cmdline:blocked", "environ:blocked"} <= sandboxed, sandboxed
    plain = names("--unsandboxed")
    assert f"cmdline:{seed}" in plain and f"environ:{SECRET[:12]}" in plain, plain


def stored_games(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("select count(*) from games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_worker_node_lost_mid_run_loses_no_game(cluster: Cluster, tmp_path: Path) -> None:
    if alive_nodes(cluster) < 2:
        cluster.start_worker()
        assert alive_nodes(cluster) == 2
    games = 1500
    args = ("--rules", "classic", "--games", str(games), "--seed", "5")
    db = tmp_path / "lost.db"
    running = tournament(cluster.env, db, *args)
    deadline = time.monotonic() + 120
    while stored_games(db) < 100 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert running.poll() is None, "the tournament ended before the node could be lost"
    killed = cluster.kill_worker()
    assert killed, "no worker node to kill"
    on_ray = results(running)
    assert stored_games(db) == games
    local = results(
        tournament(cluster.env, tmp_path / "local.db", *args, "--workers", "2", executor="local")
    )
    assert on_ray == local
