"""The contest's scoreboard page: the web server runs the contest and shows it live."""

from __future__ import annotations

import asyncio
import socket
import time
import warnings
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from bluffdice.cli import app as cli  # noqa: E402
from bluffdice.maexchen import wire as proto  # noqa: E402
from bluffdice.maexchen.contest import Contest  # noqa: E402
from bluffdice.maexchen.server import Options  # noqa: E402
from bluffdice.server import Hall, create_app  # noqa: E402
from bluffdice.server.scoreboard import Scoreboard  # noqa: E402
from bluffdice.store import Store  # noqa: E402
from bluffdice.store.maexchen import ContestStore  # noqa: E402
from bluffdice.store.tables import TableStore  # noqa: E402


def test_the_scoreboard_follows_a_contest_the_web_server_runs(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "board.db"))
    tables = TableStore(store.engine)
    contest = Contest(
        Options(host="127.0.0.1", port=0),
        seed=3,
        house_bots=["honest", "odds", "liar"],
        database=store,
        fair=True,
        tick=0.1,
    )
    board = Scoreboard(contest)
    with TestClient(create_app(tables, Hall(tables), scoreboard=board)) as client:
        page = client.get("/scoreboard")
        assert page.status_code == 200 and "/static/scoreboard.js" in page.text
        assert client.get("/static/scoreboard.js").status_code == 200
        assert client.get("/static/scoreboard.css").status_code == 200
        assert client.get("/api/scoreboard?after=x").status_code == 400
        first = client.get("/api/scoreboard").json()
        # A long poll answers when the board has changed: rounds were played.
        later = client.get(f"/api/scoreboard?after={first['version']}").json()
        assert later["version"] > first["version"]
        deadline = time.monotonic() + 30
        while later["rounds"] < 5 and time.monotonic() < deadline:
            later = client.get(f"/api/scoreboard?after={later['version']}").json()
        assert later["rounds"] >= 5
        assert later["contest"] == 1 and later["address"].startswith("127.0.0.1:")
        names = {"house-honest", "house-odds", "house-liar"}
        lines = later["standings"]
        assert {line["name"] for line in lines} == names
        for line in lines:
            assert line["low"] < line["mu"] < line["high"]
            assert line["loss_low"] <= line["loss_rate"] <= line["loss_high"]
        ordinal = [line["mu"] - 3 * line["sigma"] for line in lines]
        assert ordinal == sorted(ordinal, reverse=True)  # best conservative rating first
        last = later["last_rounds"]
        assert last and [r["number"] for r in last] == sorted(
            (r["number"] for r in last), reverse=True
        )
        for r in last:
            assert set(r["losers"]) <= set(r["order"]) == names
            assert r["reason"] in proto.REASONS and len(r["commitment"]) == 64
        assert later["fair"] and len(later["commitment"]["hex"]) == 64
        assert later["secret"] is False  # names are not protected: the board says so
    # Leaving the web server stopped the contest and stored every round it played.
    summary = contest.summary()
    stored = ContestStore(store).rounds(1)
    assert len(stored) == summary["rounds"] >= later["rounds"]
    assert {line["name"]: line["score"] for line in summary["standings"]} == summary["scores"]
    store.close()


def test_the_scoreboard_says_whether_names_need_a_secret(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "secret.db"))
    for required in (True, False):
        contest = Contest(
            Options(host="127.0.0.1", port=0, require_secret=required), database=store
        )
        assert Scoreboard(contest, "127.0.0.1:9000").data()["secret"] is required
    script = (
        Path(__file__).parent.parent / "src/bluffdice/server/static/scoreboard.js"
    ).read_text()
    assert "board.secret" in script and "board.noSecret" in script
    store.close()


def test_serve_refuses_a_contest_it_cannot_run(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["serve", "--maexchen", "--db", str(tmp_path / "x.db")]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        cases = [
            (["--maexchen-dice", "loaded"], "--maexchen-dice must be system or fair"),
            (["--maexchen-house-bots", "nobody"], "unknown mia bot"),
            (["--maexchen-port", str(port)], f"udp 127.0.0.1:{port}"),
        ]
        for extra, message in cases:
            result = runner.invoke(cli, [*base, *extra])
            assert result.exit_code == 2, (extra, result.output)
            assert message in result.stderr and "Traceback" not in result.output


def test_the_headline_round_count_is_the_tables_while_the_server_plays_ahead() -> None:
    """The server plays on between the contest's batches: the summary's round count and
    speed are those of the standings beneath them, never the server's count. With two
    players every round has both, so each line's rounds is the headline count."""

    async def play() -> tuple[list[tuple[int, int, list[int]]], dict[str, Any]]:
        contest = Contest(
            Options(host="127.0.0.1", port=0), seed=5, house_bots=["honest", "odds"], tick=0.2
        )
        await contest.start()
        snapshots = []
        running = asyncio.create_task(contest.run(duration=1.5))
        while not running.done():
            summary = contest.summary()
            lines = [line["rounds"] for line in summary["standings"]]
            snapshots.append((contest.server.stats.rounds, summary["rounds"], lines))
            await asyncio.sleep(0.003)
        await running
        return snapshots, await contest.close()

    snapshots, final = asyncio.run(play())
    assert any(played > shown for played, shown, _ in snapshots)  # the server was ahead
    for _, shown, lines in snapshots:
        assert all(rounds == shown for rounds in lines), (shown, lines)
    assert final["rounds"] == final["stats"]["rounds"] > 0  # the end stores every round
    assert all(line["rounds"] == final["rounds"] for line in final["standings"])
