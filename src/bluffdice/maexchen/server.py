"""The Mäxchen contest server: the Mäxchen UDP protocol, rounds played by the engine.

One asyncio datagram endpoint reads every datagram synchronously (no inbound queue can
grow): size and rate limits first, then parsing; registrations are answered at once, and
an answer (JOIN, ROLL, SEE, ANNOUNCE) counts only if it comes from the address of the
player the server waits for, carries the token of that very question and arrives before
its deadline. Everything else is ignored, so the timeout decides. An awaited ROLL, SEE
or ANNOUNCE is played right there, in the datagram's callback, up to the next question:
the round's coroutine only waits for the joins and for the round's end, so a round
costs two task wake-ups instead of one per question (most of a round's CPU on a small
machine is per-datagram work; see docs/maexchen.md, Figures).

Each round is one `Table` on the `maexchen` preset with `rounds=1`, played by a `Host`
whose seats are the clients (`_ClientSeat`): the engine rolls (the table's dice source),
checks announcements, resolves challenges and Mia, and scores. Every line a client gets
is made from the table's projection: the public lines from a spectator's updates (a host
listener), the roller's dice from its prompt. A client's fault stops the round (policy
STOP) and the server rules on it (recorded as the round's `ruling`): a SEE before any
announcement and an announcement that does not beat the last, both of which the table
refuses, and the two timeouts, kept by the server's own question timer (the table runs
without a clock, which would make a default move). See docs/maexchen.md.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import random
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bluffdice.games.mia import Announce, Challenge, MiaRules, MiaView, Roll
from bluffdice.games.mia.actions import Announced, Challenged, Penalty, Revealed, Rolled
from bluffdice.games.mia.rules import PRESETS
from bluffdice.games.record import Record
from bluffdice.games.registry import rules_string
from bluffdice.maexchen import wire as proto
from bluffdice.ratelimit import RateLimiter
from bluffdice.table import DiceSource, Table, seeded, system
from bluffdice.table.entry import Entry
from bluffdice.table.fair import SCHEME, FairDice, FairRecord
from bluffdice.table.host import Hearing, Host, HostStopped, Policy, SeatFault
from bluffdice.table.wire import Move, Prompt, Refused, Update, Welcome

Address = tuple[str, int]


@dataclass(frozen=True)
class Options:
    """How the server runs; the defaults are what the CLI offers."""

    host: str = "0.0.0.0"
    port: int = proto.PORT
    timeout: float = 0.25
    """Seconds a player has to answer a question (JOIN, YOUR TURN, ROLLED)."""
    early_start: bool = True
    """Start a round as soon as every invited player joined, not when the window ends."""
    max_datagram: int = 512
    require_secret: bool = False
    """Register players only with a secret (`REGISTER;name;secret`): nobody else can
    then take a name over, not even from the same host. Without one a player gets
    `REJECTED;SECRET_REQUIRED` (spectators need none)."""
    strict: bool = False
    """Parse datagrams strictly (`maexchen.parse`): exactly a command's fields, one digit
    per die, a line end stripped. By default they are read as the canonical contest
    server reads them, so its bots play unchanged."""
    rate: float = 5000.0
    """Datagrams per second one address may send (token bucket)."""
    burst: float = 500.0
    max_clients: int = 200
    table_size: int | None = None
    """At most this many players a round (a fair random sample of the registered);
    None: every registered player is invited, as the canonical server does."""
    max_addresses: int = 4096
    """How many addresses the rate limiter tracks (the oldest are forgotten)."""
    send_buffer: int = 1 << 20
    """The socket's send buffer (bytes); a datagram that does not fit is dropped."""
    rounds: int | None = None
    """Stop after this many rounds have been played (None: until stopped)."""
    idle_pause: float = 0.05
    """Pause after a round nobody joined, so an idle server does not spin."""
    idle_after: int = 2
    """A player who let this many invitations in a row pass is idle: no round waits
    for it any more (its JOIN still counts if it comes before the round starts, and a
    JOIN that comes late makes it active again), and it is invited with back-off: after
    1, 2, 4, ... up to `idle_retry` rounds. So a bot that hangs, or names registered
    only to stall the contest, cannot make rounds wait out the join window. 0: always
    invite and wait for everybody, as the classic servers do."""
    idle_retry: int = 64
    drop_after: int = 12
    """A player who let this many invitations in a row pass is unregistered (it is sent
    UNREGISTERED and may register again). 0: never."""
    max_per_host: int = 32
    """Names one IP address may hold. When a host, or the server (`max_clients`), is
    full, a new name takes the place of the longest-registered ghost (a player that
    has never joined a round, or is idle); only with no ghost to replace is it
    refused (`REJECTED;SERVER_FULL`)."""
    spin: float = 0.0005
    """Seconds the server keeps reading its socket for an awaited answer before it
    sleeps in the event loop (0: never). Local bots answer within this, and a process
    that stays awake gets their answers without being woken (on a virtual machine a
    wake-up costs more than the work of a round's step); it yields the CPU to anything
    else that wants it while it waits, so it costs little when the machine is busy."""


