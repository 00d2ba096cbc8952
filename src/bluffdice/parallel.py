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
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bluffdice.protocol.limits import worker_dies_with
from bluffdice.sandbox import hide_host

T = TypeVar("T")
R = TypeVar("R")

MAX_LOSSES = 3
"""Worker processes that may die in one run before it stops (a batch that kills every
worker it runs in must not be retried for ever)."""
IN_FLIGHT = 4
"""Chunks submitted ahead per worker: enough to keep workers busy, few enough that a
long run's results do not pile up in memory."""


class WorkerLost(RuntimeError):
    """A worker process ended abruptly (killed, or out of memory) and the run may not go
    on without it."""


def ordered_map(
    function: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    on_lost: Callable[[str], None] | None = None,
    retries: int = MAX_LOSSES,
) -> Generator[R, None, None]:
    """`function` on every item, in `workers` processes (one: in this process), yielding
    the results in the order of `items` whatever order the workers finish in.

    `function` and the items must pickle (a module-level function, plain values). Workers
    are started by forkserver (or spawn), not fork: the caller may run a progress bar
    thread, and forking a process that has threads can deadlock. Each worker ignores
    Ctrl-C (the parent alone reports it), dies with the process that started it, and
    ends at once when the parent stops early (Ctrl-C, an error), so nothing runs on:
    a caller that stops consuming must `close()` the generator (the workers stop then,
    not whenever the garbage collector gets to it).

    A worker that dies breaks its pool: the items not yet handed back are played again
    in a new pool (items carry their own seeds, so their results are the same), and
    `on_lost` hears one line about it. After `retries` such losses, or at the first one
    when `retries` is 0, WorkerLost is raised; the results yielded before stay valid.
    """
    if workers <= 1:
        for item in items:
            yield function(item)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    fresh = iter(items)
    again: deque[T] = deque()
    losses = 0
    while True:
        stop = context.Semaphore(0)
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), stop),
        )
        window: deque[tuple[T, Future[R]]] = deque()
        unsent: list[T] = []  # an item taken whose submission failed
        try:
            yield from _in_order(function, pool, _drain(again, fresh), workers, window, unsent)
            return
        except BrokenProcessPool:
            losses += 1
            again = deque([item for item, _ in window] + unsent + list(again))
            what = (
                "a worker process ended abruptly (killed by a signal, or out of memory) "
                f"with {len(window)} unfinished batches"
            )
            if losses > retries:
                raise WorkerLost(what) from None
            if on_lost is not None:
                on_lost(f"{what}; playing them again in new workers")
        finally:
            for _ in range(workers):  # a semaphore, not an Event: a dead waiter on an
                stop.release()  # Event's condition would block `set` for ever
            pool.shutdown(wait=False, cancel_futures=True)


def _in_order(
    function: Callable[[T], R],
    pool: ProcessPoolExecutor,
    items: Iterable[T],
    workers: int,
    window: deque[tuple[T, Future[R]]],
    unsent: list[T],
) -> Iterator[R]:
    """The results of one pool, in order, with IN_FLIGHT items a worker sent ahead.
    `window` (the items sent and not yet handed back) and `unsent` are the caller's, so
    that a broken pool leaves behind what must be played again."""
    for item in items:
        unsent[:] = [item]
        window.append((item, pool.submit(_stoppable, function, item)))
        unsent.clear()
        if len(window) >= IN_FLIGHT * workers:
            result = window[0][1].result()
            window.popleft()
            yield result
    while window:
        result = window[0][1].result()
        window.popleft()
        yield result


def _drain(first: deque[T], then: Iterator[T]) -> Iterator[T]:
    """The items of `first` (taken out as they are used), then those of `then`. Not
    `yield from`: closing this generator when a pool breaks must leave `then` open."""
    while first:
        yield first.popleft()
    for item in then:  # noqa: UP028
        yield item


def _start_worker(parent: int, stop: Any) -> None:
    """A worker ignores Ctrl-C (the parent reports it), dies with the parent, ends as
    soon as the parent releases `stop`, and is as closed to other processes as the parent is
    (it holds the games' states too)."""
    _leave_ctrl_c_to_parent()
    worker_dies_with(parent)
    hide_host()

    def wait_for_stop() -> None:
        stop.acquire()
        with _WORKER.lock:
            _WORKER.stopping = True
            if _WORKER.inside:
                os._exit(1)

    threading.Thread(target=wait_for_stop, name="bluffdice-stop", daemon=True).start()


class _WorkerState:
    """Where a worker's main thread is, as far as stopping it is concerned.

    A worker may end at once only while it runs an item: between two items it may be
    writing a result to the pool's pipe, and a worker that dies halfway through a write
    leaves the pool's reader thread in the parent waiting for the rest for ever (and the
    parent's exit waits on that thread). So a stop that finds the worker outside an item
    leaves it to `_stoppable`, which ends the worker before it takes the next item or
    before it hands the current one back."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inside = False
        self.stopping = False


_WORKER = _WorkerState()


def _stoppable(function: Callable[[T], R], item: T) -> R:
    """`function(item)` in a worker, which the parent's stop may end at any moment."""
    with _WORKER.lock:
        if _WORKER.stopping:
            os._exit(1)
        _WORKER.inside = True
    try:
        return function(item)
    finally:
        with _WORKER.lock:
            _WORKER.inside = False
            if _WORKER.stopping:
                os._exit(1)  # before the result is written, never halfway through it


def _leave_ctrl_c_to_parent() -> None:
    """Ctrl-C reaches every process of the terminal's group: workers ignore it, so the
    parent alone stops the run and says what happened (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
