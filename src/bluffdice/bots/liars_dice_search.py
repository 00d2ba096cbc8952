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
3. **Value.** A call ends the round: it is valued exactly from `bayes`'s belief. A raise
   is played out on each sampled table: the next player calls it with the chance
   `bayes` predicts from that player's cup (its call habits, learnt from the lifted
   cups), else raises; from there every seat follows the fast `odds` rule (call the
   standing bid when it is less likely to hold, from the caller's cup, than the
   caller's best raise, else make that raise) to the round's end. Every raise is played
   on the same tables, so that their differences are not noise of the draw. A die lost
   by it scores -1, by an opponent +1 heads-up (+`OTHERS_LOSS` at a larger table, where
   another player's loss helps less), a right calza +1.
4. It plays the candidate of the highest mean, the calls and then `bayes`'s order of
   the raises breaking ties.

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
        for i, action in enumerate(candidates):
            exact = self._call_value(view, action)
            if exact is not None:
                values[i] = exact * len(tables)
                continue
            for hands in tables:
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

    def _call_value(self, view: LiarsDiceView, action: LiarsDiceAction) -> float | None:
        """A call's worth from `bayes`'s belief, computed exactly rather than sampled (the
        round ends there, so no play-out is needed); None for a raise."""
        bid = view.bid
        if bid is None or isinstance(action, Bid):
            return None
        if isinstance(action, Calza):
            dist = self.count_distribution(view, bid.face)
            exact = dist[bid.quantity] if bid.quantity < len(dist) else 0.0
            return exact - (1 - exact)
        held = self.p_holds(view, bid)
        others = OTHERS_LOSS if sum(1 for n in view.dice if n) > 2 else 1.0
        return others * (1 - held) - held

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
        """What `action` is worth to the viewer on this table. After a raise, the next
        player calls it with the chance `bayes` predicts from their cup (its call habits,
        learnt from the lifted cups), else raises as the default policy would; from there
        every seat plays the default policy until someone calls."""
        me = view.player
        assert me is not None
        if not isinstance(action, Bid):
            assert view.bid is not None and view.bidder is not None
            return self._showdown(view, hands, view.bid, view.bidder, me, action)
        alive = [n > 0 for n in view.dice]
        nxt = next_seat_in(me, alive)
        if nxt is None:
            return 0.0
        faces = _faces(view.rules)
        hand = hands[nxt]
        p = face_chance(action.face, faces, view.wild)
        k = counts(hand, action.face, view.wild)
        their_odds = at_least(view.total - len(hand), action.quantity - k, p)
        call = self.habits_of(nxt).call_chance(their_odds)
        called = self._showdown(view, hands, action, me, nxt, Challenge())
        legal = _ladder(view.rules).moves(view.total, action, view.palifico)[0]
        answer = self._default(view, hand, action, legal, faces, view.wild, may_call=False)
        if not isinstance(answer, Bid):
            return called
        return call * called + (1 - call) * self._play_on(view, hands, answer, nxt)

    def _play_on(self, view: LiarsDiceView, hands: Hands, bid: Bid, bidder: int) -> float:
        """The round from `bidder`'s `bid` on, every seat playing the default policy."""
        me = view.player
        assert me is not None
        alive = [n > 0 for n in view.dice]
        ladder = _ladder(view.rules)
        faces = _faces(view.rules)
        while True:
            seat = next_seat_in(bidder, alive)
            if seat is None:
                return 0.0
            legal = ladder.moves(view.total, bid, view.palifico)[0]
            action = self._default(view, hands[seat], bid, legal, faces, view.wild)
            if not isinstance(action, Bid):
                return self._showdown(view, hands, bid, bidder, seat, action)
            bid, bidder = action, seat

    @staticmethod
    def _showdown(
        view: LiarsDiceView,
        hands: Hands,
        bid: Bid,
        bidder: int,
        caller: int,
        action: LiarsDiceAction,
    ) -> float:
        """The viewer's score when `caller` calls liar (or calza) on `bidder`'s `bid`."""
        me = view.player
        count = sum(counts(h, bid.face, view.wild) for h in hands)
        if isinstance(action, Calza):
            if caller != me:
                return 0.0
            return 1.0 if count == bid.quantity else -1.0
        others = OTHERS_LOSS if sum(1 for n in view.dice if n) > 2 else 1.0
        loser = caller if count >= bid.quantity else bidder
        return -1.0 if loser == me else others

    @staticmethod
    def _default(
        view: LiarsDiceView,
        hand: tuple[int, ...],
        bid: Bid,
        legal: tuple[LiarsDiceAction, ...],
        faces: int,
        wild: int,
        may_call: bool = True,
    ) -> LiarsDiceAction:
        """The `odds` rule from `hand`: call unless the best raise is safer than the bid
        (without `may_call`: the best raise, if there is one)."""
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
        if best is not None and not may_call:
            return best
        held = _tail(total, bid.face, hand, faces, wild)[bid.quantity]
        if best is None or held < 1.0 - best_p:
            return Challenge()
        return best
