"""The CLI starts at once: which modules it loads, not how long it takes (the time is
benchmarks/bench_startup.py's job). Each check runs in a fresh interpreter, since this
test process has long imported everything."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "matplotlib", "sqlalchemy", "openskill", "platformdirs", "PIL")
"""Libraries the light commands must not import: each costs tens to hundreds of ms."""

PROBE = """
import json, sys
sys.argv = ["bluffdice", *{args!r}]
import bluffdice.cli
code = 0
if sys.argv[1:]:
    try:
        bluffdice.cli.main()
    except SystemExit as exc:
        code = exc.code or 0
sys.stdout.flush()
sys.stderr.write("\\nMODULES " + json.dumps([sorted(sys.modules), code]) + "\\n")
"""


def loaded(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=list(args))],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    line = done.stderr.rsplit("MODULES ", 1)[1]
    modules, code = json.loads(line)
    assert code == 0, done.stderr
    return set(modules)


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


def test_importing_the_cli_loads_no_heavy_library_and_no_game() -> None:
    modules = loaded()
    assert heavy_in(modules) == []
    assert "bluffdice.cli" in modules and "bluffdice.cli.odds" in modules  # it did import
    # Not even the rules engine: the commands import what they need when they run.
    assert not any(m.startswith("bluffdice.games") for m in modules)
    assert "rich.console" not in modules and "bluffdice.store.store" not in modules


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["rules"], ["odds", "mia"], ["odds", "--help"]]
)
def test_light_commands_load_no_heavy_library(args: list[str]) -> None:
    assert heavy_in(loaded(*args)) == []


def test_the_probe_sees_heavy_libraries_when_a_command_needs_them() -> None:
    """The probe is not blind: replaying a store does load SQLAlchemy."""
    modules = loaded("replay", "--list", "--db", "sqlite://")
    assert "sqlalchemy" in heavy_in(modules)


def test_a_mia_command_imports_no_other_game() -> None:
    """Games load when first named: `odds mia` pays for Mia only."""
    modules = loaded("odds", "mia")
    assert "bluffdice.games.mia.state" in modules  # the probe sees the game it needs
    others = ("bluffdice.games.liars_dice", "bluffdice.games.common_hand")
    assert sorted(m for m in modules if m.startswith(others)) == []
