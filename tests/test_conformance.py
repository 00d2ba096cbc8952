"""The shipped conformance check over every preset and random option combinations."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bluffdice.games.mia import PRESETS, MiaRules, MiaState, MiaView, Roll
from bluffdice.testing import ConformanceError, check_rules
from tests.test_rule_strings import mia_rules


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_every_mia_preset_passes_the_conformance_check(preset: str, players: int) -> None:
    report = check_rules(preset, players, games=6, seed=players)
    assert report.games == 6
    assert report.illegal_tried > 0 and report.views_compared > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=mia_rules, players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_random_option_combinations_pass_the_conformance_check(
    rules: MiaRules, players: int, seed: int
) -> None:
    # Keep games short: few lives and rounds.
    rules = dataclasses.replace(rules, lives=min(rules.lives, 3), rounds=min(rules.rounds, 4))
    check_rules(rules, players, games=2, seed=seed, probe_every=3)


def test_the_check_catches_a_view_that_leaks_the_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    honest_view = MiaState.view

    def leaky_view(self: MiaState, player: int | None) -> MiaView:
        view = honest_view(self, player)
        return msgspec.structs.replace(view, my_dice=self.dice or None)

    monkeypatch.setattr(MiaState, "view", leaky_view)
    with pytest.raises(ConformanceError, match="depends on hidden information"):
        check_rules("classic", 3, games=3)


def test_the_check_catches_an_accepted_illegal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hide 'roll' from the receiver's legal actions while `apply` still takes it."""
    real_legal = MiaState.legal_actions
    real_apply = MiaState.apply

    def fewer(self: MiaState) -> list[object]:
        actions = list(real_legal(self))
        return [a for a in actions if not (self.phase == "respond" and a == Roll())]

    def lax_apply(self: MiaState, action: object) -> object:
        if self.phase == "respond" and action == Roll():
            monkeypatch.setattr(MiaState, "legal_actions", real_legal)
            try:
                return real_apply(self, action)
            finally:
                monkeypatch.setattr(MiaState, "legal_actions", fewer)
        return real_apply(self, action)

    monkeypatch.setattr(MiaState, "legal_actions", fewer)
    monkeypatch.setattr(MiaState, "apply", lax_apply)
    with pytest.raises(ConformanceError, match="illegal action Roll"):
        check_rules("classic", 3, games=3)
