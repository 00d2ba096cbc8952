"""Heads-up matches between bots: the batch simulator where the bots have tables, the
rules engine where they do not. What `bluffdice simulate` prints.

Every pair of bots plays `games` games, half with each bot in the first seat (the first
seat opens the game: Mia's chance pick of the opener is fixed so the halves are exactly
fair). A game is won by a bot that is among its winners while the other is not; a game
both win (a tied score) is a draw.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bluffdice.games.registry import game_of, parse_rules, rules_string
from bluffdice.parallel import ordered_map

CHUNK = 50_000
"""Games per simulator call and per unit of work: bounds memory, paces the progress bar
and spreads the work over workers. Fixed, never derived from the worker count, so that
the results do not depend on it."""

ENGINE_CHUNK = 50
"""Games per unit of work for pairs the rules engine plays (about a thousand times
slower than the simulator)."""


@dataclass
class PairResult:
    """One heads-up pairing: `a` and `b` are bot names, counts are `a`'s."""

    a: str
    b: str
    games: int
    wins_a: int
    wins_b: int
    vectorised: bool
    rounds: float
    lives_a: float
    lives_b: float

    @property
    def draws(self) -> int:
        return self.games - self.wins_a - self.wins_b


@dataclass
class MatchReport:
    game: str
    rules: str
    bots: list[str]
    games_per_pair: int
    seed: int
    pairs: list[PairResult] = field(default_factory=list)
    why_not: dict[str, str | None] = field(default_factory=dict)
    """Per bot: None when it has a table form here, else why it is played by the engine."""

    def standings(self) -> list[dict[str, Any]]:
        from bluffdice.stats import wilson

        rows = []
        for bot in self.bots:
            games = wins = draws = 0
            lives = rounds = 0.0
            for p in self.pairs:
                if bot not in (p.a, p.b):
                    continue
                mine = p.wins_a if bot == p.a else p.wins_b
                games += p.games
                wins += mine
                draws += p.draws
                lives += (p.lives_a if bot == p.a else p.lives_b) * p.games
                rounds += p.rounds * p.games
            low, high = wilson(wins, games)
            rows.append(
                {
                    "bot": bot,
                    "games": games,
                    "wins": wins,
                    "draws": draws,
                    "rate": wins / games if games else 0.0,
                    "ci_low": low,
                    "ci_high": high,
                    "mean_left": lives / games if games else 0.0,
                    "mean_rounds": rounds / games if games else 0.0,
                    "vectorised": self.why_not.get(bot) is None,
                }
            )
        rows.sort(key=lambda r: -(wins_of(r) / max(1, games_of(r))))
        return rows

    def matrix(self) -> dict[str, dict[str, float | None]]:
        """Row bot's win rate against the column bot (None on the diagonal)."""
        m: dict[str, dict[str, float | None]] = {a: dict.fromkeys(self.bots) for a in self.bots}
        for p in self.pairs:
            m[p.a][p.b] = p.wins_a / p.games if p.games else None
            m[p.b][p.a] = p.wins_b / p.games if p.games else None
        return m

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "bots": self.bots,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "vectorised": {b: self.why_not.get(b) is None for b in self.bots},
            "engine_reasons": {b: w for b, w in self.why_not.items() if w is not None},
            "standings": self.standings(),
            "matrix": self.matrix(),
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "games": p.games,
                    "wins_a": p.wins_a,
                    "wins_b": p.wins_b,
                    "draws": p.draws,
                    "vectorised": p.vectorised,
                    "mean_rounds": p.rounds,
                    "mean_left_a": p.lives_a,
                    "mean_left_b": p.lives_b,
                }
                for p in self.pairs
            ],
        }


Progress = Callable[[int], None]


def wins_of(row: dict[str, Any]) -> int:
    return int(row["wins"])


def games_of(row: dict[str, Any]) -> int:
    return int(row["games"])


def why_not_tabular(game: str, bot: str, rules: Any) -> str | None:
    if game == "mia":
        from bluffdice.sim import mia_tables

        return mia_tables.why_not_tabular(bot, rules)
    if game == "liars-dice":
        from bluffdice.sim import liars_dice

        return liars_dice.why_not_tabular(bot, rules)
    return f"the simulator does not play {game}"


