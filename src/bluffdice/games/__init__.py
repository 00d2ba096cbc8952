"""The pure rules core: every game, its rule sets, and nothing that does I/O.

Import a game's module for its types; use the functions here to go from a name or rule
string to rules and a fresh game. Importing this package imports no game: each is loaded
the first time it is named (see `registry.BUILTIN`).
"""

from typing import Any

from bluffdice.games.base import (
    CHANCE,
    TERMINAL,
    BluffdiceError,
    Event,
    GameState,
    IllegalAction,
    PrivateEvent,
    RuleError,
    Step,
    visible_to,
)
from bluffdice.games.registry import (
    GameSpec,
    game_of,
    games,
    get_game,
    parse_rules,
    preset_name,
    register,
    rules_string,
)


def new_game(rules: Any, players: int) -> GameState:
    """A new game for a rules object or rule string, at its first chance node."""
    if isinstance(rules, str):
        rules = parse_rules(rules)
    return game_of(rules).new_game(rules, players)


__all__ = [
    "CHANCE",
    "TERMINAL",
    "BluffdiceError",
    "Event",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "PrivateEvent",
    "RuleError",
    "Step",
    "game_of",
    "games",
    "get_game",
    "new_game",
    "parse_rules",
    "preset_name",
    "register",
    "rules_string",
    "visible_to",
]
