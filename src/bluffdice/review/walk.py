"""The walk over a game: every decision of one seat handed to the game's rater.

The rater comes from the game's registration (`GameSpec.rater`, resolved when a review
is asked for); the walk imports no game's rater, so a new game brings its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bluffdice.games.base import CHANCE, GameState
from bluffdice.games.record import Record
from bluffdice.review.rating import Rater, Rating, Review
from bluffdice.review.words import Phrase


def rater_for(record: Record) -> Rater:
    """The rater the record's game registered (`GameSpec.rater`), made for its rules and
    table size; the base `Rater` (rates nothing) for a game without one."""
    from bluffdice.games.registry import game_of, parse_rules, plugin

    rules = parse_rules(record.rules, game=record.game)
    spec = game_of(rules)
    factory = plugin(spec.rater) if spec.rater else Rater
    rater: Rater = factory(rules, record.players)
    return rater


def _flag_disagreement(rating: Rating) -> None:
    """A move the odds model marks but the equilibrium mostly makes: say so, since the
    model's assumptions (not the player) may be what is wrong there."""
    if rating.mark and (rating.equilibrium_choice or 0.0) >= 0.5:
        agree = Phrase("rv.note.equilibrium", p=f"{rating.equilibrium_choice:.0%}")
        rating.note = (
            Phrase("rv.note.and", first=rating.note, second=agree) if rating.note else agree
        )


def review_game(
    record: Record, seat: int, names: Sequence[str] | None = None, *, about: bool = False
) -> Review:
    """Rebuild `record` at a table and rate every decision of `seat`: said to its player
    ("you held 53"), or with `about` said of it by name ("Ann held 53"), as a replay
    watched by anyone needs."""
    from bluffdice.games.registry import get_game
    from bluffdice.table.replay import rebuild

    if not 0 <= seat < record.players:
        raise ValueError(f"the game has seats 0 to {record.players - 1}, not {seat}")
    table = rebuild(record, names=names)
    rater = rater_for(record)
    rater.names = list(table.names)
    rater.speaker = table.names[seat] if about else None
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
