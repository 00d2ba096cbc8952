"""The bot interface and the registry that finds bots by name or file.

A bot sees exactly what a human at the table sees: its `view` (own dice if looked at,
the public history, the legal actions). It may also receive the events it is allowed
to see through `observe`, for bots that keep statistics.

A game's built-in bots live in the modules its registration names (`GameSpec.bots`);
importing them registers each `@register_bot` class for the games it plays.

Installed packages add bots by name through the `bluffdice.bots` entry-point group: an
entry `mybot = mypackage.bots:MyBot` makes `--bots mybot` (and `--opponents mybot`)
play `MyBot` for each game in its `games`, in this process like a built-in bot (it is
code you installed). A built-in name cannot be taken; an entry that fails to load is
skipped, and asking for it by name says why.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic

from bluffdice.games.base import BluffdiceError, Event

if TYPE_CHECKING:
    from typing_extensions import TypeVar
else:
    from bluffdice.games.base import TypeVar

ViewT_contra = TypeVar("ViewT_contra", contravariant=True, default=Any)
"""The view the bot reads (`MiaView`); a bare `Bot` reads any game's."""
ActionT_co = TypeVar("ActionT_co", covariant=True, default=Any)
"""The actions the bot makes (`MiaAction`)."""


class Bot(Generic[ViewT_contra, ActionT_co]):
    """Base class: override `act`; `observe` is optional.

    A bot names the view it reads and the actions it makes: `Bot[MiaView, MiaAction]`,
    so that mypy holds its `act` to its game's types. `rng` is the bot's own random
    source, seeded by whoever runs the game, so a seeded tournament is reproducible.
    """

    name: str = "bot"
    games: tuple[str, ...] = ("mia",)
    description: str = ""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    @classmethod
    def stand_in(cls, rules: Any, players: int) -> str | None:
        """The bot that plays in this one's place at a table of `rules` and `players`
        (a bot that cannot play such a table as itself and hands over), else None."""
        return None

    def act(self, view: ViewT_contra) -> ActionT_co:
        raise NotImplementedError

    def observe(self, events: Sequence[Event]) -> None:
        """Called with each batch of events this seat may see."""


BotFactory = Callable[[random.Random | None], Bot]

_REGISTRY: dict[tuple[str, str], type[Bot]] = {}

_BotClass = TypeVar("_BotClass", bound=type[Bot])


def register_bot(cls: _BotClass) -> _BotClass:
    """Class decorator: make a bot loadable by its name for each game it plays."""
    for game in cls.games:
        _REGISTRY[(game, cls.name)] = cls
    return cls


def next_seat_in(player: int | None, still_in: Sequence[bool]) -> int | None:
    """The first seat after `player`, clockwise, that is still in the game (None: no
    other is, or `player` is None: a spectator's view, after which nobody plays). A bot
    reads `still_in` off its view: the seats with dice, or not out."""
    if player is None:
        return None
    players = len(still_in)
    for step in range(1, players):
        seat = (player + step) % players
        if still_in[seat]:
            return seat
    return None


def available_bots(game: str = "mia") -> dict[str, type[Bot]]:
    """Every bot that plays `game`, by name: the game's own (its `GameSpec.bots`
    modules), and those of installed packages."""
    _load_builtins()
    return {name: cls for (g, name), cls in sorted(_REGISTRY.items()) if g == game}


def table_name(name: str, cls: type[Bot], rules: Any, players: int) -> str:
    """A seat's name that says what the bot plays at this table: `Cfr (odds)` when the
    `cfr` bot hands a 3-player Liar's Dice table to the `odds` bot."""
    other = cls.stand_in(rules, players)
    return f"{name} ({other})" if other else name


ENTRY_POINTS = "bluffdice.bots"
"""The entry-point group through which installed packages add bots by name."""

_PLUGINS_LOADED = False
_BROKEN: dict[str, str] = {}
"""Entry points that could not be loaded: name -> why (said when the name is asked for)."""


def load_plugins(reload: bool = False) -> None:
    """Register the bots of installed packages (the `bluffdice.bots` entry points), once
    per process (`reload`: look again, e.g. after installing a package)."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED and not reload:
        return
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points

    _import_builtins()
    builtin = {name for (_, name) in _REGISTRY}
    for entry in entry_points(group=ENTRY_POINTS):
        name = entry.name.strip().lower()
        if name in builtin:
            _BROKEN[name] = f"{entry.value}: the name {name!r} is a built-in bot's"
            continue
        try:
            cls = entry.load()
        except Exception as exc:  # the package's own error: said when the name is asked for
            _BROKEN[name] = f"{entry.value} failed to load: {type(exc).__name__}: {exc}"
            continue
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            _BROKEN[name] = f"{entry.value} is not a subclass of bluffdice.bots.Bot"
            continue
        _BROKEN.pop(name, None)
        for game in cls.games:
            _REGISTRY[(game, name)] = cls


def _import_builtins() -> None:
    """Import the bot modules every registered game names (`GameSpec.bots`): their
    `@register_bot` classes are the built-in bots."""
    from bluffdice.games.registry import games

    for spec in games():
        for module in spec.bots:
            importlib.import_module(module)


def _load_builtins() -> None:
    _import_builtins()
    load_plugins()


def load_bot(spec: str, game: str = "mia", rng: random.Random | None = None) -> Bot:
    """A bot by registered name (`honest`), Python file (`my_bot.py:MyBot`) or module
    (`package.module:MyBot`). A file or module without `:Class` must define `Bot` subclass
    named in a module-level `BOT` variable or exactly one Bot subclass.
    """
    _load_builtins()
    key = (game, spec.strip().lower())
    if key in _REGISTRY:
        return _REGISTRY[key](rng)
    target, _, attr = spec.partition(":")
    if target.endswith(".py") or "/" in target:
        path = Path(target)
        if not path.is_file():
            raise BluffdiceError(f"bot file {target} does not exist")
        module_name = f"bluffdice_user_bot_{abs(hash(path.resolve()))}"
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise BluffdiceError(f"cannot load bot file {target}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[module_name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the file's own error: one line that says where
            frames = traceback.extract_tb(exc.__traceback__)
            where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
            raise BluffdiceError(
                f"bot file {target} failed to load: {type(exc).__name__}: {exc}{where}"
            ) from None
    elif attr:
        try:
            module = importlib.import_module(target)
        except ImportError as exc:
            raise BluffdiceError(f"cannot import bot module {target}: {exc}") from exc
    else:
        broken = _BROKEN.get(key[1])
        if broken is not None:
            raise BluffdiceError(f"bot {spec!r} of an installed package: {broken}")
        known = ", ".join(available_bots(game)) or "none"
        raise BluffdiceError(
            f"unknown {game} bot {spec!r}; built-in bots: {known}; or give a file "
            "(my_bot.py[:Class]) or a module (package.module:Class)"
        )
    return _bot_from_module(module, attr, spec, rng)


def _bot_from_module(module: ModuleType, attr: str, spec: str, rng: random.Random | None) -> Bot:
    if attr:
        cls = getattr(module, attr, None)
    else:
        cls = getattr(module, "BOT", None)
        if cls is None:
            found = [
                v
                for v in vars(module).values()
                if isinstance(v, type)
                and issubclass(v, Bot)
                and v is not Bot
                and v.__module__ == module.__name__
            ]
            cls = found[0] if len(found) == 1 else None
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BluffdiceError(
            f"{spec}: name the bot class (file.py:Class); it must subclass bluffdice.bots.Bot"
        )
    return cls(rng)
