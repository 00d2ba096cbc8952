"""A killed tournament leaves no process behind: not its workers, not its bot programs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "bot.py"


def descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except FileNotFoundError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{parent}/task/{task}/children").read_text().split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


# A process can exit between opening its /proc file and reading it; the read then fails
# with ESRCH (ProcessLookupError) rather than ENOENT, so every reader tolerates both.


def running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return -1


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_kill_9_of_a_two_worker_tournament_leaves_no_process_alive(tmp_path: Path) -> None:
    bluffdice = Path(sys.executable).parent / "bluffdice"
    command = [
        str(bluffdice), "tournament", "--workers", "2", "--games", "5000", "--seed", "1",
        "--bots", f"cmd:{sys.executable} {BOT},odds",
        "--no-store",
    ]  # fmt: skip
    main = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: set[int] = set()
    try:
        started = time.monotonic()
        # Wait until both workers play games with their bot programs running (the main
        # process keeps one too, from checking the bot's hello). A sandboxed bot is two
        # processes that name the bot: bubblewrap outside the sandbox and the bot, the
        # sandbox's first process; the main process's bubblewrap is its own child.
        while time.monotonic() - started < 120:
            seen |= descendants(main.pid)
            playing = [
                p
                for p in seen
                if running(p) and str(BOT) in command_line(p) and parent(p) != main.pid
            ]
            if len(playing) >= 5:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the tournament never started its bot programs")
        seen |= descendants(main.pid)
        assert len(seen) >= 9  # forkserver, two workers, bot programs and their sandboxes
    finally:
        main.send_signal(signal.SIGKILL)
        main.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(running(p) for p in seen):
        time.sleep(0.1)
    left = {p: command_line(p)[:80] for p in seen if running(p)}
    assert not left, f"still running after kill -9 of the tournament: {left}"
