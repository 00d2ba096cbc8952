"""Statistics of played games: Wilson intervals, and standings tables with openskill ratings.

Tournaments and the Mäxchen contest's standings both count with these; the module sits
below both and imports neither (`Standings.add` takes anything shaped like a game result).

Results must be added in game order: openskill updates ratings one game at a time, so
the order is part of the result. The tournament runner guarantees it whatever the
workers do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec
from openskill.models import PlackettLuce

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion.

    Unlike the normal approximation it stays inside [0, 1] and behaves for rates near 0
    or 1, which a bot that never wins has.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


class SeatFaultLike(Protocol):
    """A seat's failure in one game, as a game result lists it (`table.host.Fault`)."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...


class ScoredGame(Protocol):
    """What `Standings.add` reads of one game (`tournament.play.GameResult` has it): the
    per-seat outcome, the faults, and the index and seed that replay it."""

    @property
    def index(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def winners(self) -> Sequence[int]: ...
    @property
    def losers(self) -> Sequence[int]: ...
    @property
    def places(self) -> Sequence[int]: ...
    @property
    def lives(self) -> Sequence[int]: ...
    @property
    def score(self) -> Sequence[int]: ...
    @property
    def faults(self) -> Sequence[SeatFaultLike]: ...


class BotLine(msgspec.Struct):
    """One row of the table: a bot's games and how they went."""

    games: int
    wins: int
    losses: int
    rate: float
    """The share of games won (or, when the game ends at the first loser, lost)."""
    ci_low: float
    ci_high: float
    mean_lives: float | None
    mean_score: float
    mu: float
    sigma: float
    ordinal: float
    """mu - 3 sigma: openskill's conservative skill estimate, used to sort the table."""
    faults: int = 0
    """Games this bot forfeited by failing (timeout, crash, exit, garbage, illegal move)."""


class FaultLine(msgspec.Struct, frozen=True):
    """One bot failure, with what it takes to replay the game it happened in."""

    bot: str
    game: int
    seed: int
    seat: int
    kind: str
    message: str

    def describe(self) -> str:
        return (
            f"bot {self.bot} failed in game {self.game} (seed {self.seed}, seat {self.seat}): "
            f"{self.kind}: {self.message}"
        )


MAX_FAULT_LINES = 1000
"""Fault lines kept for the results (the counts per bot are always complete)."""


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    losses: int = 0
    lives: int = 0
    score: int = 0
    faults: int = 0


@dataclass
class Standings:
    """Running totals per bot name; `add` each game result in index order."""

    names: list[str]
    count_losses: bool = False
    """Rate losses instead of wins: for games that end when the first player is out."""
    lives_mode: bool = True
    left: str = "lives left"
    """What `mean_lives` counts, for the table: lives left, or dice left in Liar's Dice."""
    model: Any = field(default_factory=lambda: PlackettLuce(tau=0.0))
    """tau 0: a bot's skill does not drift between games (openskill's default tau is made
    for people who improve), so sigma shrinks with the evidence and mu settles."""
    games: int = 0
    fault_log: list[FaultLine] = field(default_factory=list)
    faults: int = 0
    _tallies: dict[str, _Tally] = field(default_factory=dict)
    _ratings: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.names:
            self._tallies[name] = _Tally()
            self._ratings[name] = self.model.rating(name=name)

    def add(self, result: ScoredGame, names: tuple[str, ...]) -> None:
        """Count one game; `names` are the bot names in seat order."""
        self.games += 1
        for seat, name in enumerate(names):
            tally = self._tallies[name]
            tally.games += 1
            tally.wins += seat in result.winners
            tally.losses += seat in result.losers
            tally.lives += result.lives[seat]
            tally.score += result.score[seat]
        for fault in result.faults:
            self._tallies[names[fault.seat]].faults += 1
            self.faults += 1
            if len(self.fault_log) < MAX_FAULT_LINES:
                self.fault_log.append(
                    FaultLine(
                        bot=names[fault.seat],
                        game=result.index,
                        seed=result.seed,
                        seat=fault.seat,
                        kind=fault.kind,
                        message=fault.message,
                    )
                )
        teams = [[self._ratings[name]] for name in names]
        ranks = [place + 1 for place in result.places]
        for name, [rating] in zip(names, self.model.rate(teams, ranks=ranks), strict=True):
            self._ratings[name] = rating

    def rate_of(self, name: str) -> float:
        tally = self._tallies[name]
        if tally.games == 0:
            return 0.0
        return (tally.losses if self.count_losses else tally.wins) / tally.games

    def leader(self) -> str:
        """The bot with the best rate so far (lowest when losses are counted)."""
        if self.count_losses:
            return min(self.names, key=self.rate_of)
        return max(self.names, key=self.rate_of)

    def lines(self) -> dict[str, BotLine]:
        """The table, best bot first (by openskill ordinal)."""
        out: dict[str, BotLine] = {}
        for name in self.names:
            tally, rating = self._tallies[name], self._ratings[name]
            counted = tally.losses if self.count_losses else tally.wins
            low, high = wilson(counted, tally.games)
            n = max(tally.games, 1)
            out[name] = BotLine(
                games=tally.games,
                wins=tally.wins,
                losses=tally.losses,
                rate=self.rate_of(name),
                ci_low=low,
                ci_high=high,
                mean_lives=tally.lives / n if self.lives_mode else None,
                mean_score=tally.score / n,
                mu=float(rating.mu),
                sigma=float(rating.sigma),
                ordinal=float(rating.ordinal()),
                faults=tally.faults,
            )
        return dict(sorted(out.items(), key=lambda item: -item[1].ordinal))
