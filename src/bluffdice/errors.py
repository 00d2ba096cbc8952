"""The base of every error bluffdice raises on bad input, in a module of its own so that
the CLI can catch it without importing the games (`bluffdice.games.base` re-exports it)."""

from __future__ import annotations

import re


class BluffdiceError(ValueError):
    """Base of the errors this package raises on bad input."""


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
