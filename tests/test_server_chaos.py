"""Chaos: `bluffdice serve` killed with SIGKILL at random moments while bots play, and
restarted. No step that anyone was told about is lost, and every game finishes. Runs on
its own (about half a minute):

    python -m pytest -m chaos tests/test_server_chaos.py -s
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

pytestmark = pytest.mark.chaos

TABLES = 3
KILLS = 5


@pytest.fixture(autouse=True)
def only_when_asked(request: pytest.FixtureRequest) -> None:
    if "chaos" not in (request.config.option.markexpr or ""):
        pytest.skip("the chaos test runs on its own: pytest -m chaos")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from bluffdice.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            "0.1",
            "--bot-tables",
            "100",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


def post(port: int, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def watch(port: int, table: str, seconds: float) -> tuple[list[Any], list[Any], bool]:
    """Watch a table as a spectator for up to `seconds`: the welcome's history, the updates
    received after it, and whether the table finished."""
    history: list[Any] = []
    updates: list[Any] = []
    finished = False
    with connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello"}))
        welcomed = False

        def read(frame: list[Any]) -> None:
            """A frame's messages in order (a frame is a list of them: the welcome can
            share one with the updates that followed it in the same turn)."""
            nonlocal history, welcomed, finished
            for message in frame:
                if message["type"] == "welcome":
                    history, welcomed = message["history"], True
                elif message["type"] == "update" and welcomed:
                    updates.append(message)
                elif message["type"] == "table" and message["status"] == "finished":
                    finished = welcomed

        end = time.monotonic() + 30
        while not welcomed and time.monotonic() < end:
            read(json.loads(ws.recv(timeout=30)))
        end = time.monotonic() + seconds
        try:
            while time.monotonic() < end and not finished:
                try:
                    read(json.loads(ws.recv(timeout=max(0.01, end - time.monotonic()))))
                except TimeoutError:
                    break
        except ConnectionClosed:
            pass
    return history, updates, finished


def test_kill_9_during_bot_games_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(11)
    db = tmp_path / "chaos.db"
    port = free_port()
    process = start(db, port)
    seats = [{"kind": "bot", "bot": "honest"}] * 3
    tables = [
        post(port, "/api/tables", {"rules": "mia(lives=6)", "seats": seats})["id"]
        for _ in range(TABLES)
    ]
    seen: dict[str, list[Any]] = {t: [] for t in tables}
    done: set[str] = set()
    kills = 0

    def look_at_every_table() -> None:
        for table in tables:
            if table in done:
                continue
            history, updates, finished = watch(port, table, rng.uniform(0.05, 0.4))
            told = history + updates
            # everything told before (to the last connection) is still there, in order
            assert told[: len(seen[table])] == seen[table]
            seen[table] = told
            if finished:
                done.add(table)

    try:
        while kills < KILLS and len(done) < TABLES:
            look_at_every_table()
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            kills += 1
            process = start(db, port)
        while len(done) < TABLES:
            look_at_every_table()
    finally:
        process.kill()
        process.wait()
    print(
        f"\nchaos: survived {kills} kills (SIGKILL); {TABLES} bot games finished, none lost a step"
    )
    assert kills == KILLS
    for table in tables:
        assert seen[table] and any(
            e["type"] == "game_over" for u in seen[table] for e in u["events"]
        )
