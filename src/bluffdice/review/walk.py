"""The walk over a game and the data a review is made of; the games rate the moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bluffdice.games.base import CHANCE, GameState
from bluffdice.games.record import Record
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
    """Rates one game's decisions; each game has its own (see `rater_for`)."""

    models: dict[str, str]
    names: list[str]

    def rate(
        self, number: int, step: int, before: GameState, seat: int, action: Any
    ) -> Rating | None:
        """The rating of `action` taken by `seat` in `before`; None: no decision."""
        raise NotImplementedError

    def truth(self, before: GameState, rating: Rating, events: Sequence[Any]) -> None:
        """Add what the end of the round revealed (called with the move's own events)."""

    def summary(self, ratings: list[Rating]) -> dict[str, Any]:
        return {}


def rater_for(record: Record) -> Rater:
    from bluffdice.games.registry import parse_rules

    rules = parse_rules(record.rules, game=record.game)
    if record.game == "mia":
        from bluffdice.review.mia import MiaRater

        return MiaRater(rules, record.players)
    if record.game == "liars-dice":
        from bluffdice.review.liars_dice import LiarsDiceRater

        return LiarsDiceRater(rules)
    if record.game == "common-hand":
        from bluffdice.review.common_hand import CommonHandRater

        return CommonHandRater(rules)
    rater = Rater()
    rater.models = {}
    return rater


def _flag_disagreement(rating: Rating) -> None:
    """A move the odds model marks but the equilibrium mostly makes: say so, since the
    model's assumptions (not the player) may be what is wrong there."""
    if rating.mark and (rating.equilibrium_choice or 0.0) >= 0.5:
        agree = Phrase("rv.note.equilibrium", p=f"{rating.equilibrium_choice:.0%}")
        rating.note = (
            Phrase("rv.note.and", first=rating.note, second=agree) if rating.note else agree
        )


def review_game(record: Record, seat: int, names: Sequence[str] | None = None) -> Review:
    """Rebuild `record` at a table and rate every decision of `seat`."""
    from bluffdice.games.registry import get_game
    from bluffdice.table.replay import rebuild

    if not 0 <= seat < record.players:
        raise ValueError(f"the game has seats 0 to {record.players - 1}, not {seat}")
    table = rebuild(record, names=names)
    rater = rater_for(record)
    rater.names = list(table.names)
    ratings: list[Rating] = []
    before: GameState = table.initial
    pending: Rating | None = None  # a rating waiting for the truth of its round
    window = 0
    for step, entry in enumerate(table.log):
        if entry.actor == seat:
            rating = rater.rate(len(ratings) + 1, step, before, seat, entry.action)
            if rating is not None:
                _flag_disagreement(rating)
                ratings.append(rating)
                pending, window = rating, 2
        if pending is not None and entry.actor != CHANCE:
            # the move's own events, then the next player's answer (a call of a bid):
            # any later reveal is about someone else's move
            rater.truth(before, pending, entry.events)
            window -= 1
            if pending.truth is not None or window == 0:
                pending = None
        before = entry.state
    outcome = table.outcome()
    title = get_game(record.game).title if record.game else record.game
    if outcome is None:
        result = "abandoned before the end"
    else:
        winners = ", ".join(table.names[w] for w in outcome.winners)
        result = f"won by {winners} after {outcome.rounds} rounds"
    rated = [r for r in ratings if r.cost is not None]
    summary: dict[str, Any] = {
        "decisions": len(ratings),
        "rated": len(rated),
        "expected_cost": round(sum(r.cost or 0.0 for r in rated), 4),
        "costliest": [
            r.number
            for r in sorted(rated, key=lambda r: (-(r.cost or 0.0), r.number))[:3]
            if (r.cost or 0.0) > 0
        ],
        "dubious": sum(1 for r in ratings if r.mark == "?"),
        "mistakes": sum(1 for r in ratings if r.mark == "??"),
    }
    summary.update(rater.summary(ratings))
    return Review(
        game=title,
        rules=record.rules,
        names=list(table.names),
        seat=seat,
        ratings=ratings,
        models=rater.models,
        result=result,
        summary=summary,
    )
