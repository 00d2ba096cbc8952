"""What a review is made of: each rated decision, the whole review, and the `Rater`
base class each game's rater subclasses.

The raters (`review.mia`, ...) import this module, never the walk: the walk finds a
game's rater through its registration (`GameSpec.rater`), so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bluffdice.games.base import GameState
from bluffdice.review.words import Phrase, said

MARK_DUBIOUS = 0.05
MARK_MISTAKE = 0.2
"""Expected loss (lives or dice) above the best choice that earns "?" and "??"."""


@dataclass
class Rating:
    """One decision of the reviewed player, rated from what they knew at the time.

    `options` maps each answer the model weighs to the player's expected loss (lives,
    dice, or the rule set's own penalty unit); `cost` is the chosen option's loss above
    the cheapest (None when the model does not cover the move). `equilibrium` is the
    solved policy's distribution over actions at this spot, when a policy covers it.
    """

    number: int
    step: int
    round: int
    kind: str
    situation: str
    choice: str
    knew: str
    truth: str | None = None
    figures: dict[str, float] = field(default_factory=dict)
    options: dict[str, float] = field(default_factory=dict)
    best: str | None = None
    cost: float | None = None
    model: str = Phrase("rv.model.none")
    equilibrium: dict[str, float] | None = None
    equilibrium_choice: float | None = None
    note: str = ""

    @property
    def mark(self) -> str:
        if self.cost is None or self.cost <= MARK_DUBIOUS:
            return ""
        return "??" if self.cost > MARK_MISTAKE else "?"


@dataclass
class Review:
    """A whole review: who played what, every rated decision, the models, a summary."""

    game: str
    rules: str
    names: list[str]
    seat: int
    ratings: list[Rating]
    models: dict[str, str]
    result: str
    summary: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for rating, row in zip(self.ratings, data["ratings"], strict=True):
            row["mark"] = rating.mark
            # the page's words: each sentence's template and parameters (see review.words)
            row["said"] = {
                name: said(value) for name, value in row.items() if isinstance(value, Phrase)
            }
            for name in row["said"]:
                row[name] = str(row[name])
        data["models"] = {str(name): str(about) for name, about in self.models.items()}
        data["models_said"] = models_said(self.models)
        return data


def models_said(models: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Each model's name and description as the page reads them (see review.words)."""
    return {str(name): {"name": said(name), "about": said(about)} for name, about in models.items()}


class Rater:
    """Rates one game's decisions; each game has its own, named by `GameSpec.rater`.

    This base rates nothing: a game without a rater of its own still gets a review (its
    moves listed, none rated)."""

    def __init__(self, rules: Any, players: int) -> None:
        self.rules = rules
        self.players = players
        self.models: dict[str, str] = {}
        """Each model the ratings use, by name, with what it assumes."""
        self.names: list[str] = []
        """The seats' names (set by the walk)."""
        self.speaker: str | None = None
        """Whom the sentences are about: None says "you" (a player's review of their own
        seat); a name words them about that player (a replay's review of every seat,
        read by whoever watches it)."""

    def said(self, key: str, **params: Any) -> Phrase:
        """The sentence `key` about the rated player, as `speaker` says."""
        if self.speaker is None:
            return Phrase(key, **params)
        return Phrase(f"{key}.they", who=self.speaker, **params)

    def rate(
        self, number: int, step: int, before: GameState, seat: int, action: Any
    ) -> Rating | None:
        """The rating of `action` taken by `seat` in `before`; None: no decision (all
        this base class says, so a game without a rater is walked, not rated)."""
        return None

    def truth(self, before: GameState, rating: Rating, events: Sequence[Any]) -> None:
        """Add what the end of the round revealed (called with the move's own events)."""

    def summary(self, ratings: list[Rating]) -> dict[str, Any]:
        return {}
