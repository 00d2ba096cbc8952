"""Storage of tournaments and games (SQLite by default, any SQLAlchemy URL)."""

from bluffdice.store.store import (
    DEFAULT_DB,
    Store,
    StoredGame,
    StoredTournament,
    StoreError,
    database_url,
)

__all__ = ["DEFAULT_DB", "Store", "StoreError", "StoredGame", "StoredTournament", "database_url"]
