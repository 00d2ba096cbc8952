"""Where the games of a tournament are played: here, in a local process pool, or on Ray.

Every executor takes the same chunks of jobs and yields their results chunk by chunk,
in the order the chunks were given, whatever order the workers finish in. Results do not
depend on the executor: each game carries its own seeds.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol

from bluffdice.games.base import BluffdiceError
from bluffdice.protocol.limits import worker_dies_with
from bluffdice.tournament.play import GameJob, GameResult, play_chunk

EXECUTORS = ("local", "ray")

IN_FLIGHT = 4
"""Chunks submitted ahead per worker: enough to keep workers busy, few enough that a
long tournament's results do not pile up in memory."""


class Executor(Protocol):
    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Iterator[list[GameResult]]: ...


class SerialExecutor:
    """Plays every game in this process: no start-up cost, best for small runs and tests."""

    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Iterator[list[GameResult]]:
        for chunk in chunks:
            yield play_chunk(chunk, rules_text)


class ProcessExecutor:
    """A pool of local worker processes.

    Workers are started by forkserver (or spawn), not fork: the parent runs a progress
    bar thread, and forking a process that has threads can deadlock. Each worker dies
    with the process that started it (and its bot programs with it), so a tournament
    killed with SIGKILL leaves nothing running.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Iterator[list[GameResult]]:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        with ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(),),
        ) as pool:
            window: deque[Future[list[GameResult]]] = deque()
            try:
                for chunk in chunks:
                    window.append(pool.submit(play_chunk, chunk, rules_text))
                    if len(window) >= IN_FLIGHT * self.workers:
                        yield window.popleft().result()
                while window:
                    yield window.popleft().result()
            finally:
                for future in window:
                    future.cancel()


def _start_worker(parent: int) -> None:
    """A worker ignores Ctrl-C (the parent reports it) and dies with the parent."""
    _leave_ctrl_c_to_parent()
    worker_dies_with(parent)


def _leave_ctrl_c_to_parent() -> None:
    """Ctrl-C reaches every process of the terminal's group: workers ignore it, so the
    parent alone stops the tournament and says what was stored (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class RayExecutor:
    """Runs the chunks as Ray tasks: on the cluster at `RAY_ADDRESS`, else a local Ray.

    The cluster's workers must be able to import bluffdice (and any bot file given by
    path must exist on them at the same path).
    """

    def __init__(self, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BluffdiceError(
                "--executor ray needs the ray extra: pip install 'bluffdice[ray]'"
            ) from None
        self._ray: Any = ray
        self.address = address if address is not None else os.environ.get("RAY_ADDRESS")

    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Iterator[list[GameResult]]:
        ray = self._ray
        started_here = not ray.is_initialized()
        if started_here:
            ray.init(address=self.address or None, include_dashboard=False, log_to_driver=False)
        try:
            task = ray.remote(play_chunk)
            ahead = IN_FLIGHT * max(1, int(ray.cluster_resources().get("CPU", 1)))
            window: deque[Any] = deque()
            for chunk in chunks:
                window.append(task.remote(list(chunk), rules_text))
                if len(window) >= ahead:
                    yield ray.get(window.popleft())
            while window:
                yield ray.get(window.popleft())
        finally:
            if started_here:
                ray.shutdown()


def make_executor(kind: str, workers: int) -> Executor:
    """`local` with one worker plays in this process; more start a process pool."""
    if kind == "ray":
        return RayExecutor()
    if kind != "local":
        raise BluffdiceError(f"unknown executor {kind!r}; executors are: {', '.join(EXECUTORS)}")
    if workers <= 1:
        return SerialExecutor()
    return ProcessExecutor(workers)
