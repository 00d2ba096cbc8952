"""The Mäxchen server against scripted UDP clients: every message sequence of the
protocol, line by line, on loopback with ephemeral ports and scripted dice."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bluffdice.maexchen import wire as proto
from bluffdice.maexchen.server import MaexchenServer
from bluffdice.ratelimit import RateLimiter
from tests.maexchen_support import client, loops, registered, serve, start_round

Address = tuple[str, int]


# --- registration ------------------------------------------------------------------------


def test_registration_and_its_rejections() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        c = await client(address)
        for bad in ("", "x" * 21, "a,b", "a:b", "a b", "a\tb", "a;b;c"):
            c.send(f"REGISTER;{bad}")
            await c.expect("REJECTED;INVALID_NAME")
        c.send("REGISTER;" + "x" * 20)
        await c.expect("REGISTERED")
        c.send("REGISTER;alice\r\n")  # as canonically: a line end is white space in a name
        await c.expect("REJECTED;INVALID_NAME")
        c.send("REGISTER;alice")  # the address now is alice
        await c.expect("REGISTERED")
        assert "x" * 20 not in server.clients and "alice" in server.clients
        other_host = await client(address, host="127.0.0.2")
        other_host.send("REGISTER;alice")
        await other_host.expect("REJECTED;NAME_ALREADY_TAKEN")
        other_host.send("REGISTER_SPECTATOR;alice")
        await other_host.expect("REJECTED;NAME_ALREADY_TAKEN")
        # The old servers' rule: the same host may take its name back from a new port.
        again = await client(address)
        again.send("REGISTER;alice")
        await again.expect("REGISTERED")
        assert server.clients["alice"].address == again.transport.get_extra_info("sockname")
        again.send("UNREGISTER")
        await again.expect("UNREGISTERED")
        assert "alice" not in server.clients
        spectator = await client(address)
        spectator.send("REGISTER_SPECTATOR;watcher")
        await spectator.expect("REGISTERED")
        assert server.clients["watcher"].spectator and "watcher" not in server.scores

    serve(test)


def test_a_secret_protects_a_name_from_every_other_process() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        owner = await client(address)
        owner.send("REGISTER;bob;s3cret")
        await owner.expect("REGISTERED")
        same_host = await client(address)
        same_host.send("REGISTER;bob")
        await same_host.expect("REJECTED;NAME_ALREADY_TAKEN")
        same_host.send("REGISTER;bob;guess")
        await same_host.expect("REJECTED;NAME_ALREADY_TAKEN")
        moved = await client(address, host="127.0.0.2")
        moved.send("REGISTER;bob;s3cret")
        await moved.expect("REGISTERED")
        # After UNREGISTER the name stays bound to its secret.
        moved.send("UNREGISTER")
        await moved.expect("UNREGISTERED")
        same_host.send("REGISTER;bob")
        await same_host.expect("REJECTED;NAME_ALREADY_TAKEN")
        owner.send("REGISTER;bob;s3cret")
        await owner.expect("REGISTERED")
        assert server.clients["bob"].address == owner.transport.get_extra_info("sockname")
        # A name registered without a secret gets one when its own address asks.
        carol = await registered(address, "carol")
        carol.send("REGISTER;carol;pw")
        await carol.expect("REGISTERED")
        thief = await client(address)
        thief.send("REGISTER;carol")
        await thief.expect("REJECTED;NAME_ALREADY_TAKEN")

    serve(test)


# --- rounds that do not happen --------------------------------------------------------------


def test_nobody_joins_the_round_is_canceled() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        watcher = await registered(address, "watcher", spectator=True)
        started = time.monotonic()
        assert await server.play_round() is None
        assert time.monotonic() - started >= 0.1  # the whole window was waited out
        # As the canonical server: the scores follow a cancellation (none yet here).
        await alice.expect("ROUND STARTING;*", "ROUND CANCELED;NO_PLAYERS", "SCORE;")
        await watcher.expect("ROUND CANCELED;NO_PLAYERS", "SCORE;")  # never invited
        assert server.round_number == 0

    serve(test, timeout=0.1)


def test_one_player_starts_and_is_canceled() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        watcher = await registered(address, "watcher", spectator=True)
        task = await start_round(server, alice)
        await bob.recv()  # bob is invited but does not join
        assert await task is None
        # As the canonical server: the lone joiner is scored for joining, and everybody
        # hears the scores after the cancellation.
        for c in (alice, bob, watcher):
            await c.expect(
                "ROUND STARTED;1;alice", "ROUND CANCELED;ONLY_ONE_PLAYER", "SCORE;alice:1"
            )
        await watcher.quiet()
        assert server.scores == {"alice": 1}

    serve(test, timeout=0.1)


# --- full rounds ----------------------------------------------------------------------------


@pytest.mark.parametrize("loop", loops(), ids=["asyncio", "uvloop"])
def test_caught_bluffing_every_line_to_everyone(loop: Any) -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        watcher = await registered(address, "watcher", spectator=True)
        task = await start_round(server, alice, bob)
        await alice.expect("ROUND STARTED;1;alice,bob")
        turn = await alice.token("YOUR TURN;")
        alice.send(f"ROLL;{turn}")
        await alice.expect("PLAYER ROLLS;alice")
        rolled = await alice.recv()
        assert rolled.startswith("ROLLED;3,1;")
        alice.send(f"ANNOUNCE;5,6;{rolled.rsplit(';', 1)[1]}")  # either order
        await alice.expect("ANNOUNCED;alice;6,5")
        await bob.expect("ROUND STARTED;1;alice,bob", "PLAYER ROLLS;alice", "ANNOUNCED;alice;6,5")
        bob.send(f"SEE;{await bob.token('YOUR TURN;')}")
        played = await task
        public = [
            "ROUND STARTED;1;alice,bob",
            "PLAYER ROLLS;alice",
            "ANNOUNCED;alice;6,5",
            "PLAYER WANTS TO SEE;bob",
            "ACTUAL DICE;3,1",
            "PLAYER LOST;alice;CAUGHT_BLUFFING",
            "SCORE;alice:0,bob:1",
        ]
        await watcher.expect(*public)
        await watcher.quiet()
        await bob.expect(*public[3:])
        await alice.expect(*public[3:])
        assert played is not None and played.losers == ("alice",)
        assert played.record.steps == ("first 0", "roll", "dice 31", "65", "challenge")
        assert played.record.replay().is_terminal and played.ruling is None

    serve(test, rolls=[31], loop=loop)


def test_see_failed() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        watcher = await registered(address, "watcher", spectator=True)
        task = await start_round(server, alice, bob)
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        alice.send(f"ANNOUNCE;6,5;{await alice.token('ROLLED;6,5;')}")
        bob.send(f"SEE;{await bob.token('YOUR TURN;')}")
        await task
        await watcher.expect(
            "ROUND STARTED;1;alice,bob",
            "PLAYER ROLLS;alice",
            "ANNOUNCED;alice;6,5",
            "PLAYER WANTS TO SEE;bob",
            "ACTUAL DICE;6,5",
            "PLAYER LOST;bob;SEE_FAILED",
            "SCORE;alice:1,bob:0",
        )

    serve(test, rolls=[65])


def test_players_who_cannot_answer_while_the_server_waits_on_its_socket() -> None:
    """Players in the server's own process (these scripted ones, the house bots) cannot
    answer while the server reads its socket for them (`spin`): after one spell runs out
    they are not waited for that way again for a while, so they cost one spell, not one
    a question."""
    from bluffdice.maexchen.server import _SPIN_RETRY

    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        alice.send(f"ANNOUNCE;6,5;{await alice.token('ROLLED;6,5;')}")
        bob.send(f"SEE;{await bob.token('YOUR TURN;')}")
        played = await task
        assert played is not None and played.reason == "SEE_FAILED"
        assert server.stats.spun == 0
        # Both let the join spell run out; each question since counts down.
        assert server._unspun == {"alice": _SPIN_RETRY - 2, "bob": _SPIN_RETRY - 1}

    serve(test, rolls=[65], spin=0.01)


def test_answers_from_another_thread_are_read_while_the_server_waits() -> None:
    """A bot outside the event loop answers while the server reads its socket, and the
    rounds play as they do without it (spin=0)."""
    import socket
    import threading

    def bot(port: int, name: str, stop: threading.Event) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.connect(("127.0.0.1", port))
        sock.settimeout(0.1)
        sock.send(f"REGISTER;{name}".encode())
        while not stop.is_set():
            try:
                line = sock.recv(512).decode()
            except OSError:
                continue
            token = line.rsplit(";", 1)[-1]
            if line.startswith("ROUND STARTING"):
                sock.send(f"JOIN;{token}".encode())
            elif line.startswith("YOUR TURN"):
                sock.send(f"ROLL;{token}".encode())
            elif line.startswith("ROLLED"):
                sock.send(f"ANNOUNCE;2,1;{token}".encode())  # always Mia: the next one sees
        sock.close()

    for spin in (0.0, 0.5):

        async def test(server: MaexchenServer, address: Address, spin: float = spin) -> None:
            stop = threading.Event()
            bots = [
                threading.Thread(target=bot, args=(address[1], name, stop), daemon=True)
                for name in ("t1", "t2")
            ]
            for b in bots:
                b.start()
            try:
                while len(server.clients) < 2:
                    await asyncio.sleep(0.01)
                played = [await server.play_round() for _ in range(5)]
            finally:
                stop.set()
                for b in bots:
                    b.join()
            assert all(p is not None and p.reason == "MIA" for p in played)
            assert (server.stats.spun > 0) == (spin > 0)

        serve(test, rolls=[21, 21, 21, 21, 21], spin=spin)


def test_a_true_mia_costs_everybody_else() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        players = [await registered(address, n) for n in ("alice", "bob", "carol")]
        alice = players[0]
        task = await start_round(server, *players)
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        alice.send(f"ANNOUNCE;1,2;{await alice.token('ROLLED;2,1;')}")
        played = await task
        await players[2].expect(
            "ROUND STARTED;1;alice,bob,carol",
            "PLAYER ROLLS;alice",
            "ANNOUNCED;alice;2,1",
            "ACTUAL DICE;2,1",
            "PLAYER LOST;bob,carol;MIA",
            "SCORE;alice:1,bob:0,carol:0",
        )
        assert played is not None and played.reason == proto.MIA

    serve(test, rolls=[21])


def test_a_false_mia_costs_the_announcer() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        # Bob believes alice's 43 and rolls 32; Mia is higher, so he may claim it.
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        alice.send(f"ANNOUNCE;4,3;{await alice.token('ROLLED;4,3;')}")
        await bob.expect("ROUND STARTED;1;alice,bob", "PLAYER ROLLS;alice", "ANNOUNCED;alice;4,3")
        bob.send(f"ROLL;{await bob.token('YOUR TURN;')}")
        await bob.expect("PLAYER ROLLS;bob")
        bob.send(f"ANNOUNCE;2,1;{await bob.token('ROLLED;3,2;')}")
        await task
        await alice.expect(
            "ANNOUNCED;alice;4,3",
            "PLAYER ROLLS;bob",
            "ANNOUNCED;bob;2,1",
            "ACTUAL DICE;3,2",
            "PLAYER LOST;bob;LIED_ABOUT_MIA",
            "SCORE;alice:1,bob:0",
        )

    serve(test, rolls=[43, 32])


def test_see_before_the_first_announcement() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        alice.send(f"SEE;{await alice.token('YOUR TURN;')}")
        played = await task
        await bob.expect(
            "ROUND STARTED;1;alice,bob",
            "PLAYER WANTS TO SEE;alice",
            "PLAYER LOST;alice;SEE_BEFORE_FIRST_ROLL",
            "SCORE;alice:0,bob:1",
        )
        assert played is not None and played.ruling == {
            "player": "alice",
            "reason": "SEE_BEFORE_FIRST_ROLL",
        }

    serve(test)


def test_an_announcement_that_does_not_beat_the_last_loses() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        alice.send(f"ANNOUNCE;4,3;{await alice.token('ROLLED;3,2;')}")
        await bob.expect("ROUND STARTED;1;alice,bob", "PLAYER ROLLS;alice", "ANNOUNCED;alice;4,3")
        bob.send(f"ROLL;{await bob.token('YOUR TURN;')}")
        await bob.expect("PLAYER ROLLS;bob")
        bob.send(f"ANNOUNCE;3,4;{await bob.token('ROLLED;3,1;')}")  # equal is not higher
        played = await task
        await bob.expect(
            "ANNOUNCED;bob;4,3", "PLAYER LOST;bob;ANNOUNCED_LOSING_DICE", "SCORE;alice:1,bob:0"
        )
        assert played is not None and played.ruling is not None
        assert played.ruling["announced"] == 43 and played.ruling["last"] == 43
        # What the engine saw replays: the losing claim is the server's ruling.
        assert played.record.steps[-2:] == ("roll", "dice 31")

    serve(test, rolls=[32, 31])


def test_timeouts_did_not_take_turn_and_did_not_announce() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        await registered(address, "carol")  # never joins: not in SCORE (as canonically)
        task = await start_round(server, alice, bob)
        await alice.token("YOUR TURN;")  # and no answer
        await task
        await bob.expect(
            "ROUND STARTED;1;alice,bob",
            "PLAYER LOST;alice;DID_NOT_TAKE_TURN",
            "SCORE;alice:0,bob:1",
        )
        await alice.expect("PLAYER LOST;alice;DID_NOT_TAKE_TURN", "SCORE;*")
        task = await start_round(server, alice, bob)
        alice.send(f"ROLL;{await alice.token('YOUR TURN;')}")
        await alice.token("ROLLED;5,4;")  # and no announcement
        await task
        await bob.expect(
            "ROUND STARTED;2;alice,bob",
            "PLAYER ROLLS;alice",
            "PLAYER LOST;alice;DID_NOT_ANNOUNCE",
            "SCORE;alice:0,bob:2",
        )

    serve(test, rolls=[54], timeout=0.15)


@pytest.mark.parametrize("loop", loops(), ids=["asyncio", "uvloop"])
def test_every_question_gets_the_whole_timeout(loop: Any) -> None:
    """One timer serves all questions; a question asked late in the previous one's time
    still gets its own full timeout, and a question nobody answers still runs out (on
    both event loops: uvloop keeps time in milliseconds)."""

    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        turn = await alice.token("YOUR TURN;")
        await asyncio.sleep(0.45)  # most of the 0.8 s
        alice.send(f"ROLL;{turn}")
        rolled = await alice.token("ROLLED;5,4;")
        asked = time.monotonic()
        await asyncio.sleep(0.45)  # past the turn's deadline, within the roll's
        alice.send(f"ANNOUNCE;5,4;{rolled}")
        await alice.expect("ANNOUNCED;alice;5,4")
        await bob.token("YOUR TURN;")  # and bob never answers
        await bob.expect("PLAYER LOST;bob;DID_NOT_TAKE_TURN")
        assert time.monotonic() - asked >= 0.45 + 0.8 - 0.05
        played = await task
        assert played is not None and played.losers == ("bob",)
        assert server.stats.timeouts == 1

    serve(test, rolls=[54], timeout=0.8, loop=loop)


def test_malformed_and_wrong_token_answers_are_ignored() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        stranger = await client(address)
        task = await start_round(server, alice, bob)
        token = await alice.token("YOUR TURN;")
        ignored, malformed = server.stats.ignored, server.stats.malformed
        alice.send("ROLL;not-the-token")
        alice.send("ANNOUNCE;6,5;" + token)  # a token of this turn, but the wrong command
        bob.send(f"ROLL;{token}")  # the right token from the wrong player
        stranger.send(f"ROLL;{token}")  # from an address nobody registered
        for garbage in ("ROLL", "ROLL;", "roll;" + token, b"\xff\xfe;" + token.encode()):
            alice.send(garbage)
        alice.send("SEE;a;b")  # well-formed as canonically read (token a), a wrong token
        await alice.quiet(0.1)
        assert server.stats.ignored - ignored == 5
        assert server.stats.malformed - malformed == 4
        alice.send(f"ROLL;{token}")
        await alice.expect("PLAYER ROLLS;alice")
        rolled = await alice.token("ROLLED;6,6;")
        for garbage in ("ANNOUNCE;7,1;" + rolled, "ANNOUNCE;61;" + rolled, "ANNOUNCE;6,6"):
            alice.send(garbage)
        alice.send(f"ANNOUNCE;6,6;{token}")  # the turn's token, not the roll's
        await alice.quiet(0.1)
        alice.send(f"ANNOUNCE;6,6;{rolled}")
        await alice.expect("ANNOUNCED;alice;6,6")
        bob.send(f"SEE;{await bob.token('YOUR TURN;')}")
        played = await task
        assert played is not None and played.losers == ("bob",)

    serve(test, rolls=[66])


def test_late_answers_are_ignored() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        token = await alice.token("YOUR TURN;")
        await task  # alice did not answer in time
        ignored = server.stats.ignored
        alice.send(f"ROLL;{token}")
        await bob.expect("ROUND STARTED;1;alice,bob", "PLAYER LOST;alice;DID_NOT_TAKE_TURN")
        await bob.expect("SCORE;alice:0,bob:1")
        await bob.quiet(0.1)  # no PLAYER ROLLS: the late ROLL changed nothing
        assert server.stats.ignored == ignored + 1
        # A late JOIN does not put alice into the next round either.
        starting = asyncio.create_task(server.play_round())
        join = await alice.token("ROUND STARTING;")
        await bob.token("ROUND STARTING;")
        await starting
        alice.send(f"JOIN;{join}")
        await alice.expect("ROUND CANCELED;NO_PLAYERS", "SCORE;alice:0,bob:1")
        await alice.quiet(0.1)

    serve(test, timeout=0.15)


def test_stopping_abandons_the_round_in_play_and_scores_nothing() -> None:
    async def test(server: MaexchenServer, address: Address) -> None:
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        reported: list[object] = []
        server.listeners.append(reported.append)
        task = await start_round(server, alice, bob)
        await alice.token("YOUR TURN;")
        server.stop()
        assert await task is None and reported == [] and server.scores == {}
        await bob.expect("ROUND STARTED;1;alice,bob")
        await bob.quiet(0.1)  # no PLAYER LOST, no SCORE
        await asyncio.wait_for(server.run(), 1)  # returns at once: the server is stopped

    serve(test)


def test_early_start_and_the_full_window() -> None:
    def window(early: bool) -> float:
        seconds: list[float] = []

        async def test(server: MaexchenServer, address: Address) -> None:
            alice = await registered(address, "alice")
            bob = await registered(address, "bob")
            started = time.monotonic()
            task = await start_round(server, alice, bob)
            await alice.expect("ROUND STARTED;*")
            seconds.append(time.monotonic() - started)
            alice.send(f"SEE;{await alice.token('YOUR TURN;')}")
            await task

        serve(test, timeout=0.4, early_start=early)
        return seconds[0]

    assert window(early=True) < 0.3
    assert window(early=False) >= 0.4


def test_each_round_may_roll_fair_dice_that_verify_afterwards() -> None:
    from bluffdice.maexchen.server import Options
    from bluffdice.table.fair import FairDice, verify
    from tests.maexchen_support import NoShuffle

    async def main() -> None:
        committed: dict[int, str] = {}

        def fair(number: int) -> FairDice:
            return FairDice()

        server = MaexchenServer(
            Options(host="127.0.0.1", port=0, timeout=1.0), shuffle=NoShuffle(), round_dice=fair
        )
        # Told before the round's first die (who starts) is drawn.
        server.commitments.append(lambda number, c: committed.__setitem__(number, c))
        address = await server.start()
        alice = await registered(address, "alice")
        bob = await registered(address, "bob")
        task = await start_round(server, alice, bob)
        started = await alice.recv()  # the fair dice drew who starts
        first, second = (alice, bob) if started == "ROUND STARTED;1;alice,bob" else (bob, alice)
        first.send(f"ROLL;{await first.token('YOUR TURN;')}")
        rolled = await first.recv()
        while not rolled.startswith("ROLLED;"):
            rolled = await first.recv()
        dice, token = rolled.split(";")[1:]
        first.send(f"ANNOUNCE;{dice};{token}")  # the truth
        if dice != "2,1":  # a true Mia ends the round at once; else the other looks
            second.send(f"SEE;{await second.token('YOUR TURN;')}")
        played = await task
        loser = "bob" if second is bob else "alice"
        assert played is not None and played.losers == (loser,)
        record = played.fair
        assert record is not None and record.record == played.record
        assert record.commitment == committed[1]
        verdict = verify(record)
        assert verdict.problem is None and verdict.finished
        # A round the server ends itself (a timeout) is revealed and verifies as far as
        # it went.
        server.options = Options(host="127.0.0.1", port=0, timeout=0.2)
        task = await start_round(server, alice, bob)
        played = await task
        server.close()
        assert played is not None and played.reason == "DID_NOT_TAKE_TURN"
        assert played.fair is not None and played.fair.commitment == committed[2]
        verdict = verify(played.fair)
        assert verdict.problem is None and not verdict.finished and verdict.rolls == 1

    asyncio.run(main())


def test_size_and_rate_limits() -> None:
    limiter = RateLimiter(rate=10.0, burst=5.0, size=2)
    a, b, c = ("127.0.0.1", 1), ("127.0.0.1", 2), ("127.0.0.1", 3)
    assert [limiter.allow(a, 0.0) for _ in range(6)] == [True] * 5 + [False]
    assert limiter.allow(a, 0.1) and not limiter.allow(a, 0.1)  # one token per 0.1 s
    assert limiter.allow(b, 0.1) and limiter.allow(c, 0.1)  # a is forgotten: bounded
    assert len(limiter._buckets) == 2

    async def test(server: MaexchenServer, address: Address) -> None:
        flood = await client(address)
        flood.send(b"REGISTER;big;" + b"x" * 600)
        for _ in range(300):
            flood.send("REGISTER;" + "y" * 30)
        await asyncio.sleep(0.2)
        assert server.stats.too_big == 1
        assert server.stats.rate_limited > 0
        alice = await registered(address, "alice")  # others are served meanwhile
        assert "alice" in server.clients and alice.seen == ["REGISTERED"]

    serve(test, rate=100.0, burst=50.0)


def test_parse_accepts_exactly_the_commands() -> None:
    assert proto.parse(b"REGISTER;a") == proto.Register("a", None, False)
    assert proto.parse(b"REGISTER;a;pw") == proto.Register("a", "pw", False)
    assert proto.parse(b"REGISTER_SPECTATOR;a") == proto.Register("a", None, True)
    assert proto.parse(b"UNREGISTER") == proto.Unregister()
    assert proto.parse(b"ANNOUNCE;1,2;t") == proto.Answer("ANNOUNCE", "t", 21)
    assert proto.parse(b"JOIN;t") == proto.Answer("JOIN", "t")
    for bad in (b"ANNOUNCE;0,2;t", b"ANNOUNCE;12;t", b"ANNOUNCE;1,2", b"JOIN", b"join;t", b"\x80"):
        assert proto.parse(bad) is None
    assert proto.dice(21) == "2,1" and proto.dice(65) == "6,5"
