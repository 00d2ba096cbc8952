"""Run a tournament: plan every game from the seed, play them anywhere, count in order.

The plan (who sits where, each game's seed) is fixed before any game is played, and the
results are counted strictly in game order, so the tables, the ratings and the stored
games are the same for any executor and any number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from bluffdice.bots.base import Bot, load_bot
from bluffdice.games.base import BluffdiceError
from bluffdice.games.registry import GameSpec, game_of, parse_rules, rules_string
from bluffdice.parallel import WorkerLost
from bluffdice.protocol import pool
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.process import BotFault
from bluffdice.protocol.specs import bot_command
from bluffdice.sandbox import require
from bluffdice.stats import Standings
from bluffdice.tournament.executors import Executor, ProcessExecutor, SerialExecutor
from bluffdice.tournament.play import GameJob, GameResult
from bluffdice.tournament.seating import game_seed, lineup

MAX_GAMES = 10_000_000
ON_BOT_ERROR = ("forfeit", "stop")


class BotStopped(BluffdiceError):
    """A bot failed under `--on-bot-error stop`; the games before it were counted."""


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament, fully determined: the same config gives the same results."""

    rules: str
    """The canonical rule string (it names the game)."""
    bots: tuple[str, ...]
    """Bot specs as given: registered names, files or modules."""
    names: tuple[str, ...]
    """A unique display name per bot, in the order of `bots`."""
    seats: int
    games: int
    seed: int
    dice: str = "seeded"
    """"seeded" or "fair" (every game's dice verifiable; see `GameJob.dice`)."""
    commands: tuple[tuple[str, ...], ...] = ()
    """The program each bot runs as, in the order of `bots`; () plays in this process."""
    limits: Limits = Limits()
    on_error: str = "forfeit"
    """forfeit: a failing bot loses that game and the tournament goes on; stop: the
    tournament stops at the first fault."""

    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def spec(self) -> GameSpec:
        return game_of(parse_rules(self.rules))


def make_config(
    rules: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    seats: int | None = None,
    dice: str = "seeded",
    limits: Limits | None = None,
    trust: bool = False,
    on_error: str = "forfeit",
) -> TournamentConfig:
    """Check everything a user typed before a single game is played.

    Raises BluffdiceError (with the known bot names, the allowed seat counts, ...) on bad
    input, so the command line can show one clear sentence.
    """
    parsed = parse_rules(rules)
    spec = game_of(parsed)
    if dice == "system":  # the CLI's name, as in `play`: dice from the tournament's seed
        dice = "seeded"
    if dice not in ("seeded", "fair"):
        raise BluffdiceError(f"--dice must be system or fair, not {dice!r}")
    specs = tuple(b.strip() for b in bots if b.strip())
    if not specs:
        raise BluffdiceError("name at least one bot (--bots random,honest)")
    if not 1 <= games <= MAX_GAMES:
        raise BluffdiceError(f"--games must be between 1 and {MAX_GAMES}, not {games}")
    if on_error not in ON_BOT_ERROR:
        raise BluffdiceError(
            f"--on-bot-error is one of {', '.join(ON_BOT_ERROR)}, not {on_error!r}"
        )
    limits = limits or Limits()
    if not 0 < limits.move_time <= 3600:
        raise BluffdiceError(
            f"--move-time must be above 0 and at most 3600 s, not {limits.move_time}"
        )
    commands = tuple(bot_command(b, spec.name, trust) for b in specs)
    for bot, command in zip(specs, commands, strict=True):
        if command:
            require(limits.isolation, f"bot {bot!r}")
    names = _names(specs, commands, spec.name, limits)
    return TournamentConfig(
        rules=rules_string(parsed),
        bots=specs,
        names=names,
        seats=_seat_count(spec, seats, names),
        games=games,
        seed=seed,
        dice=dice,
        commands=commands if any(commands) else (),
        limits=limits,
        on_error=on_error,
    )


