"""What the hall refuses, and why, in words a person reads (`HallError`).

Every refusal has a catalogue key (`REFUSALS`), so the page can say it in its own
language; the English text here is the server's own (tests/test_web_i18n.py keeps the
two equal). The helpers that check what a person typed (`clean_name`) and hold the
secrets of seats (`token_digest`) sit here too: the lobby and the tables both use them.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Final

from bluffdice.errors import WordedError

NAME_LENGTH: Final = 24

REFUSALS: Final[dict[str, str]] = {
    "err.nameNotText": "a name is text",
    "err.noName": "pick a name to play under",
    "err.noReplay": "the stored game does not replay: {reason}",
    "err.full": "this table has no free seat",
    "err.seatTaken": "seat {seat} is not free",
    "err.seatNumber": "a seat is a number",
    "err.notFair": "this table does not use fair dice",
    "err.seedObject": "send the token and the seed as a JSON object",
    "err.seedNotSeated": "only a seated player gives a seed",
    "err.seedsClosed": "the seeds closed when the game started",
    "err.fairAtEnd": "the dice are shown to be fair when the game is over",
    "err.tableObject": "send the table as a JSON object",
    "err.noSeats": "say who sits in each seat",
    "err.players": "{game} is played by {low} to {high} players",
    "err.noBot": "no {game} bot {bot}; bots: {bots}",
    "err.seatKind": "each seat is 'human' or 'bot'",
    "err.limitNumber": "the time limit is a number of seconds",
    "err.limitRange": "the time limit is {low} to {high} seconds",
    "err.dice": "the dice are 'system' (the default) or 'fair'",
    "err.noTable": "no such table (it may have finished long ago)",
    "err.noGame": "no such game",
    "err.notOver": "this game is not over yet: its replay opens when it ends",
    "err.tooManyTables": "this server has {count} tables open or playing, its most: "
    "try again later",
    "err.tooManyYours": "you have {count} tables open or playing, the most one address "
    "may have: finish or leave one first",
    "err.botTables": "tables of bots only are switched off on this server",
    "err.tooManyBotTables": "this server runs {count} tables of bots only, its most: "
    "try again later",
    "err.listed": "listed is true or false",
    "err.reviewLong": "this game has {steps} steps: the server reviews games of up to "
    "{most} steps (bluffdice review reviews any game on your own machine)",
    "err.reviewBusy": "the server is reviewing other games: try again in a minute",
    "err.notHost": "only the table's creator hands a seat over",
    "err.seatNotHuman": "seat {seat} is not a person's seat",
    "err.seatHere": "seat {seat}'s player is here: a seat is handed over when its "
    "player has left or has been away for {seconds} seconds",
    "err.handTo": "a seat is handed to 'bot' (with its bot) or 'player' (a free seat)",
    "err.notSeated": "this token holds no seat at this table",
    "err.over": "this game is over",
}
"""What the hall refuses, in English; the page shows the catalogue's text of the same key
(static/i18n; tests/test_web_i18n.py keeps the two equal in English)."""


class HallError(WordedError):
    """A request the hall refuses (bad rules, a full table, an unknown table): the text
    is shown to the person who asked. Made by `said`, it also carries its catalogue key
    and parameters, so the page can show it in its own language."""

    @classmethod
    def said(cls, key: str, **params: Any) -> HallError:
        shown = {name: str(value) for name, value in params.items()}
        return cls(REFUSALS[key].format(**shown), key, shown)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    """A player's name as shown: printable, single-spaced, at most NAME_LENGTH characters.
    (Pages show names as text, never as markup; this only keeps them tidy.)"""
    if not isinstance(name, str):
        raise HallError.said("err.nameNotText")
    text = " ".join(re.sub(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e]", " ", name).split())
    if not text:
        raise HallError.said("err.noName")
    return text[:NAME_LENGTH]
