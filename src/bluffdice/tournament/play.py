"""One tournament game: seat the bots at a table, play it, keep what the results need.

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
from bluffdice.games.base import BluffdiceError
from bluffdice.games.registry import game_of, parse_rules
from bluffdice.table import AgentError, Table, run_sync, seeded
from bluffdice.tournament.seating import derive_seed


class GameJob(msgspec.Struct, frozen=True):
    """Everything needed to play game `index` exactly as any other worker would."""

    index: int
    seed: int
    entrants: tuple[int, ...]
    """The number of the tournament's bot in each seat."""
    bots: tuple[str, ...]
    """The bot spec (name, file or module) in each seat."""
    dice: str = "seeded"
    """"seeded", or "fair": a commit-reveal stream whose server seed comes from the seed,
    so the game can be verified (`bluffdice verify`) and still replayed by seed."""


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
    fair: Any = None
    """With fair dice: the `FairRecord` (commitment, revealed seeds, digest)."""


_CLASSES: dict[tuple[str, str], type[Bot]] = {}


def bot_class(spec: str, game: str) -> type[Bot]:
    """Resolve a bot spec once per process: a bot file is executed once, not per game."""
    key = (game, spec)
    if key not in _CLASSES:
        _CLASSES[key] = type(load_bot(spec, game))
    return _CLASSES[key]


def play_game(job: GameJob, rules_text: str) -> GameResult:
    """Play one game; the same job gives the same result in any process."""
    rules = parse_rules(rules_text)
    spec = game_of(rules)
    players = len(job.bots)
    agents = [
        bot_class(bot, spec.name)(random.Random(derive_seed(job.seed, "seat", seat)))
        for seat, bot in enumerate(job.bots)
    ]
    dice_seed = derive_seed(job.seed, "dice")
    fair = None
    if job.dice == "fair":
        from bluffdice.table.fair import FairDice, server_seed_from

        fair = FairDice(server_seed_from(dice_seed))
    table = Table(rules, players, dice=fair if fair is not None else seeded(dice_seed))
    try:
        outcome = run_sync(table, agents)
    except Exception as exc:  # a bot's mistake: name the bot and the game, not a traceback
        raise _bot_failed(job, table, exc) from None
    assert outcome is not None
    return GameResult(
        index=job.index,
        seed=job.seed,
        entrants=job.entrants,
        bots=job.bots,
        steps=table.record.steps,
        winners=outcome.winners,
        losers=outcome.losers,
        standings=outcome.standings,
        places=outcome.places,
        lives=outcome.left,
        score=outcome.score,
        rounds=outcome.rounds,
        fair=fair.fair_record(table.record) if fair is not None else None,
    )


def _bot_failed(job: GameJob, table: Table, exc: Exception) -> BluffdiceError:
    seat = exc.seat if isinstance(exc, AgentError) else table.state.current_player
    who = f"bot {job.bots[seat]!r} (seat {seat})" if 0 <= seat < len(job.bots) else "a bot"
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames and not isinstance(exc, BluffdiceError | AgentError):
        where = f" at {frames[-1].filename}:{frames[-1].lineno}"
    what = (
        str(exc) if isinstance(exc, BluffdiceError | AgentError) else f"{type(exc).__name__}: {exc}"
    )
    return BluffdiceError(
        f"{who} failed in game {job.index} (seed {job.seed}) after {len(table.log)} "
        f"steps{where}: {what}"
    )


def play_chunk(jobs: Sequence[GameJob], rules_text: str) -> list[GameResult]:
    """A batch of games for one worker call (fewer round trips than one game per call)."""
    return [play_game(job, rules_text) for job in jobs]
