"""The odds hint a player may ask for at the table: exact chances, as numbers.

Only the asking seat's own view is used (its own dice and what everyone saw), so a hint
never tells more than the player could work out with pen, paper and patience. The page
turns the numbers into words in the player's language.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bluffdice.bots.liars_dice_basic import at_least
from bluffdice.games.liars_dice.actions import Bid
from bluffdice.games.liars_dice.state import LiarsDiceView
from bluffdice.games.mia.actions import Announce, Pass
from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.state import MiaView
from bluffdice.odds.mia import p_truthful_beats

MAX_ROWS = 40
"""At most this many chances in one hint: enough for every sensible bid on a phone."""


def hint(rules: Any, view: Any) -> dict[str, Any]:
    """Chances for `view`'s seat: {"game": ..., "rows": [{"action", "chance"}...], ...}."""
    if isinstance(view, MiaView) and isinstance(rules, MiaRules):
        return _mia(rules, view)
    if isinstance(view, LiarsDiceView):
        return _liars_dice(rules, view)
    return {"game": getattr(view, "game", "?"), "rows": []}


def _mia(rules: MiaRules, view: MiaView) -> dict[str, Any]:
    """For the announced value: how often a fresh roll truthfully beats it; for each value
    one may announce or pass: how often the next player's roll beats that."""
    announced = None
    if view.announced is not None:
        announced = float(p_truthful_beats(rules, view.announced))
    values = sorted(
        {a.value for a in view.legal_actions if isinstance(a, Announce | Pass)},
    )
    rows = [{"value": v, "beat": float(p_truthful_beats(rules, v))} for v in values[:MAX_ROWS]]
    return {"game": "mia", "announced": view.announced, "beat": announced, "rows": rows}


def _liars_dice(rules: Any, view: LiarsDiceView) -> dict[str, Any]:
    """For the standing bid and each legal bid: the chance it holds given your own dice."""
    faces = int(getattr(rules, "faces", 6))
    mine = view.my_dice or ()

    def chance(quantity: int, face: int) -> float:
        own = sum(1 for d in mine if d in (face, view.wild))
        p_num = 2 if view.wild and face != view.wild else 1
        return at_least(view.total - len(mine), quantity - own, Fraction(p_num, faces))

    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    bids.sort(key=lambda b: (b.quantity, b.face))
    rows = [
        {"quantity": b.quantity, "face": b.face, "holds": chance(b.quantity, b.face)}
        for b in bids[:MAX_ROWS]
    ]
    standing = None
    if view.bid is not None:
        standing = chance(view.bid.quantity, view.bid.face)
    return {"game": "liars-dice", "bid": view.bid, "holds": standing, "rows": rows}
