"""`bayes` (Liar's Dice): its belief and its decisions, against figures the test computes
itself by enumerating every cup, not by the bot's binomials and convolutions."""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from bluffdice.bots import load_bot
from bluffdice.bots.liars_dice_bayes import BANDS, CALL_PRIOR, LiarsDiceBayesBot
from bluffdice.games import parse_rules
from bluffdice.games.liars_dice.actions import Bid, Challenge
from bluffdice.games.liars_dice.state import BidCall, LiarsDiceView, RoundSummary

FACES = range(1, 7)
WILD = 1


def counting(hand: tuple[int, ...], face: int) -> int:
    return sum(1 for d in hand if d in (face, WILD))


def their_odds(hand: tuple[int, ...], hidden: int, bid: Bid) -> float:
    """The chance `bid` holds for a player holding `hand`, every hidden die enumerated."""
    rolls = list(product(FACES, repeat=hidden))
    good = sum(1 for r in rolls if counting(hand, bid.face) + counting(r, bid.face) >= bid.quantity)
    return good / len(rolls)


def opponent_hands(
    n: int, hidden: int, said: Bid | None, bluff: float
) -> list[tuple[tuple[int, ...], float]]:
    """Every cup of the opponent, weighted by the bot's documented model: a bid is made
    with chance bluff + (1 - bluff) * (its odds from the bidder's cup)^2."""
    hands = list(product(FACES, repeat=n))
    weights = []
    for h in hands:
        w = 1.0
        if said is not None:
            w = bluff + (1 - bluff) * their_odds(h, hidden, said) ** 2
        weights.append(w)
    total = sum(weights)
    return [(h, w / total) for h, w in zip(hands, weights, strict=True)]


def call_chance(p: float) -> float:
    return CALL_PRIOR[sum(1 for edge in BANDS if p >= edge)]


def view(
    my_dice: tuple[int, ...],
    dice: tuple[int, ...],
    bids: tuple[BidCall, ...],
    legal: tuple[Any, ...],
    last_round: RoundSummary | None = None,
) -> LiarsDiceView:
    rules: Any = parse_rules(f"liars-dice(dice={max(dice)})")
    last = bids[-1] if bids else None
    return LiarsDiceView(
        rules=rules.text,
        player=0,
        players=len(dice),
        state_id=10,
        phase="bid",
        turn=0,
        round=2,
        dice=dice,
        total=sum(dice),
        palifico=False,
        wild=WILD,
        my_dice=my_dice,
        bid=Bid(last.quantity, last.face) if last else None,
        bidder=last.player if last else None,
        bids=bids,
        legal_actions=legal,
        last_round=last_round,
        result=None,
    )


def test_the_belief_matches_an_enumeration_of_the_bidders_cup() -> None:
    # Heads-up, two dice each; I hold 2 and 3; the opponent bid two fives.
    said = Bid(2, 5)
    v = view((2, 3), (2, 2), (BidCall(1, 2, 5),), (Challenge(),))
    bot = LiarsDiceBayesBot(random.Random(0))
    hands = opponent_hands(2, 2, said, bluff=0.1)
    expected = sum(w for h, w in hands if counting(h, 5) >= 2)
    assert abs(bot.p_holds(v, said) - expected) < 1e-12
    # Plain odds (no bid heard) would give 1/9: the bid is strong evidence.
    assert expected > 0.3
    # On a face nobody bid, the belief is the plain binomial.
    assert abs(bot.p_holds(v, Bid(2, 4)) - (1 / 3) ** 2) < 1e-12


def costs_by_enumeration(v: LiarsDiceView, bluff: float) -> dict[Any, float]:
    """Every action's cost as the bot defines it, from enumerated cups."""
    assert v.bid is not None and v.my_dice is not None
    n = v.dice[1]
    out: dict[Any, float] = {}
    said = {c.face: Bid(c.quantity, c.face) for c in v.bids if c.player == 1}
    belief = opponent_hands(n, v.total - n, said.get(v.bid.face), bluff)
    held = sum(
        w
        for h, w in belief
        if counting(h, v.bid.face) + counting(v.my_dice, v.bid.face) >= v.bid.quantity
    )
    out[Challenge()] = held - 0.5 * (1 - held)
    for a in v.legal_actions:
        if not isinstance(a, Bid):
            continue
        cost = 0.0
        for h, w in opponent_hands(n, v.total - n, said.get(a.face), bluff):
            holds = counting(h, a.face) + counting(v.my_dice, a.face) >= a.quantity
            call = call_chance(their_odds(h, v.total - n, a))
            cost += w * call * ((0.0 if holds else 1.0) - (0.5 if holds else 0.0))
        out[a] = cost
    return out


