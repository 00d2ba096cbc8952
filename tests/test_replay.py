"""`bluffdice replay`: a stored game move by move with its dice, and the list of games."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.store import Store

runner = CliRunner()


def _tournament(db: Path) -> dict[str, object]:
    result = runner.invoke(
        app,
        [
            "tournament", "--rules", "mia(lives=2)", "--bots", "odds,liar,chain",
            "--games", "3", "--seed", "11", "--db", str(db), "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_replay_shows_every_move_and_the_dice_under_the_cup(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    _tournament(db)
    game = Store(str(db)).games(limit=1)[0]
    result = runner.invoke(app, ["replay", str(game.id), "--db", str(db)])
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert f"game {game.id}" in text and "Round 1" in text and "Winner:" in text
    rolls = [s.removeprefix("dice ") for s in game.record.steps if s.startswith("dice ")]
    assert all(f"dice {v}" in text for v in rolls)  # every roll, as it fell
    assert "(cup: " in text  # each announcement says what the cup held


def test_replay_json_is_the_move_list_and_replays_to_the_stored_result(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    _tournament(db)
    game = Store(str(db)).games(limit=2)[1]
    result = runner.invoke(app, ["replay", str(game.id), "--db", str(db), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [m["action"] for m in data["moves"]] == list(game.record.steps)
    assert data["bots"] == list(game.bots) and data["result"] == game.result
    over = [e for m in data["moves"] for e in m["events"] if e["type"] == "game_over"]
    assert over and over[0]["winners"] == game.result["winners"]


def test_list_shows_tournaments_and_their_games(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    summary = _tournament(db)
    listed = runner.invoke(app, ["replay", "--list", "--db", str(db), "--json"])
    assert listed.exit_code == 0
    (t,) = json.loads(listed.stdout)
    assert t["id"] == summary["tournament"]["id"]  # type: ignore[index]
    assert (t["stored"], t["first_game_id"], t["seed"]) == (3, 1, 11)
    games = runner.invoke(app, ["replay", "--list", "--tournament", "1", "--db", str(db)])
    assert games.exit_code == 0 and "Games of tournament 1" in games.stdout
    table = runner.invoke(app, ["replay", "--list", "--db", str(db)])
    assert "odds" in table.stdout and "1-3" in table.stdout


def test_bad_replays_fail_cleanly(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["replay", "1", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2 and "no database" in missing.stderr
    assert not (tmp_path / "none.db").exists()
    db = tmp_path / "r.db"
    _tournament(db)
    unknown = runner.invoke(app, ["replay", "99", "--db", str(db)])
    assert unknown.exit_code == 2 and "stored games are 1 to 3" in unknown.stderr
    nothing = runner.invoke(app, ["replay", "--db", str(db)])
    assert nothing.exit_code == 2 and "--list" in nothing.stderr


def test_a_liars_dice_game_replays_with_every_cup(tmp_path: Path) -> None:
    db = tmp_path / "ld.db"
    result = runner.invoke(
        app,
        [
            "tournament", "--game", "liars-dice", "--rules", "liars-dice(dice=2)",
            "--bots", "odds,adaptive,random", "--games", "1", "--seed", "2", "--db", str(db),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    shown = runner.invoke(app, ["replay", "1", "--db", str(db)])
    assert shown.exit_code == 0, shown.stderr
    for name in ("odds", "adaptive", "random"):
        assert f"{name} has [" in shown.stdout and f"(only {name} saw this)" in shown.stdout
    assert "Winner:" in shown.stdout
