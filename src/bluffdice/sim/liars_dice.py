"""Many single-round Liar's Dice games at once between table policies, with numpy.

A single round (`single_round=on`, as in the `openspiel` and `dudo-single-round` presets)
is what the solver and OpenSpiel play: every cup is rolled, bids rise until someone calls
liar (or calza), and the round's loser pays 1. A table policy gives, for each hand the
player holds and each last bid, a distribution over action codes: every bid the rule set
knows (quantity-major, the ladder's order), then liar, then calza.

Everything about the rules comes from the engine: the hands and their chances from the
roll table, which bid may follow which from the rule set's `BidLadder`, and how many dice
count for a face from the ladder's own `count` (wild faces included).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from bluffdice.games.liars_dice.dice import hand_outcomes
from bluffdice.games.liars_dice.rules import LiarsDiceRules
from bluffdice.sim.alias import alias_tables, below, random_words, stacked_alias_tables

FloatArray = npt.NDArray[np.float64]


class LiarsDiceLayout:
    """Hands, bids and legality of one rule set and number of players."""

    def __init__(self, rules: LiarsDiceRules, players: int) -> None:
        if not rules.single_round:
            raise ValueError(
                "the simulator plays one round of Liar's Dice: use single_round=on "
                "(e.g. the openspiel or dudo-single-round presets)"
            )
        if rules.cups:
            raise ValueError("the simulator deals every player the same cup: leave cups out")
        self.rules = rules
        self.players = players
        ladder = rules.ladder
        self.total = rules.dice * players
        outcomes = hand_outcomes(rules.dice, rules.faces)
        self.hands: tuple[tuple[int, ...], ...] = tuple(h for h, _ in outcomes)
        self.hand_p = np.array([float(p) for _, p in outcomes])
        self.hand_index = {h: i for i, h in enumerate(self.hands)}
        self.bids: tuple[Any, ...] = tuple(
            ladder.bid(q, f) for q in range(1, self.total + 1) for f in range(1, rules.faces + 1)
        )
        self.bid_index = {b: i for i, b in enumerate(self.bids)}
        self.n_bids = len(self.bids)
        self.challenge = self.n_bids
        self.calza = self.n_bids + 1
        self.width = self.n_bids + 2
        self.quantity = np.array([b.quantity for b in self.bids], dtype=np.int16)
        self.face = np.array([b.face for b in self.bids], dtype=np.int16)
        # count[h, f]: dice of hand h that count for face f (wild dice included)
        self.count = np.zeros((len(self.hands), rules.faces + 1), dtype=np.int16)
        for i, hand in enumerate(self.hands):
            for f in range(1, rules.faces + 1):
                self.count[i, f] = ladder.count([hand], f, False)

    @cached_property
    def legal(self) -> npt.NDArray[np.bool_]:
        """(last bid + 1, action): the ladder's legal actions (0: nothing bid yet)."""
        from bluffdice.games.liars_dice import Calza, Challenge

        legal = np.zeros((self.n_bids + 1, self.width), dtype=bool)
        for last in range(self.n_bids + 1):
            bid = None if last == 0 else self.bids[last - 1]
            for action in self.rules.ladder.legal_actions(self.total, bid, False):
                if isinstance(action, Challenge):
                    legal[last, self.challenge] = True
                elif isinstance(action, Calza):
                    legal[last, self.calza] = True
                else:
                    legal[last, self.bid_index[action]] = True
        return legal

    def code(self, action: Any) -> int:
        from bluffdice.games.liars_dice import Calza, Challenge

        if isinstance(action, Challenge):
            return self.challenge
        if isinstance(action, Calza):
            return self.calza
        return self.bid_index[action]

    def action(self, code: int) -> Any:
        from bluffdice.games.liars_dice import Calza, Challenge

        if code == self.challenge:
            return Challenge()
        if code == self.calza:
            return Calza()
        return self.bids[code]


@dataclass
class LiarsDiceTable:
    """`probs[hand, last bid + 1]`: a distribution over action codes."""

    name: str
    rules: LiarsDiceRules
    players: int
    probs: FloatArray
    meta: dict[str, Any] = field(default_factory=dict)

    def check(self) -> list[str]:
        legal = layout_of(self.rules, self.players).legal[None, :, :]
        ok = np.broadcast_to(legal, self.probs.shape)
        broken = []
        if np.any(self.probs < 0) or np.any(self.probs[~ok] > 1e-9):
            broken.append(f"{self.name}: weight on an illegal action")
        if not np.allclose(self.probs.sum(axis=-1), 1.0, atol=1e-6):
            broken.append(f"{self.name}: a row does not sum to 1")
        return broken


