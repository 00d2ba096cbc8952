"""What is said about common hand (poker dice) events."""

from __future__ import annotations

from collections.abc import Sequence

from bluffdice.games.base import Event
from bluffdice.games.common_hand import (
    Challenged,
    Claim,
    Claimed,
    CommonHandRules,
    LifeLost,
    Revealed,
    Rolled,
    RoundStarted,
    YourDice,
    describe_key,
    face_name,
    hand_key,
)
from bluffdice.narration.words import Line, Part, Words, joined, line, plural

REASONS = {
    "caught_bluffing": "caught bluffing",
    "lost_challenge": "called liar on a true claim",
}


def poker_parts(hand: Sequence[int]) -> Line:
    return joined([(Part(f"[{face_name(d)}]", "die"),) for d in hand], " ")


class CommonHandWords(Words):
    def __init__(self, rules: CommonHandRules) -> None:
        self.rules = rules

    def claim(self, claim: Claim) -> Part:
        return Part(claim.describe(), "strong")

    def best(self, hand: Sequence[int]) -> str:
        return describe_key(hand_key(tuple(hand), self.rules.straights))

    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None:
        if isinstance(event, RoundStarted):
            who = self.says(event.starter, names, viewer, "open", "opens")
            return line("\n", Part(f"── Round {event.round}", "heading"), " · ", who, ".")
        if isinstance(event, Rolled) and event.count < 5:
            who = self.says(event.player, names, viewer, "reroll", "rerolls")
            return line(who, f" {plural(event.count, 'die', 'dice')}.")
        if isinstance(event, YourDice):
            best = f" ({self.best(event.dice)})"
            if event.player != viewer:  # a replay: the game is over, nothing is secret
                owner = self.name(event.player, names, viewer)
                return line(owner, " has ", poker_parts(event.dice), best, ".")
            return line("Your dice: ", poker_parts(event.dice), best)
        if isinstance(event, Claimed):
            who = self.says(event.player, names, viewer, "claim", "claims")
            return line(who, " ", self.claim(event.claim), ".")
        if isinstance(event, Challenged):
            who = self.says(event.player, names, viewer, "call", "calls")
            whose = self.whose(event.claimer, names, viewer)
            return line(
                who, " ", Part("liar!", "shout"), " on ", whose, " ", self.claim(event.claim), ":"
            )
        if isinstance(event, Revealed):
            lines = [
                line(
                    "  ",
                    self.name(p, names, viewer),
                    ": ",
                    poker_parts(hand),
                    f" ({self.best(hand)})",
                )
                for p, hand in enumerate(event.hands)
            ]
            verdict = Part("the claim holds", "good") if event.held else Part("a bluff", "bad")
            lines.append(line("  ", self.claim(event.claim), ": ", verdict, "."))
            return joined(lines)
        if isinstance(event, LifeLost):
            why = REASONS.get(event.reason, event.reason.replace("_", " "))
            verb = self.says(event.player, names, viewer, "lose", "loses")
            left = plural(event.lives, "life", "lives")
            return line(verb, " ", Part("a life", "bad"), f" ({why}): {left} left.")
        return None
