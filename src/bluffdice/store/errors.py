"""The store's one error type, importable without loading SQLAlchemy."""

from __future__ import annotations

from bluffdice.errors import BluffdiceError


class StoreError(BluffdiceError):
    """The database cannot be opened, read or written, or holds no such game."""
