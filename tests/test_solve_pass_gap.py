"""The pass cap's gap: a best response to the folded classic policy, computed exactly on
a small round here, and the shipped overrides checked against the round they answer."""

from __future__ import annotations

import gzip
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bluffdice.games.registry import parse_rules
from bluffdice.solve import Solver, mia, pass_gap, problems
from bluffdice.solve.cfr import Passes, evaluate
from bluffdice.solve.policy import ANY_HAND, Policy, extract, to_strategy

RULES = parse_rules("classic(lives=1)", game="mia")
FLOOR = RULES.ranking.rank(61)
"""The small rounds here start over 61 (a few thousand nodes)."""


def _actor(key: str) -> int:
    """The policy's player who acts at a node key `holder|floor|calls`: the receiver after
    an announcement, the holder after one pass, and so on."""
    holder = int(key.split("|")[0])
    calls = key.split("|")[2].split(",")
    return 1 - holder if len(calls) % 2 == 1 else holder


@pytest.fixture(scope="module")
def small() -> tuple[Policy, pass_gap.PassGap, Any, pass_gap.PassGap]:
    """A rough policy with one pass between rolls, and its gaps in the round with two: the
    opener's best response once a pass was made, and the other player's play without the
    passes back (then a best response from two passes on)."""
    spec = mia.spec_from_rules(RULES, pass_cap=1)
    game = mia.build(spec, start_floor=FLOOR)
    solver = Solver(game, "cfr+")
    solver.iterate(5)
    policy = Policy(
        game="mia",
        rules="classic(lives=1)",
        spec=problems.spec_json(spec),
        title=game.title,
        nodes=extract(game, solver.average_strategy(), mia.key_text),
    )
    gap = pass_gap.compute(cap=2, policy=policy, policy_name="small", start_floor=FLOOR)
    other = pass_gap.compute(
        cap=2,
        policy=policy,
        policy_name="small",
        role=1,
        from_passes=2,
        no_pass_at=0,
        start_floor=FLOOR,
    )
    big = mia.build(mia.spec_from_rules(RULES, pass_cap=2), start_floor=FLOOR)
    return policy, gap, big, other


def _with_overrides(game: Any, folded: Any, gap: pass_gap.PassGap) -> Any:
    """The folded policy with the gap's overrides laid over it, read from its keys."""
    mine = folded[gap.role].copy()
    labels = game.hand_labels[gap.role]
    for d, node in enumerate(game.decisions[gap.role]):
        lo = int(game.decision_offsets[gap.role][d])
        actions = [game.labels[c] for c in game.children(int(node))]
        if len(game.info[node][2]) - 1 == gap.no_pass_at:
            block = mine[lo : lo + len(actions)]
            for i, action in enumerate(actions):
                if action.startswith("pass"):
                    block[i] = 0.0
            sums = block.sum(axis=0)
            block[:, sums > 0] /= sums[sums > 0]
            block[:, sums == 0] = folded[gap.role][lo : lo + len(actions), sums == 0]
        row = gap.overrides.get(mia.key_text(game.info[node]))
        if row is None:
            continue
        for hand, action in row.items():
            columns = range(game.n_hands) if hand == ANY_HAND else [labels.index(hand)]
            for h in columns:
                mine[lo : lo + len(actions), h] = 0.0
                mine[lo + actions.index(action), h] = 1.0
    return (mine, folded[1]) if gap.role == 0 else (folded[0], mine)


def test_the_gap_is_gained_exactly_by_playing_the_overrides(small: Any) -> None:
    policy, gap, game, other = small
    folded = pass_gap.folded_strategy(game, policy, RULES.ranking)
    passes = Passes(game)
    best = evaluate(game, folded).br_values
    for g, sign in ((gap, 1.0), (other, -1.0)):
        base = sign * pass_gap.value_of(game, passes, folded)
        played = sign * pass_gap.value_of(game, passes, _with_overrides(game, folded, g))
        assert base == pytest.approx(g.base, abs=1e-12)
        assert played == pytest.approx(g.value, abs=1e-12)
        # A restricted best response gains no more than an unrestricted one.
        assert played <= best[g.role] + 1e-12
    assert gap.gain > 1e-3


def test_the_overrides_start_after_a_pass_and_never_pass_a_third_time(small: Any) -> None:
    _, gap, _, _ = small
    assert gap.overrides
    for key, row in gap.overrides.items():
        made = len(key.split("|")[2].split(",")) - 1
        assert made >= 1
        assert _actor(key) == gap.role
        for action in row.values():
            assert not (action.startswith("pass") and made >= 2)


