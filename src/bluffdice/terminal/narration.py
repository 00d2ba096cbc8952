"""How every game's commentary names players: colours, "You", the verb in the right person.

All presenters inherit `Narrator`, so the same player looks and reads the same in Mia,
Liar's Dice and common hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from bluffdice.narration import Line, plural
from bluffdice.narration.words import shown_name

__all__ = ["COLORS", "Narrator", "plural", "render"]

COLORS = ("magenta", "yellow", "green", "blue", "red", "bright_magenta", "bright_green")
"""Colours of the other players' names; the viewer is always bold cyan."""


class Narrator:
    """Player names for commentary and tables, seen from one viewer (None: a spectator)."""

    def truth(self, state: Any, action: Any) -> str | None:
        """What was under the cup when `action` was made (replays); games with a cup to
        speak of say it, the others nothing."""
        return None

    def name(self, player: int, names: Sequence[str], viewer: int | None) -> str:
        """A player's name in colour; "You" for the viewer."""
        if player == viewer:
            return "[bold cyan]You[/]"
        return f"[{COLORS[player % len(COLORS)]}]{escape(shown_name(names, player))}[/]"

    def seat_name(self, player: int, names: Sequence[str], viewer: int | None) -> str:
        """A name for tables: the viewer's own name marked `(you)`."""
        if player != viewer:
            return self.name(player, names, None)
        if names[player].lower() == "you":
            return "[bold cyan]You[/]"
        return f"[bold cyan]{escape(names[player])}[/] (you)"

    def says(
        self, player: int, names: Sequence[str], viewer: int | None, you: str, other: str
    ) -> str:
        """`You roll` or `Honest rolls`: the subject with the verb in the right person."""
        verb = you if player == viewer else other
        return f"{self.name(player, names, viewer)} {verb}"

    def whose(self, player: int, names: Sequence[str], viewer: int | None) -> str:
        """`your` or `Honest's`."""
        return "your" if player == viewer else f"{self.name(player, names, viewer)}'s"


_MARKUP = {
    "strong": "bold",
    "heading": "bold",
    "die": "bold",
    "good": "green",
    "bad": "red",
    "shout": "bold red",
    "warn": "bold yellow",
    "dim": "dim",
    "you": "bold cyan",
}


def render(said: Line | None) -> str | None:
    """Words (bluffdice.narration) in the terminal's colours, as Rich markup."""
    if said is None:
        return None
    out = []
    for part in said:
        text = escape(part.text)
        if part.style == "player" and part.player is not None:
            out.append(f"[{COLORS[part.player % len(COLORS)]}]{text}[/]")
        elif part.style in _MARKUP:
            out.append(f"[{_MARKUP[part.style]}]{text}[/]")
        else:
            out.append(text)
    return "".join(out)
