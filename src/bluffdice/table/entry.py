"""`Entry`: one applied step of a table's log.

It lives in a module of its own, apart from `table.py`, because `table.py` may be
compiled with mypyc (see `docs/web.md`, "Load"), and mypyc builds the classes of a
compiled module without msgspec's class keywords (`frozen`, `gc`, `tag`). Message and
record types therefore stay in modules that are never compiled.
"""

from __future__ import annotations

from typing import Any

import msgspec

from bluffdice.games.base import Event, GameState


class Entry(msgspec.Struct, frozen=True, gc=False):
    """One applied step: what was done, by whom, what it caused, and the state after.

    Untracked by the garbage collector (`gc=False`): a table keeps every entry of its
    game, and an entry refers to no entry, so the collector would only walk a busy
    server's growing logs again and again (on the web server, a pause of a tenth of a
    second every few seconds at 500 tables)."""

    actor: int
    """The seat that moved, CHANCE for dice, TABLE for a default move after a timeout."""
    action: Any
    text: str
    events: tuple[Event, ...]
    state: GameState
    private: bool = True
    """Whether an event is private (updates filter them per recipient); the table says
    False for steps whose events every seat may see, so their updates skip the filter."""
