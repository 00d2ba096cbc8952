"""House bots: the built-in Mia bots as contest players, over UDP like everybody else.

A house bot is a UDP client of the server. It knows only what the protocol tells it:
`LineView` rebuilds, from the lines it receives, the `MiaView` the bot would get at an
engine table (seats in play order, the round's announcements, its own roll, the legal
answers) and the events it may observe, and turns the bot's action back into a line.
Nothing is read from the server's memory.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from bluffdice.bots.base import Bot, load_bot
from bluffdice.games.base import Event
from bluffdice.games.mia import Announce, Call, Challenge, MiaRules, MiaView, Roll
from bluffdice.games.mia.actions import (
    Announced,
    Challenged,
    Penalty,
    Revealed,
    Rolled,
    RoundStarted,
)
from bluffdice.games.mia.rules import PRESETS
from bluffdice.maexchen import wire as proto

_ENGINE_REASON = {
    proto.CAUGHT_BLUFFING: "caught_bluffing",
    proto.SEE_FAILED: "see_failed",
    proto.MIA: "mia",
    proto.LIED_ABOUT_MIA: "lied_about_mia",
}


class LineView:
    """What one player has learnt from the protocol lines, as the engine's view."""

    def __init__(self, me: str, rules: MiaRules | None = None) -> None:
        self.me = me
        self.rules = rules or PRESETS["maexchen"]
        self.names: list[str] = []
        self.calls: list[Call] = []
        self.round = 0
        self.steps = 0
        self.scores: dict[str, int] = {}
        self.revealed: int | None = None

    @property
    def seat(self) -> int | None:
        return self.names.index(self.me) if self.me in self.names else None

    def read(self, line: str) -> list[Event]:
        """Take in one line; returns the engine events it stands for (to observe)."""
        fields = line.split(";")
        command = fields[0]
        seat_of = {name: i for i, name in enumerate(self.names)}
        events: list[Event] = []
        if command == "ROUND STARTED" and len(fields) == 3:
            self.names = fields[2].split(",")
            self.round = int(fields[1]) if fields[1].isdigit() else self.round + 1
            self.calls = []
            self.steps = 0
            self.revealed = None
            if len(self.names) > 1:
                events.append(RoundStarted(round=self.round, starter=0))
        elif command == "PLAYER ROLLS" and fields[1] in seat_of:
            self.steps += 1
            events.append(Rolled(player=seat_of[fields[1]]))
        elif command == "ANNOUNCED" and len(fields) == 3 and fields[1] in seat_of:
            value = proto.parse_dice(fields[2])
            if value is not None:
                self.steps += 1
                self.calls.append(Call(seat_of[fields[1]], "announce", value))
                events.append(Announced(player=seat_of[fields[1]], value=value))
        elif command == "PLAYER WANTS TO SEE" and fields[1] in seat_of and self.calls:
            self.steps += 1
            last = self.calls[-1]
            events.append(
                Challenged(player=seat_of[fields[1]], announcer=last.player, announced=last.value)
            )
        elif command == "ACTUAL DICE" and self.calls:
            value = proto.parse_dice(fields[1])
            if value is not None:
                self.revealed = value
                announced = self.calls[-1].value
                ranking = self.rules.ranking
                truthful = ranking.rank(value) >= ranking.rank(announced)
                events.append(Revealed(value=value, announced=announced, truthful=truthful))
        elif command == "PLAYER LOST" and len(fields) == 3:
            reason = _ENGINE_REASON.get(fields[2], fields[2].lower())
            for name in fields[1].split(","):
                if name in seat_of:
                    events.append(Penalty(player=seat_of[name], amount=1, reason=reason))
        elif command == "SCORE":
            for pair in fields[1].split(",") if len(fields) > 1 else ():
                name, _, points = pair.rpartition(":")
                if name and points.lstrip("-").isdigit():
                    self.scores[name] = int(points)
        return events

    def view(self, dice: int | None = None) -> MiaView:
        """The view at YOUR TURN (dice None) or at ROLLED (the dice just rolled)."""
        ranking = self.rules.ranking
        me = self.seat
        n = len(self.names)
        announced = self.calls[-1].value if self.calls else None
        legal: tuple[Any, ...]
        if dice is not None:
            phase = "hold"
            values = ranking.worst_first if announced is None else ranking.above[announced]
            legal = tuple(Announce(v) for v in values)
        elif announced is None:
            phase, legal = "open", (Roll(),)
        else:
            phase, legal = "respond", (Challenge(), Roll())
        return MiaView(
            rules=self.rules.text,
            player=me,
            players=n,
            state_id=self.steps,
            phase=phase,
            turn=me if me is not None else -1,
            round=self.round,
            lives=(self.rules.lives,) * n,
            score=tuple(self.scores.get(name, 0) for name in self.names),
            drinks=(0,) * n,
            out=(False,) * n,
            announced=announced,
            announcer=self.calls[-1].player if self.calls else None,
            calls=tuple(self.calls),
            my_dice=dice,
            looked=dice is not None,
            legal_actions=legal,
            last_round=None,
            result=None,
        )


