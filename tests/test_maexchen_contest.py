"""Whole contests: the example bot, house bots, hostile datagrams, the CLI and the store."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games.mia import Announce, Challenge, Roll
from bluffdice.maexchen.house import LineView, answer_line, house_names, start_house_bots
from bluffdice.maexchen.load import (
    check_rounds,
    check_transcript,
    fuzz,
    spectator,
    swarm,
)
from bluffdice.maexchen.server import MaexchenServer, Options, PlayedRound, dice_source

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "maexchen_bot.py"


def example_strategy() -> Any:
    spec = importlib.util.spec_from_file_location("maexchen_example_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Strategy


def test_the_example_bot_plays_a_contest_as_a_separate_program() -> None:
    async def main() -> tuple[MaexchenServer, list[PlayedRound], list[str]]:
        dice, rng = dice_source(5)
        server = MaexchenServer(
            Options(host="127.0.0.1", port=0, rounds=30, timeout=1.0), dice, rng
        )
        rounds: list[PlayedRound] = []
        server.listeners.append(rounds.append)
        host, port = await server.start()
        watcher = await spectator((host, port))
        bot = subprocess.Popen(
            [sys.executable, str(EXAMPLE), "--name", "example", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            for _ in range(200):  # the program starts in well under 10 s
                if "example" in server.clients:
                    break
                await asyncio.sleep(0.05)
            house = await start_house_bots(["honest", "odds"], (host, port), random.Random(1))
            await asyncio.wait_for(server.run(), 60)
        finally:
            bot.kill()
            bot.wait()
            server.close()
        for h in house:
            h.close()
        return server, rounds, watcher.lines

    server, rounds, lines = asyncio.run(main())
    assert len(rounds) == 30
    assert all("example" in r.order for r in rounds)
    names = {"example", "house-honest", "house-odds"}
    assert check_rounds(rounds, server.scores, names) == []
    assert check_transcript(lines, names) == []
    # The example and the house bots answer in time: nobody loses by a timeout.
    assert not {r.reason for r in rounds} & {"DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE"}


BURST = 20
"""The hostile test's bucket: enough for a bot, which sends a datagram or two per message
the server sends it, and far below what the flood puts in the server's queue at once."""
FLOOD_CHUNK = 150
"""Flood datagrams sent without yielding: the server, on the same event loop, reads none of
them before the chunk is queued (and a default socket buffer holds them, 256 here)."""


async def flood(server: tuple[str, int], count: int) -> int:
    """Send `count` datagrams from one fresh address in chunks of FLOOD_CHUNK. The bucket
    holds at most BURST tokens when a chunk starts, however long the pause before it, so
    the server lets a whole chunk through only if reading it takes (FLOOD_CHUNK - BURST) /
    rate seconds, 65 ms at 2,000/s: a slow sender or a loaded machine does not hide the
    flood, as it did when the flood was paced by the sender's sleeps."""
    sent = 0
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.setblocking(False)
        for start in range(0, count, FLOOD_CHUNK):
            for i in range(start, min(count, start + FLOOD_CHUNK)):
                try:
                    sock.sendto(f"ROLL;{i:016x}".encode(), server)
                    sent += 1
                except OSError:
                    pass  # a full buffer drops it, as the network would
            await asyncio.sleep(0.01)  # the server drains its queue
    return sent


def test_hostile_datagrams_while_bots_play() -> None:
    """A small fuzz run (the benchmark sends 100,000): the server keeps playing, every
    round replays in the engine and every score is the sum of the rounds."""
    count = 3000

    async def main() -> tuple[MaexchenServer, list[PlayedRound], list[str], Any, set[str], int]:
        dice, rng = dice_source(9)
        options = Options(host="127.0.0.1", port=0, rate=2000.0, burst=float(BURST))
        server = MaexchenServer(options, dice, rng)
        rounds: list[PlayedRound] = []
        server.listeners.append(rounds.append)
        address = await server.start()
        watcher = await spectator(address)
        strategy = example_strategy()
        bots = await swarm(address, 4, lambda: strategy().reply, secret="s3cret")
        addresses = {b.name: server.clients[b.name].address for b in bots}
        running = asyncio.create_task(server.run())
        await asyncio.sleep(0.2)
        report = await fuzz(address, count, bots, random.Random(3))
        await asyncio.sleep(0.05)
        limited = server.stats.rate_limited
        report.sent += await flood(address, 2000)
        flooded = server.stats.rate_limited - limited
        report.kinds["flood"] = 2000
        played_during = len(rounds)
        await asyncio.sleep(0.3)
        assert not running.done(), "the server stopped"
        server.stop()
        await asyncio.wait_for(running, 5)
        server.close()
        for b in bots:
            assert server.clients[b.name].address == addresses[b.name], "a name was taken"
            b.close()
        print(f"\n{report.sent} hostile datagrams: {report.kinds}; server: {server.stats}")
        print(f"the flood: {flooded} rate-limited")
        assert played_during > 0 and len(rounds) > played_during
        return server, rounds, watcher.lines, report, set(addresses), flooded

    server, rounds, lines, report, names, flooded = asyncio.run(main())
    stats = server.stats
    assert report.sent >= count
    assert stats.too_big > 0 and stats.malformed > 0 and stats.ignored > 0
    assert flooded > 0  # the flood, not the fuzzers before it
    # Fuzzers may register players of their own (who never join): real rounds are the bots'.
    players = names | {n for r in rounds for n in r.order}
    assert check_rounds(rounds, server.scores, players) == []
    assert all(set(r.order) <= names for r in rounds)
    assert check_transcript(lines, players) == []


