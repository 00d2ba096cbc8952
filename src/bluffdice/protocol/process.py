"""A bot program in a child process: start it, write lines to it, read lines with a
deadline, and end it, whatever it does.

Nothing here trusts the child: reads and writes never block (a bot that stops reading
its input cannot stall the table), lines have a size bound, its standard error goes to
a private file whose tail is quoted when it fails, and it runs in its own process group
with the bounds of `limits`, killed with its parent.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Final, Literal

from bluffdice.protocol.limits import Limits, child_setup

FaultKind = Literal["timeout", "crash", "exit", "garbage", "illegal", "error"]

MAX_LINE: Final = 1 << 20
"""Longest line a bot may write (bytes); a longer one is garbage."""
MAX_PENDING: Final = 16 << 20
"""Most bytes queued for a bot that does not read its input."""
STDERR_TAIL: Final = 600


class BotFault(Exception):
    """A bot broke the protocol or its limits; `kind` says how."""

    def __init__(self, kind: FaultKind, message: str) -> None:
        super().__init__(message)
        self.kind: FaultKind = kind


class BotProcess:
    """One running bot program."""

    def __init__(self, command: Sequence[str], limits: Limits, cwd: str | None = None) -> None:
        self.command = tuple(command)
        self.limits = limits
        self._stderr: IO[bytes] = tempfile.TemporaryFile(prefix="bluffdice-bot-")  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(  # noqa: S603 - running the user's bot is the point
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=cwd,
                start_new_session=True,
                preexec_fn=child_setup(limits),  # noqa: PLW1509 - rlimits need it
                close_fds=True,
            )
        except OSError as exc:
            self._stderr.close()
            raise BotFault("crash", f"cannot start {' '.join(self.command)}: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._pending = bytearray()
        self._buffer = bytearray()
        self.transcript: list[tuple[str, bytes]] | None = None
        """Set to a list to keep every line: ("table", sent) and ("bot", received)."""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, line: bytes, now: bool = True) -> None:
        """Queue one message (a newline is added); with `now`, write what the pipe takes
        at once, else leave it for the next message sent now (or the next `receive`)."""
        if self.transcript is not None:
            self.transcript.append(("table", line))
        self._pending += line
        self._pending += b"\n"
        if len(self._pending) > MAX_PENDING:
            raise BotFault("timeout", "the bot stopped reading its input")
        if now:
            self._flush()

    def _flush(self) -> None:
        while self._pending:
            try:
                written = os.write(self._in, self._pending)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._pending.clear()
                raise self._ended() from None
            del self._pending[:written]

    def receive(self, timeout: float | None) -> bytes:
        """The bot's next line (without the newline); BotFault if none comes in time."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            line = self._take_line()
            if line is not None:
                if self.transcript is not None:
                    self.transcript.append(("bot", line))
                return line
            self._flush()
            left: float | None = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise BotFault("timeout", f"no answer within {timeout:.3g} s")
            if self._pending:
                self._selector.modify(self._out, selectors.EVENT_READ)
                wait: float | None = 0.01 if left is None else min(left, 0.01)
            else:
                wait = left
            if not self._selector.select(wait):
                continue
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._ended()
            self._buffer += chunk

    def _take_line(self) -> bytes | None:
        end = self._buffer.find(b"\n")
        if end < 0:
            if len(self._buffer) > MAX_LINE:
                raise BotFault("garbage", f"a line longer than {MAX_LINE} bytes")
            return None
        line = bytes(self._buffer[:end]).rstrip(b"\r")
        del self._buffer[: end + 1]
        if len(line) > MAX_LINE:
            raise BotFault("garbage", f"a line longer than {MAX_LINE} bytes")
        return line

    def _ended(self) -> BotFault:
        """The fault for a bot whose pipes closed: it exited, or was killed."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return BotFault("crash", "the bot closed its output" + self._tail())
        if code == 0:
            return BotFault("exit", "the bot exited (status 0) during the game" + self._tail())
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return BotFault("crash", f"the bot was killed by {name}" + self._tail())
        return BotFault("crash", f"the bot exited with status {code}" + self._tail())

    def stderr_tail(self, limit: int = STDERR_TAIL) -> str:
        """The end of what the bot wrote to its standard error."""
        try:
            self._stderr.flush()
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - limit))
            text = self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        return text.strip()

    def _tail(self) -> str:
        tail = self.stderr_tail()
        lines = [line.strip() for line in tail.splitlines() if line.strip()][-3:]
        return f"; its stderr ends: {' | '.join(lines)}" if lines else ""

    def close(self) -> None:
        """End the bot and everything it started (its process group), and its files."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._selector.close()
        self._stderr.close()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