@dataclass
class Stats:
    received: int = 0
    too_big: int = 0
    rate_limited: int = 0
    malformed: int = 0
    ignored: int = 0
    """Well-formed but not awaited: wrong token, wrong player, late, unknown address."""
    sent: int = 0
    send_dropped: int = 0
    rounds: int = 0
    canceled: int = 0
    timeouts: int = 0
    """Questions nobody answered in time (DID_NOT_TAKE_TURN, DID_NOT_ANNOUNCE)."""
    windows: int = 0
    """Join windows waited out to their end (not every invited player joined)."""
    spun: int = 0
    """Datagrams read while the server waited on its socket for an answer (`spin`), not
    handed over by the event loop after a wake-up."""
    spin_waited: float = 0.0
    """Seconds (wall time) spent waiting on the socket in `spin`, not handling what came
    in: the server's CPU time only while no other process wanted the CPU."""


@dataclass
class Client:
    name: str
    address: Address
    spectator: bool
    joined: bool = False
    """Whether it has ever joined a round."""


@dataclass(frozen=True)
class PlayedRound:
    """One round as it was played: who, the engine's record (dice included), the loss."""

    number: int
    order: tuple[str, ...]
    """The play order announced in ROUND STARTED."""
    record: Record
    """The engine's record; its seats are `seats`."""
    seats: tuple[str, ...]
    losers: tuple[str, ...]
    reason: str
    ruling: dict[str, Any] | None
    """Set when the server ended the round itself (see the module docstring)."""
    points: dict[str, int]
    """What the round gave each participant: +1 for joining, -1 for losing."""
    scores: dict[str, int]
    """Everybody's total after the round, as in the SCORE line."""
    dice: Any = None
    """The dice source the round used (with `round_dice`, that round's own)."""
    fair: FairRecord | None = None
    """With fair dice: the round's record with its server seed revealed (verifiable)."""


RoundListener = Callable[[PlayedRound], None]
CommitmentListener = Callable[[int, str], None]
"""Told (round number, commitment) before a fair round's first die is drawn."""


class Stopped(Exception):
    """The server was stopped while it waited for an answer."""


@dataclass(slots=True)
class _Question:
    """The one answer the server waits for in play: from this player, with this token,
    one of these commands, before `deadline` (a `time.monotonic()` time)."""

    name: str
    token: str
    commands: frozenset[str]
    deadline: float
    seat: int
    state_id: int
    """The state the prompt asked about: the move answers it."""


Ruling = dict[str, Any]


_TURN = frozenset({"ROLL", "SEE"})
_ANNOUNCE = frozenset({"ANNOUNCE"})
_SPIN_RETRY = 50
"""A player who did not answer while the server read the socket for it is not waited
for that way again until it has been asked this many more questions (a bot far away, or
one in the server's own process that cannot answer before the server returns to the
event loop)."""
_SPIN_LIMIT = 0.005
"""Seconds of reading the socket (`_spin`) after which the event loop gets a whole turn
(its timers, other tasks, other sockets) before the server reads it again, however many
answers come in meanwhile."""
_TIMER_SLACK = 0.001
"""A question timer that fires this close to the deadline counts as on time (some event
loops keep time in milliseconds)."""
_DICE = {
    10 * high + low: proto.dice(10 * high + low)
    for high in range(1, 7)
    for low in range(1, high + 1)
}
"""Every value as the protocol writes its dice, `5,3`."""


def round_rules(rules: MiaRules | None = None) -> MiaRules:
    """The rules of one protocol round: the given rules (maexchen by default), one round."""
    import dataclasses

    return dataclasses.replace(rules or PRESETS["maexchen"], rounds=1)


_ROLL = Roll()
_CHALLENGE = Challenge()


class _ClientSeat:
    """A UDP client at the round's table, as the host drives it: asked through the
    server's one question (`MaexchenServer._ask`), its answer offered to the host from
    `datagram_received` (no task switch per move). Any fault stops the round: the
    protocol rules on it (`MaexchenServer._ruling`)."""

    hears: Hearing = "nothing"
    """Every line a client receives is public but the dice it rolled, which its prompt
    shows: the server's host listener sends the public lines to everybody at once."""
    policy: Policy = Policy.STOP

    __slots__ = ("index", "name", "server", "view")

    def __init__(self, server: MaexchenServer, index: int, name: str) -> None:
        self.server = server
        self.index = index
        self.name = name
        self.view: MiaView | None = None
        """The view of the last prompt: what the player was asked about."""

    def sit(self, welcome: Welcome) -> None:
        return None

    def tell(self, update: Update) -> None:
        return None

    def refused(self, refusal: Refused) -> None:
        return None

    def ask(self, prompt: Prompt) -> None:
        self.server._ask(self, prompt)


