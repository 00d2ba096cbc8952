"""The bot interface and the registry that finds bots by name or file.

A bot sees exactly what a human at the table sees: its `view` (own dice if looked at,
the public history, the legal actions). It may also receive the events it is allowed
to see through `observe`, for bots that keep statistics.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bluffdice.games.base import BluffdiceError, Event


class Bot:
    """Base class: override `act`; `observe` is optional.

    `rng` is the bot's own random source, seeded by whoever runs the game, so a seeded
    tournament is reproducible.
    """

    name: str = "bot"
    games: tuple[str, ...] = ("mia",)
    description: str = ""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def act(self, view: Any) -> Any:
        raise NotImplementedError

    def observe(self, events: Sequence[Event]) -> None:
        """Called with each batch of events this seat may see."""


BotFactory = Callable[[random.Random | None], Bot]

_REGISTRY: dict[tuple[str, str], type[Bot]] = {}


def register_bot(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot loadable by its name for each game it plays."""
    for game in cls.games:
        _REGISTRY[(game, cls.name)] = cls
    return cls


def available_bots(game: str = "mia") -> dict[str, type[Bot]]:
    _load_builtins()
    return {name: cls for (g, name), cls in sorted(_REGISTRY.items()) if g == game}


_BUILTINS = (
    "bluffdice.bots.random_bot",
    "bluffdice.bots.mia_basic",
    "bluffdice.bots.liars_dice_basic",
    "bluffdice.bots.mia_characters",
    "bluffdice.bots.mia_odds",
    "bluffdice.bots.liars_dice",
    "bluffdice.bots.cfr",
    "bluffdice.bots.mia_shark",
    "bluffdice.bots.liars_dice_bayes",
)


def _load_builtins() -> None:
    for module in _BUILTINS:
        importlib.import_module(module)


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
        known = ", ".join(available_bots(game)) or "none"
        raise BluffdiceError(
            f"unknown {game} bot {spec!r}; built-in bots: {known}; or give a file "
            "(my_bot.py[:Class]) or a module (package.module:Class)"
        )
    return _bot_from_module(module, attr, spec, rng)


def _bot_from_module(module: Any, attr: str, spec: str, rng: random.Random | None) -> Bot:
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
