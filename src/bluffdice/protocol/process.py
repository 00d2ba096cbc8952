"""A bot program in a child process: start it, write lines to it, read lines with a
deadline, and end it, whatever it does.

Nothing here trusts the child: it runs in a sandbox (`bluffdice.sandbox`) unless the
user said otherwise; reads and writes never block (a bot that stops reading its input
cannot stall the table); lines have a size bound; its standard error comes through a
pipe of which only the tail is kept, and only so many bytes are read; and closing it
ends everything it started.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Final

from bluffdice.errors import BluffdiceError
from bluffdice.protocol.limits import Limits, child_setup, die_with_parent
from bluffdice.sandbox import require
from bluffdice.sandbox.bubblewrap import CLEAN_ENV, argv, as_root, new_uid
from bluffdice.sandbox.cgroups import Group
from bluffdice.table.host import SeatFault

MAX_LINE: Final = 1 << 20
"""Longest line a bot may write (bytes); a longer one is garbage."""
MAX_PENDING: Final = 16 << 20
"""Most bytes queued for a bot that does not read its input."""
STDERR_TAIL: Final = 600
STDERR_KEPT: Final = 8192
"""Bytes of the bot's standard error kept (the last ones) for messages."""


class BotFault(SeatFault):
    """A bot program broke the protocol or its limits; `kind` says how."""


class BotProcess:
    """One running bot program."""

    def __init__(self, command: Sequence[str], limits: Limits, cwd: str | None = None) -> None:
        self.command = tuple(command)
        self.limits = limits
        self.group: Group | None = None
        """The control group bounding the sandbox's whole tree, where one could be made."""
        launched, setup = self._launch(cwd or os.getcwd())
        try:
            self.proc = subprocess.Popen(  # noqa: S603 - running the user's bot is the point
                launched,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
                env=CLEAN_ENV if self.limits.isolation == "sandbox" else None,
                preexec_fn=setup,  # noqa: PLW1509 - rlimits and the control group need it
                close_fds=True,
            )
        except OSError as exc:
            self._drop_group()
            raise BotFault("crash", f"cannot start {' '.join(self.command)}: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        assert self.proc.stderr is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err: int | None = self.proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._pending = bytearray()
        self._buffer = bytearray()
        self._stderr = bytearray()
        self._stderr_read = 0
        self.transcript: list[tuple[str, bytes]] | None = None
        """Set to a list to keep every line: ("table", sent) and ("bot", received)."""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._selector.register(self._err, selectors.EVENT_READ)

    def _launch(self, cwd: str) -> tuple[list[str], Callable[[], None]]:
        """The command to start and what the child does between fork and exec."""
        limits = self.limits
        if limits.isolation == "process":
            return list(self.command), child_setup(limits)
        try:
            require(limits.isolation)
        except BluffdiceError as exc:
            raise BotFault("crash", str(exc)) from None
        self.group = Group.make(limits.memory_mb, limits.processes)
        joins = [os.fsencode(f) for f in self.group.join_files()] if self.group else []
        launched = argv(
            self.command,
            cwd=cwd,
            uid=new_uid() if as_root() else 0,
            processes=limits.processes,
            memory_mb=limits.memory_mb,
            cpu_seconds=limits.cpu_seconds,
            file_mb=limits.file_mb,
            open_files=1024,
        )
        parent = os.getpid()

        def setup() -> None:
            pid = str(os.getpid()).encode()
            for path in joins:
                fd = os.open(path, os.O_WRONLY)
                os.write(fd, pid)
                os.close(fd)
            die_with_parent(parent)

        return launched, setup

    def _drop_group(self) -> None:
        if self.group is not None:
            self.group.kill()
            self.group.remove()
            self.group = None

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
            ready = self._selector.select(wait)
            if not ready:
                continue
            if any(key.fd == self._err for key, _ in ready):
                self._read_stderr()
            if not any(key.fd == self._out for key, _ in ready):
                continue
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._ended()
            self._buffer += chunk

    def _read_stderr(self) -> None:
        """Take what the bot wrote to its standard error: keep the tail, and close the
        pipe once it wrote more than its limit (the bot then gets EPIPE, the host no
        more work)."""
        if self._err is None:
            return
        while True:
            try:
                chunk = os.read(self._err, 65536)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._close_stderr()
                return
            self._stderr_read += len(chunk)
            self._stderr += chunk
            del self._stderr[:-STDERR_KEPT]
            if self._stderr_read > self.limits.stderr_mb << 20:
                self._stderr += b"\n(more standard error was not read)"
                self._close_stderr()
                return

    def _close_stderr(self) -> None:
        if self._err is None:
            return
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(self._err)
        assert self.proc.stderr is not None
        with contextlib.suppress(OSError):
            self.proc.stderr.close()
        self._err = None

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
        if self.group is not None and self.group.out_of_memory():
            used = f"{self.limits.memory_mb} MiB"
            return BotFault("crash", f"the bot's processes used more than {used}" + self._tail())
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
        self._read_stderr()
        return bytes(self._stderr[-limit:]).decode("utf-8", "replace").strip()

    def _tail(self) -> str:
        tail = self.stderr_tail()
        lines = [line.strip() for line in tail.splitlines() if line.strip()][-3:]
        return f"; its stderr ends: {' | '.join(lines)}" if lines else ""

    def close(self) -> None:
        """End the bot and everything it started (the sandbox's pid namespace dies with
        its first process; the control group catches anything else), and its pipes."""
        self._read_stderr()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait()
        self._drop_group()
        self._close_stderr()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._selector.close()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
