"""Load and abuse for the Mäxchen server: bot swarms, a fuzzer, and checks of the result.

The tests and `benchmarks/bench_maexchen.py` use these to answer two questions: how many
rounds a second the server plays with bots that answer at once, and whether datagrams
from anybody else (garbage, huge ones, wrong encodings, commands with wrong or stolen
tokens, name take-overs, floods) can stop it, corrupt a round or change a score.
Everything runs on loopback addresses and every loop is bounded.
"""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bluffdice.games.mia.actions import Penalty
from bluffdice.maexchen import wire as proto

Reply = Callable[[str], "str | None"]
"""A bot's strategy: one server line in, the answer (or None) out."""


class SwarmClient(asyncio.DatagramProtocol):
    """One bot of a swarm: registers, answers with its strategy, remembers tokens."""

    def __init__(self, name: str, reply: Reply, secret: str | None = None) -> None:
        self.name = name
        self.reply = reply
        self.secret = secret
        self.transport: Any = None
        self.received = 0
        self.last_score: str | None = None
        self.tokens: list[str] = []
        """Recent tokens the server sent this bot (a fuzzer replays them from elsewhere)."""
        self.registered: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        register = f"REGISTER;{self.name}" + (f";{self.secret}" if self.secret else "")
        transport.sendto(register.encode())

    def datagram_received(self, data: bytes, addr: Any) -> None:
        self.received += 1
        line = data.decode("utf-8", "replace")
        if not self.registered.done() and line.startswith(("REGISTERED", "REJECTED")):
            self.registered.set_result(line)
            return
        if line.startswith("SCORE;"):
            self.last_score = line
        elif line.startswith(("YOUR TURN;", "ROLLED;", "ROUND STARTING;")):
            self.tokens.append(line.rsplit(";", 1)[1])
            del self.tokens[:-8]
        answer = self.reply(line)
        if answer is not None:
            self.transport.sendto(answer.encode())

    def error_received(self, exc: Exception) -> None:
        """A moment without the server is not fatal for a bot."""

    def close(self) -> None:
        self.transport.close()


async def swarm(
    server: tuple[str, int],
    count: int,
    strategy: Callable[[], Reply],
    prefix: str = "bot",
    secret: str | None = None,
) -> list[SwarmClient]:
    """`count` registered bots on 127.0.0.1, named prefix0, prefix1, ..."""
    loop = asyncio.get_running_loop()
    bots = []
    for i in range(count):
        _, bot = await loop.create_datagram_endpoint(
            lambda i=i: SwarmClient(f"{prefix}{i}", strategy(), secret),  # type: ignore[misc]
            local_addr=("127.0.0.1", 0),
            remote_addr=server,
        )
        answer = await asyncio.wait_for(bot.registered, 5.0)
        if answer != "REGISTERED":
            raise RuntimeError(f"{bot.name} was not registered: {answer}")
        bots.append(bot)
    return bots


class Spectator(SwarmClient):
    """Registers as a spectator and keeps every line."""

    def __init__(self, name: str) -> None:
        super().__init__(name, lambda line: None)
        self.lines: list[str] = []

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        transport.sendto(f"REGISTER_SPECTATOR;{self.name}".encode())

    def datagram_received(self, data: bytes, addr: Any) -> None:
        line = data.decode("utf-8", "replace")
        if not self.registered.done() and line.startswith(("REGISTERED", "REJECTED")):
            self.registered.set_result(line)
            return
        self.lines.append(line)


async def spectator(server: tuple[str, int], name: str = "watcher") -> Spectator:
    loop = asyncio.get_running_loop()
    _, watcher = await loop.create_datagram_endpoint(
        lambda: Spectator(name), local_addr=("127.0.0.1", 0), remote_addr=server
    )
    await asyncio.wait_for(watcher.registered, 5.0)
    return watcher


# --- the fuzzer ----------------------------------------------------------------------------


@dataclass
class FuzzReport:
    sent: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


_COMMANDS = ("JOIN", "ROLL", "SEE", "ANNOUNCE", "REGISTER", "REGISTER_SPECTATOR", "UNREGISTER")


