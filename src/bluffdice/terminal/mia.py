"""Mia at the terminal: the table, the commentary, the hints and what a player may type.

Everything here reads a `MiaView` (or, for `reveal` under --watch, the state before a
round ended), so the person at the keyboard never sees dice the rules keep hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table

from bluffdice.errors import clip
from bluffdice.games.base import Event, GameState
from bluffdice.games.mia import Action, MiaRules, MiaState, MiaView, Pass, parse_action
from bluffdice.games.mia.actions import (
    Announce,
    BeatMia,
    Cheers,
    GameOver,
    Look,
    RoundStarted,
)
from bluffdice.games.mia.values import MIA
from bluffdice.narration.mia import MiaWords
from bluffdice.odds.mia import p_truthful_beats
from bluffdice.terminal.narration import Narrator, plural, render

LABELS = {"lives": "Lives", "score": "Score", "drinking": "Drunk"}
"""What the standings count in each mode."""


class MiaPresenter(Narrator):
    """Shows one Mia rule set in the terminal."""

    game = "mia"

    def __init__(self, rules: MiaRules) -> None:
        self.rules = rules
        self.ranking = rules.ranking
        self.words = MiaWords(rules)

    def value(self, value: int) -> str:
        text = self.ranking.name(value)
        return f"[bold]{text}[/]" if value == MIA else text

    # --- commentary --------------------------------------------------------------

    def event(self, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
        return render(self.words.describe(event, names, viewer))

    # --- round ends and standings --------------------------------------------------

    def round_break(self, events: Sequence[Event]) -> int | None:
        for index, event in enumerate(events):
            if isinstance(event, RoundStarted) and event.round > 1:
                return index
            if isinstance(event, GameOver):
                return index
        return None

    def reveal(self, state: GameState, names: Sequence[str]) -> str | None:
        if not isinstance(state, MiaState) or state.dice == 0 or state.roller < 0:
            return None
        roller = self.name(state.roller, names, None)
        return f"Cup: [bold]{self.ranking.name(state.dice)}[/], rolled by {roller}."

    def truth(self, state: GameState, action: Any) -> str | None:
        if not isinstance(state, MiaState) or not isinstance(action, Announce | Pass):
            return None
        if state.dice == 0:
            return None
        ranking = self.ranking
        held = "true" if ranking.rank(state.dice) >= ranking.rank(action.value) else "a lie"
        return f"cup: {state.dice}, {held}"

    def scoreline(self, view: Any, names: Sequence[str]) -> str:
        v: MiaView = view
        label = LABELS[self.rules.mode]
        parts = [f"{self.name(p, names, v.player)} {self.standing(v, p)}" for p in range(v.players)]
        return f"{label}: " + " · ".join(parts)

    def standing(self, view: MiaView, player: int) -> str:
        """A player's lives, score or drinks, as a short text."""
        if self.rules.mode == "score":
            return f"{view.score[player]:+d}"
        if self.rules.mode == "drinking":
            sips = plural(view.score[player], "sip")
            drinks = view.drinks[player]
            return f"{plural(drinks, 'drink')}, {sips}" if drinks else sips
        if view.out[player]:
            return "out"
        return str(view.lives[player])

    # --- the table ---------------------------------------------------------------

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        v: MiaView = view
        of = f" of {self.rules.rounds}" if self.rules.mode != "lives" else ""
        header = f"[bold]Round {v.round}{of}[/] · [dim]{escape(v.rules)}[/]"
        lines: list[RenderableType] = [header, self._players(v, names)]
        lines.append("This round: " + self.history(v, names))
        mine = self._my_dice(v)
        if mine:
            lines.append(mine)
        return Group(*lines)

    def _players(self, v: MiaView, names: Sequence[str]) -> Table:
        column = LABELS[self.rules.mode]
        grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        grid.add_column("", width=1)
        grid.add_column("Player")
        grid.add_column(column, justify="right")
        grid.add_column("")
        for p in range(v.players):
            marker = "▶" if p == v.turn else ""
            note = ""
            if v.announcer == p and v.announced is not None:
                note = f"announced {self.ranking.name(v.announced)}"
            if v.out[p]:
                note = "[dim]out[/]"
            grid.add_row(marker, self.seat_name(p, names, v.player), self._meter(v, p), note)
        return grid

    def _meter(self, v: MiaView, player: int) -> str:
        if self.rules.mode == "lives" and self.rules.lives <= 10:
            left = v.lives[player]
            return "[red]" + "♥" * left + "[/][dim]" + "·" * (self.rules.lives - left) + "[/]"
        return self.standing(v, player)

    def history(self, view: MiaView, names: Sequence[str]) -> str:
        """The announcements of the round so far, oldest first."""
        if not view.calls:
            return "[dim]nothing announced yet[/]"
        parts = []
        for call in view.calls:
            who = self.name(call.player, names, view.player)
            verb = "passed" if call.kind == "pass" else ""
            parts.append(f"{who} {verb + ' ' if verb else ''}{self.ranking.name(call.value)}")
        return " → ".join(parts)

    def _my_dice(self, v: MiaView) -> str | None:
        if v.my_dice is not None:
            return f"Your dice: [bold]{self.ranking.name(v.my_dice)}[/]"
        if v.phase == "hold" and v.turn == v.player:
            return "Your dice: [dim]rolled, not looked at yet[/]"
        return None

    # --- input ---------------------------------------------------------------------

    def hint(self, view: Any) -> str:
        v: MiaView = view
        legal = v.legal_actions
        if not legal:
            return "wait for your turn"
        if v.phase == "open":
            return "[bold]roll[/] to open the round"
        if v.phase == "hold":
            return self._hold_hint(v)
        if v.phase == "mia":
            return self._mia_hint(v)
        return self._respond_hint(v)

    def _hold_hint(self, v: MiaView) -> str:
        values = [a.value for a in v.legal_actions if isinstance(a, Announce)]
        low, high = self.ranking.name(values[0]), self.ranking.name(values[-1])
        span = low if len(values) == 1 else f"{low} up to {high}"
        if v.my_dice is None:
            text = f"announce blind: {span}"
        elif v.my_dice in values:
            text = f"announce {span} (your {self.ranking.name(v.my_dice)} is enough)"
        else:
            text = f"announce {span} (your {self.ranking.name(v.my_dice)} is too low: bluff)"
        if Cheers() in v.legal_actions:
            text = "show [bold]cheers[/] (your 32) or " + text
        if Look() in v.legal_actions:
            text = "[bold]look[/] at your dice or " + text
        return text

    def _respond_hint(self, v: MiaView) -> str:
        assert v.announced is not None
        said = self.ranking.name(v.announced)
        odds = f"{float(self.beat_chance(v.announced)):.0%}"
        text = f"[bold]roll[/] (believe {said}: a roll beats it {odds} of the time), "
        if any(isinstance(a, Pass) for a in v.legal_actions):
            return text + f"[bold]challenge[/] or [bold]pass {v.announced}[/] (or higher) unseen"
        return text + "or [bold]challenge[/]"

    def _mia_hint(self, v: MiaView) -> str:
        parts = [
            f"[bold]give-up[/] ({self._cost(2 if self.rules.mia_doubled else 1)})",
            f"[bold]challenge[/] to look (a real Mia: {self._cost(2)})",
        ]
        if BeatMia() in v.legal_actions:
            parts.append("[bold]beat[/] (roll openly, only a 21 wins)")
        return "Mia! " + ", ".join(parts[:-1]) + " or " + parts[-1]

    def _cost(self, lives: int) -> str:
        if self.rules.mode == "drinking":
            return "a stiff drink"
        if self.rules.mode == "score":
            return "-1"
        return f"you lose {plural(lives, 'life', 'lives')}"

    def beat_chance(self, value: int) -> Fraction:
        """The chance that a fresh roll can truthfully top `value` under these rules."""
        return p_truthful_beats(self.rules, value)

    def parse(self, text: str, view: Any) -> Any:
        v: MiaView = view
        word = " ".join(text.lower().split())
        if word in ("pass", "p") and v.announced is not None:
            return Pass(v.announced)
        try:
            action = parse_action(text)
        except ValueError:
            said = clip(text.strip())
            raise ValueError(f"{said} is not a Mia action: type {self.move_words()}") from None
        if not isinstance(action, Action):
            raise ValueError("the dealer rolls the dice; type your own move (try 'hint')")
        return action

    def move_words(self) -> str:
        """The moves these rules have, as a user types them (no beat or cheers where the
        rules have none)."""
        words = ["a value (54, 5 4, mia)", "roll", "look", "challenge (or liar)"]
        if self.rules.pass_allowed:
            words.append("pass 65")
        words.append("give-up")
        if self.rules.beat_mia:
            words.append("beat")
        if self.rules.joker32:
            words.append("cheers")
        return ", ".join(words[:-1]) + " or " + words[-1]

    def commands(self) -> str:
        rows = [
            ("54, 5 4, 4,5, mia", "announce a value after you rolled (true or not)"),
            ("roll, r, believe", "open the round, or believe the announcement and roll"),
            ("look, l", "look at the dice you just rolled"),
            ("challenge, liar, c", "lift the cup: call the last announcement a lie"),
        ]
        if self.rules.pass_allowed:
            rows.append(("pass 65, p 65, pass", "hand the cup on unseen, announcing 65 or more"))
        rows.append(("give-up", "after a Mia announcement: pay without looking"))
        if self.rules.beat_mia:
            rows.append(("beat", "after a Mia announcement: roll openly, a 21 wins"))
        if self.rules.joker32:
            rows.append(("cheers", "show a 32 you looked at: the round starts again"))
        return "\n".join(f"  [bold]{escape(cmd):<22}[/] {what}" for cmd, what in rows)

    # --- the end -------------------------------------------------------------------

    def result(self, view: Any, names: Sequence[str]) -> RenderableType:
        v: MiaView = view
        over = v.result
        if over is None:
            return "The game is not over."
        lines: list[RenderableType] = [f"\n[bold]Game over[/] after {plural(v.round, 'round')}."]
        if over.winners:
            won = ", ".join(self.name(p, names, v.player) for p in over.winners)
            lines.append(f"Winner{'s' if len(over.winners) > 1 else ''}: {won}")
        if over.losers:
            lost = ", ".join(self.name(p, names, v.player) for p in over.losers)
            lines.append(f"Lost: {lost}")
        lines.append(self._standings(v, over, names))
        return Group(*lines)

    def _standings(self, v: MiaView, over: GameOver, names: Sequence[str]) -> Table:
        column = LABELS[self.rules.mode]
        grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        grid.add_column("#", justify="right")
        grid.add_column("Player")
        grid.add_column(column, justify="right")
        place, previous = 0, None
        for index, p in enumerate(over.standings):
            shown = self.standing(v, p)
            tie = self.rules.mode != "lives" and shown == previous
            place = place if tie else index + 1
            previous = shown
            grid.add_row(str(place), self.seat_name(p, names, v.player), shown)
        return grid
