"""Contest standings: protocol score, losses with a Wilson interval, openskill ratings.

The protocol's score (+1 per round joined, -1 per round lost) rewards playing many
rounds; the rating does not: every round is a Plackett-Luce match in which the losers
share the last place and everybody else the first, so a bot's mu says how it does in
the rounds it plays, and sigma how sure that is. The interval is mu ± 1.96 sigma.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from bluffdice.stats import Z95, wilson


class RoundLike(Protocol):
    @property
    def order(self) -> tuple[str, ...]: ...

    @property
    def losers(self) -> tuple[str, ...]: ...

    @property
    def points(self) -> dict[str, int]: ...


class ContestLine(msgspec.Struct):
    name: str
    score: int
    rounds: int
    lost: int
    loss_rate: float
    loss_low: float
    loss_high: float
    mu: float
    sigma: float
    low: float
    high: float
    """mu ± 1.96 sigma."""
    ordinal: float


@dataclass
class _Tally:
    score: int = 0
    rounds: int = 0
    lost: int = 0


@dataclass
class ContestStandings:
    """Add rounds in the order played; `lines()` is the table, best rating first."""

    model: Any = None
    rounds: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    _tallies: dict[str, _Tally] = field(default_factory=dict)
    _ratings: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.model is None:
            from openskill.models import PlackettLuce

            self.model = PlackettLuce(tau=0.0)

    def add(self, played: RoundLike, reason: str | None = None) -> None:
        self.rounds += 1
        if reason is not None:
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
        losers = set(played.losers)
        for name in played.order:
            tally = self._tallies.setdefault(name, _Tally())
            tally.rounds += 1
            tally.lost += name in losers
            tally.score += played.points.get(name, 0)
            if name not in self._ratings:
                self._ratings[name] = self.model.rating(name=name)
        teams = [[self._ratings[name]] for name in played.order]
        ranks = [2 if name in losers else 1 for name in played.order]
        rated = self.model.rate(teams, ranks=ranks)
        for name, [rating] in zip(played.order, rated, strict=True):
            self._ratings[name] = rating

    def lines(self) -> list[ContestLine]:
        out = []
        for name, tally in self._tallies.items():
            rating = self._ratings[name]
            mu, sigma = float(rating.mu), float(rating.sigma)
            low, high = wilson(tally.lost, tally.rounds)
            out.append(
                ContestLine(
                    name=name,
                    score=tally.score,
                    rounds=tally.rounds,
                    lost=tally.lost,
                    loss_rate=tally.lost / tally.rounds if tally.rounds else 0.0,
                    loss_low=low,
                    loss_high=high,
                    mu=mu,
                    sigma=sigma,
                    low=mu - Z95 * sigma,
                    high=mu + Z95 * sigma,
                    ordinal=float(rating.ordinal()),
                )
            )
        return sorted(out, key=lambda line: (-line.ordinal, -line.score, line.name))