def test_the_shipped_overrides_answer_the_shipped_classic_policy() -> None:
    gaps = pass_gap.shipped_gaps()
    assert sorted(gaps) == [0, 1]
    ranking = RULES.ranking
    for role, start, no_pass_at in pass_gap.SHIPPED:
        gap = gaps[role]
        assert (gap.policy, gap.rules, gap.pass_cap) == (
            "mia-classic",
            "classic(lives=1)",
            pass_gap.EXPLOIT_CAP,
        )
        assert (gap.from_passes, gap.no_pass_at) == (start, no_pass_at)
        assert gap.gain > 0.01
        assert gap.nodes == mia.count_nodes(mia.spec_from_rules(RULES, pass_cap=3))
        for key, row in gap.overrides.items():
            holder, floor, chain = key.split("|")
            calls = [int(v) for v in chain.split(",")]
            made = len(calls) - 1
            assert made >= start and _actor(key) == role
            assert made <= pass_gap.EXPLOIT_CAP
            # the values never fall, and a node the policy has (or folds to) is one it plays
            ranks = [ranking.rank(v) for v in calls]
            assert ranks == sorted(ranks) and ranks[0] > int(floor)
            for hand, action in row.items():
                if hand != ANY_HAND:
                    assert int(hand) in mia.HANDS
                if action.startswith("pass"):
                    assert made < 2 and ranking.rank(int(action.split()[1])) >= ranks[-1]
                else:
                    assert action in (mia.CHALLENGE, mia.ROLL, mia.GIVE_UP)


def test_the_shipped_file_loads_field_for_field_and_saves_back_to_itself(tmp_path: Path) -> None:
    """The Struct reads every stored value as it is (read here with the standard library,
    not msgspec), and writes the file again byte for byte, less the derived `gain` that
    files from before carry."""
    raw = resources.files("bluffdice.solve.data").joinpath(pass_gap.DATA_FILE).read_bytes()
    stored = json.loads(gzip.decompress(raw))["gaps"]
    gaps = pass_gap.load(raw)
    assert sorted(gaps) == sorted(row["role"] for row in stored) == [0, 1]
    for row in stored:
        gap = gaps[row["role"]]
        assert gap.gain == row.pop("gain")
        for name, value in row.items():
            assert getattr(gap, name) == value and type(getattr(gap, name)) is type(value)
    pass_gap.save([gaps[0], gaps[1]], tmp_path / "gap.json.gz")
    text = json.dumps({"gaps": stored}, sort_keys=True, separators=(",", ":"))
    assert gzip.decompress((tmp_path / "gap.json.gz").read_bytes()) == text.encode()


def test_a_computed_gap_saves_and_loads_unchanged(small: Any, tmp_path: Path) -> None:
    _, gap, _, other = small
    pass_gap.save([gap, other], tmp_path / "gap.json.gz")
    loaded = pass_gap.load((tmp_path / "gap.json.gz").read_bytes())
    assert loaded == {0: gap, 1: other}
    assert loaded[1].no_pass_at == 0 and loaded[0].no_pass_at is None
    assert loaded[0].gain == gap.gain > 1e-3


@pytest.mark.skipif(
    not os.environ.get("BLUFFDICE_SLOW"),
    reason="recomputes the shipped gap (about a minute and 1 GB): set BLUFFDICE_SLOW=1",
)
def test_the_shipped_overrides_are_what_the_solver_computes() -> None:
    gaps = pass_gap.shipped_gaps()
    for role, start, no_pass_at in pass_gap.SHIPPED:
        fresh = pass_gap.compute(role=role, from_passes=start, no_pass_at=no_pass_at)
        assert fresh.overrides == gaps[role].overrides
        assert fresh.value == pytest.approx(gaps[role].value, abs=1e-12)


def test_folding_lays_the_policy_out_beyond_its_cap(small: Any) -> None:
    policy, _, game, _ = small
    folded = pass_gap.folded_strategy(game, policy, RULES.ranking)
    direct = to_strategy(game, policy, mia.key_text)
    for p in (0, 1):
        sums = np.add.reduceat(folded[p], game.decision_offsets[p], axis=0)
        assert np.allclose(sums, 1.0)
    # inside the policy's cap the folded strategy is the policy itself
    for d, node in enumerate(game.decisions[0]):
        if len(game.info[node][2]) <= 2:
            lo = int(game.decision_offsets[0][d])
            n = int(game.n_children[node])
            assert np.allclose(folded[0][lo : lo + n], direct[0][lo : lo + n])
