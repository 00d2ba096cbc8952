"""The review's sentences as templates, so the browser can say them in its own language.

A `Phrase` is the English sentence (a plain `str` to the terminal and to `--json`) that
remembers its template's key and parameters; the replay page looks the key up in its
message catalogue (`static/i18n/*.json`, keys `rv.*`) and fills in the same parameters.
`TEMPLATES` is the one English source: tests/test_web_i18n.py checks that the catalogue's
English equals it and that every other language has each key with the same placeholders.
"""

from __future__ import annotations

from dataclasses import dataclass
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
        "the bids of others not read; a call is tested at once, a bid only if the next player "
        "calls it, which they do when, from their own cup, it more likely fails than holds; "
        "figure = the expected dice swing against whoever tests the move (+1: you lose a die, "
        "-1: they do, 0: the bid is raised and passed on)"
    ),
    "rv.model.poker": "poker-dice odds",
    "rv.model.poker.about": (
        "exact chances over five fair dice: the other cup is any of the 7,776 rolls alike (its "
        "owner's claims and rerolls not read), your own cup as you saw it; risk = the chance of "
        "losing the round if the move is tested now (a call loses when the other cup makes the "
        "claim, a claim when your own dice do not make it, a reroll when the new dice give no "
        "hand above the last claim, so the claim you then owe is a bluff)"
    ),
    # a solved round's title (bluffdice.solve.mia.MiaRoundSpec.describe), in parts
    "rv.policy.and": "{first}, {second}",
    "rv.policy.round": "heads-up Mia round",
    "rv.policy.doubles_ascending": "doubles ascending",
    "rv.policy.little_mia": "little mia",
    "rv.policy.halbmeier": "halbmeier",
    "rv.policy.pips": "pips",
    "rv.policy.pass.draw": "pass (at most {cap} between rolls, then a pass is a draw)",
    "rv.policy.pass.forced": "pass (at most {cap} between rolls, then no pass)",
    "rv.policy.noPass": "no pass",
    "rv.policy.mia.instant": "Mia shown at once",
    "rv.policy.mia.look": "Mia: give up or look",
    "rv.policy.beatMia": "beat Mia",
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
    "rv.mia.outside.afterMia": (
        "nothing is announced after Mia: the round ends with give up or look"
    ),
    "rv.mia.outside.beat": "{announced} may not follow {previous}: an announcement must beat it",
    "rv.mia.outside.equal": (
        "{announced} may not follow {previous}: an announcement must equal or beat it"
    ),
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
    # the same sentences about a named player (`Rater.speaker`: the server's review of
    # every seat), keyed `<key>.they`
    "rv.knew.dice.they": "{who}'s dice: {dice}",
    "rv.mia.knew.unseen.they": "{who} had not seen the dice",
    "rv.mia.knew.seen.they": "{who} had seen the dice under the cup: {dice}",
    "rv.mia.announce.they": "{who} held {dice}, announcing over {previous}",
    "rv.mia.announce.open.they": "{who} held {dice}, announcing to open the round",
    "rv.mia.announce.unseen.they": (
        "{who} held dice they did not look at, announcing over {previous}"
    ),
    "rv.mia.announce.unseen.open.they": (
        "{who} held dice they did not look at, announcing to open the round"
    ),
    "rv.mia.knew.blind.they": "{who} announced blind",
    "rv.mia.truth.told.they": "{who} told the truth",
    "rv.mia.truth.lied.they": "{who} lied",
    "rv.ch.raise.they": "after {who}'s reroll, owing a claim above {claim}",
    "rv.ch.knew.they": "{who}'s dice: {dice} ({hand})",
}


@dataclass(frozen=True, eq=False)
class Term:
    """A value a sentence names that the page words itself in its own language: a Mia
    value (`mia.value`: value, named as `Ranking.named` says), a Liar's Dice bid
    (`ld.bid`: quantity, face), a poker-dice hand (`ch.hand`: hand, high, low), a game
    (`game`: name). `text` is its English, the words the terminal uses for it."""

    kind: str
    text: str
    fields: dict[str, Any]

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        return {"term": self.kind, **self.fields}


def mia_value(value: int, ranking: Any) -> Term:
    """A Mia value as its ranking names it: `21 (Mia)`, `62 (8 pips)`, `55`."""
    return Term("mia.value", ranking.name(value), {"value": value, "named": ranking.named(value)})


def spoken_bid(quantity: int, face: int) -> Term:
    """A Liar's Dice bid as said aloud: `3 fives`, `1 4`."""
    from bluffdice.games.liars_dice import face_plural

    said = f"{quantity} {face_plural(face) if quantity != 1 else face}"
    return Term("ld.bid", said, {"quantity": quantity, "face": face})


def poker_hand(key: tuple[int, int, int]) -> Term:
    """A poker-dice hand or claim (its HandKey): `full house, kings over tens`."""
    from bluffdice.games.common_hand.hands import CATEGORIES, describe_key

    category, high, low = key
    fields = {"hand": CATEGORIES[category], "high": high, "low": low}
    return Term("ch.hand", describe_key(key), fields)


def game(spec: Any) -> Term:
    """A game by its title (the registry's GameSpec)."""
    return Term("game", spec.title, {"name": spec.name})


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
            name: value if isinstance(value, Phrase | Term | int | float) else str(value)
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
    """A phrase as the page reads it ({"key", "params"}), a term as {"term", ...fields};
    anything else as it is."""
    return value.to_json() if isinstance(value, Phrase | Term) else value
