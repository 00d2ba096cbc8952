"""The store: tournaments and games round-trip through SQLite with their full records."""

from __future__ import annotations

from pathlib import Path

import pytest

from bluffdice.games.record import Record
from bluffdice.store import Store, StoreError, database_url
from bluffdice.tournament import make_config, run_tournament
from bluffdice.tournament.play import GameResult


def test_a_path_is_a_sqlite_file_and_a_url_stays_a_url() -> None:
    assert database_url("games.db") == "sqlite:///games.db"
    assert database_url("postgresql://u@h/db") == "postgresql://u@h/db"


def test_games_round_trip_with_every_die(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "g.db"))
    config = make_config("mia(lives=2)", ["odds", "liar", "random"], 5, seed=3)
    tid = store.start_tournament(
        game=config.game, rules=config.rules, bots=config.bots, names=config.names,
        seats=config.seats, games=config.games, seed=config.seed,
    )  # fmt: skip
    results: list[GameResult] = []

    def keep(chunk: list[GameResult], _standings: object) -> None:
        results.extend(chunk)
        store.add_games(
            tid,
            [
                {
                    "index": r.index,
                    "seed": r.seed,
                    "record": Record("mia", config.rules, len(r.bots), r.steps),
                    "bots": [config.names[b] for b in r.entrants],
                    "result": {"winners": list(r.winners), "standings": list(r.standings)},
                }
                for r in chunk
            ],
        )

    run_tournament(config, on_results=keep)
    store.finish_tournament(tid, {"done": True})
    (t,) = store.tournaments()
    assert (t.id, t.played, t.games, t.seed, t.summary) == (tid, 5, 5, 3, {"done": True})
    stored = store.games(tid)
    assert [g.index for g in stored] == [0, 1, 2, 3, 4]
    for game, result in zip(stored, results, strict=True):
        assert game.record.steps == result.steps
        assert any(step.startswith("dice ") for step in game.record.steps)
        assert game.seed == result.seed  # 64-bit seeds survive the database
        final = game.record.replay()
        assert final.is_terminal and final.result.winners == result.winners
        assert store.game(game.id).record == game.record
    store.close()


def test_missing_games_and_databases_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no database"):
        Store(str(tmp_path / "none.db"), create=False)
    store = Store(str(tmp_path / "empty.db"))
    with pytest.raises(StoreError, match="no games are stored yet"):
        store.game(1)
    with pytest.raises(StoreError, match="cannot"):
        Store(str(tmp_path / "no" / "such" / "folder.db"))


def test_a_new_store_file_is_private_and_memory_is_no_file(tmp_path, monkeypatch) -> None:
    """The store holds every die: a new SQLite file is 0600; `:memory:` makes no file."""
    import stat

    from bluffdice.store import Store

    target = tmp_path / "games.db"
    Store(str(target)).close()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    monkeypatch.chdir(tmp_path)
    Store(":memory:").close()
    assert not (tmp_path / ":memory:").exists()
