"""Words as data: what a front end says about an event, as plain text in styled parts.

A `Line` is a tuple of `Part`s; each part is plain text with a style that says what it
is (a player's name, the viewer, a verdict that went well or badly, a heading), never
how it looks. The terminal turns styles into colours, a web page into CSS classes, a
log into plain text (`plain(line)`); the words themselves are written once, here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

STYLES = frozenset(
    {"", "strong", "good", "bad", "shout", "warn", "dim", "heading", "you", "player", "die"}
)
"""`shout`: a call made aloud ("liar!"); `warn`: a rule that changes this round;
`die`: one die as shown; `you` and `player` carry the seat in `Part.player`."""


class Part(NamedTuple):
    text: str
    style: str = ""
    player: int | None = None


Line = tuple[Part, ...]

Piece = str | Part | Line


def line(*pieces: Piece) -> Line:
    """Join strings (plain parts), parts and lines into one line."""
    parts: list[Part] = []
    for piece in pieces:
        if isinstance(piece, Part):
            parts.append(piece)
        elif isinstance(piece, str):
            if piece:
                parts.append(Part(piece))
        else:
            parts.extend(piece)
    return tuple(parts)


def styled(style: str, *pieces: Piece) -> Line:
    """The pieces in `style` (plain pieces only; names keep their own style)."""
    return tuple(p if p.style else Part(p.text, style) for p in line(*pieces))


def joined(lines: Sequence[Line], separator: str = "\n") -> Line:
    out: list[Part] = []
    for index, item in enumerate(lines):
        if index:
            out.append(Part(separator))
        out.extend(item)
    return tuple(out)


def plain(text: Line) -> str:
    """The words alone, as a log or a screen reader wants them."""
    return "".join(part.text for part in text)


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 life`, `2 lives`."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


PRONOUNS = frozenset({"you", "your", "yours", "yourself", "me", "i"})
"""Names that would read as a pronoun in a sentence about someone else."""


def shown_name(names: Sequence[str], player: int) -> str:
    """A player's name as a sentence about them uses it: a seat named "You" that is not
    the viewer's (a replay, a bot so named) reads `You (seat 2)`, never "You rolls"."""
    name = names[player]
    return f"{name} (seat {player})" if name.strip().lower() in PRONOUNS else name


class Words:
    """Names seen from one viewer (None: a spectator): "You" for the viewer, with the
    verb in the right person.

    A private event (someone's own dice) reaches a describer only for its owner, except
    in a replay of a finished game, where nothing is secret: then it is told in the third
    person ("Liar looks at the dice: 61")."""

    def name(self, player: int, names: Sequence[str], viewer: int | None) -> Part:
        if player == viewer:
            return Part("You", "you", player)
        return Part(shown_name(names, player), "player", player)

    def says(
        self, player: int, names: Sequence[str], viewer: int | None, you: str, other: str
    ) -> Line:
        """`You roll` or `Honest rolls`."""
        verb = you if player == viewer else other
        return (self.name(player, names, viewer), Part(f" {verb}"))

    def whose(self, player: int, names: Sequence[str], viewer: int | None) -> Line:
        """`your` or `Honest's`."""
        if player == viewer:
            return (Part("your"),)
        return (self.name(player, names, viewer), Part("'s"))
