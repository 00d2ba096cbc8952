"""Mia bots: each character's defining habit, and legal play under every preset."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bluffdice.bots import available_bots, load_bot
from bluffdice.bots.base import Bot
from bluffdice.bots.mia_odds import AdaptiveBot, current_claim
from bluffdice.games import parse_rules
from bluffdice.games.mia import PRESETS, Announce, Call, Challenge, MiaView, Pass
from bluffdice.games.mia.actions import Announced, Passed
from bluffdice.table import Table, run_sync, seeded

MIA_BOTS = ["random", "honest", "bluffer", "liar", "lucky", "chain", "odds", "adaptive"]

RULE_SETS = [
    *PRESETS,
    "mia(pass=off,relaxed_raise=on)",
    "mia(beat_mia=on,mia_doubled=on,lives=3)",
    "mia(pips=on,doubles_ascending=on,halbmeier=on,lives=3)",
    "mia(end=first_out,mia_starter=next,blind=off)",
    "meyer(mode=score,rounds=8)",
]


class Spy(Bot):
    """Wraps a bot: checks every action it takes is legal and keeps (view, action)."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.rng)
        self.inner = inner
        self.moves: list[tuple[MiaView, Any]] = []

    def act(self, view: Any) -> Any:
        action = self.inner.act(view)
        assert action in view.legal_actions, (action, view)
        self.moves.append((view, action))
        return action

    def observe(self, events: Sequence[Any]) -> None:
        self.inner.observe(events)


def spied_games(rules: str, bots: Sequence[str], games: int, seed: int = 1) -> list[Spy]:
    spies = [
        Spy(load_bot(name, "mia", random.Random(seed * 100 + i))) for i, name in enumerate(bots)
    ]
    parsed: Any = parse_rules(rules)
    rng = random.Random(seed)
    for _ in range(games):
        for spy in spies:
            spy.inner = type(spy.inner)(spy.rng)  # a fresh bot per game, as in tournaments
        run_sync(Table(parsed, len(spies), dice=seeded(rng)), spies)
    return spies


def test_every_mia_character_is_registered() -> None:
    assert set(MIA_BOTS) <= set(available_bots("mia"))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_bot_plays_only_legal_actions_under_every_rule_set(rules: str) -> None:
    # Eight seats: every bot meets every other; Spy asserts legality of each action.
    spies = spied_games(rules, MIA_BOTS, games=3, seed=len(rules))
    assert all(spy.moves for spy in spies)


def _lies(moves: list[tuple[MiaView, Any]]) -> tuple[int, int]:
    """(announcements whose dice were legal, of those: not the dice) for a spied bot."""
    free = lies = 0
    for view, action in moves:
        if isinstance(action, Announce) and view.my_dice is not None:
            legal = [a.value for a in view.legal_actions if isinstance(a, Announce)]
            if view.my_dice in legal:
                free += 1
                lies += action.value != view.my_dice
    return free, lies


def test_honest_never_lies_when_its_dice_are_legal_and_never_passes() -> None:
    spies = spied_games("classic", ["honest", "liar", "chain", "random"], games=20)
    free, lies = _lies(spies[0].moves)
    assert free > 50 and lies == 0
    assert not any(isinstance(a, Pass) for _, a in spies[0].moves)


def test_liar_lies_far_more_often_than_honest_and_bolder_than_it_must() -> None:
    spies = spied_games("classic", ["liar", "honest", "odds", "lucky"], games=20)
    free, lies = _lies(spies[0].moves)
    assert free > 30 and lies / free > 0.5
    honest_free, honest_lies = _lies(spies[1].moves)
    assert honest_lies / honest_free < lies / free


def test_lucky_claims_high_and_rarely_challenges() -> None:
    spies = spied_games("classic", ["lucky", "honest", "odds", "liar"], games=20)
    ranking = parse_rules("classic").ranking
    claims = [a.value for _, a in spies[0].moves if isinstance(a, Announce)]
    high = sum(1 for v in claims if ranking.rank(v) >= ranking.rank(65))
    assert claims and high / len(claims) > 0.9
    responses = [(v, a) for v, a in spies[0].moves if v.phase == "respond"]
    challenged = sum(1 for _, a in responses if isinstance(a, Challenge))
    assert responses and challenged / len(responses) < 0.15


