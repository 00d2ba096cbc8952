"""The hall: every table of a running server, with its seats, connections, bots and clock.

Nothing here knows about HTTP. The hall is made of its concerns, each a module: the
tables (`tables.LiveTable`, each a thin front end over the one host above its `Table`),
the connections (`connections.Connection`), the lobby (`lobby.Lobby`: creating, listing,
replaying and reviewing tables) and persistence (`persistence.Persistence`: the group
commit of each turn's steps, and resuming after a restart). `Hall` holds them together:
its tables, its store, its limits, and the guard that closes a table whose work fails.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable

from bluffdice.server.limits import Limits
from bluffdice.server.lobby import Lobby
from bluffdice.server.persistence import Persistence
from bluffdice.server.refusals import HallError
from bluffdice.server.tables import LiveTable
from bluffdice.store.tables import TableStore
from bluffdice.table import DiceSource, system
from bluffdice.table.fair import new_server_seed

log = logging.getLogger("bluffdice.server")


class Hall(Persistence, Lobby):
    """Every table of one server, backed by a `TableStore` (None: nothing survives)."""

    def __init__(
        self,
        store: TableStore | None,
        dice: Callable[[], DiceSource] = system,
        bot_delay: float = 0.8,
        server_seed: Callable[[], bytes] = new_server_seed,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits if limits is not None else Limits()
        self.dice = dice
        self.server_seed = server_seed
        """Makes the secret of each table with fair dice (tests pass a known one)."""
        self.bot_delay = bot_delay
        """Seconds a house bot waits before it moves (people watch it play)."""
        self.tables: dict[str, LiveTable] = {}
        self._start_persistence()
        self._start_lobby()

    def guard(self, live: LiveTable, work: Callable[[], None]) -> None:
        """Run a table's work; if the store fails, the table leaves memory unannounced
        (it is resumed from the store, where every step its players saw is kept)."""
        try:
            work()
        except Exception:
            log.exception("table %s failed; it is closed and resumes on restart", live.id)
            live.close()
            self.tables.pop(live.id, None)

    def sweep(self) -> int:
        """Close as abandoned the open tables unfilled for `limits.open_seconds` and the
        running ones without a step for `limits.idle_seconds`. Returns how many."""
        now = time.monotonic()
        limits = self.limits
        stale = [
            live
            for live in self.tables.values()
            if (live.status == "open" and now - live.active >= limits.open_seconds)
            or (live.status == "running" and now - live.active >= limits.idle_seconds)
        ]
        for live in stale:
            self.guard(live, functools.partial(live.abandon, "expired"))
        return len(stale)

    def get(self, table_id: str) -> LiveTable:
        live = self.find(table_id)
        if live is None:
            raise HallError.said("err.noTable")
        return live

    def close(self) -> None:
        self.end_turn()
        self._write_committed()
        for live in self.tables.values():
            live.close()
