"""The Mäxchen server reads datagrams as the canonical contest server does (the default),
or strictly (`Options.strict`, `bluffdice maexchen --strict`)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bluffdice.maexchen import wire as proto
from bluffdice.maexchen.server import MaexchenServer, canonical_order
from tests.maexchen_support import registered, serve

Address = tuple[str, int]


@pytest.mark.parametrize(
    ("datagram", "canonical"),
    [
        (b"JOIN;tok;", proto.Answer("JOIN", "tok")),
        (b"ROLL;tok;", proto.Answer("ROLL", "tok")),
        (b"SEE;tok;x;y", proto.Answer("SEE", "tok")),
        (b"ANNOUNCE;3,1;tok;x", proto.Answer("ANNOUNCE", "tok", 31)),
        (b"ANNOUNCE; 3,1;tok", proto.Answer("ANNOUNCE", "tok", 31)),
        (b"ANNOUNCE;3,1,5;tok", proto.Answer("ANNOUNCE", "tok", 31)),
        (b"ANNOUNCE;1,3x;tok", proto.Answer("ANNOUNCE", "tok", 31)),
        (b"JOIN;tok\n", proto.Answer("JOIN", "tok\n")),
        (b"REGISTER;x\r\n", proto.Register("x\r\n", None, False)),
    ],
)
def test_canonical_reading_and_the_strict_one(datagram: bytes, canonical: proto.Inbound) -> None:
    assert proto.parse(datagram) == canonical
    strict = proto.parse(datagram, strict=True)
    if datagram.endswith(b"\n"):
        assert strict is not None and strict != canonical  # the line end is stripped
    else:
        assert strict is None  # extra fields, spaces, three dice: not a command


@pytest.mark.parametrize(
    "datagram", [b"ANNOUNCE;7,1;t", b"ANNOUNCE;61;t", b"ANNOUNCE;x,1;t", b"ANNOUNCE;3,1", b"JOIN;"]
)
def test_what_neither_reading_accepts(datagram: bytes) -> None:
    assert proto.parse(datagram) is None and proto.parse(datagram, strict=True) is None


def test_a_round_played_in_the_lenient_forms() -> None:
    """A bot written against the canonical server joins with a trailing `;`, rolls with
    one, announces with a space and three dice: every answer counts."""

    async def test(server: MaexchenServer, address: Address) -> None:
        import asyncio

        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = asyncio.create_task(server.play_round())
        for player in (alice, bob):
            player.send(f"JOIN;{await player.token('ROUND STARTING;')};")
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')};")
        alice.send(f"ANNOUNCE; 3,1,5;{await alice.token('ROLLED;3,1;')};x")
        await bob.expect("ROUND STARTED;1;alice,bob", "PLAYER ROLLS;alice", "ANNOUNCED;alice;3,1")
        bob.send(f"SEE;{await bob.token('YOUR TURN;')};")
        played = await task
        assert played is not None and played.losers == ("bob",)
        assert played.reason == proto.SEE_FAILED

    serve(test, rolls=[31])


def test_line_ends_are_refused_canonically_and_stripped_strictly() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        from tests.maexchen_support import client

        c = await client(address)
        c.send("REGISTER;x\r\n")
        await c.expect("REJECTED;INVALID_NAME" if not server.options.strict else "REGISTERED")

    serve(test)
    serve(test, strict=True)


def test_score_lists_only_who_has_played() -> None:
    """As the canonical server: a registered player that never joined is not in SCORE."""

    async def test(server: MaexchenServer, address: Address) -> None:
        import asyncio

        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        idle = await registered(address, "idle")
        task = asyncio.create_task(server.play_round())
        for player in (alice, bob):
            player.send(f"JOIN;{await player.token('ROUND STARTING;')}")
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        alice.send(f"ANNOUNCE;3,1;{await alice.token('ROLLED;3,1;')}")
        bob.send(f"SEE;{await bob.token('YOUR TURN;')}")
        await task
        lines = [await idle.recv() for _ in range(8)]
        assert lines[-1] == "SCORE;alice:1,bob:0", lines

    serve(test, rolls=[31], timeout=0.3)


def test_require_secret_keeps_names_from_being_taken_over() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        from tests.maexchen_support import client

        owner, thief = await client(address), await client(address)
        owner.send("REGISTER;alice")
        await owner.expect("REJECTED;SECRET_REQUIRED")
        owner.send("REGISTER;alice;pw")
        await owner.expect("REGISTERED")
        thief.send("REGISTER;alice")  # the same host, the old servers' take-over
        await thief.expect("REJECTED;SECRET_REQUIRED")
        thief.send("REGISTER;alice;guess")
        await thief.expect("REJECTED;NAME_ALREADY_TAKEN")
        assert server.clients["alice"].address == owner.transport.get_extra_info("sockname")
        thief.send("REGISTER_SPECTATOR;watcher")  # spectators need no secret
        await thief.expect("REGISTERED")

    serve(test, require_secret=True)


def test_score_entries_come_in_the_canonical_order() -> None:
    """A JavaScript object's key order, as the canonical server prints its scores: names
    that read as array indices first, by value; every other name as it first scored,
    which is the play order of the round it first played."""
    assert canonical_order({"zed": 1, "42": 0, "amy": 2, "7": 3, "07": 1}) == [
        ("7", 3),
        ("42", 0),
        ("zed", 1),
        ("amy", 2),
        ("07", 1),
    ]

    async def test(server: MaexchenServer, address: Address) -> None:
        import asyncio

        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = asyncio.create_task(server.play_round())
        for player in (alice, bob):
            player.send(f"JOIN;{await player.token('ROUND STARTING;')}")
        # Seated alice, bob (no shuffle); the second seat starts: bob plays first
        bob.send(f"ROLL;{await bob.token('YOUR TURN;')}")
        bob.send(f"ANNOUNCE;3,1;{await bob.token('ROLLED;3,1;')}")
        alice.send(f"SEE;{await alice.token('YOUR TURN;')}")
        await task
        line = await alice.recv()
        while not line.startswith("SCORE;"):
            line = await alice.recv()
        assert line == "SCORE;bob:1,alice:0"

    serve(test, rolls=[31], timeout=0.3, first=1)


def test_every_registered_player_is_seated_unless_a_table_size_is_set() -> None:
    """Twelve bots: the canonical server seats all twelve; --table-size 5 invites five."""
    for size, invited in ((None, 12), (5, 5)):

        async def test(server: MaexchenServer, address: Address, invited: int = invited) -> None:
            import asyncio

            clients = [await registered(address, f"bot{i}") for i in range(12)]
            task = asyncio.create_task(server.play_round())
            await asyncio.sleep(0.15)
            await task
            asked = [c for c in clients if any(x.startswith("ROUND STARTING;") for x in c.seen)]
            assert len(asked) == invited

        serve(test, timeout=0.05, table_size=size)


BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_maexchen_canonical.py"


def test_the_side_by_side_benchmark_skips_with_its_reason_without_the_canonical_server(
    tmp_path: Path,
) -> None:
    """No canonical folder (or not its server/ folder): one `skipped:` line, exit 0."""
    environment = {**os.environ, "BLUFFDICE_CANONICAL_MAEXCHEN": ""}
    for extra in ([], ["--canonical", str(tmp_path)]):
        done = subprocess.run(
            [sys.executable, str(BENCH), *extra],
            capture_output=True,
            text=True,
            env=environment,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("skipped: "), done.stdout
        assert len(done.stdout.strip().splitlines()) == 1


def test_the_side_by_side_benchmark_skips_to_stderr_under_json() -> None:
    """--json keeps standard output for JSON: the `skipped:` line goes to stderr."""
    environment = {**os.environ, "BLUFFDICE_CANONICAL_MAEXCHEN": ""}
    done = subprocess.run(
        [sys.executable, str(BENCH), "--json"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("skipped: "), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def bench_module() -> Any:
    """benchmarks/bench_maexchen_canonical.py as a module (it imports its neighbours)."""
    spec = importlib.util.spec_from_file_location("bench_maexchen_canonical", BENCH)
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(BENCH.parent))
    try:
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(BENCH.parent))
    return bench


def test_the_benchmarks_json_lines_compare_within_each_pair() -> None:
    """Three fabricated pairs: each metric's line holds both sides' medians and the
    per-pair ratios bluffdice / canonical (not the ratio of the medians), and survives a
    round trip through JSON."""
    figures = {  # pair: (bluffdice rounds/s, canonical rounds/s, bluffdice CPU, canonical)
        1: (2000.0, 1000.0, 0.2, 0.5),
        2: (1500.0, 1000.0, 0.3, 0.4),
        3: (3000.0, 1000.0, 0.1, 0.4),
    }
    rows = []
    for pair, (ours, theirs, our_cpu, their_cpu) in figures.items():
        rows.append(
            {"pair": pair, "server": "canonical", "rounds/s": theirs, "server cpu": their_cpu}
        )
        rows.append({"pair": pair, "server": "bluffdice", "rounds/s": ours, "server cpu": our_cpu})
    speed, cpu = (json.loads(json.dumps(line)) for line in bench_module().comparisons(rows))
    keys = {"what", "metric", "ours", "theirs", "unit", "ratio", "ratio_min", "ratio_max"}
    keys |= {"ratios", "pairs", "target"}
    assert set(speed) == set(cpu) == keys
    assert speed["metric"] == "rounds/s" and speed["target"] == ">= 2"
    assert (speed["ours"], speed["theirs"], speed["pairs"]) == (2000.0, 1000.0, 3)
    assert speed["ratios"] == [2.0, 1.5, 3.0]
    assert (speed["ratio"], speed["ratio_min"], speed["ratio_max"]) == (2.0, 1.5, 3.0)
    assert cpu["target"] == "<= 0.5" and (cpu["ours"], cpu["theirs"]) == (0.2, 0.4)
    assert cpu["ratios"] == pytest.approx([0.4, 0.75, 0.25])
    assert cpu["ratio"] == pytest.approx(0.4)  # the ratio of the medians would be 0.5
    assert (cpu["ratio_min"], cpu["ratio_max"]) == pytest.approx((0.25, 0.75))


def test_the_benchmarks_bots_answer_as_the_example_bot_does() -> None:
    """The precomputed answers are the example strategy's, case by case."""
    bench = bench_module()
    turn, claims = bench.answer_tables()
    strategy = bench.example_bot().Strategy
    for last in turn:
        for (previous, dice), claim in claims.items():
            if previous != last:
                continue
            bot = strategy()
            if last:
                bot.reply(f"ANNOUNCED;x;{last // 10},{last % 10}")
            assert bot.reply("YOUR TURN;t").encode() == turn[last] + b"t"
            assert bot.reply(f"ROLLED;{dice.decode()};t").encode() == claim + b"t"
