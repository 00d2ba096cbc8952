"""What is said about Liar's Dice (single hand) events."""

from __future__ import annotations

from collections.abc import Sequence

from bluffdice.games.base import Event
from bluffdice.games.liars_dice import (
    BidMade,
    CalzaCalled,
    Challenged,
    DiceChanged,
    Eliminated,
    LiarsDiceRules,
    Revealed,
    RoundStarted,
    YourDice,
    face_plural,
)
from bluffdice.narration.words import Line, Part, Words, joined, line, plural

REASONS = {
    "caught_bluffing": "caught bluffing",
    "lost_challenge": "called liar on a true bid",
    "calza_right": "calza: exactly right",
    "calza_wrong": "calza: not exact",
}


def dice_parts(hand: Sequence[int]) -> Line:
    return joined([(Part(f"[{d}]", "die"),) for d in hand], " ")


class LiarsDiceWords(Words):
    def __init__(self, rules: LiarsDiceRules) -> None:
        self.rules = rules

    def bid(self, quantity: int, face: int) -> Part:
        return Part(f"{quantity} {face_plural(face) if quantity != 1 else str(face)}", "strong")

    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None:
        if isinstance(event, RoundStarted):
            who = self.says(event.starter, names, viewer, "open", "opens")
            in_play = plural(sum(event.dice), "die", "dice") + " in play"
            if self.rules.cups and event.round == 1:  # unequal cups: say who holds what
                counts = [str(d) for d in event.dice]
                in_play += f", cups of {', '.join(counts[:-1])} and {counts[-1]}"
            said = line(
                "\n",
                Part(f"── Round {event.round}", "heading"),
                f" · {in_play} · ",
                who,
                ".",
            )
            if event.palifico:
                said = line(
                    said,
                    "\n",
                    Part("Palifico!", "warn"),
                    " Nothing is wild this round and the opening face cannot change.",
                )
            return said
        if isinstance(event, YourDice):
            if event.player != viewer:  # a replay: the game is over, nothing is secret
                return line(
                    self.name(event.player, names, viewer), " has ", dice_parts(event.dice), "."
                )
            return line("Your dice: ", dice_parts(event.dice))
        if isinstance(event, BidMade):
            who = self.says(event.player, names, viewer, "bid", "bids")
            return line(who, " ", self.bid(event.quantity, event.face), ".")
        if isinstance(event, Challenged):
            who = self.says(event.player, names, viewer, "call", "calls")
            whose = self.whose(event.bidder, names, viewer)
            bid = self.bid(event.quantity, event.face)
            return line(
                who, " ", Part("liar!", "shout"), " on ", whose, " ", bid, ". Every cup is lifted:"
            )
        if isinstance(event, CalzaCalled):
            who = self.says(event.player, names, viewer, "call", "calls")
            bid = self.bid(event.quantity, event.face)
            return line(
                who, " ", Part("calza", "warn"), ": exactly ", bid, "? Every cup is lifted:"
            )
        if isinstance(event, Revealed):
            return self._revealed(event, names, viewer)
        if isinstance(event, DiceChanged):
            why = REASONS.get(event.reason, event.reason.replace("_", " "))
            if event.change < 0:
                verb = self.says(event.player, names, viewer, "lose", "loses")
                left = plural(event.dice, "die", "dice")
                return line(verb, " ", Part("a die", "bad"), f" ({why}): {left} left.")
            if event.change > 0:
                verb = self.says(event.player, names, viewer, "win", "wins")
                now = plural(event.dice, "die", "dice")
                return line(verb, " ", Part("a die back", "good"), f" ({why}): {now}.")
            return line(self.name(event.player, names, viewer), f" had a full cup already ({why}).")
        if isinstance(event, Eliminated):
            return line(self.says(event.player, names, viewer, "are", "is"), " out of dice.")
        return None

    def _revealed(self, event: Revealed, names: Sequence[str], viewer: int | None) -> Line:
        lines: list[Line] = []
        for p, hand in enumerate(event.hands):
            if hand:
                marked = joined(
                    [
                        (Part(f"[{d}]", "good" if d in (event.face, event.wild) else "dim"),)
                        for d in hand
                    ],
                    " ",
                )
                lines.append(line("  ", self.name(p, names, viewer), ": ", marked))
        wild = (
            f" (with {face_plural(event.wild)})" if event.wild and event.wild != event.face else ""
        )
        holds = event.count >= event.quantity
        verdict = Part("the bid holds", "good") if holds else Part("the bid was a bluff", "bad")
        count = f"{event.count} {face_plural(event.face)}{wild} against a bid of {event.quantity}"
        lines.append(line(f"  {count}: ", verdict, "."))
        return joined(lines)