_LAYOUTS: dict[tuple[LiarsDiceRules, int], LiarsDiceLayout] = {}


def layout_of(rules: LiarsDiceRules, players: int) -> LiarsDiceLayout:
    key = (rules, players)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = LiarsDiceLayout(rules, players)
    return _LAYOUTS[key]


def random_table(rules: LiarsDiceRules, players: int = 2) -> LiarsDiceTable:
    """`random`: every legal action alike."""
    layout = layout_of(rules, players)
    legal = layout.legal.astype(float)
    rows = legal / legal.sum(axis=-1, keepdims=True)
    probs = np.broadcast_to(rows, (len(layout.hands), *rows.shape)).copy()
    return LiarsDiceTable("random", rules, players, probs)


def queried_table(
    name: str, rules: LiarsDiceRules, players: int, choose: Callable[[Any], dict[Any, float]]
) -> LiarsDiceTable:
    """A table from a function answering real engine views (seat 0 decides)."""
    import msgspec

    from bluffdice.games.liars_dice import new_game

    layout = layout_of(rules, players)
    base = new_game(rules, players)
    if base.phase == "seat":
        from bluffdice.games.liars_dice import FirstPlayer

        base = base.apply(FirstPlayer(0)).state
    other = tuple(layout.hands[0] for _ in range(players - 1))
    probs = np.zeros((len(layout.hands), layout.n_bids + 1, layout.width))
    for h, hand in enumerate(layout.hands):
        for last in range(layout.n_bids + 1):
            if not layout.legal[last].any():
                continue
            bid = None if last == 0 else layout.bids[last - 1]
            state = msgspec.structs.replace(
                base,
                phase="bid",
                turn=0,
                hands=(hand, *other),
                bid=bid,
                bidder=-1 if bid is None else players - 1,
            )
            for action, p in choose(state.view(0)).items():
                probs[h, last, layout.code(action)] += p
    return LiarsDiceTable(name, rules, players, probs)


def odds_table(rules: LiarsDiceRules, players: int = 2) -> LiarsDiceTable:
    """`odds` (deterministic: read from the bot itself)."""
    from bluffdice.bots.base import load_bot

    bot = load_bot("odds", "liars-dice", random.Random(0))
    return queried_table("odds", rules, players, lambda view: {bot.act(view): 1.0})


TABLE_BOTS: dict[str, Callable[[LiarsDiceRules, int], LiarsDiceTable]] = {
    "random": random_table,
    "odds": odds_table,
}


def why_not_tabular(bot: str, rules: LiarsDiceRules) -> str | None:
    if not rules.single_round:
        return "the simulator plays single rounds only (single_round=on)"
    if bot not in TABLE_BOTS:
        return f"{bot} reads more than its hand and the last bid"
    return None


@dataclass
class LiarsDiceBatch:
    """How a batch of rounds ended: each seat's payoff (zero-sum, the loser pays 1)."""

    returns: npt.NDArray[np.float32]
    bids: npt.NDArray[np.int16]
    """Bids made in each game."""
    steps: int

    @property
    def games(self) -> int:
        return int(self.returns.shape[0])

    @property
    def winners(self) -> npt.NDArray[np.bool_]:
        return self.returns > 0


