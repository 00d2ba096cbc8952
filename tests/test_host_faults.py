"""Faults of the host side: a worker killed mid-tournament, Ctrl-C with workers.

A tournament's worker can die (the OOM killer, a stray `kill -9`). The games counted
before stay stored, the lost batches are played again in new workers, and the results
are exactly those of an undisturbed run, because every game carries its own seed.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bluffdice.games.registry import parse_rules
from bluffdice.sim.match import run_matches
from bluffdice.stats import Standings
from bluffdice.tournament import make_config, run_tournament
from bluffdice.tournament.executors import ProcessExecutor
from bluffdice.tournament.play import GameResult
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


class _Stop(Exception):
    """Raised by a caller's own callback, between two results (where Ctrl-C often lands:
    in the store's write or the progress bar, not in the wait for a worker)."""


def _wait_for_no_children(seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and multiprocessing.active_children():
        time.sleep(0.05)
    return [p.pid or 0 for p in multiprocessing.active_children()]


def test_a_tournament_stopped_by_its_callback_stops_its_workers_at_once() -> None:
    config = make_config("classic", ["honest", "liar"], 200_000, seed=3)

    def stop(_results: list[GameResult], _standings: Standings) -> None:
        raise _Stop

    # The exception (and the traceback with the loop's frames) is kept alive, as the
    # command line keeps it while it reports: the workers must not wait for it to go.
    with pytest.raises(_Stop) as kept:
        run_tournament(config, ProcessExecutor(2), 2, on_results=stop)
    assert _wait_for_no_children(10) == [], "the workers ran on after the run stopped"
    assert kept.value is not None


def test_a_simulation_stopped_by_its_progress_bar_stops_its_workers_at_once() -> None:
    def stop(_games: int) -> None:
        raise _Stop

    with pytest.raises(_Stop) as kept:
        run_matches(parse_rules("classic"), ["honest", "liar"], 2_000_000, 1, stop, workers=2)
    assert _wait_for_no_children(10) == [], "the workers ran on after the run stopped"
    assert kept.value is not None


def test_a_run_stopped_while_workers_send_big_results_exits_at_once(tmp_path: Path) -> None:
    """A worker stopped halfway through writing a result would leave the parent's pool
    thread waiting for the rest of it, and the parent's exit with it."""
    script = tmp_path / "big_results.py"
    script.write_text(
        "from bluffdice.parallel import ordered_map\n"
        "def big(i):\n"
        "    return bytes(30_000_000)\n"
        "if __name__ == '__main__':\n"
        "    for round in range(3):\n"
        "        results = ordered_map(big, range(40), 2)\n"
        "        next(results)\n"
        "        results.close()\n"
        "    print('stopped')\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.split() == ["stopped"], done.stderr


def test_a_ctrl_c_that_a_library_swallows_is_still_seen_between_batches() -> None:
    """As SQLAlchemy's weakref callbacks do: the KeyboardInterrupt raised inside them is
    printed as "Exception ignored" and lost; the tournament's loop must stop anyway."""
    from bluffdice.cli.interrupt import remembered_ctrl_c

    before = signal.getsignal(signal.SIGINT)
    with remembered_ctrl_c() as ctrl_c:
        ctrl_c.check()  # nothing pressed yet
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler runs here, in the main thread
        except KeyboardInterrupt:
            pass  # swallowed
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.check()
    assert signal.getsignal(signal.SIGINT) is before
