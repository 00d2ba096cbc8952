"""One tournament game: seat the bots at a table, play it, keep what the results need.

This is the function workers run. Its inputs (rule string, bot specs, seeds) and its
output (`GameResult`) are small plain values, so they travel to a process pool or a Ray
cluster and back unchanged.
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Sequence
from typing import Any

import msgspec

from bluffdice.bots.base import Bot, load_bot
from bluffdice.games.base import Outcome
from bluffdice.games.registry import game_of, parse_rules
from bluffdice.protocol import pool
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.process import BotFault
from bluffdice.protocol.seats import ProgramSeat, UnstartedSeat
from bluffdice.table import Table, seeded
from bluffdice.table.host import Fault, Host, Policy, Seat
from bluffdice.table.seats import BotSeat
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
    commands: tuple[tuple[str, ...], ...] = ()
    """The program each seat's bot runs as, () for a bot in this process; empty: all
    in this process."""
    limits: Limits = Limits()
    stop_on_fault: bool = False
    """Stop the chunk after a game with a fault (`--on-bot-error stop`)."""


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
    faults: tuple[Fault, ...] = ()
    """Bots that failed in this game (they are ranked last), by seat."""
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
    commands = job.commands or ((),) * players
    seeds = [derive_seed(job.seed, "seat", seat) for seat in range(players)]
    seated: list[Seat | None] = []
    programs: list[ProcessBot] = []
    for seat, bot in enumerate(job.bots):
        if not commands[seat]:
            player = bot_class(bot, spec.name)(random.Random(seeds[seat]))
            seated.append(BotSeat(player, Policy.FORFEIT, guard=True))
            continue
        try:
            program = pool.acquire(commands[seat], job.limits)
        except BotFault as fault:
            seated.append(UnstartedSeat(fault))
            continue
        programs.append(program)
        seated.append(ProgramSeat(program, seeds[seat]))
    limits = [job.limits.move_time if command else None for command in commands]
    dice_seed = derive_seed(job.seed, "dice")
    fair = None
    if job.dice == "fair":
        from bluffdice.table.fair import FairDice, server_seed_from

        fair = FairDice(server_seed_from(dice_seed))
    dice = fair if fair is not None else seeded(dice_seed)
    table = Table(rules, players, dice=dice, limits=limits)
    host = Host(table, seated)
    try:
        host.run()
    finally:
        for program in programs:
            pool.release(program)
    played = table.outcome()
    assert played is not None
    faults = host.faults
    outcome = forfeit(played, [f.seat for f in faults], rules.scoring().count_losses)
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
        faults=tuple(faults),
        fair=fair.fair_record(table.record) if fair is not None else None,
    )


def forfeit(outcome: Outcome, failed: Sequence[int], count_losses: bool) -> Outcome:
    """The outcome with the failed seats ranked last (tied), behind everyone who played
    on; the others keep their order. Lives and scores stay what they were."""
    if not failed:
        return outcome
    down = set(failed)
    kept = sorted({p for s, p in enumerate(outcome.places) if s not in down})
    rank = {place: index for index, place in enumerate(kept)}
    last = len(kept)
    places = tuple(last if s in down else rank[p] for s, p in enumerate(outcome.places))
    winners = tuple(s for s, p in enumerate(places) if p == 0 and s not in down)
    losers = tuple(sorted(down if count_losses else set(outcome.losers) | down))
    before = {seat: index for index, seat in enumerate(outcome.standings)}
    standings = tuple(sorted(range(len(places)), key=lambda s: (places[s], before.get(s, s))))
    return msgspec.structs.replace(
        outcome, winners=winners, losers=losers, places=places, standings=standings
    )


def play_chunk(jobs: Sequence[GameJob], rules_text: str) -> list[GameResult]:
    """A batch of games for one worker call (fewer round trips than one game per call).

    What a bot in this process prints goes to standard error, never to the standard
    output a `--json` reader parses. Under `stop_on_fault` the batch ends with the
    first game that had a fault.
    """
    results: list[GameResult] = []
    with contextlib.redirect_stdout(sys.stderr):
        for job in jobs:
            results.append(play_game(job, rules_text))
            if job.stop_on_fault and results[-1].faults:
                break
    return results
