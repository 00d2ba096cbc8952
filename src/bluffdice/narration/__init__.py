"""The words every front end uses for what happens at a table (see `words`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bluffdice.games.base import Event
from bluffdice.games.registry import game_of
from bluffdice.narration.words import Line, Part, Words, line, plain, plural


class Describer(Protocol):
    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None: ...


_WORDS: dict[str, Callable[[Any], Describer]] = {}


def register_words(game: str, factory: Callable[[Any], Describer]) -> None:
    """Give a game its words (a game without them is described by its event fields)."""
    _WORDS[game] = factory


def words_for(rules: Any) -> Describer:
    """The describer of a rule set's game."""
    factory = _WORDS.get(game_of(rules).name)
    return factory(rules) if factory is not None else _Plain()


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
    "register_words",
    "words_for",
]


def _register_builtins() -> None:
    from bluffdice.narration.common_hand import CommonHandWords
    from bluffdice.narration.liars_dice import LiarsDiceWords
    from bluffdice.narration.mia import MiaWords

    register_words("mia", MiaWords)
    register_words("liars-dice", LiarsDiceWords)
    register_words("common-hand", CommonHandWords)


_register_builtins()
