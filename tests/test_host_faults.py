"""Faults of the host side: a worker killed mid-tournament, Ctrl-C with workers.

A tournament's worker can die (the OOM killer, a stray `kill -9`). The games counted
before stay stored, the lost batches are played again in new workers, and the results
are exactly those of an undisturbed run, because every game carries its own seed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_bot_kill import command_line, descendants, running

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")

BLUFFDICE = str(Path(sys.executable).parent / "bluffdice")
ARGS = ["tournament", "--bots", "honest,liar,random", "--games", "6000", "--seed", "5"]


def workers_of(main: int) -> list[int]:
    """The pool's worker processes: children of the forkserver that `main` started."""
    found = []
    for pid in descendants(main):
        if "forkserver" in command_line(pid) and running(pid):
            found += [c for c in descendants(pid) if running(c)]
    return found


def wait_for_workers(main: subprocess.Popen[str], count: int) -> list[int]:
    started = time.monotonic()
    while time.monotonic() - started < 60:
        found = workers_of(main.pid)
        if len(found) >= count:
            return found
        time.sleep(0.05)
    main.kill()
    pytest.fail("the tournament never started its workers")


def test_a_killed_worker_loses_no_game_and_changes_no_result(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    plain = subprocess.run(
        [BLUFFDICE, *ARGS, "--json", "--no-store"], capture_output=True, text=True, check=True
    )
    command = [BLUFFDICE, *ARGS, "--workers", "2", "--json", "--db", str(db)]
    main = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    victim = wait_for_workers(main, 2)[0]
    time.sleep(0.5)  # a few batches in
    os.kill(victim, signal.SIGKILL)
    stdout, stderr = main.communicate(timeout=120)
    assert main.returncode == 0, stderr
    assert "worker process ended abruptly" in stderr
    assert stderr.count("warning:") == 1
    disturbed, undisturbed = json.loads(stdout), json.loads(plain.stdout)
    assert disturbed["bots"] == undisturbed["bots"]
    stored = subprocess.run(
        [BLUFFDICE, "replay", "--list", "--db", str(db)], capture_output=True, text=True
    )
    assert stored.returncode == 0 and "6000" in stored.stdout


def test_a_killed_worker_stops_the_run_under_on_bot_error_stop(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    command = [BLUFFDICE, *ARGS, "--workers", "2", "--on-bot-error", "stop", "--db", str(db)]
    main = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    victim = wait_for_workers(main, 2)[0]
    time.sleep(0.5)
    os.kill(victim, signal.SIGKILL)
    _, stderr = main.communicate(timeout=120)
    assert main.returncode == 2
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "worker process ended abruptly" in lines[0]
    assert "Traceback" not in stderr and "games played so far are stored" in lines[0]


def test_ctrl_c_with_two_workers_stops_at_once_and_leaves_nothing_running() -> None:
    command = [BLUFFDICE, *ARGS, "--games", "200000", "--workers", "2", "--no-store"]
    main = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers = wait_for_workers(main, 2)
    time.sleep(0.3)
    main.send_signal(signal.SIGINT)
    _, stderr = main.communicate(timeout=60)
    assert main.returncode == 130 and "Interrupted" in stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(running(p) for p in workers):
        time.sleep(0.05)
    assert not [p for p in workers if running(p)]


def test_the_host_and_its_workers_are_not_dumpable(tmp_path: Path) -> None:
    """A non-dumpable process's memory is closed to every non-root process of its user."""
    probe = tmp_path / "dumpable_probe.py"
    probe.write_text(
        "import ctypes\n"
        "from bluffdice.sandbox import hide_host\n"
        "from bluffdice.parallel import ordered_map\n"
        "def state(_):\n"
        "    return ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE\n"
        "if __name__ == '__main__':\n"
        "    before = state(0)\n"
        "    hide_host()\n"
        "    print(before, state(0), sorted(set(ordered_map(state, range(8), 2))))\n"
    )
    done = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "0", "[0]"]
