"""The live scoreboard of a Mäxchen contest, as a page of the web server.

`bluffdice serve --maexchen` runs the contest's UDP server in the web server's event
loop; this module gives it two routes: `/scoreboard`, a page made for a projector, and
`/api/scoreboard`, its data. The page long-polls: `GET /api/scoreboard?after=N` answers
at once if the board has changed since version N, else when it next changes (or after
`WAIT` seconds with the same version). The board changes once per batch of rounds (the
contest's tick, half a second), so a full room of browsers costs a few requests a
second, whatever the rounds per second.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from bluffdice.maexchen.contest import Contest
from bluffdice.server.pages import page_response

WAIT = 20.0
"""Longest a long-poll waits for a change, in seconds (below common proxy timeouts)."""


class Scoreboard:
    """Watches a contest; `version` counts its changes, `data()` is what the page shows."""

    def __init__(self, contest: Contest, address: str | None = None) -> None:
        self.contest = contest
        self.address = address
        """What bots should be told to send to (host:port), if not the bound address."""
        self.version = 0
        self._changed: asyncio.Event | None = None
        contest.watchers.append(self.touch)

    def touch(self) -> None:
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait(self, after: int, timeout: float = WAIT) -> None:
        """Return when the version is past `after`, or after `timeout` seconds."""
        if self.version > after:
            return
        if self._changed is None:
            self._changed = asyncio.Event()
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)

    def data(self) -> dict[str, Any]:
        contest = self.contest
        summary = contest.summary()
        commitment = contest.commitment
        return {
            "version": self.version,
            "contest": summary["contest"],
            "address": self.address or summary["address"],
            "rounds": summary["rounds"],
            "rounds_per_second": summary["rounds_per_second"],
            "fair": contest.fair,
            "secret": contest.server.options.require_secret,
            "commitment": (
                None if commitment is None else {"round": commitment[0], "hex": commitment[1]}
            ),
            "reasons": summary["reasons"],
            "standings": summary["standings"],
            "last_rounds": contest.last_rounds(),
        }


def routes(board: Scoreboard) -> list[BaseRoute]:
    """The page and its data, to add to the web server's routes."""

    async def page(request: Request) -> Response:
        return page_response(request, "scoreboard.html")

    async def api(request: Request) -> Response:
        after = request.query_params.get("after")
        if after is not None:
            if not after.isdigit() or len(after) > 12:
                return JSONResponse({"error": "after is a version number"}, status_code=400)
            await board.wait(int(after))
        return JSONResponse(board.data(), headers={"Cache-Control": "no-store"})

    return [Route("/scoreboard", page), Route("/api/scoreboard", api)]


@contextlib.asynccontextmanager
async def running(contest: Contest) -> AsyncIterator[Contest]:
    """Start the contest in the current event loop (the web server's) and keep storing
    and ranking its rounds until the block ends; then stop it and store the rest."""
    await contest.start()
    task = asyncio.create_task(contest.run())
    try:
        yield contest
    finally:
        contest.stop()
        with contextlib.suppress(Exception):
            await task
        await contest.close()


Lifespan = Callable[[Starlette], AbstractAsyncContextManager[None]]


def with_contest(lifespan: Lifespan, board: Scoreboard) -> Lifespan:
    """The web server's lifespan with the board's contest running inside it."""

    @contextlib.asynccontextmanager
    async def both(app: Starlette) -> AsyncIterator[None]:
        async with lifespan(app), running(board.contest):
            yield

    return both


__all__ = ["WAIT", "Scoreboard", "routes", "running", "with_contest"]
