"""Liar's Dice bots: legal play under several rule sets; odds and adaptive beat random."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bluffdice.bots import load_bot
from bluffdice.bots.liars_dice import LiarsDiceAdaptiveBot, p_holds
from bluffdice.games import parse_rules
from bluffdice.games.liars_dice.actions import Bid, Challenge
from bluffdice.table import Table, run_sync, seeded
from bluffdice.tournament import make_config, run_tournament


class Checked:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.actions = 0

    def act(self, view: Any) -> Any:
        action = self.bot.act(view)
        assert action in view.legal_actions, (action, view)
        self.actions += 1
        return action

    def observe(self, events: Any) -> None:
        self.bot.observe(events)


@pytest.mark.parametrize(
    "rules",
    [
        "liars-dice",
        "liars-dice(dice=3,wild=off)",
        "liars-dice(dice=3,calza=on,palifico=on,ones_bids=on)",
        "liars-dice(dice=2,faces=4,raise=strict)",
    ],
)
def test_liars_dice_bots_only_take_legal_actions(rules: str) -> None:
    parsed: Any = parse_rules(rules)
    for seed in range(3):
        seats = [
            Checked(load_bot(name, "liars-dice", random.Random(seed + i)))
            for i, name in enumerate(("random", "odds", "adaptive", "bayes"))
        ]
        table = Table(parsed, 4, dice=seeded(seed))
        run_sync(table, seats)
        assert table.state.is_terminal
        assert seats[1].actions and seats[2].actions and seats[3].actions


def test_odds_calls_a_bid_that_its_own_cup_makes_impossible() -> None:
    # Two players with 2 dice each; I hold no fives nor ones: 4 fives cannot hold.
    view = _view(my_dice=(2, 3), bid=Bid(4, 5))
    assert p_holds(view, Bid(4, 5)) == 0.0
    assert load_bot("odds", "liars-dice").act(view) == Challenge()


def test_adaptive_distrusts_a_bidder_whose_bids_failed() -> None:
    bot = LiarsDiceAdaptiveBot(random.Random(0))
    assert bot.shift(1) == 0.0
    from bluffdice.bots.liars_dice import _Seen

    bot.seen[1] = _Seen(bids=6, residual=-3.0)
    view = _view(my_dice=(2, 3), bid=Bid(2, 2))
    assert bot.believe(view, 0.6) < 0.6


def test_odds_and_adaptive_beat_random_in_a_small_tournament() -> None:
    config = make_config("liars-dice(dice=3)", ["random", "odds", "adaptive"], 120, seed=5)
    lines = run_tournament(config).lines()
    assert lines["random"].rate < 0.1
    assert lines["odds"].rate > 0.25 and lines["adaptive"].rate > 0.25


def _view(my_dice: tuple[int, ...], bid: Bid) -> Any:
    from bluffdice.games.liars_dice.state import BidCall, LiarsDiceView

    rules: Any = parse_rules("liars-dice(dice=2)")
    legal = (Challenge(), *[Bid(q, f) for q in range(bid.quantity + 1, 5) for f in range(2, 7)])
    return LiarsDiceView(
        rules=rules.text,
        player=0,
        players=2,
        state_id=10,
        phase="bid",
        turn=0,
        round=1,
        dice=(2, 2),
        total=4,
        palifico=False,
        wild=1,
        my_dice=my_dice,
        bid=bid,
        bidder=1,
        bids=(BidCall(1, bid.quantity, bid.face),),
        legal_actions=legal,
        last_round=None,
        result=None,
    )