def test_it_calls_a_bid_its_own_cup_and_the_bidders_odds_make_unlikely() -> None:
    # I hold 2, 3 against 3 fives: the opponent would need three of their two dice.
    bids = (BidCall(1, 3, 5),)
    legal = (Challenge(), Bid(4, 2), Bid(4, 3), Bid(4, 5))
    v = view((2, 3), (2, 2), bids, legal)
    costs = costs_by_enumeration(v, bluff=0.1)
    best = min(costs, key=lambda a: costs[a])
    assert best == Challenge() and costs[Challenge()] == -0.5
    assert load_bot("bayes", "liars-dice", random.Random(1)).act(v) == best


def test_it_raises_where_its_own_cup_makes_the_raise_safe() -> None:
    # I hold 3, 3, 1 (three threes with the wild one); the opponent bid two fives.
    bids = (BidCall(1, 2, 5),)
    legal = (Challenge(), Bid(3, 2), Bid(3, 3), Bid(3, 4), Bid(3, 5), Bid(3, 6))
    v = view((1, 3, 3), (3, 2), bids, legal)
    costs = costs_by_enumeration(v, bluff=0.1)
    best = min(costs, key=lambda a: costs[a])
    assert best == Bid(3, 3)
    bot = LiarsDiceBayesBot(random.Random(2))
    for action, cost in costs.items():
        if isinstance(action, Bid):
            assert abs(bot.raise_cost(v, action) - cost) < 1e-12, action
    assert bot.act(v) == best


def test_a_bidder_caught_bluffing_is_believed_less() -> None:
    # Last round the opponent bid 4 sixes holding none (and no wild one): a bluff.
    last = RoundSummary(
        round=1,
        bids=(BidCall(0, 1, 2), BidCall(1, 4, 6)),
        call="liar",
        caller=0,
        hands=((2, 2), (3, 4)),
        count=0,
        changes=(),
    )
    said = Bid(2, 5)
    bids = (BidCall(1, 2, 5),)
    fresh = LiarsDiceBayesBot(random.Random(3))
    taught = LiarsDiceBayesBot(random.Random(3))
    before = fresh.p_holds(view((2, 3), (2, 2), bids, (Challenge(),)), said)
    taught.act(view((2, 3), (2, 2), bids, (Challenge(), Bid(3, 5)), last_round=last))
    habits = taught.habits_of(1)
    assert habits.bids == 1 and habits.bluffs == 1
    assert habits.bluff_rate == (1 + 0.1 * 5) / (1 + 5)
    after = taught.p_holds(view((2, 3), (2, 2), bids, (Challenge(),), last_round=last), said)
    hands = opponent_hands(2, 2, said, bluff=habits.bluff_rate)
    assert abs(after - sum(w for h, w in hands if counting(h, 5) >= 2)) < 1e-12
    assert after < before
    # Player 1 raised my bid of one two rather than call it: one answer, no call, in the
    # band of the odds their cup gave that bid (1 - (4/6)^2).
    row = habits.answers[sum(1 for edge in BANDS if their_odds((3, 4), 2, Bid(1, 2)) >= edge)]
    assert row == [0.0, 1.0]


def test_a_seeded_game_is_reproducible() -> None:
    from bluffdice.table import Table, run_sync, seeded

    def play() -> tuple[Any, ...]:
        rules: Any = parse_rules("liars-dice(dice=3)")
        seats = [
            load_bot(n, "liars-dice", random.Random(i))
            for i, n in enumerate(("bayes", "odds", "bayes"))
        ]
        table = Table(rules, 3, dice=seeded(4))
        run_sync(table, seats)
        result = table.state.result
        assert result is not None
        return tuple(result.standings)

    assert play() == play()
