"""The Mäxchen UDP text protocol: reading and writing its lines.

Only the text lives here: what a datagram says, whether a name is valid, how dice and
scores are written. The server (`maexchen.server`) decides what the lines mean. Parsing
never raises: anything that is not a well-formed command comes back as None, because
the protocol ignores malformed messages and lets the timeout decide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

from bluffdice.games.mia.values import dice_of

PORT: Final = 9000
NAME_LIMIT: Final = 20
SECRET_LIMIT: Final = 64

# Reasons for losing a round, as the protocol writes them.
SEE_BEFORE_FIRST_ROLL: Final = "SEE_BEFORE_FIRST_ROLL"
LIED_ABOUT_MIA: Final = "LIED_ABOUT_MIA"
ANNOUNCED_LOSING_DICE: Final = "ANNOUNCED_LOSING_DICE"
DID_NOT_ANNOUNCE: Final = "DID_NOT_ANNOUNCE"
DID_NOT_TAKE_TURN: Final = "DID_NOT_TAKE_TURN"
SEE_FAILED: Final = "SEE_FAILED"
CAUGHT_BLUFFING: Final = "CAUGHT_BLUFFING"
MIA: Final = "MIA"

REASONS: Final = (
    SEE_BEFORE_FIRST_ROLL,
    LIED_ABOUT_MIA,
    ANNOUNCED_LOSING_DICE,
    DID_NOT_ANNOUNCE,
    DID_NOT_TAKE_TURN,
    SEE_FAILED,
    CAUGHT_BLUFFING,
    MIA,
)

ENGINE_REASONS: Final = {
    "caught_bluffing": CAUGHT_BLUFFING,
    "see_failed": SEE_FAILED,
    "see_failed_mia": SEE_FAILED,
    "mia": MIA,
    "lied_about_mia": LIED_ABOUT_MIA,
}
"""The engine's penalty reasons under the maexchen preset, in the protocol's words."""

_BAD_NAME = re.compile(r"[,;:\s]")


def valid_name(name: str) -> bool:
    """1 to 20 characters, none of them `,` `;` `:` or white space."""
    return 0 < len(name) <= NAME_LIMIT and _BAD_NAME.search(name) is None


def valid_secret(secret: str) -> bool:
    """1 to 64 characters without `;` (the field separator)."""
    return 0 < len(secret) <= SECRET_LIMIT and ";" not in secret


@dataclass(frozen=True)
class Register:
    name: str
    secret: str | None
    spectator: bool


@dataclass(frozen=True)
class Unregister:
    pass


class Answer(NamedTuple):
    """A command that answers the server: JOIN, ROLL, SEE or ANNOUNCE, with its token.
    (A named tuple: one is made for nearly every datagram a round receives, and a
    frozen dataclass costs several times as much to make.)"""

    command: str
    token: str
    value: int | None = None
    """ANNOUNCE only: the announced value, higher die first (53)."""


Inbound = Register | Unregister | Answer


def parse(data: bytes, strict: bool = False) -> Inbound | None:
    """One datagram as a command, or None if it is not one (wrong encoding, unknown
    command, missing token, dice that are not two numbers from 1 to 6).

    By default it reads a datagram as the canonical contest server does, so bots
    written against that server play unchanged: fields after the ones a command needs
    are ignored (`JOIN;tok;`, `ANNOUNCE;3,1;tok;x`), each die is read as JavaScript's
    `parseInt` reads a number (`ANNOUNCE; 3,1;tok` and `ANNOUNCE;3,1,5;tok` announce
    3,1), and a line end is part of the last field (`JOIN;tok\n` carries no valid
    token, `REGISTER;x\r\n` an invalid name). `strict`: exactly the fields a command
    has, each die one digit, and a trailing `\n` or `\r\n` stripped first."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if strict and text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    command, _, rest = text.partition(";")
    if command in ("REGISTER", "REGISTER_SPECTATOR"):
        name, _, secret = rest.partition(";")
        return Register(name, secret if _ else None, command == "REGISTER_SPECTATOR")
    if command == "UNREGISTER":
        return Unregister()
    fields = rest.split(";")
    if strict:
        if command in ("JOIN", "ROLL", "SEE") and len(fields) == 1 and fields[0]:
            return Answer(command, fields[0])
        if command == "ANNOUNCE" and len(fields) == 2 and fields[1]:
            value = parse_dice(fields[0])
            if value is not None:
                return Answer(command, fields[1], value)
        return None
    if command in ("JOIN", "ROLL", "SEE") and fields[0]:
        return Answer(command, fields[0])
    if command == "ANNOUNCE" and len(fields) >= 2 and fields[1]:
        value = _canonical_dice(fields[0])
        if value is not None:
            return Answer(command, fields[1], value)
    return None


_JS_INT = re.compile(r"\s*[+-]?\d+")


def _canonical_dice(text: str) -> int | None:
    """The first two comma-separated fields, each read as `parseInt` reads it (leading
    white space, then digits; anything after them ignored), as a value if both are
    from 1 to 6."""
    parts = text.split(",")
    if len(parts) < 2:
        return None
    dice = []
    for part in parts[:2]:
        number = _JS_INT.match(part)
        if number is None:
            return None
        die = int(number.group())
        if not 1 <= die <= 6:
            return None
        dice.append(die)
    a, b = dice
    return max(a, b) * 10 + min(a, b)


def parse_dice(text: str) -> int | None:
    """`a,b` with a and b from 1 to 6, in either order, as a value (higher die first)."""
    parts = text.split(",")
    if len(parts) != 2 or not all(len(p) == 1 and p in "123456" for p in parts):
        return None
    a, b = int(parts[0]), int(parts[1])
    return max(a, b) * 10 + min(a, b)


def dice(value: int) -> str:
    """A value as the protocol writes dice: higher die first, `5,3`."""
    high, low = dice_of(value)
    return f"{high},{low}"


def score_line(scores: Iterable[tuple[str, int]]) -> str:
    return "SCORE;" + ",".join(f"{name}:{points}" for name, points in scores)


def lost_line(names: Iterable[str], reason: str) -> str:
    return f"PLAYER LOST;{','.join(names)};{reason}"