def test_chain_passes_whenever_allowed_the_first_time_and_inflates() -> None:
    spies = spied_games("classic", ["chain", "honest", "odds", "random"], games=15)
    first_answers = [
        (v, a)
        for v, a in spies[0].moves
        if v.phase == "respond"
        and any(isinstance(x, Pass) for x in v.legal_actions)
        and not any(c.player == v.player for c in v.calls)
    ]
    assert len(first_answers) > 20
    assert all(isinstance(a, Pass) for _, a in first_answers)
    ranking = parse_rules("classic").ranking
    inflated = sum(1 for v, a in first_answers if ranking.rank(a.value) > ranking.rank(v.announced))
    assert inflated / len(first_answers) > 0.8


def test_odds_tells_the_truth_when_it_can_and_lies_as_small_as_it_must() -> None:
    # Without the pass, odds has to roll against every claim it believes.
    spies = spied_games("mia(pass=off)", ["odds", "liar", "honest", "lucky"], games=20)
    forced = 0
    for view, action in spies[0].moves:
        if isinstance(action, Announce):
            legal = [a.value for a in view.legal_actions if isinstance(a, Announce)]
            if view.my_dice in legal:
                assert action.value == view.my_dice
            else:
                forced += 1
                assert action.value == legal[0]
    assert forced > 5


def test_odds_challenges_a_pass_inflated_above_a_believable_claim() -> None:
    # 54 announced after 43 is a truthful roll in the model; a blind pass raising it to
    # 66 is a lie unless the roller hid a better roll: challenging costs far less.
    view = _respond_view(
        calls=(Call(0, "announce", 43), Call(1, "announce", 54), Call(2, "pass", 66)),
        player=3,
    )
    assert load_bot("odds", "mia", random.Random(0)).act(view) == Challenge()


def test_adaptive_learns_who_lies_from_revealed_dice() -> None:
    bot = AdaptiveBot(random.Random(0))
    assert bot.theta(1) == bot.theta(2)
    for round_number in range(1, 7):
        # Player 1 claims 66 holding 43 although 43 beat the last announcement (32).
        bot.observe([_round(round_number)])
        bot.observe([Announced(player=0, value=32), Announced(player=1, value=66)])
        bot.observe(_challenge_and_reveal(2, 1, 66, 43))
    model_view = _respond_view(calls=(Call(0, "announce", 32), Call(1, "announce", 55)), player=2)
    other_view = _respond_view(calls=(Call(0, "announce", 32), Call(3, "announce", 55)), player=2)
    bot.act(model_view)  # the first view tells the bot the rules it learns under
    assert bot.theta(1) > 0.5 > bot.theta(2)
    # The same claim is now believed less from player 1 than from an unknown player.
    from bluffdice.bots.mia_odds import claim_model

    model = claim_model(model_view.rules)
    assert bot.truth_chance(model_view, model) < bot.truth_chance(other_view, model)


def test_current_claim_finds_the_roll_behind_passes() -> None:
    claim = current_claim((Call(0, "announce", 43), Call(1, "announce", 54), Call(2, "pass", 61)))
    assert claim is not None
    assert (claim.roller, claim.previous, claim.claimed, claim.current) == (1, 43, 54, 61)


def _round(number: int) -> Any:
    from bluffdice.games.mia.actions import RoundStarted

    return RoundStarted(round=number, starter=0)


def _challenge_and_reveal(player: int, announcer: int, announced: int, dice: int) -> list[Any]:
    from bluffdice.games.mia.actions import Challenged, Revealed

    truthful = parse_rules("classic").ranking.rank(dice) >= parse_rules("classic").ranking.rank(
        announced
    )
    return [
        Challenged(player=player, announcer=announcer, announced=announced),
        Revealed(value=dice, announced=announced, truthful=truthful),
    ]


def _respond_view(calls: tuple[Call, ...], player: int) -> MiaView:
    """A view of seat `player` answering the last call under classic rules."""
    from bluffdice.games.mia import MiaState

    last = calls[-1]
    state = MiaState(
        rules=parse_rules("classic"),
        players=4,
        phase="respond",
        turn=player,
        round=1,
        lost=(0, 0, 0, 0),
        drinks=(0, 0, 0, 0),
        joined=(0, 0, 0, 0),
        out=(False,) * 4,
        dice=31,
        roller=[c.player for c in calls if c.kind == "announce"][-1],
        looked=True,
        announced=last.value,
        announcer=last.player,
        calls=calls,
    )
    return state.view(player)


def test_passed_events_are_understood_by_adaptive() -> None:
    bot = AdaptiveBot(random.Random(0))
    bot.observe([_round(1), Announced(player=0, value=43), Passed(player=1, value=43)])
    # Player 1 answered player 0 without challenging; player 2 has not answered yet.
    assert bot.seen[1].answers == 1 and bot.seen[1].challenges == 0
