"""Liar's Dice (single hand) at the terminal: the table, commentary, hints and input.

Everything reads a `LiarsDiceView`, so the person at the keyboard sees their own cup and
the bids, and everyone's dice only when a challenge lifts every cup. The `DicePresenter`
base holds what common hand shares (names, round ends, the result screen).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table

from bluffdice.bots.liars_dice_basic import at_least
from bluffdice.games.base import Event, GameState
from bluffdice.games.liars_dice import (
    Action,
    Bid,
    Calza,
    GameOver,
    LiarsDiceRules,
    LiarsDiceView,
    RoundStarted,
    face_plural,
    parse_action,
)
from bluffdice.narration.liars_dice import LiarsDiceWords
from bluffdice.terminal.narration import Narrator, plural, render


class DicePresenter(Narrator):
    """What the dice-cup games show alike: names, round ends and the result screen."""

    game = ""
    round_started: type[Event] = Event
    game_over: type[Event] = Event

    def round_break(self, events: Sequence[Event]) -> int | None:
        for index, event in enumerate(events):
            if isinstance(event, self.round_started) and getattr(event, "round", 1) > 1:
                return index
            if isinstance(event, self.game_over):
                return index
        return None

    def reveal(self, state: GameState, names: Sequence[str]) -> str | None:
        """Nothing to add under --watch: a challenge already shows every cup."""
        return None

    def standing(self, view: Any, player: int) -> str:
        raise NotImplementedError

    def scoreline(self, view: Any, names: Sequence[str]) -> str:
        parts = [
            f"{self.name(p, names, view.player)} {self.standing(view, p)}"
            for p in range(view.players)
        ]
        return f"{self.meter_label}: " + " · ".join(parts)

    meter_label = "Dice"

    def result(self, view: Any, names: Sequence[str]) -> RenderableType:
        over = view.result
        if over is None:
            return "The game is not over."
        lines: list[RenderableType] = [f"\n[bold]Game over[/] after {plural(view.round, 'round')}."]
        won = ", ".join(self.name(p, names, view.player) for p in over.winners)
        lines.append(f"Winner{'s' if len(over.winners) > 1 else ''}: {won}")
        if over.losers:
            lost = ", ".join(self.name(p, names, view.player) for p in over.losers)
            lines.append(f"Lost: {lost}")
        grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        grid.add_column("#", justify="right")
        grid.add_column("Player")
        grid.add_column(self.meter_label, justify="right")
        for index, p in enumerate(over.standings):
            grid.add_row(
                str(index + 1), self.seat_name(p, names, view.player), self.standing(view, p)
            )
        lines.append(grid)
        return Group(*lines)

    def rows(self, rows: list[tuple[str, str]]) -> str:
        return "\n".join(f"  [bold]{escape(cmd):<22}[/] {what}" for cmd, what in rows)


def dice_text(hand: Sequence[int]) -> str:
    return " ".join(f"[bold][{d}][/]" for d in hand)


class LiarsDicePresenter(DicePresenter):
    """Shows one single-hand rule set in the terminal."""

    game = "liars-dice"
    round_started = RoundStarted
    game_over = GameOver

    def __init__(self, rules: LiarsDiceRules) -> None:
        self.rules = rules
        self.words = LiarsDiceWords(rules)

    def bid_text(self, quantity: int, face: int) -> str:
        return f"[bold]{quantity} {face_plural(face) if quantity != 1 else str(face)}[/]"

    def wild_text(self, wild: int) -> str:
        if not wild:
            return "nothing is wild"
        return f"{face_plural(wild)} are wild"

    # --- commentary --------------------------------------------------------------

    def event(self, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
        return render(self.words.describe(event, names, viewer))

    def standing(self, view: Any, player: int) -> str:
        v: LiarsDiceView = view
        return "out" if v.dice[player] == 0 else str(v.dice[player])

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        v: LiarsDiceView = view
        extra = " · [bold yellow]palifico[/]" if v.palifico else ""
        header = (
            f"[bold]Round {v.round}[/] · {plural(v.total, 'die', 'dice')} in play · "
            f"{self.wild_text(v.wild)}"
            f"{extra} · [dim]{escape(v.rules)}[/]"
        )
        grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        grid.add_column("", width=1)
        grid.add_column("Player")
        grid.add_column("Dice", justify="left")
        grid.add_column("")
        for p in range(v.players):
            marker = "▶" if p == v.turn else ""
            full = self.rules.cups[p] if self.rules.cups else self.rules.dice
            cup = "●" * v.dice[p] + "[dim]" + "·" * (full - v.dice[p]) + "[/]"
            note = "[dim]out[/]" if v.dice[p] == 0 else ""
            if v.bidder == p and v.bid is not None:
                note = f"bid {self.bid_text(v.bid.quantity, v.bid.face)}"
            grid.add_row(marker, self.seat_name(p, names, v.player), cup, note)
        lines: list[RenderableType] = [header, grid, "Bids: " + self.history(v, names)]
        if v.my_dice:
            lines.append(f"Your dice: {dice_text(v.my_dice)}")
        return Group(*lines)

    def history(self, v: LiarsDiceView, names: Sequence[str]) -> str:
        if not v.bids:
            return "[dim]none yet[/]"
        return " → ".join(
            f"{self.name(b.player, names, v.player)} {b.quantity}x{b.face}" for b in v.bids
        )

    # --- input ---------------------------------------------------------------------

    def chance(self, v: LiarsDiceView, bid: Bid) -> float:
        """The chance that `bid` holds, given the viewer's own dice."""
        mine = v.my_dice or ()
        own = sum(1 for d in mine if d in (bid.face, v.wild))
        p = Fraction(2 if v.wild and bid.face != v.wild else 1, self.rules.faces)
        return at_least(v.total - len(mine), bid.quantity - own, p)

    def hint(self, view: Any) -> str:
        v: LiarsDiceView = view
        bids = [a for a in v.legal_actions if isinstance(a, Bid)]
        if not v.legal_actions:
            return "wait for your turn"
        parts = []
        if bids:
            lowest = min(bids, key=lambda b: (b.quantity, b.face))
            text = f"bid (lowest [bold]{lowest}[/]"
            even = [b for b in bids if self.chance(v, b) >= 0.5]
            if even:
                high = max(even, key=lambda b: (b.quantity, self.chance(v, b)))
                if high != lowest:
                    text += f"; [bold]{high}[/] holds {self.chance(v, high):.0%} by your dice"
            text += ")"
            parts.append(text)
        if v.bid is not None:
            odds = f"{self.chance(v, v.bid):.0%}"
            parts.append(f"[bold]liar[/] ({v.bid.quantity}x{v.bid.face} holds {odds} by your dice)")
        if Calza() in v.legal_actions:
            parts.append("[bold]calza[/] (exactly right)")
        return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1]

    def parse(self, text: str, view: Any) -> Any:
        action = parse_action(text)
        if not isinstance(action, Action):
            raise ValueError("the dealer rolls the dice; type your own move (try 'hint')")
        return action

    def commands(self) -> str:
        rows = [
            ("3x5, 3 fives, 3 5", "bid: at least 3 dice among all cups show five"),
            ("liar, challenge, dudo", "call the last bid a lie: every cup is lifted"),
        ]
        if self.rules.calza:
            rows.append(("calza, exact", "the last bid is exactly right: win a die back"))
        return self.rows(rows)
