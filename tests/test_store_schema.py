"""The store outlives upgrades: an older store is upgraded in place, a newer one refused
with a clear error; stored games carry the bluffdice version and every rule option; the
default database lives in the per-user data folder; database failures are one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bluffdice
from bluffdice.cli import app
from bluffdice.games.registry import games, parse_rules, rules_string
from bluffdice.games.rulestring import split_rule_string
from bluffdice.store import Store, StoreError
from bluffdice.store.schema import SCHEMA_VERSION, V1_DEFAULTS, stored_version
from bluffdice.tournament import make_config, run_tournament

runner = CliRunner()

# The tables exactly as bluffdice 0.1.0 created them (store schema 1, no version table).
V1_DDL = """
CREATE TABLE tournaments (
    id INTEGER NOT NULL, created DATETIME NOT NULL, game VARCHAR(40) NOT NULL,
    rules TEXT NOT NULL, bots JSON NOT NULL, names JSON NOT NULL, seats INTEGER NOT NULL,
    games INTEGER NOT NULL, seed VARCHAR(40) NOT NULL, played INTEGER NOT NULL,
    summary JSON, PRIMARY KEY (id)
);
CREATE TABLE games (
    id INTEGER NOT NULL, tournament_id INTEGER, "index" INTEGER NOT NULL,
    seed VARCHAR(40) NOT NULL, game VARCHAR(40) NOT NULL, rules TEXT NOT NULL,
    players INTEGER NOT NULL, bots JSON NOT NULL, steps JSON NOT NULL,
    result JSON NOT NULL, PRIMARY KEY (id),
    FOREIGN KEY(tournament_id) REFERENCES tournaments (id) ON DELETE CASCADE
);
CREATE INDEX ix_games_tournament_index ON games (tournament_id, "index");
"""


def old_store(path: Path, rules: str = "mia(lives=2,little_mia=on)") -> list[str]:
    """A store as bluffdice 0.1.0 wrote it, holding one real game; returns its steps."""
    config = make_config(rules, ["odds", "honest"], 1, seed=5)
    played: list[tuple[str, ...]] = []
    run_tournament(config, on_results=lambda chunk, _: played.extend(r.steps for r in chunk))
    (steps,) = played
    db = sqlite3.connect(path)
    db.executescript(V1_DDL)
    db.execute(
        "INSERT INTO tournaments VALUES (1, '2026-01-01 10:00:00.000000', 'mia', ?, "
        '\'["odds", "honest"]\', \'["odds", "honest"]\', 2, 1, \'5\', 1, NULL)',
        (config.rules,),
    )
    db.execute(
        "INSERT INTO games VALUES (1, 1, 0, '5', 'mia', ?, 2, '[\"odds\", \"honest\"]', ?, ?)",
        (config.rules, json.dumps(list(steps)), json.dumps({"winners": [0]})),
    )
    db.commit()
    db.close()
    return list(steps)


def test_a_store_written_by_bluffdice_0_1_is_upgraded_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    steps = old_store(path)
    store = Store(str(path), create=False)
    try:
        assert stored_version(store.engine) == (SCHEMA_VERSION, bluffdice.__version__)
        game = store.game(1)
        (tournament,) = store.tournaments()
    finally:
        store.close()
    full = rules_string(parse_rules("mia(lives=2,little_mia=on)"), full=True)
    assert game.record.rules == full == tournament.rules
    assert "doubles_ascending=off" in full and "lives=2" in full  # every option, spelled out
    assert list(game.record.steps) == steps and game.record.replay().is_terminal
    assert game.bluffdice_version is None  # not recorded before schema 2, and not made up
    # The command line reads the upgraded store too.
    listed = runner.invoke(app, ["replay", "--list", "--db", str(path), "--json"])
    assert listed.exit_code == 0 and json.loads(listed.stdout)[0]["bots"] == ["odds", "honest"]
    assert runner.invoke(app, ["replay", "1", "--db", str(path)]).exit_code == 0


def test_the_upgrade_reads_old_rule_strings_by_the_old_defaults() -> None:
    """Version-1 strings left defaults out; the step fills them from 0.1.0's defaults,
    frozen in the migration, which read back as rule sets of every game."""
    assert set(V1_DEFAULTS) == {spec.name for spec in games()}
    for game, text in V1_DEFAULTS.items():
        old = set(split_rule_string(text)[1])
        now = set(split_rule_string(rules_string(parse_rules(text), full=True))[1])
        assert old <= now, game
        # Options added since 0.1.0 (Mia's pass_limit) read as their defaults.
        defaults = set(split_rule_string(rules_string(parse_rules(game), full=True))[1])
        assert now - old <= defaults, game


def test_a_store_from_a_newer_bluffdice_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    Store(str(path)).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE bluffdice_schema SET version = ?, written_by = '9.0'", (SCHEMA_VERSION + 1,))
    db.execute("ALTER TABLE games ADD COLUMN something_new TEXT")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=r"newer bluffdice \(9\.0, store schema"):
        Store(str(path))
    for args in (["replay", "--list"], ["tournament", "--bots", "odds,random", "--games", "1"]):
        result = runner.invoke(app, [*args, "--db", str(path)])
        assert result.exit_code == 2 and result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and "upgrade bluffdice" in lines[0], result.stderr


def test_stored_games_record_the_version_and_every_rule_option(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    args = ["tournament", "--rules", "meyer", "--bots", "odds,random", "--games", "2"]
    assert runner.invoke(app, [*args, "--db", db, "--seed", "1"]).exit_code == 0
    store = Store(db)
    try:
        (tournament,) = store.tournaments()
        stored = store.games(tournament.id)
    finally:
        store.close()
    full = rules_string(parse_rules("meyer"), full=True)
    assert tournament.rules == full and tournament.bluffdice_version == bluffdice.__version__
    assert [(g.record.rules, g.bluffdice_version) for g in stored] == [
        (full, bluffdice.__version__)
    ] * 2
    shown = runner.invoke(app, ["replay", "--list", "--db", db])
    assert "meyer" in shown.stdout and "doubles_ascending" not in shown.stdout


def test_the_default_store_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BLUFFDICE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["tournament", "--bots", "odds,random", "--games", "1"])
    expected = tmp_path / "data" / "bluffdice" / "bluffdice.db"
    assert result.exit_code == 0 and expected.is_file(), result.stderr
    assert f"stored in {expected}" in result.stderr
    assert not (tmp_path / "bluffdice.db").exists()  # not the folder it ran from
    listed = runner.invoke(app, ["replay", "--list"])
    assert listed.exit_code == 0 and str(expected) in " ".join(listed.stdout.split())
    # The environment variable, then --db, override it.
    monkeypatch.setenv("BLUFFDICE_DB", str(tmp_path / "env.db"))
    assert (
        runner.invoke(app, ["tournament", "--bots", "odds,random", "--games", "1"]).exit_code == 0
    )
    assert (tmp_path / "env.db").is_file()
    missing = runner.invoke(app, ["replay", "--list", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2 and "no database at" in missing.stderr


def test_ids_and_limits_beyond_a_database_integer_are_answered_not_crashed(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "t.db")
    assert runner.invoke(app, ["tournament", "--bots", "odds,random", "--games", "1", "--db", db])
    for args in (["replay", str(2**63)], ["replay", str(2**64 + 5)]):
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 2 and "no game" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    for flag in (["--limit", str(2**63)], ["--tournament", str(2**63), "--limit", str(2**70)]):
        result = runner.invoke(app, ["replay", "--list", *flag, "--db", db])
        assert (
            "Traceback" not in result.stderr
            and result.exception is None
            or isinstance(result.exception, SystemExit)
        )
    listed = runner.invoke(app, ["replay", "--list", "--tournament", "1", "--limit", str(2**63)])
    assert listed.exit_code == 2  # the default store has no tournament 1: said, not crashed
    ok = runner.invoke(
        app, ["replay", "--list", "--tournament", "1", "--limit", str(2**63), "--db", db]
    )
    assert ok.exit_code == 0, ok.stderr


def test_a_read_only_store_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    Store(str(path)).close()
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    result = runner.invoke(
        app, ["tournament", "--bots", "odds,random", "--games", "3", "--db", url]
    )
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "readonly" in lines[0], result.stderr


def test_a_full_disk_during_a_tournament_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bluffdice.store import store as store_module

    original = store_module._sqlite_pragmas

    def tiny_disk(connection: object, record: object) -> None:
        original(connection, record)
        cursor = connection.cursor()  # type: ignore[attr-defined]
        cursor.execute("PRAGMA max_page_count=12")  # a disk that fills after a few games
        cursor.close()

    monkeypatch.setattr(store_module, "_sqlite_pragmas", tiny_disk)
    db = tmp_path / "full.db"
    args = ["tournament", "--bots", "odds,random", "--games", "400", "--workers", "1"]
    result = runner.invoke(app, [*args, "--db", str(db)])
    assert result.exit_code == 2, result.stderr
    assert "database or disk is full" in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("error:") == 1
