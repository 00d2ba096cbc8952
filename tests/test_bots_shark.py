"""`shark`: legal at every table size, the solved round once heads-up, and lies chosen by
how often the next player has been seen to challenge."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from bluffdice.bots import available_bots, load_bot
from bluffdice.bots.mia_odds import claim_model
from bluffdice.bots.mia_shark import BANDS, SharkBot, band, doubt
from bluffdice.games.mia import Announce, MiaView
from bluffdice.games.mia.actions import Announced
from tests.conftest import script
from tests.test_bots_mia import _challenge_and_reveal, _round, spied_games


def test_shark_is_registered_and_plays_legal_games_at_every_table_size() -> None:
    assert "shark" in available_bots("mia")
    for players, others in ((2, ["adaptive"]), (3, ["odds", "liar"]), (6, ["random"] * 5)):
        spies = spied_games("classic(lives=2)", ["shark", *others], games=3, seed=players)
        assert spies[0].moves


def test_with_two_players_left_shark_plays_the_solved_round() -> None:
    bot = SharkBot(random.Random(0))
    game = script("classic", 4, ["first 0", "roll", "dice 52", "look", "52"])
    view = game.state.view(1)
    bot.act(view)
    assert bot.heads_up.policy_moves == 0  # four alive: the full-table play
    two_left = msgspec.structs.replace(game.state, out=(True, False, True, False))
    bot.act(two_left.view(1))
    assert bot.heads_up.policy_moves == 1


def _must_lie() -> MiaView:
    # Player 0 announced 62; player 1 believed, rolled 31 and must lie above 62.
    game = script("classic", 3, ["first 0", "roll", "dice 52", "look", "62", "roll", "dice 31"])
    game.step(game.state.legal_actions()[0])  # look
    return game.state.view(1)


def test_a_lie_goes_where_the_next_player_challenges_least() -> None:
    view = _must_lie()
    model = claim_model(view.rules)
    lies = [a.value for a in view.legal_actions if isinstance(a, Announce)]
    bands = {v: band(doubt(model, 62, v)) for v in lies if v != 21}
    assert len(set(bands.values())) > 1  # the lies look more or less doubtful
    smallest = lies[0]
    for feared in (True, False):
        bot = SharkBot(random.Random(0))
        reads = bot._read(2)
        for b in range(len(BANDS) + 1):
            # Seen 40 times per band: always challenges the smallest lie's band (or never).
            hit = (b == bands[smallest]) == feared
            reads[b] = [40.0 if hit else 0.0, 40.0]
        choice = bot.act(view)
        assert isinstance(choice, Announce)
        if feared:
            assert bands[choice.value] != bands[smallest]
        else:  # among lies as safe, the highest: the next player has more to beat
            assert bands[choice.value] == bands[smallest]
            assert choice.value == max(v for v in bands if bands[v] == bands[smallest])


def test_shark_counts_challenges_per_band_of_doubt() -> None:
    bot = SharkBot(random.Random(0))
    view = _must_lie()
    bot.act(view)  # the first view tells the bot its rules
    model = claim_model(view.rules)
    b = band(doubt(model, 31, 65))
    for number in range(2, 5):
        bot.observe([_round(number)])
        bot.observe([Announced(player=0, value=31), Announced(player=1, value=65)])
        bot.observe(_challenge_and_reveal(2, 1, 65, 43))
    assert bot._read(2)[b] == [3.0, 3.0]
    margin = doubt(model, 31, 65)
    prior = 0.9 if margin > 0 else 0.1  # the odds bot's verdict, worth two answers
    assert bot.challenge_chance(2, margin) == pytest.approx((3 + 2 * prior) / (3 + 2))
    # Believed claims count as answers without a challenge.
    bot.observe([_round(5), Announced(player=0, value=31), Announced(player=1, value=65)])
    bot.observe([Announced(player=2, value=66)])
    assert bot._read(2)[b] == [3.0, 4.0]


def test_shark_is_seeded_like_every_bot() -> None:
    games: list[Any] = []
    for _ in range(2):
        spies = spied_games("classic(lives=2)", ["shark", "adaptive", "odds"], games=2, seed=5)
        games.append([str(a) for _, a in spies[0].moves])
    assert games[0] == games[1]
    assert load_bot("shark", "mia", random.Random(1)).name == "shark"


def test_heads_up_shark_takes_the_pass_gap_where_the_shipped_overrides_say() -> None:
    from bluffdice.games.mia import parse_action
    from bluffdice.solve import pass_gap

    gaps = pass_gap.shipped_gaps()
    # The opener said 11 holding 11 and was passed 11 back: the override answers.
    opener = script("classic", 2, ["first 0", "roll", "dice 11", "look", "11", "pass 11"])
    wanted = gaps[0].action("0|0|11,11", "11")
    assert wanted is not None
    for seed in range(5):
        bot = SharkBot(random.Random(seed))
        assert bot.pass_gap_action(opener.state.view(0)) is None  # no third pass seen yet
        bot.third_passers.add(1)
        assert bot.act(opener.state.view(0)) == parse_action(wanted)
        assert bot.heads_up.policy_moves == 0
        bot.no_third_pass.add(1)  # it refused a third pass once: the policy again
        assert bot.pass_gap_action(opener.state.view(0)) is None
    # The other player never passes the opener's announcement back: where the policy
    # challenges 65 or passes it, shark always challenges.
    from bluffdice.solve.policy import shipped

    assert set(shipped("mia-classic").distribution("0|0|65", None) or {}) == {
        "challenge",
        "pass 65",
    }
    # It does so against a player seen to challenge its passes only over short dice.
    answer = script("classic", 2, ["first 0", "roll", "dice 31", "look", "65"])
    plain = []
    for seed in range(20):
        bot = SharkBot(random.Random(seed))
        bot.third_passers.add(0)
        plain.append(bot.act(answer.state.view(1)))
    assert parse_action("pass 65") in plain  # no evidence yet: the policy, passes included
    for seed in range(10):
        bot = SharkBot(random.Random(seed))
        bot.third_passers.add(0)
        bot.pass_checks[0] = [1, 0]
        assert bot.act(answer.state.view(1)) == parse_action("challenge")
        bot.pass_checks[0] = [1, 1]  # it challenged a true pass once: it passes again
        assert bot.checks_passes_by_its_dice(0) is False
    # Nodes without an override go to the policy.
    bot = SharkBot(random.Random(0))
    plain = script("classic", 2, ["first 0", "roll", "dice 31", "look", "52"])
    assert gaps[1].action("0|0|52", None) is None
    bot.act(plain.state.view(1))
    assert bot.heads_up.policy_moves == 1


def test_shark_counts_how_the_other_checks_its_passes() -> None:
    from bluffdice.games.mia.actions import Announced, Challenged, Passed, Revealed

    def checked(passer: int, dice: int) -> list[Any]:
        return [
            Announced(player=0, value=65),
            Passed(player=1, value=65) if passer == 1 else Announced(player=1, value=66),
            Challenged(player=0, announcer=1, announced=65 if passer == 1 else 66),
            Revealed(value=dice, announced=65, truthful=dice in (65, 66, 11, 22, 33, 44, 55, 21)),
        ]

    bot = SharkBot(random.Random(0))
    bot._me, bot._rules = 1, "classic"
    bot.observe(checked(1, 31))  # its 65 was a lie, and it challenged the pass of it
    assert bot.pass_checks == {0: [1, 0]} and bot.checks_passes_by_its_dice(0)
    bot.observe(checked(2, 31))  # an announcement challenged, not a pass: not counted
    assert bot.pass_checks == {0: [1, 0]}
    bot.observe(checked(1, 65))  # it challenged a pass of its own true 65
    assert bot.pass_checks == {0: [1, 1]} and not bot.checks_passes_by_its_dice(0)


def test_shark_notes_who_makes_a_third_pass_and_who_refuses_one() -> None:
    from bluffdice.games.mia.actions import Announced, Challenged, Passed

    bot = SharkBot(random.Random(0))
    bot._me, bot._rules = 1, "classic"
    bot.observe([Announced(player=0, value=53), Passed(player=1, value=53)])
    bot.observe([Passed(player=0, value=54)])  # the second pass: nothing to note
    assert bot.third_passers == set() and bot.no_third_pass == set()
    bot.observe([Passed(player=1, value=54)])  # shark's own third pass: nothing either
    bot.observe([Passed(player=0, value=54)])  # the other's pass after two: noted
    assert bot.third_passers == {0}
    bot.observe([Announced(player=0, value=61), Passed(player=1, value=61)])
    bot.observe([Passed(player=0, value=62), Passed(player=1, value=62)])
    bot.observe([Challenged(player=0, announcer=1, announced=62)])  # refused the third
    assert bot.no_third_pass == {0}
