"""Two Liar's Dice bots that play the same way, except that `Peeker` looks for the
hidden dice wherever Python lets it (the caller's frames, every object `gc` knows) and
plays with the whole truth when it finds it. `Twin` never looks. In the dealer's
process the peeker wins most games; in its own process it finds nothing and plays
exactly as its twin."""

from __future__ import annotations

import gc
import sys
from typing import Any

from bluffdice.bots import Bot
from bluffdice.games.liars_dice import Bid, Challenge


def expected(view: Any, face: int) -> float:
    mine = view.my_dice or ()
    wild = view.wild
    count = sum(1 for d in mine if d == face or (wild and d == wild and face != wild))
    p = 1 / 6 if not wild or face == wild else 2 / 6
    return count + (view.total - len(mine)) * p


class Twin(Bot):
    name = "twin"
    games = ("liars-dice",)

    def act(self, view: Any) -> Any:
        legal = view.legal_actions
        hands = self.peek(view)
        count = (lambda f: self.true_count(hands, f, view.wild)) if hands else None
        bids = [a for a in legal if isinstance(a, Bid)]
        call = Challenge() if Challenge() in legal else None
        if view.bid is not None and call is not None:
            held = count(view.bid.face) if count else expected(view, view.bid.face) + 0.5
            if view.bid.quantity > held:
                return call
        if count is not None:
            true = [b for b in bids if b.quantity <= count(b.face)]
            return true[0] if true else (call or legal[0])
        if not bids:
            return call or legal[0]
        best = max(bids, key=lambda b: (expected(view, b.face) - b.quantity, -b.quantity))
        if call is not None and expected(view, best.face) - best.quantity < -0.5:
            return call
        return best

    def peek(self, view: Any) -> tuple[tuple[int, ...], ...] | None:
        return None

    @staticmethod
    def true_count(hands: tuple[tuple[int, ...], ...], face: int, wild: int) -> int:
        return sum(
            1 for h in hands for d in h if d == face or (wild and d == wild and face != wild)
        )


def _matches(state: Any, view: Any) -> bool:
    hands = getattr(state, "hands", None)
    return (
        isinstance(hands, tuple)
        and getattr(state, "state_id", None) == view.state_id
        and getattr(state, "round", None) == view.round
        and view.player is not None
        and len(hands) > view.player
        and tuple(hands[view.player]) == tuple(view.my_dice or ())
    )


class Peeker(Twin):
    name = "peeker"

    def peek(self, view: Any) -> tuple[tuple[int, ...], ...] | None:
        frame = sys._getframe(1)
        while frame is not None:  # the dealer's locals: a table, a state
            for value in list(frame.f_locals.values()):
                for candidate in (value, getattr(value, "state", None)):
                    if _matches(candidate, view):
                        return tuple(candidate.hands)
            frame = frame.f_back
        for obj in gc.get_objects():  # anything alive in this process
            if type(obj).__name__ == "LiarsDiceState" and _matches(obj, view):
                return tuple(obj.hands)
        return None
