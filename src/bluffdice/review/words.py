"""The review's sentences as templates, so the browser can say them in its own language.

A `Phrase` is the English sentence (a plain `str` to the terminal and to `--json`) that
remembers its template's key and parameters; the replay page looks the key up in its
message catalogue (`static/i18n/*.json`, keys `rv.*`) and fills in the same parameters.
`TEMPLATES` is the one English source: tests/test_web_i18n.py checks that the catalogue's
English equals it and that every other language has each key with the same placeholders.
"""

from __future__ import annotations

from typing import Any

TEMPLATES: dict[str, str] = {
    # the models that rate decisions: their names and what they assume
    "rv.model.none": "not rated",
    "rv.model.exact": "exact: you knew the dice",
    "rv.model.odds": "odds model",
    "rv.model.odds.about": (
        "exact odds under the model of docs/odds.md: every announcer rolled fresh and looked, "
        "told the truth when the roll was legal, else the smallest legal lie; the next player "
        "answers with the cheaper option by that model; passing is outside it"
    ),
    "rv.model.equilibrium": "equilibrium {name}",
    "rv.model.equilibrium.about": (
        "{title}; solved by CFR+ with exploitability {exploitability} (NashConv/2: what a "
        "best-responding opponent gains per round, averaged over the two seats); used only "
        "while two players are left; it plays each round to win it, so it weighs a round "
        "lost to Mia like any other, where the odds model counts the lives"
    ),
    "rv.model.binomial": "binomial odds",
    "rv.model.binomial.about": (
        "exact binomial chances given your own dice: every unseen die fair and independent, "
        "the bids of others not read; risk = the chance of losing a die if the move is tested "
        "(a call loses when the bid holds, a bid when it fails and is called)"
    ),
    "rv.model.poker": "poker-dice odds",
    "rv.model.poker.about": (
        "exact chances over five fair dice: the other cup is any of the 7,776 rolls alike (its "
        "owner's claims and rerolls not read), your own cup as you saw it; risk = the chance of "
        "losing the round if the move is tested now (a call loses when the other cup makes the "
        "claim, a claim when your own dice do not make it, a reroll when the new dice give no "
        "hand above the last claim, so the claim you then owe is a bluff)"
    ),
    # notes beside a rating
    "rv.note.and": "{first}; {second}",
    "rv.note.equilibrium": (
        "the equilibrium makes this move {p} of the time: the odds model's assumptions may "
        "not fit this spot"
    ),
    "rv.note.outside": "outside the odds model: {reason}",
    "rv.none": "no review for {game} games yet",
    "rv.none.why": "no review for {game} games yet: {reason}",
    "rv.knew.dice": "your dice: {dice}",
    # Mia
    "rv.mia.answer.announced": "{player} announced {value} after {previous}",
    "rv.mia.answer.announced.open": "{player} announced {value} to open the round",
    "rv.mia.answer.passed": "{player} passed {value} after {previous}",
    "rv.mia.answer.passed.open": "{player} passed {value} to open the round",
    "rv.mia.knew.unseen": "you had not seen the dice",
    "rv.mia.knew.seen": "you had seen the dice under the cup: {dice}",
    "rv.mia.note.short": "the dice fall short: challenge",
    "rv.mia.note.hold": "the dice hold",
    "rv.mia.note.passOver": "a pass over dice nobody has rolled again: outside the odds model",
    "rv.mia.note.passing": "passing is outside the odds model",
    "rv.mia.announce": "you held {dice}, announcing over {previous}",
    "rv.mia.announce.open": "you held {dice}, announcing to open the round",
    "rv.mia.announce.unseen": "you held dice you did not look at, announcing over {previous}",
    "rv.mia.announce.unseen.open": (
        "you held dice you did not look at, announcing to open the round"
    ),
    "rv.mia.knew.blind": "you announced blind",
    "rv.mia.note.blind": "a blind announcement: rated over every roll the cup may hold",
    "rv.mia.truth.told": "you told the truth",
    "rv.mia.truth.lied": "you lied",
    "rv.mia.truth.dice": "the dice were {value}",
    "rv.mia.truth.held": "the dice were {value}: {announced} held",
    "rv.mia.truth.lie": "the dice were {value}: {announced} was a lie",
    # Liar's Dice
    "rv.ld.facing": "facing {bid} ({total} dice in play)",
    "rv.ld.open": "opening the round ({total} dice in play)",
    "rv.ld.note.calza": "a calza: outside the binomial risk model",
    "rv.ld.truth.held": "{count} dice counted for {bid}: the bid held",
    "rv.ld.truth.held.one": "{count} die counted for {bid}: the bid held",
    "rv.ld.truth.failed": "{count} dice counted for {bid}: the bid failed",
    "rv.ld.truth.failed.one": "{count} die counted for {bid}: the bid failed",
    # common hand
    "rv.ch.raise": "after your reroll, owing a claim above {claim}",
    "rv.ch.facing": "facing {claim}",
    "rv.ch.open": "opening the round",
    "rv.ch.knew": "your dice: {dice} ({hand})",
    "rv.ch.truth.made": "the claimer's dice {dice} made {claim}",
    "rv.ch.truth.missed": "the claimer's dice {dice} did not make {claim}",
}


class Phrase(str):
    """An English sentence of the review that knows its template (see the module's doc).
    Parameters are plain values or other phrases (a note made of two notes)."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, **params: Any) -> Phrase:
        text = TEMPLATES[key].format(**{name: str(value) for name, value in params.items()})
        phrase = super().__new__(cls, text)
        phrase.key = key
        # what the page gets: numbers and phrases as they are, anything else (an error,
        # a hand) as its text
        phrase.params = {
            name: value if isinstance(value, (Phrase, int, float)) else str(value)
            for name, value in params.items()
        }
        return phrase

    def __copy__(self) -> Phrase:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Phrase:
        return self  # immutable, and dataclasses.asdict deep-copies its fields

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, self.params))

    def to_json(self) -> dict[str, Any]:
        """{"key", "params"} for the page; nested phrases nested the same way."""
        return {"key": self.key, "params": {k: said(v) for k, v in self.params.items()}}


def _rebuild(key: str, params: dict[str, Any]) -> Phrase:
    return Phrase(key, **params)


def said(value: Any) -> Any:
    """A phrase as the page reads it ({"key", "params"}); anything else as it is."""
    return value.to_json() if isinstance(value, Phrase) else value