class MaexchenServer(asyncio.DatagramProtocol):
    """Hosts the contest; `start()` binds, `run()` plays rounds until `stop()`."""

    def __init__(
        self,
        options: Options | None = None,
        dice: DiceSource | None = None,
        shuffle: random.Random | None = None,
        rules: MiaRules | None = None,
        round_dice: Callable[[int], DiceSource] | None = None,
    ) -> None:
        self.options = options or Options()
        self.dice: DiceSource = dice if dice is not None else system()
        self.round_dice = round_dice
        """A fresh dice source for each round (given the round number), e.g. fair dice
        committed to before the round and revealed after it; else `dice` for all."""
        self.shuffle: random.Random = shuffle if shuffle is not None else secrets.SystemRandom()
        self.rules = round_rules(rules)
        self._rules_text = rules_string(self.rules)
        self.stats = Stats()
        self.clients: dict[str, Client] = {}
        self.scores: dict[str, int] = {}
        """Everybody who has played a round, in the order they first played: what the
        SCORE line lists, as the canonical server's does (names registered and dropped
        without playing leave no trace, so a flood of names cannot grow it)."""
        self.round_number = 0
        self.listeners: list[RoundListener] = []
        self.commitments: list[CommitmentListener] = []
        self.transport: asyncio.DatagramTransport | None = None
        self._by_address: dict[Address, Client] = {}
        self._secrets: dict[str, bytes] = {}
        self._salt = secrets.token_bytes(16)
        self._limiter: RateLimiter[Address] = RateLimiter(
            self.options.rate, self.options.burst, self.options.max_addresses
        )
        self._question: _Question | None = None
        self._timer: asyncio.TimerHandle | None = None
        """One timer serves every question: it is re-armed when it fires early, instead
        of one timer per question that is cancelled when the answer comes."""
        self._table: Table | None = None
        self._host: Host | None = None
        """The round in play, driven by the answers as they arrive (`_play_answer`)."""
        self._seats: list[_ClientSeat] = []
        self._penalties: list[Penalty] = []
        """The round's penalties so far, as the spectators' projection showed them."""
        self._round_done: asyncio.Future[Ruling | None] | None = None
        self._invites: dict[str, str] = {}
        self._invitations = 0
        self._missed: dict[str, int] = {}
        self._next_invite: dict[str, int] = {}
        """Idle players: the invitation (`_invitations`) at which each is next invited."""
        self._late: dict[str, str] = {}
        """The last window's invitations nobody answered (token: name): a JOIN with one
        of them makes its player active again."""
        self._awaited = 0
        self._quiet: set[Address] = set()
        """The idle players' addresses: they get their invitations, not the broadcasts
        of rounds they are not in."""
        """Active players invited to the window that have not joined yet."""
        self._window: asyncio.Future[proto.Answer | None] | None = None
        self._joined: list[str] = []
        self._all_joined: asyncio.Future[proto.Answer | None] | None = None
        self._player_arrived: asyncio.Event | None = None
        self._stopping = False
        self._sock: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop `start()` ran in (asking asyncio for it costs a system call each time)."""
        self._spinning = False
        self._spun = 0.0
        """Seconds spent in `_spin` since the event loop last ran its timers."""
        self._unspun: dict[str, int] = {}
        """Players not to spin for, with how many more questions (see _SPIN_RETRY)."""
        self._held: Callable[[], PlayedRound] | None = None
        """A round that is over and whose end is queued: it goes out with the next
        round's invitations and the round is booked after them (`_book`)."""
        self._outbox: list[tuple[bytes, Address]] = []
        self._urgent: Address | None = None
        self._tokens: list[str] = []

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> Address:
        """Bind the UDP port; returns the address it listens on (port 0: an ephemeral one)."""
        loop = self._loop = asyncio.get_running_loop()
        self._player_arrived = asyncio.Event()
        infos = await loop.getaddrinfo(self.options.host, self.options.port, type=socket.SOCK_DGRAM)
        family, _, _, _, where = infos[0]
        sock = socket.socket(family, socket.SOCK_DGRAM)
        try:
            sock.bind(where)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.options.send_buffer)
        transport, _ = await loop.create_datagram_endpoint(lambda: self, sock=sock)
        self.transport = transport
        self._sock = sock
        # The kernel's receive buffer stays at its (small) default on purpose: a flood
        # then costs dropped datagrams, not a queue that delays every honest answer.
        address: Address = transport.get_extra_info("sockname")[:2]
        return address

    def stop(self) -> None:
        """Finish now: a round in play is abandoned (nobody loses by the stop, nothing
        is scored or stored), and the round loop ends."""
        self._stopping = True
        if self._player_arrived is not None:
            self._player_arrived.set()
        if self._all_joined is not None:
            _expire(self._all_joined)
        self._end_round(Stopped())

    def close(self) -> None:
        self.stop()
        self._book()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._sock = None
        if self.transport is not None:
            self.transport.close()

    async def run(self) -> None:
        """Play rounds until stopped or `options.rounds` rounds are played.

        Unlike `play_round`, a round's end (PLAYER LOST, SCORE) waits for the next
        round's invitations and goes out in the same burst, and the round is booked
        (its record made, the listeners told) while the players answer them: the
        players' processes wake once instead of twice, and the bookkeeping costs the
        round no time."""
        limit = self.options.rounds
        try:
            while not self._stopping and (limit is None or self.stats.rounds < limit):
                await self._play_round()
        finally:
            self._book()

    # --- datagrams in ----------------------------------------------------------------------

    def datagram_received(self, data: bytes, addr: Any) -> None:
        stats = self.stats
        stats.received += 1
        if len(data) > self.options.max_datagram:
            stats.too_big += 1
            return
        address: Address = addr if len(addr) == 2 else (addr[0], addr[1])  # IPv6: 4 fields
        now = time.monotonic()
        if not self._limiter.allow(address, now):
            stats.rate_limited += 1
            return
        message = proto.parse(data, self.options.strict)
        if message is None:
            stats.malformed += 1
        elif isinstance(message, proto.Answer):
            self._answer(message, address, now)
        elif isinstance(message, proto.Register):
            self._register(message, address)
            self._flush()
        else:
            self._unregister(address)
            self._flush()

    def error_received(self, exc: Exception) -> None:
        """ICMP errors (a bot that went away) are not the server's problem."""

    def _answer(self, message: proto.Answer, address: Address, now: float) -> None:
        client = self._by_address.get(address)
        if client is None or client.spectator:
            self.stats.ignored += 1
            return
        if message.command == "JOIN":
            if self._invites.get(message.token) == client.name:
                del self._invites[message.token]
                self._joined.append(client.name)
                client.joined = True
                if self._missed.get(client.name, 0) < self._idle_after:
                    self._awaited -= 1
                if (not self._invites or self._awaited <= 0) and self._all_joined is not None:
                    _expire(self._all_joined)
            else:
                if self._late.get(message.token) == client.name:
                    # Too late for that round, but alive: waited for again from now on.
                    del self._late[message.token]
                    self._missed.pop(client.name, None)
                    self._next_invite.pop(client.name, None)
                    self._quiet.discard(address)
                self.stats.ignored += 1
            return
        question = self._question
        if (
            question is None
            or question.name != client.name
            or question.token != message.token
            or message.command not in question.commands
            or now > question.deadline
        ):
            self.stats.ignored += 1
            return
        # Played here, in the datagram's own callback: the table moves and the next
        # question goes out before the loop reads the next datagram, with no task to
        # wake in between.
        self._question = None
        self._play_answer(question, message)
        self._flush()

    def _register(self, message: proto.Register, address: Address) -> None:
        name, secret = message.name, message.secret
        if not proto.valid_name(name) or (secret is not None and not proto.valid_secret(secret)):
            self._send(b"REJECTED;INVALID_NAME", address)
            return
        if secret is None and self.options.require_secret and not message.spectator:
            self._send(b"REJECTED;SECRET_REQUIRED", address)
            return
        known = self._secrets.get(name)
        existing = self.clients.get(name)
        if known is not None:
            # A name registered with a secret belongs to whoever knows the secret.
            ok = secret is not None and hmac.compare_digest(known, self._hash(secret))
        elif existing is not None:
            # The old servers' rule, kept for bots without a secret: the same host may
            # register its name again (from a new port). The address that holds the
            # name may also add a secret to it.
            ok = existing.address == address or (
                secret is None and existing.address[0] == address[0]
            )
        else:
            ok = True
        if not ok or (existing is not None and existing.spectator != message.spectator):
            self._send(b"REJECTED;NAME_ALREADY_TAKEN", address)
            return
        previous = self._by_address.get(address)
        if previous is not None and previous.name != name:
            self._drop(previous)
        if existing is not None:
            if secret is not None and known is None:
                self._secrets[name] = self._hash(secret)
            self._missed.pop(name, None)
            self._next_invite.pop(name, None)
            self._quiet.discard(existing.address)
            self._by_address.pop(existing.address, None)
            existing.address = address
            self._by_address[address] = existing
        else:
            if not self._room_for(address[0]):
                self._send(b"REJECTED;SERVER_FULL", address)
                return
            client = Client(name, address, message.spectator)
            self.clients[name] = client
            self._by_address[address] = client
            if secret is not None:
                self._secrets[name] = self._hash(secret)
            if not message.spectator and self._player_arrived is not None:
                self._player_arrived.set()
        self._send(b"REGISTERED", address)

    def _room_for(self, host: str) -> bool:
        """Whether a new name from `host` fits, after replacing the longest-registered
        ghost where the host or the server is full (see `Options.max_per_host`)."""
        options = self.options
        own = [c for c in self.clients.values() if c.address[0] == host]
        if len(own) >= options.max_per_host:
            crowd = own
        elif len(self.clients) >= options.max_clients:
            crowd = list(self.clients.values())
        else:
            return True
        idle = self._idle_after
        for ghost in crowd:
            if not ghost.spectator and (
                not ghost.joined or self._missed.get(ghost.name, 0) >= idle
            ):
                self._drop(ghost)
                self._send(b"UNREGISTERED", ghost.address)
                return True
        return False

    @property
    def _idle_after(self) -> int:
        """Misses after which a player is idle (no bound with `idle_after` 0)."""
        return self.options.idle_after or 1 << 62

    def _unregister(self, address: Address) -> None:
        client = self._by_address.get(address)
        if client is None:
            self.stats.ignored += 1
            return
        self._drop(client)
        self._send(b"UNREGISTERED", address)

    def _drop(self, client: Client) -> None:
        self._missed.pop(client.name, None)
        self._next_invite.pop(client.name, None)
        self._quiet.discard(client.address)
        self._unspun.pop(client.name, None)
        self.clients.pop(client.name, None)
        self._by_address.pop(client.address, None)

    def _hash(self, secret: str) -> bytes:
        return hashlib.sha256(self._salt + secret.encode("utf-8")).digest()

    # --- datagrams out ---------------------------------------------------------------------

    def _send(self, data: bytes, address: Address) -> None:
        """Queue a datagram; the queue goes out (`_flush`) before the server next waits:
        at the end of a registration, of a played answer or of a timer, before the join
        window is awaited, and at the end of a round."""
        self._outbox.append((data, address))

    def _flush(self) -> None:
        """Send what is queued, then read the awaited answers straight from the socket
        for a while (`_spin`)."""
        self._send_out()
        self._spin()

    def _spin(self) -> None:
        """Read the socket without sleeping while an answer is awaited, for up to
        `options.spin` seconds after the last answer played, yielding the CPU to any
        other runnable process meanwhile; what comes in is handled exactly as the
        event loop would hand it over (`datagram_received`). Nested calls (an answer
        played in here flushes too) return at once, after `_SPIN_LIMIT` seconds the
        event loop gets a turn first, and a player who let a spell run out is not
        waited for this way for a while (`_SPIN_RETRY`)."""
        budget = self.options.spin
        sock = self._sock
        if (
            budget <= 0
            or sock is None
            or self._spinning
            or self._spun >= _SPIN_LIMIT
            or not self._awaited_quick()
        ):
            return
        self._spinning = True
        recvfrom, clock, pause = sock.recvfrom, time.monotonic, os.sched_yield
        start = now = clock()
        deadline, limit = now + budget, now + _SPIN_LIMIT - self._spun
        question, invites = self._question, len(self._invites)
        handled = 0.0
        try:
            while self._awaited_quick():
                try:
                    data, addr = recvfrom(65536)
                except BlockingIOError:
                    if clock() > deadline:
                        self._unspin()
                        return
                    pause()
                    continue
                except OSError:
                    return  # an ICMP error: the event loop hands it to error_received
                self.stats.spun += 1
                handling = clock()
                try:
                    self.datagram_received(data, addr)
                except Exception as exc:  # noqa: BLE001 - as the event loop would report it
                    assert self._loop is not None
                    self._loop.call_exception_handler(
                        {"message": "datagram_received failed", "exception": exc}
                    )
                handled += clock() - handling
                if self._question is not question or len(self._invites) != invites:
                    question, invites = self._question, len(self._invites)
                    now = clock()
                    if now > limit:
                        return
                    deadline = now + budget
        finally:
            self._spinning = False
            if not self._spun:
                assert self._loop is not None, "start() the server first"
                self._loop.call_later(0, self._spin_again)
            spell = clock() - start
            self._spun += spell
            self.stats.spin_waited += spell - handled

    def _awaited_quick(self) -> bool:
        """Whether an answer is awaited from a player worth spinning for."""
        question = self._question
        if question is not None:
            return question.name not in self._unspun
        window = self._window
        if window is not None and window.done():
            return False  # the round starts: the invited still away are not waited for
        return any(name not in self._unspun for name in self._invites.values())

    def _unspin(self) -> None:
        """The players awaited let a spell run out: skip them for a while."""
        question = self._question
        late = [question.name] if question is not None else self._invites.values()
        for name in late:
            self._unspun[name] = _SPIN_RETRY

    def _asked(self, name: str) -> None:
        """Count a question towards the player's next spell (see `_unspin`)."""
        left = self._unspun.get(name)
        if left is not None:
            if left <= 1:
                del self._unspun[name]
            else:
                self._unspun[name] = left - 1

    def _spin_again(self) -> None:
        """A timer: the event loop had its turn since the server last read the socket."""
        self._spun = 0.0

    def _send_out(self) -> None:
        """Send what one step of a round produced, in one burst: a bot's process then
        wakes once for all its lines instead of once per line, which is most of what a
        round costs on a small machine. The player asked a question gets its lines
        first, so it can think while the others' lines go out; each client still
        receives its own lines in order. A full socket buffer drops a datagram (and
        counts it), as the network would: nothing queues without bound."""
        box, self._outbox = self._outbox, []
        urgent, self._urgent = self._urgent, None
        sock = self._sock
        if sock is None or not box:
            return
        sendto = sock.sendto
        dropped = 0
        if urgent is not None:
            for data, address in box:
                if address == urgent:
                    try:
                        sendto(data, address)
                    except OSError:
                        dropped += 1
        for data, address in box:
            if address != urgent:
                try:
                    sendto(data, address)
                except OSError:
                    dropped += 1
        self.stats.sent += len(box) - dropped
        self.stats.send_dropped += dropped

    def _tell(self, name: str, line: str) -> None:
        client = self.clients.get(name)
        if client is not None:
            self._send(line.encode("utf-8"), client.address)

    def _broadcast(self, line: str) -> None:
        """To every registered client, spectators included, except idle players."""
        data = line.encode("utf-8")
        quiet = self._quiet
        if quiet:
            self._outbox.extend([(data, a) for a in self._by_address if a not in quiet])
        else:
            self._outbox.extend([(data, address) for address in self._by_address])

    def _broadcast_scores(self) -> None:
        """The SCORE line, after every round (a canceled one too), as the canonical
        server sends it."""
        self._broadcast(proto.score_line(canonical_order(self.scores)))

    def _token(self) -> str:
        """16 hex digits from the operating system's generator, fetched 2 KiB at a time
        (one system call per 256 tokens instead of one per token)."""
        if not self._tokens:
            pool = secrets.token_bytes(8 * 256)
            self._tokens = [pool[i : i + 8].hex() for i in range(0, len(pool), 8)]
        return self._tokens.pop()

    def _ask(self, seat: _ClientSeat, prompt: Prompt) -> None:
        """Send the prompt as `YOUR TURN;token` or, to a player who just rolled,
        `ROLLED;dice;token`, and await the answer with that token (`_answer` plays it,
        `_on_timer` rules when none came). SeatFault if the player is gone."""
        if self._stopping:
            raise Stopped()
        view: MiaView = prompt.view
        seat.view = view
        name = seat.name
        client = self.clients.get(name)
        if client is None:
            raise SeatFault("left", f"{name} unregistered during the round")
        if view.phase == "hold":
            assert view.my_dice is not None, "a roll is followed by the roller's dice"
            line, commands = f"ROLLED;{_DICE[view.my_dice]}", _ANNOUNCE
        else:
            line, commands = "YOUR TURN", _TURN
        token = self._token()
        timeout = self.options.timeout
        self._question = _Question(
            name, token, commands, time.monotonic() + timeout, seat.index, prompt.state_id
        )
        if self._unspun:
            self._asked(name)
        self._urgent = client.address
        self._send(f"{line};{token}".encode(), client.address)
        if self._timer is None:
            loop = self._loop
            assert loop is not None, "start() the server first"
            self._timer = loop.call_later(timeout, self._on_timer)

    def _on_timer(self) -> None:
        """The question timer: rules against the player asked if its time is up, else
        waits on until the deadline of the question asked since the timer was armed."""
        self._timer = None
        question = self._question
        if question is None:
            return
        left = question.deadline - time.monotonic()
        if left > _TIMER_SLACK:
            loop = self._loop
            assert loop is not None
            self._timer = loop.call_later(left, self._on_timer)
            return
        self._question = None
        self.stats.timeouts += 1
        host = self._host
        if host is not None:
            self._guarded(lambda: host.fault(question.seat, "timeout", "no answer in time"))
        self._flush()

    def _end_round(self, result: Ruling | BaseException | None) -> None:
        """The round in play is over: the server's ruling, None when the engine ended
        it, or the exception that stopped it (raised in the round's coroutine)."""
        self._question = None
        done = self._round_done
        if done is None or done.done():
            return
        if isinstance(result, BaseException):
            done.set_exception(result)
        else:
            done.set_result(result)

    # --- rounds ----------------------------------------------------------------------------

    async def play_round(self) -> PlayedRound | None:
        """One round: invitations, then play; None if it was canceled. Its end is sent
        and it is booked before this returns."""
        try:
            await self._play_round()
        finally:
            played = self._book()
        return played

    def _book(self) -> PlayedRound | None:
        """Send what is queued (a held round's end first of all), then book the held
        round: its record made, the listeners told."""
        self._send_out()
        finish, self._held = self._held, None
        if finish is None:
            return None
        played = finish()
        for listener in self.listeners:
            listener(played)
        return played

    async def _play_round(self) -> None:
        """A round, up to its end queued and held (see `run`)."""
        self._invitations += 1
        number, due = self._invitations, self._next_invite
        players = [
            c.name
            for c in self.clients.values()
            if not c.spectator and due.get(c.name, 0) <= number
        ]
        if not players:
            self._book()
            if not any(not c.spectator for c in self.clients.values()):
                assert self._player_arrived is not None, "start() the server first"
                self._player_arrived.clear()
                await self._player_arrived.wait()
            else:  # everybody is idle and none is due: skip to the next one due
                self._invitations = min(due.values()) - 1
                await asyncio.sleep(self.options.idle_pause)
            return
        joined = await self._invite(players)
        if self._stopping:
            return
        if not joined:
            self.stats.canceled += 1
            self._broadcast("ROUND CANCELED;NO_PLAYERS")
            self._broadcast_scores()
            self._flush()
            await asyncio.sleep(self.options.idle_pause)
            return
        self.round_number += 1
        if len(joined) == 1:
            # As the canonical server: the lone joiner is scored for joining, and
            # everybody hears the scores after the cancellation.
            self.stats.canceled += 1
            self.scores[joined[0]] = self.scores.get(joined[0], 0) + 1
            self._broadcast(f"ROUND STARTED;{self.round_number};{joined[0]}")
            self._broadcast("ROUND CANCELED;ONLY_ONE_PLAYER")
            self._broadcast_scores()
            return
        try:
            self._held = await self._play(joined)
        except Stopped:
            return
        self.stats.rounds += 1

    async def _invite(self, players: list[str]) -> list[str]:
        size = self.options.table_size
        if size is not None and len(players) > size:
            players = self.shuffle.sample(players, size)
        self._joined = []
        self._invites = {}
        idle = self._idle_after
        missed = self._missed
        self._awaited = sum(missed.get(name, 0) < idle for name in players) or len(players)
        for name in players:
            token = self._token()
            self._invites[token] = name
            if self._unspun:
                self._asked(name)
            self._tell(name, f"ROUND STARTING;{token}")
        loop = self._loop
        assert loop is not None, "start() the server first"
        window: asyncio.Future[proto.Answer | None] = loop.create_future()
        self._all_joined = window if self.options.early_start else None
        self._window = window
        timer = loop.call_later(self.options.timeout, self._window_over, window)
        # The last round's end goes out first, with the invitations; it is booked while
        # the players answer them.
        self._book()
        self._spin()
        try:
            await window
        finally:
            timer.cancel()
            self._all_joined = None
        self._late = self._invites
        drop, retry = self.options.drop_after, max(1, self.options.idle_retry)
        for name in self._invites.values():
            misses = missed[name] = missed.get(name, 0) + 1
            client = self.clients.get(name)
            if misses >= idle:
                self._next_invite[name] = self._invitations + min(retry, 1 << (misses - idle))
                if client is not None:
                    self._quiet.add(client.address)
            if drop and misses >= drop and client is not None:
                self._drop(client)
                self._send(b"UNREGISTERED", client.address)
        for name in self._joined:
            if missed.pop(name, None) is not None:
                self._next_invite.pop(name, None)
                joiner = self.clients.get(name)
                if joiner is not None:
                    self._quiet.discard(joiner.address)
        self._invites = {}
        joined = [name for name in self._joined if name in self.clients]
        self._joined = []
        return joined

    def _window_over(self, window: asyncio.Future[proto.Answer | None]) -> None:
        if not window.done():
            self.stats.windows += 1
            window.set_result(None)

    async def _play(self, joined: list[str]) -> Callable[[], PlayedRound]:
        """Play the round and queue its end; returns what books it (see `run`)."""
        seats = list(joined)
        self.shuffle.shuffle(seats)
        dice = self.round_dice(self.round_number) if self.round_dice else self.dice
        if isinstance(dice, FairDice):
            for told in self.commitments:
                told(self.round_number, dice.commitment)
        table = Table(self.rules, len(seats), dice=dice, names=seats)
        n = len(seats)
        first = table.pending()  # the starter, drawn by the table's dice source
        assert first is not None, "a round starts with a player's move"
        starter = first.seat
        order = tuple(seats[(starter + k) % n] for k in range(n))
        self._broadcast(f"ROUND STARTED;{self.round_number};{','.join(order)}")
        ruling = await self._turns(table)
        points = dict.fromkeys(order, 1)  # new names enter the scores in play order
        if ruling is not None:
            losers: tuple[str, ...] = (ruling["player"],)
            reason = ruling["reason"]
            self._broadcast(proto.lost_line(losers, reason))
            points[ruling["player"]] -= 1
        else:
            outcome = table.outcome()
            assert outcome is not None
            points = {name: outcome.score[seats.index(name)] for name in order}
            penalties = self._penalties
            reason = proto.ENGINE_REASONS[penalties[0].reason]
            losers = tuple(sorted((seats[p.player] for p in penalties), key=order.index))
            self._broadcast(proto.lost_line(losers, reason))
        for name, gained in points.items():
            self.scores[name] = self.scores.get(name, 0) + gained
        # As the canonical server: everybody who has played, and nobody else.
        self._broadcast_scores()
        number, scores = self.round_number, dict(self.scores)

        def book() -> PlayedRound:
            record = Record(
                game=table.spec.name,
                rules=self._rules_text,
                players=n,
                steps=tuple(e.text for e in table.log),
            )
            # A round the server ruled on ends before the engine's end: its seed is
            # revealed all the same, since no die of it is ever drawn again.
            fair = (
                dice.fair_record(record, unfinished=ruling is not None)
                if isinstance(dice, FairDice)
                else None
            )
            return PlayedRound(
                number=number,
                order=order,
                record=record,
                seats=tuple(seats),
                losers=losers,
                reason=reason,
                ruling=ruling,
                points=points,
                scores=scores,
                dice=dice,
                fair=fair,
            )

        return book

    async def _turns(self, table: Table) -> Ruling | None:
        """Play the table's round on a host; returns the server's ruling if a player's
        fault stopped it (the losing line is sent by the caller), else None.

        The round moves on in `datagram_received` as each answer arrives (`_play_answer`)
        and in the question timer (`_on_timer`); this coroutine only waits for its end."""
        loop = self._loop
        assert loop is not None, "start() the server first"
        done: asyncio.Future[Ruling | None] = loop.create_future()
        seats = [_ClientSeat(self, index, name) for index, name in enumerate(table.names)]
        host = Host(table, seats, listeners=[self._lines])
        host.ended.append(self._round_over)
        self._round_done, self._table, self._host, self._seats = done, table, host, seats
        self._penalties = []
        try:
            self._guarded(host.start)
            self._flush()
            return await done
        finally:
            host.close()
            self._round_done = self._table = self._host = self._question = None
            self._seats = []

    def _guarded(self, step: Callable[[], object]) -> None:
        """Run a step of the round; whatever it raises ends the round with it."""
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - re-raised by the round's coroutine
            self._end_round(exc)

    def _play_answer(self, question: _Question, answer: proto.Answer) -> None:
        """Hand the awaited answer to the host as the seat's move: the host plays it and
        asks the next question, or stops the round on the table's refusal."""
        host = self._host
        assert host is not None, "a question is asked only while a round is in play"
        if answer.command == "ANNOUNCE":
            assert answer.value is not None, "an ANNOUNCE carries its dice"
            action: Any = Announce(answer.value)
        else:
            action = _CHALLENGE if answer.command == "SEE" else _ROLL
        try:
            host.offer(question.seat, Move(question.state_id, action))
        except Exception as exc:  # noqa: BLE001 - re-raised by the round's coroutine
            self._end_round(exc)

    def _lines(self, entry: Entry) -> None:
        """Host listener: a step of the round as the public protocol lines it makes, from
        the table's projection for a spectator. Penalties are kept for the round's one
        PLAYER LOST line."""
        table = self._table
        assert table is not None, "a step is heard only while a round is in play"
        update = table.update_for(entry, None, views=False)
        if update is None:
            return
        names = table.names
        for event in update.events:
            if isinstance(event, Penalty):
                self._penalties.append(event)
                continue
            line = _line(event, names)
            if line is not None:
                self._broadcast(line)

    def _round_over(self, host: Host) -> None:
        """The host ended the round: the engine did (None), or a player's fault stopped
        it and the server rules on it."""
        stopped = host.stopped
        self._end_round(None if stopped is None else self._ruling(stopped))

    def _ruling(self, stopped: HostStopped) -> Ruling:
        """What the protocol says of the fault that stopped the round. The table refuses
        a SEE before anything was announced and an announcement that does not beat the
        last one; the protocol shows the move all the same and its player loses. A player
        who let its time run out (or left) did not take its turn, or did not announce."""
        seat = self._seats[stopped.fault.seat]
        name = seat.name
        view = seat.view
        assert view is not None, "a seat faults only once it has been asked"
        action = stopped.action
        if stopped.refusal is not None:
            if isinstance(action, Challenge) and view.phase == "open":
                self._broadcast(f"PLAYER WANTS TO SEE;{name}")
                return {"player": name, "reason": proto.SEE_BEFORE_FIRST_ROLL}
            if isinstance(action, Announce) and view.phase == "hold":
                self._broadcast(f"ANNOUNCED;{name};{_DICE[action.value]}")
                return {
                    "player": name,
                    "reason": proto.ANNOUNCED_LOSING_DICE,
                    "announced": action.value,
                    "last": view.announced,
                }
            raise AssertionError(f"the table refused {action}: {stopped.refusal.reason}")
        reason = proto.DID_NOT_ANNOUNCE if view.phase == "hold" else proto.DID_NOT_TAKE_TURN
        return {"player": name, "reason": reason}


