"""The two Mia bots that count: `odds` plays the exact odds of `bluffdice.odds.mia`, and
`adaptive` plays the same odds corrected, per opponent, by what it has seen them do.

Both answer an announcement by comparing expected losses:

- challenge: the chance the claim is true times what a failed challenge costs;
- believe: the odds module's exact expected loss of rolling and announcing in turn;
- pass (where allowed, once a round): the chance the claim is false times the chance the
  next player challenges: the passer takes the cup's responsibility without rolling;
- against Mia: give up, look (scaled by the chance the Mia is real), or beat.

The chance a claim is true comes from one generative picture of the announcer, the odds
module's model widened by two numbers: an announcer who could tell the truth lies anyway
with chance `theta`, and every lie lands, equally likely, on one of the `spread + 1`
lowest tiers it may use (above the dice for a voluntary lie, above the last announcement
for a forced one). With theta 0 this is exactly the module's `p_announcement_true`.
`odds` uses one fixed picture for everybody; `adaptive` fits theta and spread to each
opponent from the dice it has seen revealed, and learns how often each one challenges.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from bluffdice.bots.base import next_seat_in, register_bot
from bluffdice.bots.mia_tools import MiaBot, announcements, my_calls_this_round, passes, rules_of
from bluffdice.games.base import Event
from bluffdice.games.mia import (
    Announce,
    BeatMia,
    Call,
    Challenge,
    Cheers,
    GiveUp,
    Look,
    MiaAction,
    MiaRules,
    MiaView,
    Pass,
    Roll,
)
from bluffdice.games.mia.actions import (
    Announced,
    Challenged,
    Passed,
    Revealed,
    Rolled,
    RoundStarted,
)
from bluffdice.games.mia.values import JOKER, MIA
from bluffdice.odds import mia as odds


class ClaimModel:
    """Float tables for one rule set: ranks, roll chances, and who may announce what."""

    def __init__(self, rules: MiaRules) -> None:
        self.rules = rules
        ranking = rules.ranking
        self.rank = {v: ranking.rank(v) for v in ranking.best_first}
        self.worst_first = tuple(reversed(ranking.best_first))
        self.dist = {v: float(p) for v, p in odds.roll_distribution(rules).items()}
        believe_vs = {v: odds.expected_loss(rules, None, v) for v in self.worst_first}
        self.believe = {v: float(b) for v, (b, _c) in believe_vs.items()}
        # What a failed challenge (look) costs the challenger when the claim is true.
        truthful = {v: odds.p_announcement_true(rules, None, v) for v in self.worst_first}
        self.fail_cost = {
            v: float(believe_vs[v][1] / truthful[v]) if truthful[v] else 1.0
            for v in self.worst_first
        }
        mia = odds.decide(rules, None, MIA).options
        self.mia_options = {k: float(v) for k, v in mia.items()}

    @lru_cache(maxsize=4096)  # noqa: B019 - one model per rule set, kept for the process
    def tiers_above(self, floor: int | None, strict: bool = True) -> tuple[tuple[int, ...], ...]:
        """The tiers a claim may use after `floor` (None: any), worst first."""
        out: list[list[int]] = []
        base = 0 if floor is None else self.rank[floor]
        for v in self.worst_first:
            r = self.rank[v]
            if floor is not None and (r < base or (strict and r == base)):
                continue
            if out and self.rank[out[-1][0]] == r:
                out[-1].append(v)
            else:
                out.append([v])
        return tuple(tuple(t) for t in out)

    def lie_chance(self, floor: int | None, value: int, spread: int, strict: bool) -> float:
        """The chance a lie above `floor` lands on `value`: uniform over spread+1 tiers."""
        tiers = self.tiers_above(floor, strict)[: spread + 1]
        for tier in tiers:
            if value in tier:
                return 1.0 / (len(tiers) * len(tier))
        return 0.0

    def posterior(
        self, previous: int | None, announced: int, theta: float, spread: int
    ) -> dict[int, float]:
        """The announcer's dice given `announced` after `previous`, under (theta, spread)."""
        relaxed = self.rules.relaxed_raise
        floor_rank = -1 if previous is None else self.rank[previous]
        weights: dict[int, float] = {}
        for dice, p in self.dist.items():
            r = self.rank[dice]
            legal = r > floor_rank or (relaxed and r == floor_rank)
            if legal:
                w = (1.0 - theta) if dice == announced else 0.0
                if theta > 0 and dice != MIA:
                    w += theta * self.lie_chance(dice, announced, spread, strict=True)
            elif self.rules.joker32 and dice == JOKER:
                continue  # the model shows cheers with it
            else:
                w = self.lie_chance(previous, announced, spread, strict=not relaxed)
            if w > 0:
                weights[dice] = p * w
        total = sum(weights.values())
        if total <= 0:
            return {}
        return {d: w / total for d, w in weights.items()}

    def p_true(
        self, previous: int | None, claimed: int, current: int, theta: float, spread: int
    ) -> float:
        """The chance the dice reach `current`, given the roller claimed `claimed` after
        `previous` (passes may have raised the claim to `current` since)."""
        post = self.posterior(previous, claimed, theta, spread)
        if not post:
            return 0.0
        floor = self.rank[current]
        return sum(p for d, p in post.items() if self.rank[d] >= floor)


