"""`search`: Liar's Dice decided at the table by sampling the hidden cups and playing on.

`bayes` prices each action with a one-step model: the next player calls a raise or not,
and the round ends there. At three dice and more, or with three players and more, a
round runs on for several bids, and what an action is worth depends on how it goes on.
`search` looks further, within a fixed budget per move:

1. **Determinize.** It draws a pool of full tables (every opponent's cup rolled as fresh
   dice) and weighs each by how well it explains the bids of the round under `bayes`'s
   model of a bidder: a bid of q on a face is made with a chance of
   bluff + (1 - bluff) * P(q holds from the bidder's cup)^2, the bluff rate learnt by
   `bayes` from the lifted cups. It resamples `SAMPLES` tables by those weights.
2. **Candidates.** Calling liar (and calza, where the rules have it), and the
   `RAISES` raises `bayes` itself rates cheapest.
3. **Roll out.** On each sampled table every candidate is played on to the round's end
   by a fast default policy for every seat (the `odds` rule: call the standing bid when
   it is less likely to hold, from the caller's cup, than the caller's best raise, else
   make that raise), the same tables for every candidate, so that their differences are
   not noise of the draw. A round that costs it a die scores -1, one that costs an
   opponent a die +1 heads-up (+`OTHERS_LOSS` at a larger table, where another player's
   loss helps less), a right calza +1.
4. It plays the candidate of the highest mean, `bayes`'s own order breaking ties.

It only reads its view: its own dice, the bids of the round, the dice counts and the cups
lifted at the end of earlier rounds. Its randomness is its own `rng`, so a seeded game
replays move for move.
"""

from __future__ import annotations

from functools import lru_cache

from bluffdice.bots.base import next_seat_in, register_bot
from bluffdice.bots.liars_dice import _faces, _tail
from bluffdice.bots.liars_dice_bayes import (
    OTHERS_LOSS,
    SHARPNESS,
    LiarsDiceBayesBot,
    at_least,
    counts,
    face_chance,
)
from bluffdice.games.liars_dice.actions import Bid, Calza, Challenge, LiarsDiceAction
from bluffdice.games.liars_dice.bids import BidLadder
from bluffdice.games.liars_dice.rules import LiarsDiceRules
from bluffdice.games.liars_dice.state import LiarsDiceView
from bluffdice.games.registry import parse_rules

POOL = 96
"""Tables drawn before the weighting: enough that a few likely ones are among them."""

SAMPLES = 24
"""Tables resampled by weight and played out for every candidate."""

RAISES = 4
"""Raises searched besides the calls: the cheapest by `bayes`'s one-step cost."""

Hands = list[tuple[int, ...]]


@lru_cache(maxsize=64)
def _ladder(rules_text: str) -> BidLadder:
    rules: LiarsDiceRules = parse_rules(rules_text, game="liars-dice")
    return rules.ladder