def test_line_view_gives_a_house_bot_what_the_protocol_told_it() -> None:
    view = LineView("me")
    for line in ("ROUND STARTED;4;you,me,them", "PLAYER ROLLS;you", "ANNOUNCED;you;4,3"):
        view.read(line)
    turn = view.view()
    assert (turn.player, turn.players, turn.phase, turn.announced, turn.round) == (
        1,
        3,
        "respond",
        43,
        4,
    )
    assert turn.legal_actions == (Challenge(), Roll()) and turn.my_dice is None
    assert answer_line(Challenge(), turn, "t1") == "SEE;t1"
    rolled = view.view(dice=32)
    assert rolled.phase == "hold" and rolled.my_dice == 32
    assert Announce(43) not in rolled.legal_actions and Announce(44) in rolled.legal_actions
    # An illegal claim becomes the lowest legal one; the truth is not legal here.
    assert answer_line(Announce(31), rolled, "t2") == "ANNOUNCE;5,1;t2"
    events = view.read("PLAYER LOST;you,them;MIA")
    assert [e.player for e in events] == [0, 2]
    view.read("SCORE;you:3,me:5,them:-1")
    fresh = LineView("me")
    fresh.read("ROUND STARTED;5;me,you")
    assert fresh.view().phase == "open" and fresh.view().legal_actions == (Roll(),)
    assert house_names(["odds", "odds", "cfr"]) == ["house-odds", "house-odds-2", "house-cfr"]


def test_cli_contest_with_house_bots_stores_rounds_and_standings(tmp_path: Path) -> None:
    db = str(tmp_path / "contest.db")
    runner = CliRunner()
    args = ["maexchen", "--port", "0", "--host", "127.0.0.1", "--house-bots", "honest,odds,liar"]
    result = runner.invoke(app, [*args, "--rounds", "40", "--seed", "2", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["rounds"] == 40 and summary["contest"] == 1
    scores = summary["scores"]
    assert set(scores) == {"house-honest", "house-odds", "house-liar"}
    assert sum(summary["reasons"].values()) == 40
    standings = runner.invoke(app, ["maexchen", "standings", "--db", db, "--json"])
    assert standings.exit_code == 0, standings.output
    table = json.loads(standings.stdout)
    assert table["rounds"] == 40
    assert {line["name"]: line["score"] for line in table["standings"]} == scores
    for line in table["standings"]:
        assert line["low"] < line["mu"] < line["high"]
        assert line["rounds"] == 40 and 0 <= line["lost"] <= 40
    picture = tmp_path / "ratings.svg"
    drawn = runner.invoke(app, ["maexchen", "standings", "--db", db, "--plot", str(picture)])
    assert drawn.exit_code == 0 and "house-odds" in drawn.stdout
    assert picture.read_text().lstrip().startswith("<?xml")
    # Every stored round replays with its dice.
    from bluffdice.store import Store
    from bluffdice.store.maexchen import ContestStore

    store = Store(db)
    stored = ContestStore(store).rounds(1)
    store.close()
    assert [r.number for r in stored] == sorted(r.number for r in stored) and len(stored) == 40
    for r in stored:
        state = r.record.replay()
        assert state.is_terminal or r.ruling is not None
        assert any(step.startswith("dice ") for step in r.record.steps) or r.ruling is not None


def test_cli_refuses_what_the_protocol_cannot_host(tmp_path: Path) -> None:
    runner = CliRunner()
    cases = [
        (["--rules", "classic"], "the Mäxchen protocol needs"),
        (["--rules", "liars-dice"], "rule set of liars-dice"),
        (["--timeout", "0"], "--timeout"),
        (["--spin", "-1"], "--spin must be between 0 and 100000 microseconds"),
        (["--house-bots", "nobody"], "unknown mia bot"),
    ]
    for extra, message in cases:
        result = runner.invoke(app, ["maexchen", "--port", "0", "--no-store", *extra])
        assert result.exit_code == 2, (extra, result.output)
        assert message in result.stderr and "Traceback" not in result.output
    missing = runner.invoke(app, ["maexchen", "standings", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2 and "no database" in missing.stderr
