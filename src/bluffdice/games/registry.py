"""The list of games and their presets, and rule strings that name either.

`parse_rules("meyer(lives=3)")` finds the preset or game the name stands for, then
applies the options. Games add themselves to `GAMES` in `bluffdice.games`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import msgspec

from bluffdice.games.base import GameState, RuleError
from bluffdice.games.rulestring import apply_options, format_rules, split_rule_string


@dataclass(frozen=True)
class GameSpec:
    """Everything the outer layers need to know about one game."""

    name: str
    title: str
    aliases: tuple[str, ...]
    rules_cls: type
    presets: Mapping[str, Any]
    preset_docs: Mapping[str, str]
    new_game: Callable[[Any, int], GameState]
    parse_action: Callable[[str], Any]
    min_players: int
    max_players: int
    summary: str
    wire_types: tuple[type, ...] = ()
    """Every action, chance outcome, event and view struct of the game, each with a tag
    of its own: what the wire format decodes without knowing the game in advance."""

    def default_rules(self) -> Any:
        return self.rules_cls()


def tagged_structs(*modules: Any) -> tuple[type, ...]:
    """The concrete tagged structs defined in `modules` (their abstract bases, tagged by
    class name, are left out: only tags that name their game, like `mia.roll`, count)."""
    found: list[type] = []
    for module in modules:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, msgspec.Struct)
                and value.__module__ == module.__name__
                and "." in str(value.__struct_config__.tag)
            ):
                found.append(value)
    return tuple(found)


def unregister(name: str) -> None:
    """Forget a game (tests register throw-away games)."""
    spec = _GAMES.pop(name)
    for key in [k for k, v in _NAMES.items() if v is spec]:
        del _NAMES[key]
    for key in [k for k, v in _PRESETS.items() if v[0] is spec]:
        del _PRESETS[key]
    parse_rules.cache_clear()


_GAMES: dict[str, GameSpec] = {}
_NAMES: dict[str, GameSpec] = {}
_PRESETS: dict[str, tuple[GameSpec, Any]] = {}


def register(spec: GameSpec) -> None:
    """Make a game known by its name, aliases and presets (names must be unique)."""
    for name in (spec.name, *spec.aliases):
        if name in _NAMES and _NAMES[name] is not spec:
            raise ValueError(f"game name {name!r} is taken")
        _NAMES[name] = spec
    for preset, rules in spec.presets.items():
        if preset in _PRESETS and _PRESETS[preset][0] is not spec:
            raise ValueError(f"preset name {preset!r} is taken")
        _PRESETS[preset] = (spec, rules)
    _GAMES[spec.name] = spec


def games() -> list[GameSpec]:
    return list(_GAMES.values())


def get_game(name: str) -> GameSpec:
    """The game called `name` (or one of its aliases); a RuleError lists the known ones."""
    key = name.strip().lower().replace("_", "-")
    spec = _NAMES.get(key)
    if spec is None:
        raise RuleError(f"unknown game {name!r}; games are: {', '.join(sorted(_NAMES))}")
    return spec


def game_of(rules: Any) -> GameSpec:
    for spec in _GAMES.values():
        if isinstance(rules, spec.rules_cls):
            return spec
    raise RuleError(f"{type(rules).__name__} is not the rules of a known game")


@lru_cache(maxsize=512)
def parse_rules(text: str, game: str | None = None) -> Any:
    """Read a preset name, game name or rule string into a rules object.

    With `game`, the string must describe that game (a preset of another game is an error).
    """
    name, pairs = split_rule_string(text)
    key = name.replace("_", "-")
    if key in _PRESETS:
        spec, base = _PRESETS[key]
    elif key in _NAMES:
        spec = _NAMES[key]
        base = spec.default_rules()
    else:
        known = sorted(set(_PRESETS) | set(_NAMES))
        raise RuleError(f"unknown preset or game {name!r}; known names are: {', '.join(known)}")
    if game is not None and spec is not get_game(game):
        raise RuleError(f"{name!r} is a rule set of {spec.name}, not of {get_game(game).name}")
    return apply_options(spec.name, base, pairs)


def rules_string(rules: Any, full: bool = False) -> str:
    """The canonical string of a rules object; `parse_rules` reads it back to an equal one.

    The short form names only the options that differ from the defaults; `full=True`
    names every option (for records that must outlive a change of defaults)."""
    return format_rules(game_of(rules).name, rules, full=full)


def preset_name(rules: Any) -> str | None:
    """The name of the preset equal to `rules`, if any."""
    for name, (_, preset) in _PRESETS.items():
        if preset == rules:
            return name
    return None
