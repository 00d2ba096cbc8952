"""The words every front end uses for what happens at a table (see `words`).

A game's words are named on its registration (`GameSpec.narration`) and imported the
first time a table of that game is described.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bluffdice.games.base import Event
from bluffdice.games.registry import game_of, plugin
from bluffdice.narration.words import Line, Part, Words, line, plain, plural


class Describer(Protocol):
    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None: ...


def words_for(rules: Any) -> Describer:
    """The describer of a rule set's game: the words its registration names, else the
    events' own fields."""
    path = game_of(rules).narration
    if not path:
        return _Plain()
    words: Describer = plugin(path)(rules)
    return words


class _Plain(Words):
    """For a game without words of its own: the event's type and fields."""

    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None:
        import msgspec

        fields = msgspec.to_builtins(event)
        return line(str(fields.pop("type", type(event).__name__)), " ", str(fields))


__all__ = [
    "Describer",
    "Line",
    "Part",
    "Words",
    "line",
    "plain",
    "plural",
    "words_for",
]