def _datagram(rng: random.Random, victims: list[SwarmClient], seen: list[str]) -> tuple[str, bytes]:
    """One hostile datagram and its kind."""
    kind = rng.choice(
        (
            "garbage",
            "huge",
            "encoding",
            "wrong_token",
            "stolen_token",
            "mutated",
            "takeover",
            "spectator",
            "command",
        )
    )
    token = "".join(rng.choice("0123456789abcdef") for _ in range(16))
    if kind == "garbage":
        return kind, rng.randbytes(rng.randrange(0, 80))
    if kind == "huge":
        return kind, b"ROLL;" + rng.randbytes(rng.randrange(600, 4000))
    if kind == "encoding":
        text = rng.choice(("ROLL;", "JOIN;", "REGISTER;")) + token
        encoding = rng.choice(("utf-16", "utf-32", "latin-1"))
        data = (text + "é").encode(encoding)
        return kind, data
    if kind in ("wrong_token", "stolen_token") and victims:
        command = rng.choice(("JOIN", "ROLL", "SEE"))
        victim = rng.choice(victims)
        if kind == "stolen_token" and victim.tokens:
            token = rng.choice(victim.tokens)
        if rng.random() < 0.3:
            return kind, f"ANNOUNCE;{rng.randint(1, 6)},{rng.randint(1, 6)};{token}".encode()
        return kind, f"{command};{token}".encode()
    if kind == "mutated" and seen:
        mutated = bytearray(rng.choice(seen).encode())
        for _ in range(rng.randint(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        return kind, bytes(mutated)
    if kind == "takeover" and victims:
        name = rng.choice(victims).name
        return kind, rng.choice((f"REGISTER;{name}", f"REGISTER;{name};guess")).encode()
    if kind == "spectator":
        return kind, f"REGISTER_SPECTATOR;fz{rng.randrange(50)}".encode()
    fields = [rng.choice(_COMMANDS)] + [token] * rng.randint(0, 3)
    return "command", ";".join(fields).encode()


async def fuzz(
    server: tuple[str, int],
    count: int,
    victims: list[SwarmClient],
    rng: random.Random,
    hosts: tuple[str, ...] = ("127.0.0.1", "127.0.0.2", "127.0.0.3"),
    flood: int = 0,
    batch: int = 50,
) -> FuzzReport:
    """Send `count` hostile datagrams from several loopback addresses, in batches that let
    the server breathe, then `flood` more from one address, far over any rate limit."""
    report = FuzzReport()
    socks = []
    for host in hosts:
        for _ in range(3):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind((host, 0))
            s.setblocking(False)
            socks.append(s)
    seen = [
        "REGISTER;x",
        "JOIN;0123456789abcdef",
        "ROLL;0123456789abcdef",
        "SEE;0123456789abcdef",
        "ANNOUNCE;6,5;0123456789abcdef",
        "UNREGISTER",
    ]
    try:
        for i in range(count):
            kind, data = _datagram(rng, victims, seen)
            report.kinds[kind] = report.kinds.get(kind, 0) + 1
            _send(rng.choice(socks), data, server, report)
            if i % batch == batch - 1:
                await asyncio.sleep(0.001)
        flooder = socks[0]
        for i in range(flood):
            _send(flooder, f"ROLL;{i:016x}".encode(), server, report)
            if i % 25 == 24:  # as fast as the server reads, not as fast as the kernel drops
                await asyncio.sleep(0.001)
        report.kinds["flood"] = flood
    finally:
        for s in socks:
            s.close()
    return report


def _send(sock: socket.socket, data: bytes, server: tuple[str, int], report: FuzzReport) -> None:
    try:
        sock.sendto(data, server)
        report.sent += 1
    except (BlockingIOError, OSError):
        pass  # a full socket buffer drops it, as the network would


# --- checks --------------------------------------------------------------------------------


def check_rounds(rounds: list[Any], scores: dict[str, int], players: set[str]) -> list[str]:
    """What is wrong with the rounds the server reported (`PlayedRound`s), if anything:
    every round replays in the engine and its loss matches the replay, only real players
    took part, and the totals are the sums of the rounds' points."""
    problems: list[str] = []
    totals: dict[str, int] = {}
    numbers = [r.number for r in rounds]
    if numbers != sorted(set(numbers)):
        problems.append(f"round numbers out of order: {numbers[:20]}")
    for r in rounds:
        where = f"round {r.number}"
        if not set(r.order) <= players or sorted(r.order) != sorted(r.seats):
            problems.append(f"{where}: strangers at the table: {r.order}")
        try:
            state: Any = r.record.replay()
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            problems.append(f"{where}: the record does not replay: {exc}")
            continue
        if r.ruling is None:
            penalties = [e for e in _events(r.record) if isinstance(e, Penalty)]
            losers = sorted(r.seats[p.player] for p in penalties)
            if not state.is_terminal or sorted(r.losers) != losers:
                problems.append(f"{where}: losers {r.losers} but the engine says {losers}")
            if r.reason != proto.ENGINE_REASONS.get(penalties[0].reason if penalties else ""):
                problems.append(f"{where}: reason {r.reason} does not match the engine")
        else:
            if state.is_terminal or r.seats[state.turn] != r.ruling["player"]:
                problems.append(f"{where}: ruling {r.ruling} against the wrong player")
            if r.losers != (r.ruling["player"],) or r.reason != r.ruling["reason"]:
                problems.append(f"{where}: ruling {r.ruling} but losers {r.losers}")
        expected = {name: 1 - (name in r.losers) for name in r.order}
        if r.points != expected:
            problems.append(f"{where}: points {r.points}, expected {expected}")
        for name, gained in r.points.items():
            totals[name] = totals.get(name, 0) + gained
        if any(r.scores.get(name) != total for name, total in totals.items()):
            problems.append(f"{where}: scores {r.scores} but the rounds sum to {totals}")
    if any(scores.get(name, 0) != total for name, total in totals.items()):
        problems.append(f"final scores {scores} but the rounds sum to {totals}")
    return problems


def _events(record: Any) -> list[Any]:
    from bluffdice.games.registry import get_game

    spec = get_game(record.game)
    state = record.start()
    events: list[Any] = []
    for text in record.steps:
        step = state.apply(spec.parse_action(text))
        state = step.state
        events.extend(step.events)
    return events


def check_transcript(lines: list[str], players: set[str]) -> list[str]:
    """What a spectator's transcript says is wrong: every round starts, ends with one
    PLAYER LOST line of participants and a known reason, and the SCORE line after it is
    the previous one plus 1 per participant minus 1 per loser. A canceled round is
    followed by SCORE too (as on the canonical server): unchanged, or 1 more for the
    lone joiner of an ONLY_ONE_PLAYER round."""
    problems: list[str] = []
    scores: dict[str, int] = {}
    order: list[str] | None = None
    losers: list[str] | None = None
    for number, line in enumerate(lines):
        fields = line.split(";")
        head = fields[0]
        if head == "ROUND STARTED":
            order = fields[2].split(",")
            losers = None
            if not set(order) <= players:
                problems.append(f"line {number}: strangers in {line}")
        elif head == "ROUND CANCELED":
            # scored as a round nobody lost: the lone joiner (ROUND STARTED) gets 1
            order = order if order is not None and fields[1] == "ONLY_ONE_PLAYER" else []
            losers = []
        elif head == "PLAYER LOST":
            losers = fields[1].split(",")
            if order is None or not set(losers) <= set(order) or fields[2] not in proto.REASONS:
                problems.append(f"line {number}: {line} does not fit round {order}")
        elif head == "SCORE":
            if order is None or losers is None:
                problems.append(f"line {number}: SCORE outside a played round")
                continue
            for name in order:
                scores[name] = scores.get(name, 0) + 1 - (name in losers)
            told = {}
            for pair in fields[1].split(","):
                name, _, points = pair.rpartition(":")
                told[name] = int(points)
            if any(told.get(name) != points for name, points in scores.items()):
                problems.append(f"line {number}: {line} but the rounds sum to {scores}")
            order = losers = None
    return problems