@lru_cache(maxsize=32)
def claim_model(rules_text: str) -> ClaimModel:
    return ClaimModel(rules_of(rules_text))


@dataclass(frozen=True)
class Claim:
    """The claim on the table: who rolled and claimed what after what, and its value now."""

    roller: int
    previous: int | None
    claimed: int
    current: int


def current_claim(calls: Sequence[Call]) -> Claim | None:
    """Find the roll behind the current announcement: the last `announce` call."""
    for j in range(len(calls) - 1, -1, -1):
        if calls[j].kind == "announce":
            previous = calls[j - 1].value if j > 0 else None
            return Claim(calls[j].player, previous, calls[j].value, calls[-1].value)
    return None


class _OddsPlayer(MiaBot):
    """The shared play of `odds` and `adaptive`; they differ in whom they believe."""

    pass_challenge_rate = 0.5
    """Assumed chance that the next player challenges a pass, when nothing is known."""

    def theta(self, player: int) -> float:
        return 0.0

    def spread(self, player: int) -> int:
        return 0

    def challenge_rate(self, player: int) -> float:
        return self.pass_challenge_rate

    def act(self, view: MiaView) -> MiaAction:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if Look() in legal:
            return Look()
        if Cheers() in legal:
            return Cheers()  # a free restart beats any announcement of a 32
        values = announcements(view)
        if values:
            return Announce(self.announce(view, values))
        return self.answer(view)

    def announce(self, view: MiaView, values: list[int]) -> int:
        """The truth when it is legal, else the smallest lie: as small as it must."""
        assert view.my_dice is not None
        return view.my_dice if view.my_dice in values else values[0]

    def truth_chance(self, view: MiaView, model: ClaimModel) -> float:
        assert view.announced is not None
        if view.my_dice is not None:  # the cup came back to its roller
            return 1.0 if model.rank[view.my_dice] >= model.rank[view.announced] else 0.0
        claim = current_claim(view.calls)
        if claim is None:  # pragma: no cover - an announcement always has a caller
            return 0.5
        return model.p_true(
            claim.previous,
            claim.claimed,
            claim.current,
            self.theta(claim.roller),
            self.spread(claim.roller),
        )

    def answer(self, view: MiaView) -> MiaAction:
        model = claim_model(view.rules)
        announced = view.announced
        assert announced is not None
        legal = view.legal_actions
        p_true = self.truth_chance(view, model)
        if GiveUp() in legal:
            opts = model.mia_options
            truthful = odds.p_announcement_true(model.rules, None, MIA)
            costs: dict[MiaAction, float] = {
                Challenge(): opts[odds.LOOK] * p_true / float(truthful),
                GiveUp(): opts[odds.GIVE_UP],
            }
            if BeatMia() in legal:
                costs[BeatMia()] = opts[odds.BEAT]
            return min(costs, key=lambda a: costs[a])
        costs = {
            Challenge(): p_true * model.fail_cost[announced],
            Roll(): model.believe[announced],
        }
        if announced in passes(view) and my_calls_this_round(view) == 0:
            nxt = _next_alive(view)
            costs[Pass(announced)] = (1.0 - p_true) * self.challenge_rate(nxt) + 1e-9
        return min(costs, key=lambda a: costs[a])


def _next_alive(view: MiaView) -> int:
    """The seat that answers a pass (the player itself when no other is in)."""
    assert view.player is not None
    seat = next_seat_in(view.player, [not out for out in view.out])
    return view.player if seat is None else seat


@register_bot
class OddsBot(_OddsPlayer):
    """Plays the exact odds module: believes or challenges by expected lives lost, passes
    when that costs less, tells the truth when it can and lies as small as it must."""

    name = "odds"
    description = "challenge vs believe by the exact odds; lies as small as it must"

    fixed_spread = 1
    """The odds module's liars lie on the smallest tier; `odds` allows one more, which
    keeps it from believing every claim one tier above the smallest."""

    def spread(self, player: int) -> int:
        return self.fixed_spread


