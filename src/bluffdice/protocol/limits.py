"""Operating-system bounds for bot processes: resources, and dying with the parent.

A bot program is untrusted: it may loop, allocate without end or outlive the
tournament that started it. The bounds here are the cheap ones Linux offers (rlimits,
the parent-death signal); elsewhere the process group and explicit cleanup remain.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import select
import signal
import sys
import threading
import time
from collections.abc import Callable

import msgspec

from bluffdice.protocol import DEFAULT_MOVE_TIME

PR_SET_PDEATHSIG = 1


class Limits(msgspec.Struct, frozen=True):
    """What one bot process may use. None leaves that bound to the OS defaults."""

    move_time: float = DEFAULT_MOVE_TIME
    """Seconds a bot has for one move (from the prompt to its answer)."""
    memory_mb: int | None = 2048
    """Memory of the bot, in MiB: of its whole process tree where a control group can be
    made (`bluffdice.sandbox.cgroups`), and the address space of each process (RLIMIT_AS)."""
    cpu_seconds: int | None = 3600
    """CPU time of the bot process over its whole life (RLIMIT_CPU): a runaway bound,
    since one process plays many games."""
    start_time: float = 15.0
    """Seconds a bot has to start and say hello."""
    isolation: str = "sandbox"
    """sandbox: bubblewrap (`bluffdice.sandbox`); process: a plain child process, only
    when the user says so (`--unsandboxed`)."""
    processes: int | None = 64
    """Processes and threads of the bot's whole tree (a control group's pids.max, and
    RLIMIT_NPROC in the sandbox's own user namespace)."""
    file_mb: int | None = 64
    """Largest file the bot may write (RLIMIT_FSIZE); its scratch folders are small
    tmpfs besides."""
    stderr_mb: int = 16
    """Bytes of standard error read from the bot over its life; after that its standard
    error is closed (it can no longer make the host read without end)."""


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6", use_errno=True)
    except OSError:
        return None
    function: Callable[..., int] = libc.prctl
    return function


_PRCTL = _prctl()
"""Looked up once, before any fork: the child's preexec function must not import."""


def die_with_parent(expected_parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux), and exit now
    if the parent is already gone (the death happened before the request)."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != expected_parent:
        os._exit(1)


def worker_dies_with(main: int) -> None:
    """Initializer for pool workers: end when the process `main` ends, however it ends.

    A pool worker's parent is the forkserver, not the tournament's process, so the
    parent-death signal alone does not reach it; a thread waits on the main process
    (a pidfd on Linux, else polling) and ends the worker, whose bot programs then die
    with it.
    """
    die_with_parent(os.getppid())

    def watch() -> None:
        try:
            fd = os.pidfd_open(main)
        except (AttributeError, OSError):
            fd = None
        if fd is not None:
            select.select([fd], [], [])
        else:
            while _exists(main):
                time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="bluffdice-watch-parent", daemon=True).start()


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def child_setup(limits: Limits) -> Callable[[], None]:
    """The function a bot's child process runs between fork and exec: its rlimits, no
    core files, and death with the process that started it."""
    parent = os.getpid()

    def setup() -> None:
        if limits.memory_mb is not None:
            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if limits.cpu_seconds is not None:
            cpu = limits.cpu_seconds
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        die_with_parent(parent)

    return setup
