"""Heads-up matches between bots: the batch simulator where the bots have tables, the
rules engine where they do not. What `bluffdice simulate` prints.

Every pair of bots plays `games` games, half with each bot in the first seat (the first
seat opens the game: Mia's chance pick of the opener is fixed so the halves are exactly
fair). A game is won by a bot that is among its winners while the other is not; a game
both win (a tied score) is a draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bluffdice.games.registry import game_of, rules_string

CHUNK = 50_000
"""Games per simulator call: bounds memory and paces the progress bar."""


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
        from bluffdice.tournament.stats import wilson

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
) -> MatchReport:
    """Every pair of `bots` plays `games` games (the same seed gives the same report)."""
    game = game_of(rules).name
    names = list(bots)
    report = MatchReport(game, rules_string(rules), names, games, seed)
    report.why_not = {b: why_not_tabular(game, b, rules) for b in names}
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    for i, j in pairs:
        a, b = names[i], names[j]
        pair_seed = np.random.SeedSequence([seed, i, j])
        vectorised = report.why_not[a] is None and report.why_not[b] is None
        play = _play_sim if vectorised else _play_engine
        report.pairs.append(play(game, rules, a, b, games, pair_seed, progress))
    return report


def _halves(games: int) -> tuple[int, int]:
    return games - games // 2, games // 2


def _play_sim(
    game: str,
    rules: Any,
    a: str,
    b: str,
    games: int,
    seed: np.random.SeedSequence,
    progress: Progress | None,
) -> PairResult:
    """Both seatings in the simulator; seat order (a, b) then (b, a)."""
    wins = np.zeros(2, dtype=np.int64)
    left = np.zeros(2)
    rounds = 0.0
    sims = _sims(game, rules, a, b)
    rngs = [np.random.default_rng(s) for s in seed.spawn(2)]
    for flip, count in enumerate(_halves(games)):
        sim = sims[flip]
        done = 0
        while done < count:
            size = min(CHUNK, count - done)
            if game == "mia":
                batch: Any = sim.run(size, rngs[flip], first=0)
                winners = batch.winners
                kept = batch.score if rules.mode != "lives" else batch.lives
                rounds += float(batch.rounds.sum())
            else:
                batch = sim.run(size, rngs[flip], first=0 if rules.start == "first-seat" else None)
                winners = batch.returns > 0
                kept = np.zeros((size, 2))
                rounds += float(size)
            solo = winners & ~winners.all(axis=1, keepdims=True)
            order = [1, 0] if flip else [0, 1]
            wins += solo.sum(axis=0)[order]
            left += kept.sum(axis=0)[order]
            done += size
            if progress is not None:
                progress(size)
    n = max(games, 1)
    return PairResult(
        a, b, games, int(wins[0]), int(wins[1]), True, rounds / n, left[0] / n, left[1] / n
    )


def _sims(game: str, rules: Any, a: str, b: str) -> tuple[Any, Any]:
    if game == "mia":
        from bluffdice.sim.mia import MiaSim
        from bluffdice.sim.mia_tables import table_for

        ta, tb = table_for(a, rules), table_for(b, rules)
        return MiaSim(rules, [ta, tb]), MiaSim(rules, [tb, ta])
    from bluffdice.sim.liars_dice import TABLE_BOTS, LiarsDiceSim

    la, lb = TABLE_BOTS[a](rules, 2), TABLE_BOTS[b](rules, 2)
    return LiarsDiceSim(rules, [la, lb]), LiarsDiceSim(rules, [lb, la])


def _play_engine(
    game: str,
    rules: Any,
    a: str,
    b: str,
    games: int,
    seed: np.random.SeedSequence,
    progress: Progress | None,
) -> PairResult:
    """Both seatings in the rules engine, the real bots, one game at a time."""
    from bluffdice.sim.engine import engine_bots, play_engine_game

    base = int(seed.generate_state(1)[0])
    dice = random.Random(base)
    wins = [0, 0]
    left = [0.0, 0.0]
    rounds = 0.0
    first = 0 if game == "mia" else None
    for g in range(games):
        flip = g % 2
        order = (b, a) if flip else (a, b)
        state = play_engine_game(rules, engine_bots(order, game, base + g), dice, first=first)
        winners = set(state.result.winners)
        kept = _left(game, rules, state)
        for seat, name_index in enumerate((1, 0) if flip else (0, 1)):
            if seat in winners and len(winners) < 2:
                wins[name_index] += 1
            left[name_index] += kept[seat]
        rounds += state.round
        if progress is not None:
            progress(1)
    n = max(games, 1)
    return PairResult(a, b, games, wins[0], wins[1], False, rounds / n, left[0] / n, left[1] / n)


def _left(game: str, rules: Any, state: Any) -> tuple[float, ...]:
    """Lives left (Mia lives mode), the score or sips (other Mia modes), dice left."""
    if game == "mia":
        values: tuple[int, ...] = state.lives if rules.mode == "lives" else state.scores
        return tuple(float(v) for v in values)
    if game == "liars-dice" and rules.single_round:
        return (0.0,) * int(state.players)
    return tuple(float(d) for d in state.dice)
