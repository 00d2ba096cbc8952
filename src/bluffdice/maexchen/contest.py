"""A Mäxchen contest as the organiser runs it: the UDP server, its store, the standings,
the house bots, and the last rounds, for `bluffdice maexchen` (a Rich table on the
terminal) and `bluffdice serve --maexchen` (a scoreboard page of the web server).

Rounds reach the store in batches, one transaction every `tick` seconds (half a second
by default), never one per round: at hundreds of rounds a second a commit per round
would cost more than the rounds. A clean stop (Ctrl-C, SIGTERM, `--rounds`,
`--duration`) stores every round played; a crash of the process loses at most the
rounds of the last tick. The standings are updated in the same batches.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from bluffdice.games.mia import MiaRules
from bluffdice.games.registry import rules_string
from bluffdice.maexchen.house import HouseBot, start_house_bots
from bluffdice.maexchen.server import (
    Address,
    MaexchenServer,
    Options,
    PlayedRound,
    dice_source,
    fair_rounds,
)
from bluffdice.maexchen.standings import ContestStandings

RECENT = 12
"""How many of the last rounds a contest keeps for its scoreboards."""


class Contest:
    """One contest from `start()` to `close()`; `watchers` are called after each batch
    of rounds and when a fair round's commitment is published."""

    def __init__(
        self,
        options: Options,
        rules: MiaRules | None = None,
        seed: int | None = None,
        house_bots: Sequence[str] = (),
        database: Any = None,
        fair: bool = False,
        tick: float = 0.5,
    ) -> None:
        dice, shuffle = dice_source(seed)
        self.server = MaexchenServer(
            options, dice, shuffle, rules, round_dice=fair_rounds(seed) if fair else None
        )
        self.seed = seed
        self.house_specs = list(house_bots)
        self.fair = fair
        self.tick = tick
        self.standings = ContestStandings()
        self.recent: deque[PlayedRound] = deque(maxlen=RECENT)
        self.commitment: tuple[int, str] | None = None
        """The latest fair round's (number, commitment), published before its first die."""
        self.watchers: list[Callable[[], None]] = []
        self.address: Address | None = None
        self.number: int | None = None
        """The contest's number in the store (None without a store)."""
        self._database = database
        self._contests: Any = None
        self._fresh: list[PlayedRound] = []
        self._house: list[HouseBot] = []
        self._running: asyncio.Task[None] | None = None
        self._started = time.perf_counter()
        self._absorbed_at = self._started
        """When the standings last took in rounds: the headline speed is theirs."""
        self.server.listeners.append(self._fresh.append)
        self.server.commitments.append(self._committed)

    @property
    def location(self) -> str | None:
        return None if self._database is None else str(self._database.location)

    async def start(self) -> Address:
        """Bind the port, open the contest in the store, register the house bots, and
        start playing. OSError if the port cannot be bound; RuntimeError or
        TimeoutError if a house bot cannot register."""
        self.address = await self.server.start()
        if self._database is not None:
            from bluffdice.store.maexchen import ContestStore

            self._contests = ContestStore(self._database)
            options = self.server.options
            settings = {
                "timeout": options.timeout,
                "early_start": options.early_start,
                "house_bots": self.house_specs,
                "dice": "fair" if self.fair else "system",
            }
            self.number = self._contests.start(rules_string(self.server.rules), settings, self.seed)
        try:
            self._house = await start_house_bots(
                self.house_specs, self.address, self.server.shuffle, rules=self.server.rules
            )
        except (RuntimeError, TimeoutError):
            self.server.close()
            raise
        self._started = self._absorbed_at = time.perf_counter()
        self._running = asyncio.create_task(self.server.run())
        return self.address

    def stop(self) -> None:
        """Ask the server to stop (signal handlers may call it); `run` then returns."""
        self.server.stop()

    async def run(
        self, duration: float | None = None, on_tick: Callable[[], None] | None = None
    ) -> None:
        """Store and rank the rounds every tick until the server stops (or `duration`
        seconds have passed), then store the last ones."""
        running = self._running
        assert running is not None, "start() the contest first"
        while not running.done():
            await asyncio.wait({running}, timeout=self.tick)
            self.absorb()
            if duration is not None and time.perf_counter() - self._started >= duration:
                self.server.stop()
            if on_tick is not None:
                on_tick()
        await running
        self.absorb()

    def absorb(self) -> None:
        """Store and rank the rounds played since the last call, in one transaction."""
        if not self._fresh:
            return
        batch = self._fresh[:]
        self._fresh.clear()
        if self._contests is not None and self.number is not None:
            self._contests.add_rounds(self.number, batch)
        for played in batch:
            self.standings.add(played, played.reason)
        self._absorbed_at = time.perf_counter()
        self.recent.extend(batch)
        self._tell()

    async def close(self) -> dict[str, Any]:
        """Stop, store what is left, close the port and the house bots; the summary."""
        self.server.stop()
        if self._running is not None and not self._running.done():
            await self._running
        self.absorb()
        for bot in self._house:
            bot.close()
        self.server.close()
        result = self.summary()
        if self._contests is not None and self.number is not None:
            self._contests.finish(self.number, result)
        return result

    def summary(self) -> dict[str, Any]:
        """Everything a scoreboard shows, as plain data (JSON as it is). The headline
        round count and speed are those of the standings it shows: the server plays on
        between batches, and a count taken from the server would run ahead of the table
        beneath it (`stats.rounds` keeps the server's own count)."""
        server = self.server
        seconds = time.perf_counter() - self._started
        ranked = self._absorbed_at - self._started
        rounds = self.standings.rounds
        address = self.address or ("", 0)
        return {
            "contest": self.number,
            "address": f"{address[0]}:{address[1]}",
            "rounds": rounds,
            "seconds": round(seconds, 3),
            "rounds_per_second": round(rounds / ranked, 1) if ranked > 0 else 0.0,
            "scores": dict(server.scores),
            "reasons": dict(sorted(self.standings.reasons.items())),
            "stats": dataclasses.asdict(server.stats),
            "standings": [msgspec.to_builtins(line) for line in self.standings.lines()],
        }

    def last_rounds(self) -> list[dict[str, Any]]:
        """The last rounds, newest first: who played, who lost and why, and the fair
        round's commitment."""
        return [
            {
                "number": r.number,
                "order": list(r.order),
                "losers": list(r.losers),
                "reason": r.reason,
                "commitment": r.fair.commitment if r.fair is not None else None,
            }
            for r in reversed(self.recent)
        ]

    def _committed(self, number: int, commitment: str) -> None:
        self.commitment = (number, commitment)

    def _tell(self) -> None:
        for watcher in self.watchers:
            watcher()


__all__ = ["RECENT", "Contest"]