@dataclass
class _Record:
    """What one opponent has shown: lies when the truth was possible, lie sizes, answers."""

    free: int = 0
    free_lies: int = 0
    lie_sizes: list[int] = field(default_factory=list)
    answers: int = 0
    challenges: int = 0


@register_bot
class AdaptiveBot(_OddsPlayer):
    """Plays the odds, but keeps per-opponent statistics of how often their
    announcements turned out lies (and how big the lies were), from the dice it sees
    revealed, and believes each opponent accordingly. It also learns how often each
    opponent challenges, which prices its passes."""

    name = "adaptive"
    description = "learns per opponent how often their announcements are lies"

    prior_free = 3.0
    """Pseudo-observations behind the prior lie rate of 0 (the odds module's honest model)."""
    prior_theta = 0.05
    prior_sizes = 2.0
    prior_size = 0.5
    prior_answers = 2.0

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.seen: dict[int, _Record] = {}
        self._calls: list[Call] = []
        self._rounds_done: set[int] = set()
        self._round = 0
        self._awaiting: int | None = None
        self._rules: str | None = None
        self._me: int | None = None
        self._pending: list[tuple[int, tuple[Call, ...], int]] = []

    # --- what it believes about each opponent --------------------------------------

    def _rec(self, player: int) -> _Record:
        return self.seen.setdefault(player, _Record())

    def theta(self, player: int) -> float:
        rec = self._rec(player)
        return (rec.free_lies + self.prior_theta * self.prior_free) / (rec.free + self.prior_free)

    def spread(self, player: int) -> int:
        rec = self._rec(player)
        total = sum(rec.lie_sizes) + self.prior_size * self.prior_sizes
        mean = total / (len(rec.lie_sizes) + self.prior_sizes)
        return max(0, min(20, round(2 * mean)))

    def challenge_rate(self, player: int) -> float:
        rec = self._rec(player)
        return (rec.challenges + self.pass_challenge_rate * self.prior_answers) / (
            rec.answers + self.prior_answers
        )

    # --- learning ------------------------------------------------------------------

    def act(self, view: MiaView) -> MiaAction:
        self.catch_up(view)
        return super().act(view)

    def catch_up(self, view: MiaView) -> None:
        """Learn from what was revealed since the last move (rules come with the view)."""
        self._rules, self._me = view.rules, view.player
        pending, self._pending = self._pending, []
        for round_number, calls, dice in pending:
            self._learn(view.rules, round_number, calls, dice)
        last = view.last_round
        if last is not None and last.round not in self._rounds_done and last.revealed:
            self._learn(view.rules, last.round, last.calls, last.revealed)

    def observe(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, RoundStarted):
                self._round, self._calls, self._awaiting = event.round, [], None
            elif isinstance(event, Announced | Passed):
                self._answered(event.player, challenged=False)
                kind = "announce" if isinstance(event, Announced) else "pass"
                self._calls.append(Call(event.player, kind, event.value))
                self._awaiting = event.player
            elif isinstance(event, Rolled) and self._calls:
                self._answered(event.player, challenged=False)
            elif isinstance(event, Challenged):
                self._answered(event.player, challenged=True)
            elif isinstance(event, Revealed) and event.announced is not None:
                if self._rules is None:  # rules come with the first view: learn then
                    self._pending.append((self._round, tuple(self._calls), event.value))
                else:
                    self._learn(self._rules, self._round, tuple(self._calls), event.value)

    def _answered(self, player: int, challenged: bool) -> None:
        """Count a player's answer to an announcement (the first action after it)."""
        if self._awaiting is None or player == self._awaiting:
            return
        rec = self._rec(player)
        rec.answers += 1
        rec.challenges += challenged
        self._awaiting = None

    def _learn(self, rules_text: str, round_number: int, calls: Sequence[Call], dice: int) -> None:
        self._rounds_done.add(round_number)
        claim = current_claim(calls)
        if claim is None or claim.roller == self._me:
            return
        model = claim_model(rules_text)
        rank = model.rank
        rec = self._rec(claim.roller)
        relaxed = model.rules.relaxed_raise
        floor = -1 if claim.previous is None else rank[claim.previous]
        free = rank[dice] > floor or (relaxed and rank[dice] == floor)
        lied = rank[dice] < rank[claim.claimed]
        if free:
            rec.free += 1
            rec.free_lies += lied
        if lied:
            base = dice if free else claim.previous
            tiers = model.tiers_above(base, strict=free or not relaxed)
            size = next((i for i, t in enumerate(tiers) if claim.claimed in t), 0)
            rec.lie_sizes.append(size)
