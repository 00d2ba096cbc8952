"""Cross-check against OpenSpiel (skipped without the bench extra): the same CFR+
trajectory, and OpenSpiel's exploitability of our policy equals ours."""

from __future__ import annotations

import pytest

from bluffdice.solve import Solver, problem

pyspiel = pytest.importorskip("pyspiel")


def _tabular(p, strategy, faces: int):  # type: ignore[no-untyped-def]
    g = p.public
    table = {}
    for pl in (0, 1):
        for d, node in enumerate(g.decisions[pl]):
            lo = g.decision_offsets[pl][d]
            history = "".join(f" {q}-{f}" for q, f in g.info[node])
            for h, hand in enumerate(g.hand_labels[pl]):
                actions = []
                for k, child in enumerate(g.children(int(node))):
                    label = g.labels[child]
                    if label == "liar":
                        a = 2 * faces
                    else:
                        q, f = map(int, label.split("x"))
                        a = (q - 1) * faces + f - 1
                    actions.append((a, float(strategy[pl][lo + k, h])))
                table[hand + history] = actions
    return pyspiel.TabularPolicy(table)


def test_openspiel_measures_our_policy_as_we_do_and_its_cfr_plus_matches_ours() -> None:
    faces = 4
    game = pyspiel.load_game("liars_dice", {"dice_sides": faces})
    p = problem("liars-dice", f"openspiel(faces={faces})")
    ours = Solver(p.public, "cfr+")
    theirs = pyspiel.CFRPlusSolver(game)
    for _ in range(25):
        ours.iterate(1)
        theirs.evaluate_and_update_policy()
    mine = ours.exploitability().exploitability
    assert pyspiel.exploitability(game, theirs.average_policy()) == pytest.approx(mine, abs=1e-9)
    assert pyspiel.exploitability(
        game, _tabular(p, ours.average_strategy(), faces)
    ) == pytest.approx(mine, abs=1e-9)
