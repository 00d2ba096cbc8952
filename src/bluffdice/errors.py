"""The base of every error bluffdice raises on bad input, in a module of its own so that
the CLI can catch it without importing the games (`bluffdice.games.base` re-exports it)."""

from __future__ import annotations


class BluffdiceError(ValueError):
    """Base of the errors this package raises on bad input."""
