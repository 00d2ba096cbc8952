"""The base of every error bluffdice raises on bad input, in a module of its own so that
the CLI can catch it without importing the games (`bluffdice.games.base` re-exports it)."""

from __future__ import annotations

import re
from typing import Any


class BluffdiceError(ValueError):
    """Base of the errors this package raises on bad input."""


class WordedError(BluffdiceError):
    """An error whose text is English and which also carries the catalogue key and the
    parameters it was worded from (`params`, ready for JSON), so that a page can say it
    in its own language. Subclasses make it with a `said(key, **params)`."""

    def __init__(self, text: str, key: str | None = None, params: dict[str, Any] | None = None):
        super().__init__(text)
        self.key = key
        self.params = params or {}


QUOTED = re.compile(r"(['\"])([^'\"]{81,})\1")
LONG_NUMBER = re.compile(r"\d{61,}")


def clip(text: str, limit: int = 60) -> str:
    """`text` quoted for a message, cut to `limit` characters: a 100 KB input is named,
    not echoed back."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def clip_message(message: str) -> str:
    """A message with every long quoted value or long number in it cut short, whoever
    wrote it (our errors, the option parser's): errors stay one readable line."""
    message = QUOTED.sub(lambda m: clip(m.group(2)), message)
    return LONG_NUMBER.sub(lambda m: f"{m.group(0)[:12]}... ({len(m.group(0))} digits)", message)