@register_bot
class LiarsDiceSearchBot(LiarsDiceBayesBot):
    """Samples the hidden cups from `bayes`'s belief and plays each candidate out."""

    name = "search"
    games = ("liars-dice",)
    description = (
        "the planner: samples the hidden cups from what the bids say and plays each "
        "candidate action out to the round's end"
    )
    in_default_mix = False
    """Not yet among a tournament's default bots: the figures of docs/strength.md are of
    that mix; `--bots search,...` seats it."""

    def act(self, view: LiarsDiceView) -> LiarsDiceAction:
        self._learn(view)
        legal = view.legal_actions
        if view.player is None or view.my_dice is None or not legal:
            return super().act(view)
        candidates = self._candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        tables = self._determinize(view)
        values = [0.0] * len(candidates)
        for hands in tables:
            for i, action in enumerate(candidates):
                values[i] += self._rollout(view, hands, action)
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        return candidates[best]

    # --- the candidates ----------------------------------------------------------------

    def _candidates(
        self, view: LiarsDiceView, legal: tuple[LiarsDiceAction, ...]
    ) -> list[LiarsDiceAction]:
        """The calls, then the raises `bayes` rates cheapest, in that order."""
        found: list[LiarsDiceAction] = [a for a in (Challenge(), Calza()) if a in legal]
        bids = self.candidates(view, [a for a in legal if isinstance(a, Bid)])
        rated = sorted(bids, key=lambda b: self.raise_cost(view, b))
        found.extend(rated[:RAISES])
        return found or [legal[0]]

    # --- determinization ---------------------------------------------------------------

    def _determinize(self, view: LiarsDiceView) -> list[Hands]:
        """`SAMPLES` full tables, opponents' cups drawn by how well they explain the bids."""
        faces = _faces(view.rules)
        wild = view.wild
        me = view.player
        assert me is not None and view.my_dice is not None
        rng = self.rng
        pool: list[Hands] = []
        weights: list[float] = []
        for _ in range(POOL):
            hands: Hands = []
            for seat, n in enumerate(view.dice):
                if seat == me:
                    hands.append(tuple(sorted(view.my_dice)))
                else:
                    hands.append(tuple(sorted(rng.randint(1, faces) for _ in range(n))))
            weight = 1.0
            for call in view.bids:
                if call.player == me:
                    continue
                hand = hands[call.player]
                k = counts(hand, call.face, wild)
                p = face_chance(call.face, faces, wild)
                bluff = self.habits_of(call.player).bluff_rate
                odds = at_least(view.total - len(hand), call.quantity - k, p)
                weight *= bluff + (1 - bluff) * odds**SHARPNESS
            pool.append(hands)
            weights.append(weight)
        if sum(weights) <= 0:
            weights = [1.0] * len(pool)
        return rng.choices(pool, weights, k=SAMPLES)

    # --- rollouts ----------------------------------------------------------------------

    def _rollout(self, view: LiarsDiceView, hands: Hands, action: LiarsDiceAction) -> float:
        """What `action` is worth to the viewer on this table, every seat then playing the
        default policy until someone calls."""
        me = view.player
        assert me is not None
        alive = [n > 0 for n in view.dice]
        others = OTHERS_LOSS if sum(alive) > 2 else 1.0
        wild = view.wild
        bid, bidder = view.bid, view.bidder
        seat = me
        ladder = _ladder(view.rules)
        faces = _faces(view.rules)
        while True:
            if isinstance(action, Bid):
                bid, bidder = action, seat
                nxt = next_seat_in(seat, alive)
                if nxt is None:
                    return 0.0
                seat = nxt
                legal = ladder.moves(view.total, bid, view.palifico)[0]
                action = self._default(view, hands[seat], bid, legal, faces, wild)
                continue
            assert bid is not None and bidder is not None
            count = sum(counts(h, bid.face, wild) for h in hands)
            if isinstance(action, Calza):
                right = count == bid.quantity
                return 1.0 if right else -1.0
            loser = seat if count >= bid.quantity else bidder
            return -1.0 if loser == me else others

    @staticmethod
    def _default(
        view: LiarsDiceView,
        hand: tuple[int, ...],
        bid: Bid,
        legal: tuple[LiarsDiceAction, ...],
        faces: int,
        wild: int,
    ) -> LiarsDiceAction:
        """The `odds` rule from `hand`: call unless the best raise is safer than the bid."""
        total = view.total
        best: Bid | None = None
        best_p = -1.0
        tails: dict[int, tuple[float, ...]] = {}
        for a in legal:
            if not isinstance(a, Bid):
                continue
            tail = tails.get(a.face)
            if tail is None:
                tail = tails[a.face] = _tail(total, a.face, hand, faces, wild)
            p = tail[a.quantity] if a.quantity <= total else 0.0
            if p > best_p:
                best, best_p = a, p
        held = _tail(total, bid.face, hand, faces, wild)[bid.quantity]
        if best is None or held < 1.0 - best_p:
            return Challenge()
        return best
