"""`mia-best`: the solved match heads-up with lives, `shark` elsewhere, from its view only.

The match of `classic(lives=2,pass_limit=1)` (four lives states) is solved once for the module, to a
loose target so that it takes seconds, into a cache of the test's own."""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bluffdice.bots import available_bots, load_bot
from bluffdice.bots.cfr import _sample
from bluffdice.bots.mia_best import MATCH, MiaBestBot, match_state
from bluffdice.games import parse_rules
from bluffdice.games.mia import MiaView, parse_action
from bluffdice.solve import match, match_policy, mia
from bluffdice.solve.cfr import evaluate
from bluffdice.solve.policy import to_strategy
from tests.conftest import script
from tests.test_bots_mia import spied_games

RULES = "classic(lives=2,pass_limit=1)"
TEXT = "mia(lives=2,pass_limit=1)"


@pytest.fixture(scope="module", autouse=True)
def solved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[match_policy.MatchPolicy]:
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(match_policy, "cache_dir", lambda: cache)
        match_policy._SOLVED.clear()
        match_policy._read.cache_clear()
        yield match_policy.obtain(TEXT, target=2e-2, show=False)
    match_policy._SOLVED.clear()
    match_policy._read.cache_clear()


def test_the_match_of_the_rules_is_named_with_its_pass_limit() -> None:
    assert match_policy.match_text(parse_rules(RULES)) == TEXT
    assert match_policy.match_text(parse_rules("classic(lives=2)")) == TEXT  # limit added
    assert match_policy.match_text(parse_rules("maexchen")) is None  # not lives mode
    assert match_policy.match_text(parse_rules("classic(lives=12)")) is None


def test_the_kept_policy_is_the_match_solution_at_every_state(
    solved: match_policy.MatchPolicy, tmp_path: Path
) -> None:
    # Each state's policy, laid out on its round with the ends paid by the match values,
    # is worth what the solver found there: it is that state's equilibrium strategy.
    spec = match.spec_from_rules(parse_rules(TEXT))
    values = {s: p.value for s, p in solved.states.items()}
    assert set(values) == {(1, 1), (1, 2), (2, 1), (2, 2)}
    for state, policy in solved.states.items():
        stakes = match.MatchStakes(
            spec, state, lambda x, y: values[(x, y)] or 0.0, lambda x, y: -(values[(x, y)] or 0.0)
        )
        game = match.build_round(spec, stakes)
        played = evaluate(game, to_strategy(game, policy, mia.key_text)).value
        assert played == pytest.approx(policy.value, abs=5e-3), state
    # What was cached reads back the same.
    path = tmp_path / "m.json.gz"
    solved.save(path)
    back = match_policy.MatchPolicy.from_json(json.loads(gzip.decompress(path.read_bytes())))
    assert back.states[(2, 1)].nodes == solved.states[(2, 1)].nodes


def _hold_view() -> MiaView:
    """Player 0 opens heads-up, has rolled 52 and looked: it must announce."""
    return script(RULES, 2, ["first 0", "roll", "dice 52", "look"]).state.view(0)


def _answer_view(dice: str = "dice 52") -> MiaView:
    """Player 0 rolled, looked and announced 52; player 1 answers."""
    return script(RULES, 2, ["first 0", "roll", dice, "look", "52"]).state.view(1)


@pytest.mark.parametrize("lives", [(2, 2), (1, 2), (2, 1), (1, 1)])
def test_heads_up_it_plays_the_match_policy_of_the_lives_state(
    solved: match_policy.MatchPolicy, lives: tuple[int, int]
) -> None:
    for base, key, hand in ((_hold_view(), "0|0|", "52"), (_answer_view(), "0|0|52", None)):
        view = msgspec.structs.replace(base, lives=lives)
        assert match_state(view) == lives  # player 0 opens the round
        policy = solved.policy(*lives)
        assert policy is not None
        dist = policy.distribution(key, hand)
        assert dist
        for seed in range(6):
            bot = MiaBestBot(random.Random(seed))
            assert bot.method(view) == MATCH
            expected = parse_action(_sample(dist, random.Random(seed)))
            assert bot.act(view) == expected
            assert bot.moves == {MATCH: 1}


def test_the_lives_state_changes_the_play() -> None:
    # Behind on lives, the answer to 52 is not the one of the even match.
    view = _answer_view()
    found = match_policy.find(TEXT)
    assert found is not None
    dists = {s: found.states[s].distribution("0|0|52", None) for s in ((2, 1), (1, 2))}
    assert dists[(2, 1)] != dists[(1, 2)]
    assert match_state(msgspec.structs.replace(view, lives=(1, 2))) == (1, 2)


def test_heads_up_and_at_four_seats_it_plays_legal_games_to_the_end() -> None:
    assert "mia-best" in available_bots("mia")
    heads_up = spied_games(RULES, ["mia-best", "shark"], games=4, seed=3)
    assert heads_up[0].moves
    four = spied_games(RULES, ["mia-best", "shark", "odds", "honest"], games=4, seed=4)
    methods = {MiaBestBot(random.Random(0)).method(view) for view, _ in four[0].moves}
    assert methods == {"shark", MATCH}  # shark while 3+ are alive, the match once two


def test_it_is_seeded_like_every_bot() -> None:
    runs: list[Any] = []
    for _ in range(2):
        spies = spied_games(RULES, ["mia-best", "adaptive", "odds"], games=2, seed=5)
        runs.append([str(a) for _, a in spies[0].moves])
    assert runs[0] == runs[1]
    heads: list[Any] = []
    for _ in range(2):
        spies = spied_games(RULES, ["mia-best", "cfr"], games=3, seed=6)
        heads.append([str(a) for _, a in spies[0].moves])
    assert heads[0] == heads[1]


def test_at_three_seats_or_other_rules_it_falls_back_to_shark_and_says_so() -> None:
    assert MiaBestBot.stand_in(parse_rules("classic"), 3) == "shark"
    assert MiaBestBot.stand_in(parse_rules("classic"), 6) == "shark"
    assert MiaBestBot.stand_in(parse_rules("maexchen"), 2) == "shark"
    # Unlimited passes: the solver would play another game (pass_limit=1), which loses.
    assert MiaBestBot.stand_in(parse_rules("classic"), 2) == "shark"
    unlimited = script("classic(lives=2)", 2, ["first 0", "roll", "dice 52", "look", "52"])
    assert MiaBestBot().method(unlimited.state.view(1)) == "shark"
    assert MiaBestBot.stand_in(parse_rules(RULES), 2) is None  # solved: at hand
    view = script(RULES, 3, ["first 0", "roll", "dice 52", "look", "52"]).state.view(1)
    bot = MiaBestBot(random.Random(1))
    assert match_state(view) is None and bot.method(view) == "shark"
    bot.act(view)
    assert bot.moves == {"shark": 1}
    maexchen = script("maexchen", 2, ["first 0", "roll", "dice 52", "52"])
    assert bot.method(maexchen.state.view(1)) == "shark"


def test_it_reads_only_its_view_never_the_hidden_dice() -> None:
    # Player 0 announced 52 over 31 in one game and over 52 in the other: player 1's
    # view is the same, and so is every move mia-best makes from it.
    views = [_answer_view("dice 31"), _answer_view("dice 52")]
    assert views[0] == views[1] and views[0].my_dice is None
    moves = [
        [str(load_bot("mia-best", "mia", random.Random(s)).act(v)) for s in range(8)] for v in views
    ]
    assert moves[0] == moves[1]
