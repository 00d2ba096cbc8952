"""Common hand (poker dice) at the terminal: the table, commentary, hints and input.

Reads a `CommonHandView` only: your own five dice, the claims so far, how many dice each
reroll put back in the cup; both hands are shown when a challenge lifts the cups. Dice
may be named by face (`reroll 9 9 10`) or by their place in your hand as shown
(`reroll 1 3 5`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table

from bluffdice.games.base import Event
from bluffdice.games.common_hand import (
    Action,
    Claim,
    CommonHandRules,
    CommonHandView,
    GameOver,
    Reroll,
    RoundStarted,
    describe_key,
    face_name,
    hand_key,
    parse_action,
    parse_face,
)
from bluffdice.narration.common_hand import CommonHandWords
from bluffdice.terminal.liars_dice import DicePresenter
from bluffdice.terminal.narration import render


def poker_dice(hand: Sequence[int]) -> str:
    return " ".join(f"[bold][{face_name(d)}][/]" for d in hand)


class CommonHandPresenter(DicePresenter):
    """Shows one common-hand rule set in the terminal."""

    game = "common-hand"
    meter_label = "Lives"
    round_started = RoundStarted
    game_over = GameOver

    def __init__(self, rules: CommonHandRules) -> None:
        self.rules = rules
        self.words = CommonHandWords(rules)

    def claim_text(self, claim: Claim) -> str:
        return f"[bold]{claim.describe()}[/]"

    def best(self, hand: Sequence[int]) -> str:
        return describe_key(hand_key(tuple(hand), self.rules.straights))

    # --- commentary --------------------------------------------------------------

    def event(self, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
        return render(self.words.describe(event, names, viewer))

    # --- the table ---------------------------------------------------------------

    def standing(self, view: Any, player: int) -> str:
        v: CommonHandView = view
        return str(v.lives[player])

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        v: CommonHandView = view
        header = f"[bold]Round {v.round}[/] · [dim]{escape(v.rules)}[/]"
        grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        grid.add_column("", width=1)
        grid.add_column("Player")
        grid.add_column("Lives")
        grid.add_column("")
        for p in range(v.players):
            marker = "▶" if p == v.turn else ""
            hearts = "[red]" + "♥" * v.lives[p] + "[/]" if self.rules.lives <= 10 else ""
            note = ""
            if v.claimer == p and v.claim is not None:
                note = f"claims {self.claim_text(v.claim)}"
            grid.add_row(
                marker, self.seat_name(p, names, v.player), hearts or str(v.lives[p]), note
            )
        lines: list[RenderableType] = [header, grid, "Claims: " + self.history(v, names)]
        if v.my_dice:
            places = " ".join(f"{i + 1:^{len(face_name(d)) + 2}}" for i, d in enumerate(v.my_dice))
            lines.append(f"Your dice: {poker_dice(v.my_dice)} ({self.best(v.my_dice)})")
            lines.append(f"[dim]    place: {places}[/]")
        return Group(*lines)

    def history(self, v: CommonHandView, names: Sequence[str]) -> str:
        if not v.calls:
            return "[dim]none yet[/]"
        parts = []
        for call in v.calls:
            again = f" (rerolled {call.rerolled})" if call.rerolled else ""
            parts.append(
                f"{self.name(call.player, names, v.player)}{again} {call.claim.describe()}"
            )
        return " → ".join(parts)

    # --- input ---------------------------------------------------------------------

    def hint(self, view: Any) -> str:
        v: CommonHandView = view
        if not v.legal_actions:
            return "wait for your turn"
        claims = [a for a in v.legal_actions if isinstance(a, Claim)]
        mine = v.my_dice or ()
        parts = []
        if claims:
            lowest = claims[0].describe()
            held = self.best(mine) if mine else "nothing"
            parts.append(f"name a hand from [bold]{lowest}[/] up (you hold {held})")
        if any(isinstance(a, Reroll) for a in v.legal_actions):
            parts.append("[bold]reroll[/] some of your dice first (reroll 1 3 5)")
        if v.claim is not None and any(not isinstance(a, Claim | Reroll) for a in v.legal_actions):
            parts.append(f"call [bold]liar[/] on {v.claim.describe()}")
        return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1]

    def parse(self, text: str, view: Any) -> Any:
        v: CommonHandView = view
        words = text.lower().replace(",", " ").split()
        if words and words[0] == "reroll" and v.my_dice:
            return Reroll(self._reroll_dice(words[1:], v.my_dice))
        action = parse_action(text)
        if not isinstance(action, Action):
            raise ValueError("the dealer rolls the dice; type your own move (try 'hint')")
        return action

    def _reroll_dice(self, words: list[str], hand: tuple[int, ...]) -> tuple[int, ...]:
        """Places 1..5 in the hand as shown (`reroll 1 3 5`), `all`, or faces
        (`reroll 9 10`, `reroll JQ`)."""
        if not words:
            raise ValueError("say which dice: reroll 1 3 5 (places), reroll 9 10 (faces), all")
        if words == ["all"]:
            return hand
        if all(w.isdigit() and 1 <= int(w) <= len(hand) for w in words):
            places = [int(w) for w in words]
            if len(set(places)) != len(places):
                raise ValueError("each die can be rerolled once: name each place once")
            # 9 and 10 read as faces; places are 1 to 5
            if not any(w in ("9", "10") for w in words):
                return tuple(sorted(hand[i - 1] for i in places))
        if len(words) == 1 and len(words[0]) > 1 and words[0] != "10":
            words = list(words[0])
        return tuple(sorted(parse_face(w) for w in words))

    def commands(self) -> str:
        rows = [
            ("pair A, two pair K 10", "claim your own five dice make at least this hand"),
            ("three Q, straight A", "(straight K: 9 to K; straight A: 10 to A)"),
            ("full house K 10, four J, five 9", "the higher hands"),
            ("liar, challenge", "call the last claim a bluff: the cups are lifted"),
        ]
        if self.rules.reroll:
            rows.append(("reroll 1 3 5, reroll 9 10", "roll some of your dice again, then claim"))
        return self.rows(rows)