def _line(event: Any, names: tuple[str, ...]) -> str | None:
    """A public engine event as the protocol line everybody receives, if it has one.
    Penalties are gathered into one PLAYER LOST line at the end of the round."""
    kind = type(event)
    if kind is Rolled:
        return f"PLAYER ROLLS;{names[event.player]}"
    if kind is Announced:
        return f"ANNOUNCED;{names[event.player]};{_DICE[event.value]}"
    if kind is Challenged:
        return f"PLAYER WANTS TO SEE;{names[event.player]}"
    if kind is Revealed:
        return f"ACTUAL DICE;{_DICE[event.value]}"
    return None


def canonical_order(scores: dict[str, int]) -> list[tuple[str, int]]:
    """The scores in the canonical server's order: a JavaScript object's keys, so names
    that read as array indices ("7", "42") first, by value, then every other name in
    the order it first scored."""

    def index(name: str) -> int | None:
        if name.isascii() and name.isdigit() and (name == "0" or name[0] != "0"):
            value = int(name)
            if value < 2**32 - 1:
                return value
        return None

    numbered = sorted((i, name) for name in scores if (i := index(name)) is not None)
    first = [(name, scores[name]) for _, name in numbered]
    return first + [(name, points) for name, points in scores.items() if index(name) is None]


