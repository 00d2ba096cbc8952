"""`bluffdice bot check`: a bot program put through scripted situations of each game.

Each situation is a short script of moves by the other seats that brings a game to a
moment worth testing (the first move, a Mia to answer, a bid that only a challenge can
answer, a last die, the move after a timeout). The bot then joins the game as a
reconnecting seat would (its `start` carries the history so far), is asked to move,
and its answer is judged: in time, well formed, legal, and where only one move makes
sense, that move. The same process plays every situation, one game after another, as
a tournament worker would use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from bluffdice.games.registry import get_game
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.process import BotFault
from bluffdice.table import Accepted, Entry, Refused, Table, WireError, decode_move, encode, seeded


@dataclass(frozen=True)
class Situation:
    game: str
    name: str
    rules: str
    players: int
    script: tuple[str, ...]
    """Moves of the other seats, as text; the bot sits in the seat to move after them."""
    expect: str | None = None
    """The one sensible move (its text), or None when any legal move will do."""
    timeout: bool = False
    """Let the first prompt time out before the bot answers, then ask again."""


SITUATIONS: tuple[Situation, ...] = (
    Situation("mia", "first move", "mia", 3, ()),
    Situation("mia", "announce after a blind roll", "mia", 3, ("roll",)),
    Situation("mia", "answer to Mia", "mia", 3, ("roll", "21")),
    Situation("mia", "answer to a high claim", "mia", 2, ("roll", "66")),
    Situation("mia", "move after a timeout", "mia", 2, (), timeout=True),
    Situation("liars-dice", "first bid", "liars-dice", 3, ()),
    Situation("liars-dice", "forced challenge", "liars-dice(dice=2)", 2, ("4x6",), expect="liar"),
    Situation("liars-dice", "last die", "liars-dice(dice=1)", 2, ("1x2",)),
    Situation("liars-dice", "move after a timeout", "liars-dice", 2, (), timeout=True),
    Situation("common-hand", "first claim", "common-hand", 2, ()),
    Situation("common-hand", "move after a timeout", "common-hand", 2, (), timeout=True),
)


class Finding(msgspec.Struct, frozen=True):
    game: str
    situation: str
    ok: bool
    detail: str


def check(command: Sequence[str], limits: Limits, seed: int = 1) -> tuple[str, list[Finding]]:
    """The bot's name and a finding per situation of every game it says it plays."""
    try:
        bot = ProcessBot(command, limits)
    except BotFault as fault:
        return "?", [Finding("-", "start and hello", False, f"{fault.kind}: {fault}")]
    name = bot.name
    findings = [Finding("-", "start and hello", True, f"{name} plays {', '.join(bot.games)}")]
    try:
        for situation in SITUATIONS:
            if situation.game not in bot.games:
                continue
            try:
                detail = _run(bot, situation, limits, seed)
                findings.append(
                    Finding(situation.game, situation.name, detail is None, detail or "ok")
                )
            except BotFault as fault:
                findings.append(
                    Finding(situation.game, situation.name, False, f"{fault.kind}: {fault}")
                )
            if bot.broken or not bot.process.alive:
                bot.close()
                bot = ProcessBot(command, limits)
        unknown = [g for g in bot.games if g not in {s.game for s in SITUATIONS}]
        if unknown:
            findings.append(Finding(",".join(unknown), "games", False, "no game of that name"))
    finally:
        bot.close()
    return name, findings


def _run(bot: ProcessBot, situation: Situation, limits: Limits, seed: int) -> str | None:
    """Play the situation; None if the bot did well, else what it did wrong."""
    spec = get_game(situation.game)
    table = Table(situation.rules, situation.players, dice=seeded(seed))
    for text in situation.script:
        pending = table.pending()
        assert pending is not None
        result = table.submit(pending.seat, pending.state_id, spec.parse_action(text))
        assert isinstance(result, Accepted), f"script of {situation.name}: {result}"
    pending = table.pending()
    assert pending is not None
    seat = pending.seat
    table.limits = tuple(limits.move_time if s == seat else None for s in range(table.players))
    table.deadline = table.clock() + limits.move_time
    bot.start(table.welcome(seat), seed)

    def tell(entry: Entry) -> None:
        update = table.update_for(entry, seat)
        if update is not None:
            bot.tell(update)

    table.listeners.append(tell)
    if situation.timeout:
        prompt = table.prompt()
        assert prompt is not None
        bot.tell_raw(encode(prompt))
        table.force_default()  # the bot's clock ran out before its answer came
        late = bot.process.receive(limits.move_time)
        try:
            move = decode_move(late)
        except WireError as exc:
            return f"garbage instead of a move: {exc}"
        refusal = table.submit(seat, move.state_id, move.action)
        if not isinstance(refusal, Refused):
            return "a late move was taken: the test cannot go on"
        bot.tell(refusal)
        if table.pending() is None or table.pending().seat != seat:  # type: ignore[union-attr]
            return None
    prompt = table.prompt()
    assert prompt is not None
    move = bot.move(prompt)
    result = table.submit(seat, move.state_id, move.action)
    if isinstance(result, Refused):
        bot.broken = True
        return f"move {move.action} refused ({result.code}): {result.reason}"
    made = str(move.action)
    if situation.expect is not None and made != situation.expect:
        return f"made {made}; the only sensible move is {situation.expect}"
    return None