def _seat_count(spec: GameSpec, seats: int | None, names: tuple[str, ...]) -> int:
    """--seats, or every bot in every game as far as the game allows; never more seats
    than bots (a line-up has no bot twice)."""
    if seats is None:
        seats = min(len(names), spec.max_players)
    if not spec.min_players <= seats <= spec.max_players:
        raise BluffdiceError(
            f"{spec.title} is played by {spec.min_players} to {spec.max_players} players, "
            f"not {seats}"
        )
    if seats > len(names):
        raise BluffdiceError(
            f"{seats} seats need at least {seats} bots; got {len(names)} ({', '.join(names)})"
        )
    return seats


def _names(
    specs: tuple[str, ...], commands: tuple[tuple[str, ...], ...], game: str, limits: Limits
) -> tuple[str, ...]:
    """Load each bot once (errors surface here) and give each a unique display name.
    A bot program is started once to hear its hello: its name and games."""
    names: list[str] = []
    for spec, command in zip(specs, commands, strict=True):
        if command:
            base = _program_name(spec, command, game, limits)
        else:
            bot = load_bot(spec, game)
            base = bot.name if bot.name != Bot.name else spec
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}#{n}"
        names.append(name)
    return tuple(names)


def _program_name(spec: str, command: tuple[str, ...], game: str, limits: Limits) -> str:
    try:
        program = ProcessBot(command, limits)
    except BotFault as fault:
        raise BluffdiceError(f"bot {spec!r} did not start ({fault.kind}): {fault}") from None
    if game not in program.games:
        program.close()
        raise BluffdiceError(
            f"bot {spec!r} ({program.name}) plays {', '.join(program.games) or 'no game'}, "
            f"not {game}"
        )
    pool.release(program)  # the first games played in this process reuse it
    return program.name


def plan(config: TournamentConfig) -> list[GameJob]:
    """Every game of the tournament: its index, its seed and its bots, seat by seat."""
    return [job(config, index) for index in range(config.games)]


def job(config: TournamentConfig, index: int) -> GameJob:
    seated = lineup(len(config.bots), config.seats, config.seed, index)
    return GameJob(
        index=index,
        seed=game_seed(config.seed, index),
        entrants=seated,
        bots=tuple(config.bots[b] for b in seated),
        dice=config.dice,
        commands=tuple(config.commands[b] for b in seated) if config.commands else (),
        limits=config.limits,
        stop_on_fault=config.on_error == "stop",
    )


def chunks(config: TournamentConfig, size: int) -> Iterator[list[GameJob]]:
    """The plan in chunks of `size` games, made as they are needed (a long tournament
    never holds all its jobs in memory)."""
    for start in range(0, config.games, size):
        yield [job(config, i) for i in range(start, min(start + size, config.games))]


def chunk_size(games: int, workers: int) -> int:
    """Enough chunks to keep every worker busy and the progress bar moving."""
    return max(1, min(100, games // max(1, workers * 8)))


def standings_for(config: TournamentConfig) -> Standings:
    scoring = parse_rules(config.rules).scoring()
    return Standings(
        names=list(config.names),
        count_losses=scoring.count_losses,
        lives_mode=scoring.left is not None,
        left=f"{scoring.left} left" if scoring.left else "score",
    )


def run_tournament(
    config: TournamentConfig,
    executor: Executor | None = None,
    workers: int = 1,
    on_results: Callable[[list[GameResult], Standings], None] | None = None,
) -> Standings:
    """Play every game and count it in order; `on_results` sees each chunk once counted
    (the store writes it, the progress bar advances). Under `on_error="stop"` the first
    fault raises BotStopped once the games before it (and its own) are counted."""
    executor = executor or SerialExecutor()
    if isinstance(executor, ProcessExecutor):
        executor.retry_lost = config.on_error != "stop"
    standings = standings_for(config)
    size = chunk_size(config.games, workers)
    # Closed by hand, not left to the garbage collector: a Ctrl-C or a fault raised in
    # this loop (not inside the executor) must stop the workers before the caller reports.
    played = executor.run(chunks(config, size), config.rules)
    try:
        for results in played:
            for result in results:
                standings.add(result, tuple(config.names[b] for b in result.entrants))
            if on_results is not None:
                on_results(results, standings)
            if config.on_error == "stop" and standings.fault_log:
                raise BotStopped(standings.fault_log[0].describe())
    except WorkerLost as lost:
        raise BotStopped(f"the tournament stopped: {lost}") from None
    finally:
        played.close()
        pool.close_all()
    return standings
