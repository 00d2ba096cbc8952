"""The shipping run writes a file only when the file, as stored, meets its target."""

from __future__ import annotations

import pytest

from bluffdice.solve.ship import Entry, ShipError, solve_entry


def test_a_file_that_would_miss_its_target_is_not_written() -> None:
    entry = Entry("tiny", "liars-dice", "openspiel(faces=3)", 1e-9, 30, algorithm="dcfr")
    with pytest.raises(ShipError, match="above the target"):
        solve_entry(entry)


def test_an_entry_solved_to_a_tighter_aim_meets_its_target_as_stored() -> None:
    entry = Entry(
        "tiny", "liars-dice", "openspiel(faces=3)", 2e-3, 5_000, solve_to=1e-3, algorithm="dcfr"
    )
    policy = solve_entry(entry)
    assert policy.exploitability is not None and policy.exploitability <= 2e-3
    assert policy.solver["solver_exploitability"] <= 1e-3
    assert policy.solver["algorithm"] == "dcfr"