def run_matches(
    rules: Any,
    bots: Sequence[str],
    games: int,
    seed: int,
    progress: Progress | None = None,
    workers: int = 1,
) -> MatchReport:
    """Every pair of `bots` plays `games` games, in `workers` local processes (one: in
    this process). The same seed gives the same report for any number of workers: the
    games are cut into fixed chunks, each with its own seed spawned from `seed`, the
    pair and the chunk's place, and the chunks are counted in order."""
    game = game_of(rules).name
    names = list(bots)
    report = MatchReport(game, rules_string(rules), names, games, seed)
    report.why_not = {b: why_not_tabular(game, b, rules) for b in names}
    totals = [
        ChunkResult(pair, 0, 0, 0, 0, 0, 0) for pair in range(len(names) * (len(names) - 1) // 2)
    ]
    parts = ordered_map(play_chunk, plan(report), workers)
    try:
        for part in parts:
            totals[part.pair] = totals[part.pair].plus(part)
            if progress is not None:
                progress(part.games)
    finally:
        parts.close()  # a Ctrl-C in the progress bar stops the workers now, not at exit
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    for (i, j), total in zip(pairs, totals, strict=True):
        a, b = names[i], names[j]
        vectorised = report.why_not[a] is None and report.why_not[b] is None
        n = max(games, 1)
        report.pairs.append(
            PairResult(
                a,
                b,
                games,
                total.wins_a,
                total.wins_b,
                vectorised,
                total.rounds / n,
                total.left_a / n,
                total.left_b / n,
            )
        )
    return report


@dataclass(frozen=True)
class Chunk:
    """Games `start` to `start + size` of one pair: all a worker needs to play them
    exactly as any other process would."""

    game: str
    rules: str
    """The canonical rule string (it travels to workers as text, as in tournaments)."""
    pair: int
    a: str
    b: str
    vectorised: bool
    flip: int
    """Simulator chunks: 0 if `a` sits in the first seat, 1 if `b` does (engine chunks
    alternate game by game)."""
    start: int
    size: int
    seed: np.random.SeedSequence
    bot_seed: int
    """Engine chunks: game g's bots are seeded from bot_seed + g."""


@dataclass(frozen=True)
class ChunkResult:
    """What a chunk adds to its pair's counts, `a`'s and `b`'s. Lives, scores and rounds
    are whole numbers, so the sums are exact whatever the order."""

    pair: int
    games: int
    wins_a: int
    wins_b: int
    left_a: int
    left_b: int
    rounds: int

    def plus(self, other: ChunkResult) -> ChunkResult:
        return ChunkResult(
            self.pair,
            self.games + other.games,
            self.wins_a + other.wins_a,
            self.wins_b + other.wins_b,
            self.left_a + other.left_a,
            self.left_b + other.left_b,
            self.rounds + other.rounds,
        )


def plan(report: MatchReport) -> Iterator[Chunk]:
    """The chunks of every pair, pair by pair, made as they are needed. Sizes and seeds
    depend on the pair, the games and the seed only, never on the workers: pair (i, j)'s
    seed is SeedSequence([seed, i, j]); the simulator's two seatings are its children 0
    and 1, and chunk k of a seating is that seating's child k; engine chunk k is the pair
    seed's child k (children as `SeedSequence.spawn` makes them)."""
    names, games, game = report.bots, report.games_per_pair, report.game
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    for pair, (i, j) in enumerate(pairs):
        a, b = names[i], names[j]
        pair_seed = np.random.SeedSequence([report.seed, i, j])
        if report.why_not[a] is None and report.why_not[b] is None:
            for flip, count in enumerate(_halves(games)):
                seating = child_seed(pair_seed, flip)
                for start in range(0, count, CHUNK):
                    size = min(CHUNK, count - start)
                    seed = child_seed(seating, start // CHUNK)
                    yield Chunk(game, report.rules, pair, a, b, True, flip, start, size, seed, 0)
        else:
            bots = int(pair_seed.generate_state(1)[0])
            for start in range(0, games, ENGINE_CHUNK):
                size = min(ENGINE_CHUNK, games - start)
                seed = child_seed(pair_seed, start // ENGINE_CHUNK)
                yield Chunk(game, report.rules, pair, a, b, False, 0, start, size, seed, bots)


def child_seed(parent: np.random.SeedSequence, k: int) -> np.random.SeedSequence:
    """The k-th child `parent.spawn` would make, made alone: a plan of millions of
    chunks never holds all their seeds at once."""
    return np.random.SeedSequence(
        parent.entropy, spawn_key=(*parent.spawn_key, k), pool_size=parent.pool_size
    )


def play_chunk(chunk: Chunk) -> ChunkResult:
    """The function workers run: one chunk, by the simulator or by the engine."""
    return _play_sim(chunk) if chunk.vectorised else _play_engine(chunk)


def _halves(games: int) -> tuple[int, int]:
    return games - games // 2, games // 2


def _play_sim(chunk: Chunk) -> ChunkResult:
    """A chunk of one seating in the simulator: seat order (a, b), or (b, a) if flipped."""
    rules = _parsed(chunk.rules)
    sim = _sims(chunk.game, chunk.rules, chunk.a, chunk.b)[chunk.flip]
    rng = np.random.default_rng(chunk.seed)
    size = chunk.size
    if chunk.game == "mia":
        batch: Any = sim.run(size, rng, first=0)
        winners = batch.winners
        kept = batch.score if rules.mode != "lives" else batch.lives
        rounds = int(batch.rounds.sum())
    else:
        batch = sim.run(size, rng, first=0 if rules.start == "first-seat" else None)
        winners = batch.returns > 0
        kept = np.zeros((size, 2), dtype=np.int64)
        rounds = size
    solo = winners & ~winners.all(axis=1, keepdims=True)
    order = [1, 0] if chunk.flip else [0, 1]
    wins = solo.sum(axis=0)[order]
    left = kept.sum(axis=0, dtype=np.int64)[order]
    return ChunkResult(
        chunk.pair, size, int(wins[0]), int(wins[1]), int(left[0]), int(left[1]), rounds
    )


@functools.lru_cache(maxsize=64)
def _parsed(rules_text: str) -> Any:
    return parse_rules(rules_text)


@functools.lru_cache(maxsize=64)
def _sims(game: str, rules_text: str, a: str, b: str) -> tuple[Any, Any]:
    """Both seatings' simulators, kept per process: a worker builds a pair's tables once,
    whichever of its chunks it plays."""
    rules = _parsed(rules_text)
    if game == "mia":
        from bluffdice.sim.mia import MiaSim
        from bluffdice.sim.mia_tables import table_for

        ta, tb = table_for(a, rules), table_for(b, rules)
        return MiaSim(rules, [ta, tb]), MiaSim(rules, [tb, ta])
    from bluffdice.sim.liars_dice import TABLE_BOTS, LiarsDiceSim

    la, lb = TABLE_BOTS[a](rules, 2), TABLE_BOTS[b](rules, 2)
    return LiarsDiceSim(rules, [la, lb]), LiarsDiceSim(rules, [lb, la])


def _play_engine(chunk: Chunk) -> ChunkResult:
    """A chunk in the rules engine, the real bots, one game at a time; the seating
    alternates game by game (even games: a in the first seat)."""
    from bluffdice.sim.engine import engine_bots, play_engine_game

    game, rules = chunk.game, _parsed(chunk.rules)
    dice = random.Random(int(chunk.seed.generate_state(1)[0]))
    wins = [0, 0]
    left = [0, 0]
    rounds = 0
    first = 0 if game == "mia" else None
    for g in range(chunk.start, chunk.start + chunk.size):
        flip = g % 2
        order = (chunk.b, chunk.a) if flip else (chunk.a, chunk.b)
        bots = engine_bots(order, game, chunk.bot_seed + g)
        state = play_engine_game(rules, bots, dice, first=first)
        winners = set(state.result.winners)
        kept = _left(game, rules, state)
        for seat, name_index in enumerate((1, 0) if flip else (0, 1)):
            if seat in winners and len(winners) < 2:
                wins[name_index] += 1
            left[name_index] += kept[seat]
        rounds += state.round
    return ChunkResult(chunk.pair, chunk.size, wins[0], wins[1], left[0], left[1], rounds)


def _left(game: str, rules: Any, state: Any) -> tuple[int, ...]:
    """Lives left (Mia lives mode), the score or sips (other Mia modes), dice left."""
    if game == "mia":
        values: tuple[int, ...] = state.lives if rules.mode == "lives" else state.scores
        return tuple(int(v) for v in values)
    if game == "liars-dice" and rules.single_round:
        return (0,) * int(state.players)
    return tuple(int(d) for d in state.dice)
