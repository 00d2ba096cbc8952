"""Reviews of finished games, rated in worker processes, never in the server's own.

Rating a game (the odds, the solved round, every decision of every seat) is pure Python:
in a thread of the server it holds the interpreter's lock, so every table's moves wait
behind it, and the first one loads the review's models into the server's memory. A
worker process rates it instead, at the lowest CPU priority, so the event loop keeps its
core. The worker is a fresh interpreter (spawned, not forked from a server that holds
other tables' hidden dice) and is handed only what is public once the game is over: the
rules, the names and the steps (`ReviewJob`); it answers the review as JSON-able data.

`ReviewQueue` is the server's side: `limits.reviews` workers, started by the first
review, at most `limits.review_queue` reviews waiting for them (more are refused as
busy), each review kept by the hall once worked out.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bluffdice.server.refusals import HallError

if TYPE_CHECKING:
    from bluffdice.games.registry import GameSpec
    from bluffdice.server.hall import Hall


@dataclass(frozen=True)
class ReviewJob:
    """A finished game as the worker gets it: all of it public after the game."""

    table_id: str
    game: str
    rules: str
    players: int
    steps: tuple[str, ...]
    names: tuple[str, ...]
    plugin: GameSpec | None = None
    """The game's spec when it is not one of bluffdice's own: a game the serving program
    registered, which the fresh worker must register too."""

    def rate(self) -> dict[str, Any]:
        """Every decision of every seat rated as `bluffdice review` rates it, from that
        seat, with the models that rated them; or, for a game the review cannot rate,
        why not (in English and as the page's catalogue key)."""
        from bluffdice.games.base import BluffdiceError, RuleError
        from bluffdice.games.record import Record
        from bluffdice.games.registry import get_game, register
        from bluffdice.review import review_game
        from bluffdice.review.words import Phrase, game

        if self.plugin is not None:
            try:
                get_game(self.plugin.name)
            except RuleError:
                register(self.plugin)

        record = Record(game=self.game, rules=self.rules, players=self.players, steps=self.steps)
        ratings: list[dict[str, Any]] = []
        models: dict[str, str] = {}
        models_said: dict[str, Any] = {}
        reason = None
        try:
            for seat in range(self.players):
                reviewed = review_game(record, seat, self.names, about=True).to_json()
                models.update(reviewed["models"])
                models_said.update(reviewed["models_said"])
                ratings.extend({"seat": seat, **row} for row in reviewed["ratings"])
        except (NotImplementedError, BluffdiceError, ValueError) as exc:
            ratings, models, models_said = [], {}, {}
            title = game(get_game(self.game))  # the page says the game's name in its language
            reason = (
                Phrase("rv.none.why", game=title, reason=exc)
                if str(exc)
                else Phrase("rv.none", game=title)
            )
        ratings.sort(key=lambda row: row["step"])
        return {
            "id": self.table_id,
            "ratings": ratings,
            "models": models,
            "models_said": models_said,
            "reason": None if reason is None else str(reason),
            "reason_said": None if reason is None else reason.to_json(),
        }


def _lowest_priority() -> None:
    """In each worker as it starts: give way to the server's event loop on a busy CPU."""
    os.nice(19)


class ReviewQueue:
    """Reviews rated `limits.reviews` at a time in worker processes, at most
    `limits.review_queue` waiting; one asked beyond that is refused as busy."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.waiting = 0
        self._running: asyncio.Semaphore | None = None
        self._pool: ProcessPoolExecutor | None = None

    async def review(self, table_id: str) -> dict[str, Any]:
        limits = self.hall.limits
        cached = self.hall.cached_review(table_id)
        if cached is not None:
            return cached
        if self.waiting >= limits.review_queue + limits.reviews:
            raise HallError.said("err.reviewBusy")
        if self._running is None:
            self._running = asyncio.Semaphore(max(1, limits.reviews))
        self.waiting += 1
        try:
            async with self._running:
                cached = self.hall.cached_review(table_id)  # asked again while it waited
                if cached is not None:
                    return cached
                job = self.hall.review_job(table_id)
                answer = await self._rated(job)
                self.hall.keep_review(table_id, answer)
                return answer
        finally:
            self.waiting -= 1

    async def _rated(self, job: ReviewJob) -> dict[str, Any]:
        """The job rated by a worker (started on first use; a new one if one died)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=max(1, self.hall.limits.reviews),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lowest_priority,
            )
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, job.rate)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False)
            raise HallError.said("err.reviewBusy") from None

    def close(self) -> None:
        """Stop the workers: waiting reviews are dropped, the one being rated ends."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
