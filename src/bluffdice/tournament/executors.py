"""Where the games of a tournament are played: here, in a local process pool, or on Ray.

Every executor takes the same chunks of jobs and yields their results chunk by chunk,
in the order the chunks were given, whatever order the workers finish in. Results do not
depend on the executor: each game carries its own seeds.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections import deque
from collections.abc import Generator, Iterable, Sequence
from typing import Any, Protocol

from bluffdice.games.base import BluffdiceError
from bluffdice.parallel import IN_FLIGHT, MAX_LOSSES, ordered_map
from bluffdice.tournament.play import GameJob, GameResult, play_chunk

EXECUTORS = ("local", "ray")


class Executor(Protocol):
    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Generator[list[GameResult], None, None]:
        """A generator, so that a caller that stops early (Ctrl-C, a bot fault) can close
        it at once, and the workers stop with it."""
        ...


class SerialExecutor:
    """Plays every game in this process: no start-up cost, best for small runs and tests."""

    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Generator[list[GameResult], None, None]:
        for chunk in chunks:
            yield play_chunk(chunk, rules_text)


class ProcessExecutor:
    """A pool of local worker processes (`bluffdice.parallel`: started by forkserver,
    they die with the process that started them, and their bot programs with them)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.retry_lost = True
        """A worker that dies: play its unfinished chunks again (False: stop the run)."""

    def run(
        self, chunks: Iterable[Sequence[GameJob]], rules_text: str
    ) -> Generator[list[GameResult], None, None]:
        play = functools.partial(play_chunk, rules_text=rules_text)
        retries = MAX_LOSSES if self.retry_lost else 0
        yield from ordered_map(play, chunks, self.workers, on_lost=_say, retries=retries)


def _say(line: str) -> None:
    """A lost worker, told on standard error (never the standard output of --json)."""
    sys.stderr.write(f"warning: {line}\n")
    sys.stderr.flush()


class RayExecutor:
    """Runs the chunks as Ray tasks: on the cluster at `RAY_ADDRESS`, else a local Ray.

    The cluster's workers must be able to import bluffdice (and any bot file given by
    path must exist on them at the same path). A chunk whose node dies is played again
    on another (Ray retries a task lost with its node, up to MAX_LOSSES times): each game
    carries its seeds, so the results are those of the local run. A bot's own failure is
    a result, never retried.
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
    ) -> Generator[list[GameResult], None, None]:
        ray = self._ray
        started_here = not ray.is_initialized()
        # Ray's driver prints what its nodes report (a node lost, a task retried) to
        # standard output; --json keeps that for the results alone
        with contextlib.redirect_stdout(sys.stderr):
            if started_here:
                ray.init(address=self.address or None, include_dashboard=False, log_to_driver=False)
            try:
                task = ray.remote(max_retries=MAX_LOSSES, retry_exceptions=False)(play_chunk)
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
