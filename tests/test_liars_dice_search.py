"""`search` (Liar's Dice): legal play to the end under several rule sets, seeded replay,
blindness to the hidden cups, and the obvious call."""

from __future__ import annotations

import random

import msgspec
import pytest

from bluffdice.bots import load_bot
from bluffdice.bots.liars_dice_search import LiarsDiceSearchBot
from bluffdice.games import parse_rules
from bluffdice.games.base import CHANCE, BluffdiceError, visible_to
from bluffdice.games.liars_dice.actions import Bid, Challenge, Dice, LiarsDiceAction
from bluffdice.games.liars_dice.state import LiarsDiceState, new_game


def play(
    rules_text: str, seats: int, seed: int
) -> tuple[LiarsDiceState, list[LiarsDiceAction], LiarsDiceSearchBot]:
    """One whole game: `search` in seat 0 against `bayes`; every move goes through
    `apply`, which refuses an illegal one. Returns the end, search's moves, the bot."""
    rules = parse_rules(rules_text, game="liars-dice")
    rng = random.Random(seed)
    search = load_bot("search", "liars-dice", random.Random(seed + 1))
    assert isinstance(search, LiarsDiceSearchBot)
    bots = [search] + [
        load_bot("bayes", "liars-dice", random.Random(seed + 2 + i)) for i in range(seats - 1)
    ]
    state: LiarsDiceState = new_game(rules, seats)
    moves: list[LiarsDiceAction] = []
    while not state.is_terminal:
        player = state.current_player
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            view = state.view(player)
            move = bots[player].act(view)
            assert move in view.legal_actions
            if player == 0:
                moves.append(move)
        state, events = state.apply(move)
        for seat, bot in enumerate(bots):
            bot.observe([e for e in events if visible_to(e, seat)])
    return state, moves, search


@pytest.mark.parametrize(
    ("rules_text", "seats"),
    [
        ("liars-dice(dice=3)", 2),
        ("liars-dice(dice=3)", 3),
        ("dudo(dice=2)", 3),
        ("perudo(dice=2)", 4),
        ("liars-dice(dice=3,wild=off,raise=strict)", 2),
    ],
)
def test_it_plays_legal_moves_to_the_end(rules_text: str, seats: int) -> None:
    end, moves, _ = play(rules_text, seats, seed=3)
    assert end.result is not None and moves
    assert sum(1 for d in end.dice if d) == 1  # played out: one player is left


def test_the_same_seed_plays_the_same_moves() -> None:
    first = play("dudo(dice=3)", 3, seed=11)[1]
    again = play("dudo(dice=3)", 3, seed=11)[1]
    other = play("dudo(dice=3)", 3, seed=12)[1]
    assert first == again
    assert first != other  # the seed matters: a different deal, different play


def test_it_plays_no_other_game() -> None:
    with pytest.raises(BluffdiceError, match="unknown common-hand bot 'search'"):
        load_bot("search", "common-hand")


def bidding_state(hands: tuple[tuple[int, ...], ...], bids: list[Bid]) -> LiarsDiceState:
    """A 3-player game of 3 dice each, `hands` rolled, seat 0 opening, `bids` made."""
    rules = parse_rules("liars-dice(dice=3,start=first-seat)", game="liars-dice")
    state: LiarsDiceState = new_game(rules, 3)
    for hand in hands:
        state = state.apply(Dice(hand)).state
    for bid in bids:
        state = state.apply(bid).state
    return state


def test_it_never_reads_the_hidden_cups() -> None:
    """Two tables that differ only in the opponents' cups give it the same view, and so,
    seeded alike, the same moves: what it plays depends on nothing else."""
    bids = [Bid(2, 5), Bid(3, 5)]
    mine = (2, 5, 6)
    a = bidding_state(((1, 5, 5), (3, 4, 6), mine), bids)
    b = bidding_state(((2, 2, 3), (6, 6, 6), mine), bids)
    assert a.turn == b.turn == 2 and a.hands != b.hands
    assert msgspec.structs.asdict(a.view(2)) == msgspec.structs.asdict(b.view(2))
    moves = []
    for state in (a, b):
        bot = load_bot("search", "liars-dice", random.Random(5))
        moves.append([bot.act(state.view(2)) for _ in range(3)])
    assert moves[0] == moves[1]


def test_it_calls_an_impossible_bid() -> None:
    """Nine dice in play, and a bid of seven fives while its own cup holds no five and no
    one: the other six dice cannot make seven, and every raise is as hopeless."""
    state = bidding_state(((1, 5, 5), (5, 5, 6), (2, 3, 4)), [Bid(5, 5), Bid(7, 5)])
    assert state.turn == 2
    bot = load_bot("search", "liars-dice", random.Random(1))
    view = state.view(2)
    assert any(isinstance(a, Bid) for a in view.legal_actions)
    assert bot.act(view) == Challenge()
