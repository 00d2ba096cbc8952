"""A bot program speaking the protocol: hello, then one game after another.

`ProcessBot` is the table's side of the conversation with one child process. It
sends a seat's messages, exactly the encoded wire messages the table makes for that
seat, and reads moves with the move's deadline. A process plays one seat at a time and
may play many games in a row (tournament workers keep it for the next game).
"""

from __future__ import annotations

from collections.abc import Sequence

from bluffdice.protocol.limits import Limits
from bluffdice.protocol.messages import decode_hello, start_message
from bluffdice.protocol.process import BotFault, BotProcess
from bluffdice.table import Move, Prompt, Refused, Update, Welcome, WireError, decode_move, encode


class ProcessBot:
    """A started bot program that has said hello."""

    def __init__(self, command: Sequence[str], limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.process = BotProcess(command, self.limits)
        try:
            line = self.process.receive(self.limits.start_time)
            hello = decode_hello(line)
        except WireError as exc:
            self.process.close()
            raise BotFault("garbage", str(exc)) from None
        except BotFault:
            self.process.close()
            raise
        self.name = hello.name
        self.games = hello.games
        self.broken = False

    @property
    def command(self) -> tuple[str, ...]:
        return self.process.command

    def start(self, welcome: Welcome, seed: int) -> None:
        """A new game: the seat's welcome, with a seed for the bot's random choices."""
        self._send(start_message(seed, welcome), now=False)

    def tell(self, message: Update | Refused) -> None:
        """Queue a message; it leaves with the next prompt. A bot is woken once per
        turn, not once per seat per step: on a busy machine each wake-up costs a
        scheduling delay."""
        self._send(encode(message), now=False)

    def tell_raw(self, data: bytes) -> None:
        """Send an encoded message as it is (a prompt whose answer is read later)."""
        self._send(data)

    def move(self, prompt: Prompt) -> Move:
        """Ask for a move and wait for it until the prompt's time is up."""
        self._send(encode(prompt))
        timeout = prompt.time_left if prompt.time_left is not None else self.limits.move_time
        try:
            line = self.process.receive(timeout)
        except BotFault:
            self.broken = True
            raise
        try:
            return decode_move(line)
        except WireError as exc:
            self.broken = True
            shown = line[:120].decode("utf-8", "replace")
            raise BotFault("garbage", f"not a move: {shown!r} ({exc})") from None

    def _send(self, data: bytes, now: bool = True) -> None:
        try:
            self.process.send(data, now)
        except BotFault:
            self.broken = True
            raise

    def close(self) -> None:
        self.process.close()
