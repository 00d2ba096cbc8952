"""One tournament game: seat the bots, play through the dealer, keep what the tables need.

This is the function workers run. Its inputs (rule string, bot specs, seeds) and its
output (`GameResult`) are small plain values, so they travel to a process pool or a Ray
cluster and back unchanged.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Sequence
from typing import Any

import msgspec

from bluffdice.bots.base import Bot, load_bot
from bluffdice.dealer import Game, play
from bluffdice.games.base import BluffdiceError, Event
from bluffdice.games.registry import game_of, parse_rules
from bluffdice.tournament.seating import derive_seed


class GameJob(msgspec.Struct, frozen=True):
    """Everything needed to play game `index` exactly as any other worker would."""

    index: int
    seed: int
    entrants: tuple[int, ...]
    """The number of the tournament's bot in each seat."""
    bots: tuple[str, ...]
    """The bot spec (name, file or module) in each seat."""


class GameResult(msgspec.Struct, frozen=True):
    """How one game went, per seat, plus its full record (dice included)."""

    index: int
    seed: int
    entrants: tuple[int, ...]
    bots: tuple[str, ...]
    steps: tuple[str, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    standings: tuple[int, ...]
    places: tuple[int, ...]
    """0 for the best seat; seats that tie share a place (openskill ranks)."""
    lives: tuple[int, ...]
    score: tuple[int, ...]
    rounds: int


_CLASSES: dict[tuple[str, str], type[Bot]] = {}


def bot_class(spec: str, game: str) -> type[Bot]:
    """Resolve a bot spec once per process: a bot file is executed once, not per game."""
    key = (game, spec)
    if key not in _CLASSES:
        _CLASSES[key] = type(load_bot(spec, game))
    return _CLASSES[key]


class _Tracker:
    """Notes the round in which each seat was knocked out (ties are knocked out together)."""

    def __init__(self, players: int) -> None:
        self.round = 0
        self.out_round: list[int | None] = [None] * players

    def __call__(self, events: Sequence[Event]) -> None:
        for event in events:
            tag = type(event).__name__
            if tag == "RoundStarted":
                self.round = event.round  # type: ignore[attr-defined]
            elif tag == "Eliminated":
                self.out_round[event.player] = self.round  # type: ignore[attr-defined]


def play_game(job: GameJob, rules_text: str) -> GameResult:
    """Play one game; the same job gives the same result in any process."""
    rules = parse_rules(rules_text)
    spec = game_of(rules)
    players = len(job.bots)
    agents = [
        bot_class(bot, spec.name)(random.Random(derive_seed(job.seed, "seat", seat)))
        for seat, bot in enumerate(job.bots)
    ]
    tracker = _Tracker(players)
    game = Game.new(rules, players)
    try:
        play(game, agents, random.Random(derive_seed(job.seed, "dice")), on_events=tracker)
    except Exception as exc:  # a bot's mistake: name the bot and the game, not a traceback
        raise _bot_failed(job, game, exc) from None
    state: Any = game.state
    view: Any = state.view(None)
    result = view.result
    # Lives left in Mia; dice left in Liar's Dice; zeros where a game has neither.
    left = getattr(view, "lives", None)
    if left is None and isinstance(getattr(view, "dice", None), tuple):
        left = view.dice
    lives = tuple(left) if left is not None else (0,) * players
    score = tuple(getattr(view, "score", lives))
    return GameResult(
        index=job.index,
        seed=job.seed,
        entrants=job.entrants,
        bots=job.bots,
        steps=game.record.steps,
        winners=tuple(result.winners),
        losers=tuple(result.losers),
        standings=tuple(result.standings),
        places=_places(state, tracker.out_round, tuple(result.standings)),
        lives=lives,
        score=score,
        rounds=int(getattr(view, "round", 0)),
    )


def _bot_failed(job: GameJob, game: Game, exc: Exception) -> BluffdiceError:
    seat = game.state.current_player
    who = f"bot {job.bots[seat]!r} (seat {seat})" if 0 <= seat < len(job.bots) else "a bot"
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames and not isinstance(exc, BluffdiceError):
        where = f" at {frames[-1].filename}:{frames[-1].lineno}"
    what = str(exc) if isinstance(exc, BluffdiceError) else f"{type(exc).__name__}: {exc}"
    return BluffdiceError(
        f"{who} failed in game {job.index} (seed {job.seed}) after {len(game.record.steps)} "
        f"steps{where}: {what}"
    )


def _places(state: Any, out_round: list[int | None], standings: tuple[int, ...]) -> tuple[int, ...]:
    """Rank the seats, best 0, with ties where the rules make them.

    Lives: the players still in rank by lives left, those knocked out by how long they
    lasted (two knocked out in one round tie). Score and drinking modes: by the tally.
    Other games: the order of their standings.
    """
    rules = state.rules
    players = len(out_round)
    keys: list[tuple[int, ...]]
    mode = getattr(rules, "mode", None)
    if mode == "lives":
        lives = state.lives
        forever = 1 << 30
        keys = [
            (forever if out_round[p] is None else out_round[p], lives[p])  # type: ignore[misc]
            for p in range(players)
        ]
    elif mode == "score":
        keys = [(s,) for s in state.scores]
    elif mode == "drinking":
        keys = [(-state.drinks[p], -state.lost[p]) for p in range(players)]
    else:
        keys = [(-standings.index(p),) for p in range(players)]
    return tuple(sum(1 for q in range(players) if keys[q] > keys[p]) for p in range(players))


def play_chunk(jobs: Sequence[GameJob], rules_text: str) -> list[GameResult]:
    """A batch of games for one worker call (fewer round trips than one game per call)."""
    return [play_game(job, rules_text) for job in jobs]
