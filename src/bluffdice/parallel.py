"""Work spread over local worker processes, results handed back in the order given.

Tournaments and the batch simulator both cut their work into chunks that carry their own
seeds, so a chunk's result does not depend on which process plays it; handing results
back in the order the chunks were given then makes the whole run independent of the
number of workers. This module is that pool, and nothing more.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

from bluffdice.protocol.limits import worker_dies_with
from bluffdice.sandbox import hide_host

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT = 4
"""Chunks submitted ahead per worker: enough to keep workers busy, few enough that a
long run's results do not pile up in memory."""


def ordered_map(function: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[R]:
    """`function` on every item, in `workers` processes (one: in this process), yielding
    the results in the order of `items` whatever order the workers finish in.

    `function` and the items must pickle (a module-level function, plain values). Workers
    are started by forkserver (or spawn), not fork: the caller may run a progress bar
    thread, and forking a process that has threads can deadlock. Each worker ignores
    Ctrl-C (the parent alone reports it) and dies with the process that started it, so a
    run killed with SIGKILL leaves nothing running.
    """
    if workers <= 1:
        for item in items:
            yield function(item)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(),),
    ) as pool:
        window: deque[Future[R]] = deque()
        try:
            for item in items:
                window.append(pool.submit(function, item))
                if len(window) >= IN_FLIGHT * workers:
                    yield window.popleft().result()
            while window:
                yield window.popleft().result()
        finally:
            for future in window:
                future.cancel()


def _start_worker(parent: int) -> None:
    """A worker ignores Ctrl-C (the parent reports it), dies with the parent, and is as
    closed to other processes as the parent is (it holds the games' states too)."""
    _leave_ctrl_c_to_parent()
    worker_dies_with(parent)
    hide_host()


def _leave_ctrl_c_to_parent() -> None:
    """Ctrl-C reaches every process of the terminal's group: workers ignore it, so the
    parent alone stops the run and says what happened (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
