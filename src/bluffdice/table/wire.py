"""The wire format: every message between a table and the world, as versioned JSON.

A message decodes without knowing the game in advance: every action, chance outcome,
event and view carries a tag that names its game (`mia.announce`, `liars-dice.view`),
and the few events every game shares carry plain tags (`round_started`, `game_over`).
The same structs go to a terminal, a websocket, a bot's pipe and the store, so there is
one encoding, made here.

Messages from the table: `Prompt` (your turn: view, state id, time left), `Update`
(what happened, as this recipient may see it, and their new view), `Refused` (a move
that changed nothing, and why), `Welcome` (a seat's current view and own history, on
joining or reconnecting). Messages to the table: `Move` (an action and the state id it
answers).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final, Literal, Union

import msgspec

from bluffdice.games import base
from bluffdice.games.base import Event
from bluffdice.games.registry import GameSpec, games, get_game

VERSION: Final = 1
"""Bumped when a message changes shape; every message carries it as `v`."""


class TimedOut(Event, frozen=True, tag="timed_out"):
    """A player's time ran out; the table made the default move `action` for them."""

    player: int
    action: str


RefusalCode = Literal[
    "not_your_seat", "not_your_turn", "stale", "illegal", "too_late", "game_over", "malformed"
]


class Refused(msgspec.Struct, frozen=True, tag="refused"):
    """A move the table did not take; nothing changed. `state_id` is the table's now."""

    code: RefusalCode
    reason: str
    state_id: int
    v: int = VERSION


class Prompt(msgspec.Struct, frozen=True, tag="prompt"):
    """It is `seat`'s turn: answer with a `Move` naming `state_id` within `time_left` s."""

    seat: int
    state_id: int
    time_left: float | None
    view: Any
    v: int = VERSION


class Update(msgspec.Struct, frozen=True, tag="update"):
    """One step of the game as `recipient` may see it (None: a spectator).

    `chance` (the dice drawn) is set only in replays of finished games, where nothing
    is secret any more.
    """

    recipient: int | None
    state_id: int
    events: tuple[Any, ...]
    view: Any
    chance: Any = None
    v: int = VERSION


class Welcome(msgspec.Struct, frozen=True, tag="welcome"):
    """Everything a seat that joins late or reconnects needs: who plays, its own
    history so far (the same updates it would have received) and its view now."""

    recipient: int | None
    game: str
    rules: str
    names: tuple[str, ...]
    history: tuple[Update, ...]
    view: Any
    v: int = VERSION


class Move(msgspec.Struct, frozen=True, tag="move"):
    """An action from a seat, made against the state `state_id`."""

    state_id: int
    action: Any
    v: int = VERSION


SHARED_TYPES: Final[tuple[type, ...]] = (
    base.RoundStarted,
    base.DiceDealt,
    base.DiceRevealed,
    base.Eliminated,
    base.GameOver,
    TimedOut,
)


_REQUIRED: Final = object()


class WireError(ValueError):
    """A message that is not valid JSON of this format; the text says what is wrong."""


def _is_view(cls: type) -> bool:
    return issubclass(cls, msgspec.Struct) and str(cls.__struct_config__.tag).endswith(".view")


def _kinds(specs: Sequence[GameSpec]) -> tuple[list[type], list[type], list[type]]:
    """Split every game's wire types into actions (with chance outcomes), events, views."""
    actions: list[type] = []
    events: list[type] = list(SHARED_TYPES)
    views: list[type] = []
    for spec in specs:
        for cls in spec.wire_types:
            if _is_view(cls):
                views.append(cls)
            elif issubclass(cls, Event):
                events.append(cls)
            else:
                actions.append(cls)
    return actions, events, views


def _tuple_of(kind: Any) -> Any:
    return tuple[kind, ...]


def _union(types: Sequence[type]) -> Any:
    return Union[tuple(types)]  # noqa: UP007 - built at run time from the registry


@lru_cache(maxsize=8)
def _codec(names: tuple[str, ...]) -> tuple[type, msgspec.json.Decoder[Any], type]:
    """Message classes typed with the unions of the registered games, and their decoder.

    Cached per set of registered games, so a game registered later (a test's toy game)
    gets a codec that knows it.
    """
    specs = [get_game(name) for name in names]
    actions, events, views = _kinds(specs)
    action, event, view = _union(actions), _union(events), _union(views)

    def typed(base_cls: type[msgspec.Struct], fields: list[tuple[str, Any, Any]]) -> type:
        # The same message, its `Any` fields narrowed to the registered games' unions.
        tag = base_cls.__struct_config__.tag
        return msgspec.defstruct(
            base_cls.__name__,
            [
                (name, kind) if default is _REQUIRED else (name, kind, default)
                for name, kind, default in fields
            ],
            bases=(base_cls,),
            tag=tag,
            frozen=True,
            module=__name__,
        )

    typed_prompt = typed(Prompt, [("view", view, _REQUIRED)])
    typed_update = typed(
        Update,
        [
            ("events", _tuple_of(event), _REQUIRED),
            ("view", view, _REQUIRED),
            ("chance", action | None, None),
        ],
    )
    typed_welcome = typed(
        Welcome, [("history", _tuple_of(typed_update), _REQUIRED), ("view", view, _REQUIRED)]
    )
    typed_move = typed(Move, [("action", action, _REQUIRED)])
    message = _union([typed_prompt, typed_update, typed_welcome, typed_move, Refused])
    return message, msgspec.json.Decoder(message), typed_move


def _registered() -> tuple[str, ...]:
    return tuple(spec.name for spec in games())


def encode(message: Any) -> bytes:
    """The JSON bytes of a message (or of any action, event or view)."""
    return msgspec.json.encode(message)


def decode(data: bytes | str) -> Any:
    """A message from JSON, whatever its game; WireError says what is wrong."""
    _, decoder, _ = _codec(_registered())
    try:
        return decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise WireError(_short(str(exc))) from None


def decode_move(data: bytes | str, game: str | None = None) -> Move:
    """A `Move` from a seat: the only message a table accepts from outside. With `game`
    (a registered game's name), only that game's actions decode: what a server that
    knows its table's game passes, to skip listing the registry on every move."""
    _, _, move_type = _codec(_registered() if game is None else (game,))
    try:
        move: Move = msgspec.json.decode(data, type=move_type)
    except msgspec.DecodeError as exc:
        raise WireError(_short(str(exc))) from None
    return move


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def schema(game: str | None = None) -> dict[str, Any]:
    """The JSON Schema of every message (of one game's messages, with `game`)."""
    names = _registered() if game is None else (get_game(game).name,)
    message, _, _ = _codec(names)
    result: dict[str, Any] = msgspec.json.schema(message)
    result["$comment"] = f"bluffdice wire format version {VERSION}"
    return result
