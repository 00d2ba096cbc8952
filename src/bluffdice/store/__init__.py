"""Storage of tournaments and games (SQLite by default, any SQLAlchemy URL).

`Store` and the stored records load SQLAlchemy, so they are imported on first use: the
CLI names this package at start and must not pay for a database it may never open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bluffdice.store.errors import StoreError
from bluffdice.store.location import ENV_VAR, database_url, default_database

if TYPE_CHECKING:
    from bluffdice.store.store import Store, StoredGame, StoredTournament

_LAZY = {"Store", "StoredGame", "StoredTournament"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from bluffdice.store import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENV_VAR",
    "Store",
    "StoreError",
    "StoredGame",
    "StoredTournament",
    "database_url",
    "default_database",
]