class LiarsDiceSim:
    """Plays single rounds between table policies, one per seat."""

    def __init__(self, rules: LiarsDiceRules, seats: Sequence[LiarsDiceTable]) -> None:
        self.rules = rules
        self.players = len(seats)
        self.layout = layout_of(rules, self.players)
        for t in seats:
            if t.rules != rules or t.players != self.players:
                raise ValueError(f"table {t.name!r} was made for other rules or players")
        prob, alias = stacked_alias_tables([t.probs.reshape(-1, self.layout.width) for t in seats])
        # column j's threshold is stored as j + threshold: a draw u in [0, width) is
        # compared as it is, without taking its fraction
        self.cut = (prob + np.arange(self.layout.width, dtype=np.float32)).ravel()
        self.alias = alias.astype(np.int32).ravel()
        hp, ha = alias_tables(self.layout.hand_p[None, :])
        self.hand_prob, self.hand_alias = hp[0], ha[0]

    def _hands(self, rng: np.random.Generator, size: int) -> npt.NDArray[np.int32]:
        k = self.hand_prob.size
        words = random_words(rng, size)
        if np.allclose(self.layout.hand_p, 1.0 / k):  # one die: every hand alike
            return below(words, k).astype(np.int32)
        u = np.multiply(words, np.float32(k * 2.0**-32), dtype=np.float32)
        j = np.minimum(u.astype(np.int32), k - 1)
        other = self.hand_alias.astype(np.int32).take(j)
        hands: npt.NDArray[np.int32] = other + (j - other) * (u - j < self.hand_prob.take(j))
        return hands

    def run(
        self, games: int, seed: int | np.random.Generator, first: int | None = None
    ) -> LiarsDiceBatch:
        """Play `games` rounds; `first` fixes the opening seat (else the rules decide)."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        lay, P = self.layout, self.players
        W = lay.width
        i32 = np.int32
        turn, hands, row0 = self._deal(rng, games, first)
        last = np.zeros(games, dtype=i32)  # (last bid + 1) * W
        standing = np.full(games, -1, dtype=i32)  # the last bid
        bidder = np.full(games, -1, dtype=i32)
        nb = np.zeros(games, dtype=np.int16)
        gid = np.arange(games, dtype=i32)
        payer = np.zeros(games, dtype=np.int8)
        calza_right = np.zeros(games, dtype=bool)
        nbids = np.zeros(games, dtype=np.int16)
        cut, alias, n_bids = self.cut, self.alias, lay.n_bids
        scale = np.float32(W * 2.0**-32)
        steps = 0
        cur = row0[np.arange(games), turn]
        while gid.size:
            n = gid.size
            steps += n
            u = np.multiply(random_words(rng, n), scale, dtype=np.float32)
            j = np.minimum(u.astype(i32), W - 1)  # u is W itself only by rounding
            flat = cur + last + j
            act = alias.take(flat)
            act += (j - act) * (u < cut.take(flat))
            bid = act < n_bids
            if not bid.all():
                e = np.flatnonzero(~bid)
                g = gid[e]
                payer[g], calza_right[g] = self._settle(
                    hands.ravel(), g, act[e], standing[e], turn[e], bidder[e]
                )
                nbids[g] = nb[e]
                keep = np.flatnonzero(bid)
                gid, act, turn, nb = gid[keep], act[keep], turn[keep], nb[keep]
            last, bidder, standing = (act + 1) * W, turn, act
            nb += 1
            turn = turn + 1
            turn -= P * (turn == P)
            cur = row0.ravel().take(gid * P + turn)
        return LiarsDiceBatch(returns=self._returns(payer, calza_right), bids=nbids, steps=steps)

    def _deal(
        self, rng: np.random.Generator, games: int, first: int | None
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """Who opens each game, the hands dealt (game by seat), and where each seat's
        table rows for its hand start: seat, hand, then the last bid."""
        lay, P = self.layout, self.players
        H, B1, W = len(lay.hands), lay.n_bids + 1, lay.width
        if first is None and self.rules.start == "first-seat":
            first = 0
        i32 = np.int32
        turn = (
            np.full(games, first, dtype=i32)
            if first is not None
            else rng.integers(0, P, size=games, dtype=i32)
        )
        hands = self._hands(rng, games * P).reshape(games, P)
        row0 = ((hands + np.arange(P, dtype=i32) * H) * (B1 * W)).astype(i32)
        return turn, hands, row0

    def _returns(
        self, payer: npt.NDArray[np.int8], calza_right: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.float32]:
        """Each seat's return: the payer loses 1, shared out among the others; a right
        calza turns it round (the caller wins 1, the others pay)."""
        games, P = payer.size, self.players
        share = 1.0 / (P - 1)
        returns = np.full((games, P), share, dtype=np.float32)
        returns.ravel()[np.arange(games) * P + payer] = -1.0
        if calza_right.any():
            r = np.flatnonzero(calza_right)
            returns[r] = -share
            returns[r, payer[r]] = 1.0
        return returns

    def _settle(
        self,
        hands: npt.NDArray[np.int32],
        games: npt.NDArray[np.int32],
        act: npt.NDArray[np.int32],
        bid: npt.NDArray[np.int32],
        caller: npt.NDArray[np.int32],
        bidder: npt.NDArray[np.int32],
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        """Who pays in rounds that ended with liar or calza (the engine's `_end_round` with
        single_round), and where a right calza makes the caller the one who wins: the
        payer pays 1, shared by the others; a right calza wins 1 from them."""
        lay = self.layout
        face, quantity = lay.face.take(bid), lay.quantity.take(bid)
        # the dice showing the face, seat by seat (hands[g * P + seat] is a seat's hand)
        counts, faces, P = lay.count.ravel(), lay.count.shape[1], self.players
        first = games * P
        count = counts.take(hands.take(first) * faces + face)
        for seat in range(1, P):
            count += counts.take(hands.take(first + seat) * faces + face)
        calza = act == lay.calza
        # liar: the challenger pays if the bid holds, else the bidder; calza: the caller
        payer = bidder + (caller - bidder) * (calza | (count >= quantity))
        return payer, calza & (count == quantity)
