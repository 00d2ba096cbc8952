"""What is said about Mia events."""

from __future__ import annotations

from collections.abc import Sequence

from bluffdice.games.base import Event
from bluffdice.games.mia import MiaRules
from bluffdice.games.mia.actions import (
    Announced,
    Challenged,
    CheersShown,
    Eliminated,
    GaveUp,
    Looked,
    MiaAttempt,
    Passed,
    Penalty,
    Revealed,
    Rolled,
    RoundStarted,
)
from bluffdice.games.mia.values import MIA
from bluffdice.narration.words import Line, Part, Words, line, plural

REASONS = {
    "caught_bluffing": "caught bluffing",
    "see_failed": "challenged a true announcement",
    "see_failed_mia": "challenged a true Mia",
    "gave_up": "gave up against Mia",
    "mia_found": "looked under a real Mia",
    "lied_about_mia": "lied about Mia",
    "mia": "Mia was announced",
    "beat_failed": "the open roll was no Mia",
    "mia_beaten": "Mia was beaten",
}


class MiaWords(Words):
    def __init__(self, rules: MiaRules) -> None:
        self.rules = rules
        self.ranking = rules.ranking

    def value(self, value: int) -> Part:
        """A value as said aloud; Mia stands out."""
        return Part(self.ranking.name(value), "strong" if value == MIA else "")

    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None:
        if isinstance(event, RoundStarted):
            of = f" of {self.rules.rounds}" if self.rules.mode != "lives" else ""
            who = self.says(event.starter, names, viewer, "start", "starts")
            return line("\n", Part(f"── Round {event.round}{of}", "heading"), " · ", who, ".")
        if isinstance(event, Rolled):
            return self.says(event.player, names, viewer, "roll.", "rolls.")
        if isinstance(event, Looked):
            seen = Part(self.ranking.name(event.value), "strong")
            if event.player != viewer:  # a replay: the game is over, nothing is secret
                return line(
                    self.name(event.player, names, viewer), " looks at the dice: ", seen, "."
                )
            return line("You look at your dice: ", seen, ".")
        if isinstance(event, Announced):
            who = self.says(event.player, names, viewer, "announce", "announces")
            return line(who, " ", self.value(event.value), ".")
        if isinstance(event, Passed):
            who = self.says(event.player, names, viewer, "pass", "passes")
            return line(
                who, " the cup on without rolling, announcing ", self.value(event.value), "."
            )
        if isinstance(event, Challenged):
            whose = self.whose(event.announcer, names, viewer)
            if event.announced == MIA:
                return line(
                    self.says(event.player, names, viewer, "look", "looks"),
                    " under ",
                    whose,
                    " Mia.",
                )
            verb = self.says(event.player, names, viewer, "challenge", "challenges")
            return line(
                verb, " ", whose, f" {self.ranking.name(event.announced)}: the cup is lifted."
            )
        if isinstance(event, Revealed):
            if event.announced is None or event.truthful is None:
                return None  # cheers: the 32 was shown by the player's own move
            verdict = (
                Part("the announcement was true", "good")
                if event.truthful
                else Part("a lie", "bad")
            )
            return line(
                "The dice show ", Part(self.ranking.name(event.value), "strong"), ": ", verdict, "."
            )
        if isinstance(event, GaveUp):
            return line(
                self.says(event.player, names, viewer, "give up", "gives up"), " against Mia."
            )
        if isinstance(event, MiaAttempt):
            if event.value == MIA:
                return line("The open roll shows ", Part("21", "strong"), ": Mia is beaten!")
            return line(f"The open roll shows {self.ranking.name(event.value)}: not a Mia.")
        if isinstance(event, CheersShown):
            who = self.says(event.player, names, viewer, "show", "shows")
            return line(
                who, " a 32: ", Part("cheers!", "strong"), " The round starts again, nobody pays."
            )
        if isinstance(event, Penalty):
            return self._penalty(event, names, viewer)
        if isinstance(event, Eliminated):
            return line(self.says(event.player, names, viewer, "are", "is"), " out of the game.")
        return None

    def _penalty(self, event: Penalty, names: Sequence[str], viewer: int | None) -> Line:
        why = REASONS.get(event.reason, event.reason.replace("_", " "))
        if self.rules.mode == "score":
            cost = line(self.says(event.player, names, viewer, "lose", "loses"), " the round (-1)")
        elif self.rules.mode == "drinking":
            drink = "a stiff drink" if event.stiff else plural(event.amount, "sip")
            cost = line(self.says(event.player, names, viewer, "drink", "drinks"), f" {drink}")
        else:
            lost = Part(plural(event.amount, "life", "lives"), "bad")
            cost = line(self.says(event.player, names, viewer, "lose", "loses"), " ", lost)
        return line(cost, f" ({why}).")
