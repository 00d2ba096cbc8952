"""Which bid may follow which: the raise rules, wild faces and the ones conversion.

A `BidLadder` belongs to one rule set (`rules.ladder`). It reads only the bidding fields
of the rules (`BiddingRules`), so this module does not import `rules.py`: the rules make
their ladder, never the other way round. It interns every `Bid`, and keeps
the legal actions of each (dice in play, last bid, palifico) situation in a table the first
time it is asked, so `legal_actions` and the legality test in `apply` are dictionary
look-ups on the hot path of the solver and the simulator. A table also remembers, per
action, what the engine derives from it (the record of a seat's bid, the table after it),
so a move of a random playout builds no key and looks nothing up twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Protocol

import msgspec

from bluffdice.games.base import Event
from bluffdice.games.liars_dice.actions import (
    Bid,
    BidMade,
    Calza,
    Challenge,
    LiarsDiceAction,
    face_plural,
)


class BiddingRules(Protocol):
    """The options of a rule set that decide which bid may follow which
    (`LiarsDiceRules` has them)."""

    @property
    def faces(self) -> int: ...
    @property
    def wild(self) -> str: ...
    @property
    def raise_rule(self) -> str: ...
    @property
    def ones_bids(self) -> str: ...
    @property
    def calza(self) -> bool: ...


_CHALLENGE = Challenge()
_CALZA = Calza()

SEATS = 8
"""The most players a game seats (the engine's MAX_PLAYERS)."""


class BidCall(msgspec.Struct, frozen=True):
    """One bid of the current round, by whom."""

    player: int
    quantity: int
    face: int


Said = tuple[tuple[BidCall], tuple[Event, ...]]
"""A seat's bid as the round records it (a one-tuple, ready to extend the round's bids),
and the events it causes."""


class Move:
    """One legal action of a situation, and what follows from it, worked out once.

    `action` is the ladder's own object (plain ints, whatever a caller sent). For a bid,
    `said[p]` is seat p making it (shared by every situation the bid is legal in: events
    are immutable values) and `follow` the situation's legal actions once the bid stands,
    filled by `BidLadder.after` on first use.
    """

    __slots__ = ("action", "said", "follow")

    def __init__(self, action: LiarsDiceAction, said: tuple[Said, ...] = ()) -> None:
        self.action = action
        self.said = said
        self.follow: MoveTable | None = None


_Key = tuple[int, Bid | None, bool]
MoveTable = tuple[tuple[LiarsDiceAction, ...], dict[object, Move]]
"""A situation's legal actions in order, and each action's `Move` by the action (a bid
equal to one of them finds it too)."""


def whole_numbers(bid: Bid) -> bool:
    """Whether quantity and face are integers (numpy's too), not floats or bools that
    merely compare equal: `2.0x6` or `Truex6` in a record would never replay."""
    q, f = bid.quantity, bid.face
    if type(q) is int and type(f) is int:  # the usual case, on the hot path
        return True
    return all(isinstance(n, Integral) and not isinstance(n, bool) for n in (q, f))


class BidLadder:
    """The bidding rules of one rule set, with tables built on first use."""

    def __init__(self, rules: BiddingRules) -> None:
        self.rules = rules
        self.faces = rules.faces
        self._bids: dict[tuple[int, int], Bid] = {}
        self._said: dict[Bid, tuple[Said, ...]] = {}
        self.tables: dict[_Key, MoveTable] = {}
        """What `moves` has built so far, by (dice in play, last bid, palifico)."""
        self.wild = (self.wild_face(False), self.wild_face(True))
        """The wild face outside and in a palifico round, by `palifico`."""

    # --- facts of the rule set --------------------------------------------------------

    def bid(self, quantity: int, face: int) -> Bid:
        """The one shared `Bid` object for this quantity and face."""
        key = (quantity, face)
        found = self._bids.get(key)
        if found is None:
            found = self._bids[key] = Bid(quantity, face)
        return found

    def wild_face(self, palifico: bool) -> int:
        """The face that counts as any face (0: none). Nothing is wild in a palifico round."""
        if palifico or self.rules.wild == "off":
            return 0
        return 1 if self.rules.wild == "ones" else self.faces

    def converts_ones(self, palifico: bool) -> bool:
        """Whether bids on ones follow the halving/doubling conversion (`ones_bids=on`;
        with `plain` a bid on ones ranks as the lowest face under the raise rule)."""
        return self.rules.ones_bids == "on" and self.wild_face(palifico) == 1

    def biddable_faces(self, palifico: bool) -> range:
        """Wild ones cannot be bid while the ones_bids option is off."""
        if self.wild_face(palifico) == 1 and self.rules.ones_bids == "off":
            return range(2, self.faces + 1)
        return range(1, self.faces + 1)

    def count(self, hands: Sequence[Sequence[int]], face: int, palifico: bool) -> int:
        """How many dice among `hands` show `face`, wild dice counted."""
        wild = self.wild_face(palifico)
        return sum(1 for hand in hands for d in hand if d in (face, wild))

    # --- the raise rules ----------------------------------------------------------------

    def may_follow(self, last: Bid | None, new: Bid, palifico: bool) -> bool:
        """Whether `new` may be bid after `last` (None: it opens the round).

        Bounds (quantity within the dice in play, a biddable face) are checked separately.
        """
        if last is None:
            return not (new.face == 1 and self.converts_ones(palifico))
        q0, f0, q, f = last.quantity, last.face, new.quantity, new.face
        if palifico:
            return f == f0 and q > q0
        if self.converts_ones(palifico) and (f0 == 1 or f == 1):
            if f0 != 1:
                return q >= (q0 + 1) // 2
            if f == 1:
                return q > q0
            return q >= 2 * q0 + 1
        rule = self.rules.raise_rule
        if rule == "reset-face":
            return q > q0 or (q == q0 and f > f0)
        if rule == "reset-quantity":
            return f > f0 or (f == f0 and q > q0)
        if rule == "strict":
            return (f == f0 and q > q0) or (q == q0 and f > f0)
        return q >= q0 and f >= f0 and (q, f) != (q0, f0)  # no-lowering

    def legal_actions(
        self, total: int, last: Bid | None, palifico: bool
    ) -> tuple[LiarsDiceAction, ...]:
        """Every legal action with `total` dice in play: bids lowest first, then liar and
        calza once there is a bid."""
        return self.moves(total, last, palifico)[0]

    def moves(self, total: int, last: Bid | None, palifico: bool) -> MoveTable:
        """The legal actions, and each action's `Move`: one look-up both checks an action
        and finds the ladder's own object for it."""
        key = (total, last, palifico)
        found = self.tables.get(key)
        if found is None:
            actions: list[LiarsDiceAction] = [
                self.bid(q, f)
                for q in range(1, total + 1)
                for f in self.biddable_faces(palifico)
                if self.may_follow(last, self.bid(q, f), palifico)
            ]
            if last is not None:
                actions.append(_CHALLENGE)
                if self.rules.calza:
                    actions.append(_CALZA)
            legal = tuple(actions)
            found = self.tables[key] = (legal, {a: self._move(a) for a in legal})
        return found

    def after(self, move: Move, total: int, palifico: bool) -> MoveTable:
        """The legal actions once the bid of `move` stands (`total` dice in play), kept in
        `move.follow` for the next time."""
        assert type(move.action) is Bid
        follow = move.follow = self.moves(total, move.action, palifico)
        return follow

    def _move(self, action: LiarsDiceAction) -> Move:
        if type(action) is not Bid:
            return Move(action)
        said = self._said.get(action)
        if said is None:
            q, f = action.quantity, action.face
            said = self._said[action] = tuple(
                ((BidCall(p, q, f),), (BidMade(player=p, quantity=q, face=f),))
                for p in range(SEATS)
            )
        return Move(action, said)

    def is_legal(self, total: int, last: Bid | None, palifico: bool, action: object) -> bool:
        try:
            return action in self.moves(total, last, palifico)[1]
        except TypeError:  # not hashable: not an action
            return False

    def refusal(self, total: int, last: Bid | None, palifico: bool, new: Bid) -> str:
        """A sentence for the player saying why `new` is refused and what would do."""
        faces = self.biddable_faces(palifico)
        if not whole_numbers(new):
            return "a bid is two whole numbers, quantity and face: e.g. 3x5"
        if not 1 <= new.face <= self.faces:
            return f"dice show 1 to {self.faces}; {new.face} is not a face"
        if new.face not in faces:
            return "ones are wild and cannot be bid in these rules: bid a face from 2 up"
        if new.quantity < 1:
            return "a bid is about at least one die"
        if new.quantity > total:
            return f"there are only {total} dice in play: bid at most {total}"
        if last is None:
            return "a round may not open on ones: bid another face"
        q0, f0 = last.quantity, last.face
        said = f"the last bid was {last.describe()}"
        if not any(isinstance(a, Bid) for a in self.legal_actions(total, last, palifico)):
            calza = " or calza" if self.rules.calza else ""
            return f"nothing beats {last.describe()} with {total} dice in play: call liar{calza}"
        if palifico:
            return f"palifico round: the face stays {face_plural(f0)}; bid more than {q0}"
        if self.converts_ones(palifico) and (f0 == 1 or new.face == 1):
            if f0 != 1:
                return f"{said}: a bid on ones needs at least {(q0 + 1) // 2} ones"
            if new.face == 1:
                return f"{said}: bid more than {q0} ones"
            if 2 * q0 + 1 > total:
                return (
                    f"{said}: leaving ones would need {2 * q0 + 1} dice, more than the {total} "
                    f"in play; bid more than {q0} ones"
                )
            return f"{said}: leaving ones needs at least {2 * q0 + 1} dice of the new face"
        rule = self.rules.raise_rule
        if rule == "no-lowering":
            return f"{said}: raise the quantity or the face, and lower neither"
        # Only name the ways up that exist: no face above the top one, no more dice than
        # are in play (some bid is left, or the check above has answered).
        more = q0 < total
        higher = f0 < faces[-1]
        if rule == "reset-face":
            ways = [f"more than {q0} dice of any face"] * more
            ways += [f"{q0} dice of a face higher than {f0}"] * higher
        elif rule == "reset-quantity":
            ways = [f"more than {q0} {face_plural(f0)}"] * more
            ways += ["any quantity of a higher face"] * higher
        else:  # strict
            ways = [f"more than {q0} {face_plural(f0)}"] * more
            ways += [f"{q0} dice of a face higher than {f0}"] * higher
        hint = "bid " + ", or ".join(ways)
        if rule == "strict" and len(ways) == 2:
            hint += " (not both)"
        return f"{said}: {hint}"