def answer_line(action: Any, view: MiaView, token: str) -> str:
    """The protocol line for a bot's action; an action the protocol cannot say becomes
    the most modest legal one (roll; the truth if it beats the last, else the lowest)."""
    if view.phase == "hold":
        values = [a.value for a in view.legal_actions if isinstance(a, Announce)]
        if not (isinstance(action, Announce) and action.value in values):
            truth = view.my_dice
            action = Announce(truth if truth in values else values[0])
        return f"ANNOUNCE;{proto.dice(action.value)};{token}"
    if isinstance(action, Challenge) and view.phase == "respond":
        return f"SEE;{token}"
    return f"ROLL;{token}"


class HouseBot(asyncio.DatagramProtocol):
    """One built-in bot playing over UDP: registers, joins every round, answers."""

    def __init__(
        self,
        bot: Bot,
        name: str,
        server: tuple[str, int],
        secret: str | None = None,
        rules: MiaRules | None = None,
    ) -> None:
        self.bot = bot
        self.name = name
        self.server = server
        self.secret = secret
        self.lines = LineView(name, rules)
        self.transport: asyncio.DatagramTransport | None = None
        self.registered = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        register = f"REGISTER;{self.name}" + (f";{self.secret}" if self.secret else "")
        transport.sendto(register.encode())

    def datagram_received(self, data: bytes, addr: Any) -> None:
        line = data.decode("utf-8", "replace")
        reply = self.handle(line)
        if reply is not None and self.transport is not None:
            self.transport.sendto(reply.encode())

    def error_received(self, exc: Exception) -> None:
        """The server may be gone for a moment; the next round will tell."""

    def handle(self, line: str) -> str | None:
        fields = line.split(";")
        command = fields[0]
        if command in ("REGISTERED", "REJECTED") and not self.registered.done():
            self.registered.set_result(line)
            return None
        if command == "ROUND STARTING" and len(fields) == 2:
            return f"JOIN;{fields[1]}"
        if command == "YOUR TURN" and len(fields) == 2:
            view = self.lines.view()
            return answer_line(self.bot.act(view), view, fields[1])
        if command == "ROLLED" and len(fields) == 3:
            dice = proto.parse_dice(fields[1])
            if dice is None:
                return None
            view = self.lines.view(dice)
            return answer_line(self.bot.act(view), view, fields[2])
        events = self.lines.read(line)
        if events:
            self.bot.observe(events)
        return None

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def warm_up(bot: Bot, name: str, rules: MiaRules | None = None) -> None:
    """Let the bot make its first decisions before it plays: some load tables or a
    solved policy then, which would otherwise cost the first rounds' answers."""
    lines = LineView(name, rules)
    lines.read(f"ROUND STARTED;0;warm-up,{name}")
    lines.read("ANNOUNCED;warm-up;4,3")
    bot.act(lines.view())
    bot.act(lines.view(dice=52))


def house_names(specs: Sequence[str]) -> list[str]:
    """Contest names for bot specs: `house-odds`, `house-odds-2`, ... (20 characters)."""
    names: list[str] = []
    for spec in specs:
        base = "house-" + "".join(c for c in spec.split(":")[-1] if c.isalnum() or c in "-_")
        base = base[: proto.NAME_LIMIT - 3]
        name, k = base, 1
        while name in names:
            k += 1
            name = f"{base}-{k}"
        names.append(name)
    return names


async def start_house_bots(
    specs: Sequence[str],
    server: tuple[str, int],
    rng: random.Random | None = None,
    secret: str | None = None,
    rules: MiaRules | None = None,
) -> list[HouseBot]:
    """Load the bots and register each as a player; raises if the server rejects one."""
    loop = asyncio.get_running_loop()
    host = "127.0.0.1" if server[0] in ("0.0.0.0", "") else server[0]
    target = (host, server[1])
    bots: list[HouseBot] = []
    for spec, name in zip(specs, house_names(specs), strict=True):
        bot = load_bot(spec, "mia", random.Random(rng.getrandbits(64)) if rng else None)
        warm_up(bot, name, rules)
        _, house = await loop.create_datagram_endpoint(
            lambda bot=bot, name=name: HouseBot(bot, name, target, secret, rules),  # type: ignore[misc]
            remote_addr=target,
        )
        reply = await asyncio.wait_for(house.registered, 5.0)
        if reply != "REGISTERED":
            house.close()
            raise RuntimeError(f"house bot {name} was not registered: {reply}")
        bots.append(house)
    return bots
