"""The `cfr` bot plays legal moves from its view, from the shipped policies, and wins;
the shipped policies are as good as their files say."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from bluffdice.bots.base import available_bots, load_bot
from bluffdice.games.registry import parse_rules
from bluffdice.solve import evaluate, problem
from bluffdice.solve import mia as mia_encoding
from bluffdice.solve.policy import shipped, shipped_index, to_strategy
from bluffdice.table import Table, run_sync, seeded


def _games(rules: str, game: str, opponent: str, n: int, players: int = 2, seed: int = 3):
    rng = random.Random(seed)
    total, bots = 0.0, []
    for i in range(n):
        cfr = load_bot("cfr", game, random.Random(rng.random()))
        others = [load_bot(opponent, game, random.Random(rng.random())) for _ in range(players - 1)]
        seat = i % players
        agents = others[:seat] + [cfr] + others[seat:]
        table = Table(parse_rules(rules), players, dice=seeded(random.Random(rng.random())))
        run_sync(table, agents)
        total += table.state.returns()[seat]
        bots.append(cfr)
    return total / n, sum(b.policy_moves for b in bots), sum(b.fallback_moves for b in bots)


def test_cfr_is_a_registered_bot_for_both_games() -> None:
    assert "cfr" in available_bots("mia")
    assert "cfr" in available_bots("liars-dice")


def test_heads_up_maexchen_is_played_from_the_policy_and_beats_random() -> None:
    mean, policy, fallback = _games("maexchen(rounds=1)", "mia", "random", 300)
    assert fallback == 0 and policy > 300
    assert mean > 0.2  # a random player loses most rounds against the equilibrium


def test_full_games_of_the_presets_play_to_the_end() -> None:
    for rules in ("maexchen", "classic(lives=2)", "drinking(rounds=3)"):
        _, policy, _ = _games(rules, "mia", "bluffer", 4)
        assert policy > 0


def test_three_players_and_unsolvable_rules_fall_back_but_stay_legal() -> None:
    _, policy, _ = _games("maexchen(rounds=2)", "mia", "honest", 6, players=3)
    assert policy > 0
    _, policy, fallback = _games("meyer(lives=2)", "mia", "honest", 4)
    assert policy == 0 and fallback > 0  # joker 32 restarts rounds: no policy


def test_rules_without_a_shipped_policy_are_solved_on_first_use() -> None:
    mean, policy, fallback = _games("maexchen(rounds=1,little_mia=on)", "mia", "random", 60)
    assert fallback == 0 and policy > 60
    assert mean > 0


def test_liars_dice_openspiel_is_played_from_the_policy() -> None:
    mean, policy, fallback = _games("openspiel", "liars-dice", "random", 200)
    assert fallback == 0 and policy > 200
    assert mean > 0.2


def test_beyond_the_pass_cap_chains_are_folded_back_into_the_policy() -> None:
    # Three passes with a cap of 2: the same player answers the same value as if the
    # exchange had started two passes later.
    assert mia_encoding.fold((0, 0, (54, 55, 55, 61)), 2) == (0, 0, (54, 61))
    assert mia_encoding.fold((1, 3, (54, 55, 61, 61, 62)), 2) == (1, 3, (54, 55, 62))
    assert mia_encoding.fold((0, 0, (54, 55)), 2) == (0, 0, (54, 55))


def test_the_plain_rule_challenges_exactly_when_known_dice_fall_short() -> None:
    ranking = parse_rules("classic").ranking
    info = (0, 0, (54, 55, 55, 55))  # three passes: beyond the shipped cap of 2
    assert mia_encoding.fallback(ranking, info, 54, ["challenge", "roll"]) == {"challenge": 1.0}
    assert mia_encoding.fallback(ranking, info, 66, ["challenge", "roll"]) == {"roll": 1.0}


def test_the_index_describes_the_shipped_files() -> None:
    index = shipped_index()
    assert {"mia-maexchen", "mia-classic", "liars-dice-openspiel"} <= set(index)
    folder = resources.files("bluffdice.solve.data")
    for name, entry in index.items():
        assert folder.joinpath(f"{name}.json.gz").is_file()
        policy = shipped(name)
        assert len(policy.nodes) == entry["nodes"]
        assert policy.exploitability == entry["exploitability"]
        assert json.dumps(policy.spec, sort_keys=True) == json.dumps(entry["spec"], sort_keys=True)


@pytest.mark.parametrize("name", ["mia-maexchen", "liars-dice-openspiel", "mia-classic"])
def test_a_shipped_policy_is_as_exploitable_as_its_file_says(name: str) -> None:
    policy = shipped(name)
    cap = policy.spec.get("pass_cap") or None
    p = problem(policy.game, policy.rules, pass_cap=cap)
    measured = evaluate(p.public, to_strategy(p.public, policy, p.key_text))
    # The file records the figures of its own rounded, pruned probabilities.
    assert measured.exploitability == pytest.approx(policy.exploitability, rel=1e-9)
    assert measured.exploitability < 1e-3
    assert measured.value == pytest.approx(policy.value, abs=1e-12)
