"""The list of games and their presets, and rule strings that name either.

`parse_rules("meyer(lives=3)")` finds the preset or game the name stands for, then
applies the options.

A game's plug-ins for the outer layers (its words, review rater, terminal presenter and
bots) are named on its `GameSpec` as dotted paths (`"bluffdice.narration.mia:MiaWords"`),
one way for every game: each front end resolves the path it needs with `plugin(...)` when
it needs it. The spec names outer modules without importing them, so this layer never
depends on the layers above it, and naming a game never imports its presenter or bots.

The built-in games are registered lazily: `BUILTIN` names each game's module with the
names and presets it answers to, and a game's module is imported (and its `SPEC`
registered) the first time one of its names is used. `bluffdice odds mia` then never pays
for importing Liar's Dice; `games()` imports them all. A test keeps `BUILTIN` equal to
what the modules declare.
"""

from __future__ import annotations

import importlib
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
    narration: str = ""
    """`"module:factory"`: factory(rules) gives the game's words, a
    `bluffdice.narration.Describer`. Empty: events are described by their fields."""
    rater: str = ""
    """`"module:factory"`: factory(rules, players) gives the `bluffdice.review.Rater` that
    rates a seat's decisions. Empty: a review lists the moves without rating them."""
    presenter: str = ""
    """`"module:factory"`: factory(rules) gives the `bluffdice.terminal.Presenter` that
    shows the game in the terminal. Empty: `bluffdice play` says the game has none."""
    bots: tuple[str, ...] = ()
    """Modules whose import registers the game's bots (`@register_bot`), read by
    `bluffdice.bots.available_bots`. The random bot plays every game without one."""

    def default_rules(self) -> Any:
        return self.rules_cls()


def plugin(path: str) -> Any:
    """The object a `GameSpec` plug-in path names: `"package.module:name"` imports the
    module and returns its attribute `name`."""
    module, colon, name = path.partition(":")
    if not colon or not module or not name:
        raise ValueError(f"plug-in path {path!r} is not of the form 'package.module:name'")
    found = getattr(importlib.import_module(module), name, None)
    if found is None:
        raise ValueError(f"plug-in path {path!r}: module {module} has no {name!r}")
    return found


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


BUILTIN: dict[str, tuple[str, ...]] = {
    "bluffdice.games.mia": (
        "mia",
        "meyer-game",
        "meier",
        "maexchen-game",
        "classic",
        "doubles-ascending",
        "meyer",
        "maexchen",
        "drinking",
    ),
    "bluffdice.games.liars_dice": (
        "liars-dice",
        "dudo",
        "perudo",
        "single-hand",
        "dudo-single-round",
        "openspiel",
    ),
    "bluffdice.games.common_hand": ("common-hand", "poker-dice", "common-hand-round"),
}
"""Each built-in game's module and every name (game, alias, preset) it registers."""

_GAMES: dict[str, GameSpec] = {}
_NAMES: dict[str, GameSpec] = {}
_PRESETS: dict[str, tuple[GameSpec, Any]] = {}
_PENDING: dict[str, str] = {name: module for module, names in BUILTIN.items() for name in names}
"""Names whose game is not imported yet, each to the module that defines it."""


def _load(module: str) -> None:
    """Import a built-in game's module and register its `SPEC` (once)."""
    spec = importlib.import_module(module).SPEC
    for key in [k for k, m in _PENDING.items() if m == module]:
        del _PENDING[key]
    _add(spec)


def _load_name(name: str) -> None:
    """Make sure the game that `name` belongs to, if it is a built-in one, is loaded."""
    module = _PENDING.get(name)
    if module is not None:
        _load(module)


def _load_all() -> None:
    for module in BUILTIN:
        if module in _PENDING.values():
            _load(module)


def unregister(name: str) -> None:
    """Forget a game (tests register throw-away games)."""
    spec = _GAMES.pop(name)
    for key in [k for k, v in _NAMES.items() if v is spec]:
        del _NAMES[key]
    for key in [k for k, v in _PRESETS.items() if v[0] is spec]:
        del _PRESETS[key]
    parse_rules.cache_clear()


def register(spec: GameSpec) -> None:
    """Make a game known by its name, aliases and presets (names must be unique)."""
    _load_all()  # a new game's names must not clash with a built-in one's
    _add(spec)


def _check_plugins(spec: GameSpec) -> None:
    """Refuse a malformed plug-in path when the game is registered, not when a front end
    first needs it (nothing is imported here: registering stays cheap)."""
    paths = [p for p in (spec.narration, spec.rater, spec.presenter) if p]
    for path in paths:
        module, colon, name = path.partition(":")
        if not (colon and module and name.isidentifier()):
            raise ValueError(f"game {spec.name!r}: plug-in path {path!r} is not 'module:name'")
    for module in spec.bots:
        if ":" in module or not all(part.isidentifier() for part in module.split(".")):
            raise ValueError(f"game {spec.name!r}: bot module {module!r} is not a module name")


def _add(spec: GameSpec) -> None:
    _check_plugins(spec)
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
    """Every game: the built-in ones in the order of `BUILTIN`, then others as registered
    (the same order whichever game happened to be loaded first)."""
    _load_all()
    builtin = [importlib.import_module(module).SPEC for module in BUILTIN]
    builtin = [spec for spec in builtin if _GAMES.get(spec.name) is spec]
    return builtin + [spec for spec in _GAMES.values() if spec not in builtin]


def known_names() -> list[str]:
    """Every game name, alias and preset, sorted, without importing any game."""
    return sorted(set(_NAMES) | set(_PRESETS) | set(_PENDING))


def get_game(name: str) -> GameSpec:
    """The game called `name` (or one of its aliases); a RuleError lists the known ones."""
    key = name.strip().lower().replace("_", "-")
    _load_name(key)
    spec = _NAMES.get(key)
    if spec is None:
        _load_all()
        raise RuleError.said("rule.unknownGame", name=repr(name), games=", ".join(sorted(_NAMES)))
    return spec


def game_of(rules: Any) -> GameSpec:
    for attempt in range(2):
        for spec in _GAMES.values():
            if isinstance(rules, spec.rules_cls):
                return spec
        if attempt == 0:
            _load_all()
    raise RuleError(f"{type(rules).__name__} is not the rules of a known game")


@lru_cache(maxsize=512)
def parse_rules(text: str, game: str | None = None) -> Any:
    """Read a preset name, game name or rule string into a rules object.

    With `game`, the string must describe that game (a preset of another game is an error).
    """
    name, pairs = split_rule_string(text)
    key = name.replace("_", "-")
    _load_name(key)
    if key in _PRESETS:
        spec, base = _PRESETS[key]
    elif key in _NAMES:
        spec = _NAMES[key]
        base = spec.default_rules()
    else:
        known = ", ".join(known_names())
        raise RuleError.said("rule.unknownName", name=repr(name), known=known)
    if game is not None and spec is not get_game(game):
        wanted = get_game(game).name
        raise RuleError.said("rule.otherGame", name=repr(name), game=spec.name, wanted=wanted)
    return apply_options(spec.name, base, pairs)


def rules_string(rules: Any, full: bool = False) -> str:
    """The canonical string of a rules object; `parse_rules` reads it back to an equal one.

    The short form names only the options that differ from the defaults; `full=True`
    names every option (for records that must outlive a change of defaults)."""
    return format_rules(game_of(rules).name, rules, full=full)


def preset_name(rules: Any) -> str | None:
    """The name of the preset equal to `rules`, if any."""
    game_of(rules)  # loads the game, and with it its presets
    for name, (_, preset) in _PRESETS.items():
        if preset == rules:
            return name
    return None