def _expire(future: asyncio.Future[proto.Answer | None]) -> None:
    if not future.done():
        future.set_result(None)


def fair_rounds(seed: int | None = None) -> Callable[[int], FairDice]:
    """`round_dice` for provably fair rounds: each round gets its own server seed, so
    revealing it after the round shows nothing of the rounds to come. With `seed` the
    seeds are derived from it and the round number (reproducible test contests; anyone
    who knows the seed knows every die, so it proves nothing to players)."""

    def round_dice(number: int) -> FairDice:
        if seed is None:
            return FairDice()
        text = f"{SCHEME} maexchen seed {seed} round {number}"
        return FairDice(hashlib.sha256(text.encode()).digest())

    return round_dice


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """uvloop's event loop when it is installed (the `fast` extra), else asyncio's.

    The server spends a good part of a round in the event loop (a wake-up per datagram
    it reads), and uvloop's loop costs less per wake-up; `bluffdice serve --maexchen`
    gets it through uvicorn anyway, so `bluffdice maexchen` uses it too."""
    try:
        import uvloop  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return asyncio.new_event_loop
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def dice_source(seed: int | None) -> tuple[DiceSource, random.Random]:
    """Dice and seat shuffles: from the operating system's cryptographic generator, or
    reproducible from `seed` (one generator for both)."""
    if seed is None:
        return system(), secrets.SystemRandom()
    rng = random.Random(seed)
    return seeded(rng), rng


__all__ = [
    "Client",
    "MaexchenServer",
    "Options",
    "PlayedRound",
    "Stats",
    "dice_source",
    "fair_rounds",
    "loop_factory",
    "round_rules",
]
