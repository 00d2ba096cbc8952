"""A Mia bot to copy: it only reads its view and returns one of `view.legal_actions`.

Run it against the built-in bots:

    bluffdice tournament --bots docs/examples/cautious_bot.py,honest,liar,random --games 2000
"""

from __future__ import annotations

from bluffdice.bots import Bot
from bluffdice.games.mia import Announce, Challenge, GiveUp, Look, MiaAction, MiaView, Roll
from bluffdice.games.registry import parse_rules
from bluffdice.odds.mia import p_beat_or_tie


class CautiousBot(Bot[MiaView, MiaAction]):
    """Always looks, tells the truth when it may, and challenges claims a roll rarely
    reaches; against Mia it gives up."""

    name = "cautious"

    def act(self, view: MiaView) -> MiaAction:
        legal = view.legal_actions  # everything the rules allow right now
        if len(legal) == 1:  # e.g. the round opener must roll
            return legal[0]
        if Look() in legal:  # see the dice before announcing
            return Look()
        claims = [a.value for a in legal if isinstance(a, Announce)]
        if claims:  # holding dice: announce them if allowed, else the smallest lie
            return Announce(view.my_dice if view.my_dice in claims else claims[0])
        if GiveUp() in legal:  # Mia was announced
            return GiveUp()
        rules = parse_rules(view.rules)  # the rule string of this game
        announced = view.announced  # the claim to answer (None only before any claim)
        if announced is not None and p_beat_or_tie(rules, announced) < 0.35:
            return Challenge()  # a fresh roll rarely gets there
        return Roll()  # believe, and roll
