"""Fair dice where people play: the terminal game and tournaments, checked by `verify`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.table.fair import load_fair_record, verify

runner = CliRunner()


def test_a_fair_terminal_game_shows_its_commitment_first_and_verifies(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    args = [
        "play",
        "--watch",
        "--seed",
        "5",
        "--rules",
        "mia(lives=1)",
        "--opponents",
        "odds,honest",
        "--dice",
        "fair",
        "--client-seed",
        "ada",
        "--fair-record",
        str(target),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    shown = next(line for line in lines if line.startswith("Fair dice: commitment "))
    commitment = shown.split()[3]
    assert lines.index(shown) < next(i for i, line in enumerate(lines) if "Round 1" in line)
    fair = load_fair_record(target.read_bytes())
    assert fair.commitment == commitment and fair.client_seeds == ("ada",)
    assert verify(fair).problem is None
    checked = runner.invoke(app, ["verify", str(target), "--commitment", commitment])
    assert checked.exit_code == 0 and "verified" in checked.output
    # The same seed gives the same fair game: a reproducible run stays reproducible.
    again = runner.invoke(app, [*args[:-1], str(tmp_path / "again.json")])
    assert again.output.replace("again.json", "game.json") == result.output


def test_a_tampered_die_in_a_fair_game_is_caught(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    runner.invoke(
        app,
        [
            "play",
            "--watch",
            "--seed",
            "2",
            "--rules",
            "mia(lives=1)",
            "--opponents",
            "odds,honest",
            "--dice",
            "fair",
            "--fair-record",
            str(target),
        ],
    )
    data = json.loads(target.read_text())
    steps = data["record"]["steps"]
    index = next(i for i, s in enumerate(steps) if s.startswith("dice "))
    steps[index] = "dice 21" if steps[index] != "dice 21" else "dice 31"
    target.write_text(json.dumps(data))
    checked = runner.invoke(app, ["verify", str(target)])
    assert checked.exit_code == 1


def test_fair_tournament_games_are_stored_with_their_proof(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    result = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "odds,honest",
            "--games",
            "6",
            "--seed",
            "4",
            "--dice",
            "fair",
            "--db",
            db,
            "--workers",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    for game_id in (1, 6):
        checked = runner.invoke(app, ["verify", str(game_id), "--db", db, "--json"])
        assert checked.exit_code == 0, checked.output
        assert json.loads(checked.output)["verified"] is True
    plain = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "odds,honest",
            "--games",
            "2",
            "--seed",
            "4",
            "--db",
            db,
            "--workers",
            "1",
            "--json",
        ],
    )
    assert plain.exit_code == 0
    refused = runner.invoke(app, ["verify", "7", "--db", db])
    assert refused.exit_code == 2 and "not played with fair dice" in refused.output


@pytest.mark.parametrize("bad", ["loaded", ""])
def test_unknown_dice_are_refused(bad: str) -> None:
    result = runner.invoke(app, ["play", "--watch", "--dice", bad])
    assert result.exit_code == 2 and "--dice must be system or fair" in result.output
