"""What an anonymous visitor may make the server do: every limit of `bluffdice serve`,
each a setting with a default meant for a server on the open internet (`bluffdice serve
--help` names the option of each; docs/web.md, "Limits", lists them).

The hall enforces the limits on tables, games, reviews and seats; the web application
enforces those on request bodies and connections.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Limits:
    tables_per_address: int = 10
    """Open and running tables one address may have created at once."""
    tables: int = 1000
    """Open and running tables in all."""
    open_seconds: float = 3600.0
    """An open table whose seats are not all taken by then is closed as abandoned."""
    idle_seconds: float = 6 * 3600.0
    """A running table with no step for this long is closed as abandoned."""
    bot_tables: int = 0
    """Tables of bots only, running at once (0: refused)."""
    game_steps: int = 2000
    """Steps (moves and rolls) of one served game; a game that reaches it ends, abandoned."""
    reviews: int = 1
    """Reviews worked on at once, each in a thread of its own..."""
    review_queue: int = 8
    """...and waiting for one; a review asked beyond that is refused as busy."""
    review_steps: int = 600
    """The longest game (in steps) the server reviews."""
    body_bytes: int = 64 * 1024
    """The largest request body (413 beyond it, by Content-Length or as it streams in)."""
    connections_per_address: int = 50
    """Websockets open at once from one address."""
    connections_per_table: int = 100
    """Websockets open at once to one table (players and spectators)."""
    away_seconds: float = 120.0
    """A seated player offline this long may be replaced by the table's creator."""
    resume_batch: int = 50
    """Stored tables loaded per turn of the event loop after a restart (lazy resume)."""

    @classmethod
    def unlimited(cls) -> Limits:
        """Limits no test or benchmark reaches: the server as it ran before them."""
        big = 10**9
        return cls(**{f.name: big for f in fields(cls)})

    def changed(self, **values: Any) -> Limits:
        """These limits with some changed (None leaves a value as it is)."""
        now = {f.name: getattr(self, f.name) for f in fields(self)}
        now.update({name: value for name, value in values.items() if value is not None})
        return Limits(**now)
