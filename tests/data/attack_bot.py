# ruff: noqa: SIM115 - an attacker opens /proc files the short way
"""A bot that cheats, or tries to: the attacks the sandbox must block, at the OS level.

Two forms in one file, as bot authors write them:
- a program on the stdio protocol: `cmd:python3 attack_bot.py KIND`;
- a Python bot file: `attack_bot.py:KindName` (one `Bot` class per attack).

It runs its attack once, when it starts, and says what it got in its name (the only
channel a sandboxed bot has to the test), e.g. `memory:5f3a9c0d1e2b` when it read the
host's canary, `memory:blocked` when it could not. The constants below are written by
the test before the run (`TARGETS`); KIND `none` is the honest twin.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import signal
import socket
import sqlite3
import sys
import time

TARGETS: dict[str, object] = {}  # the test replaces this line
CANARY = re.compile(rb"BLUFFDICE-CANARY-([0-9a-f]{32})")
SECRET_ENV = "BLUFFDICE_TEST_SECRET"
LIBC = ctypes.CDLL(None, use_errno=True)


def others() -> list[int]:
    """Every process this bot can name, its parent first."""
    seen = [os.getppid()]
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in (os.getpid(), *seen):
            seen.append(int(entry))
    return [p for p in seen if p > 0]


def regions(pid: int) -> list[tuple[int, int]]:
    found = []
    with contextlib.suppress(OSError):
        for line in open(f"/proc/{pid}/maps"):
            span, perms = line.split()[:2]
            if perms.startswith("rw") and "[vvar" not in line:
                start, end = (int(x, 16) for x in span.split("-"))
                if end - start <= 1 << 28:
                    found.append((start, end))
    return found


CHUNK = 8 << 20
"""Bytes read at a time: an attacker under a memory limit reads a large region in
pieces (each overlaps the last by a canary's length, so none is cut in two)."""
OVERLAP = 64


def chunks(start: int, end: int) -> list[tuple[int, int]]:
    return [(at, min(end, at + CHUNK + OVERLAP)) for at in range(start, end, CHUNK)]


def scan_mem(pid: int) -> str | None:
    try:
        mem = open(f"/proc/{pid}/mem", "rb", buffering=0)  # noqa: SIM115
    except OSError:
        return None
    with mem:
        for region in regions(pid):
            for start, end in chunks(*region):
                try:
                    mem.seek(start)
                    hit = CANARY.search(mem.read(end - start))
                except (OSError, ValueError, OverflowError):
                    break
                if hit:
                    return hit.group(1).decode()
    return None


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def scan_vm(pid: int) -> str | None:
    buffer = ctypes.create_string_buffer(CHUNK + OVERLAP)
    for region in regions(pid):
        for start, end in chunks(*region):
            size = end - start
            local = IOVec(ctypes.cast(buffer, ctypes.c_void_p), size)
            remote = IOVec(start, size)
            got = LIBC.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
            if got <= 0:
                break
            hit = CANARY.search(buffer.raw[:got])
            if hit:
                return hit.group(1).decode()
    return None


def first(values: object) -> str:
    for value in values:  # type: ignore[attr-defined]
        if value:
            return str(value)[:12]
    return "blocked"


def memory() -> str:
    return first(scan_mem(p) for p in others())


def vmread() -> str:
    return first(scan_vm(p) for p in others())


def ptrace() -> str:
    for pid in others():
        if LIBC.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
            time.sleep(0.05)
            LIBC.ptrace(17, pid, 0, 0)  # PTRACE_DETACH
            return "attached"
    return "blocked"


def cmdline() -> str:
    for pid in others():
        with contextlib.suppress(OSError):
            words = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            if b"--seed" in words:
                return words[words.index(b"--seed") + 1].decode()[:12]
    return "blocked"


def environ() -> str:
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV][:12]
    for pid in others():
        with contextlib.suppress(OSError):
            for item in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"):
                if item.startswith(SECRET_ENV.encode() + b"="):
                    return item.split(b"=", 1)[1].decode()[:12]
    return "blocked"


def readdb() -> str:
    try:
        uri = f"file:{TARGETS['db']}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            row = db.execute("select seed from tournaments").fetchone()
        return str(row[0])[:12]
    except (sqlite3.Error, KeyError, TypeError):
        return "blocked"


def writedb() -> str:
    try:
        with open(str(TARGETS["db"]), "r+b") as db:
            db.seek(0, os.SEEK_END)
            db.write(b"")
            db.flush()
        return "opened"
    except OSError:
        return "blocked"


def secretfile() -> str:
    try:
        return open(str(TARGETS["secret_file"])).read().strip()[:12]
    except OSError:
        return "blocked"


def connect() -> str:
    try:
        with socket.create_connection(("127.0.0.1", int(TARGETS["port"])), timeout=2):  # type: ignore[call-overload]
            return "connected"
    except OSError:
        return "blocked"


KEPT: list[object] = []


def listen() -> str:
    try:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("0.0.0.0", int(TARGETS["listen_port"])))  # type: ignore[call-overload]
        server.listen()
        KEPT.append(server)
        return "listening"
    except OSError:
        return "blocked"


def daemon() -> str:
    marker = str(TARGETS["marker"])
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in range(3):
                with contextlib.suppress(OSError):
                    os.close(fd)
            os.execv("/bin/sh", ["/bin/sh", "-c", "sleep 600", marker])
        os._exit(0)
    os.wait()
    return "started"


def forks() -> str:
    made = 0
    for _ in range(50):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        made += 1
    return f"{made}forks"


def split() -> str:
    """Three children, each holding 300 MiB (under a 512 MiB per-process bound): how many
    hold theirs at the same time (the kernel may kill one to make room for the next)."""
    children = []
    for _ in range(3):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            block = bytearray(300 << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            os.write(write, b"1")
            time.sleep(30)
            os._exit(0)
        os.close(write)
        if os.read(read, 1) == b"1":
            children.append(pid)
        os.close(read)
    time.sleep(0.3)
    held = sum(1 for pid in children if os.waitpid(pid, os.WNOHANG) == (0, 0))
    return f"{held}held"


def stderr() -> str:
    chunk = b"x" * (1 << 20)
    written = 0
    try:
        for _ in range(1024):
            written += os.write(2, chunk)
    except OSError:
        return f"cut{written >> 20}"
    return "wrote1024"


def signal_host(sig: int, done: str) -> str:
    """Send `sig` to every process it can see that runs bluffdice (the tournament)."""
    hit = 0
    for pid in others():
        with contextlib.suppress(OSError):
            if b"bluffdice" in open(f"/proc/{pid}/cmdline", "rb").read():
                os.kill(pid, sig)
                hit += 1
    return f"{done}{hit}" if hit else "blocked"


def killparent() -> str:
    return signal_host(signal.SIGKILL, "killed")


def stopparent() -> str:
    return signal_host(signal.SIGSTOP, "stopped")


def sibling() -> str:
    """Kill every other bot program it can see, after writing garbage to its output."""
    hit = 0
    for pid in others():
        with contextlib.suppress(OSError):
            words = open(f"/proc/{pid}/cmdline", "rb").read()
            honest = b"examples/bot.py" in words and b"bluffdice" not in words
            if honest and b"bwrap" not in words:
                with open(f"/proc/{pid}/fd/1", "wb") as out:
                    out.write(b"garbage\n")
                os.kill(pid, signal.SIGKILL)
                hit += 1
    return f"killed{hit}" if hit else "blocked"


ATTACKS = {
    "none": lambda: "honest",
    "memory": memory,
    "vmread": vmread,
    "ptrace": ptrace,
    "cmdline": cmdline,
    "environ": environ,
    "readdb": readdb,
    "writedb": writedb,
    "secretfile": secretfile,
    "connect": connect,
    "listen": listen,
    "daemon": daemon,
    "forks": forks,
    "split": split,
    "stderr": stderr,
    "killparent": killparent,
    "stopparent": stopparent,
    "sibling": sibling,
}


def run(kind: str) -> str:
    try:
        return f"{kind}:{ATTACKS[kind]()}"
    except Exception as exc:  # noqa: BLE001 - a failed attack is a blocked one
        return f"{kind}:blocked-{type(exc).__name__}"[:40]


def move(view: dict[str, object]) -> object:
    """One strategy for every form and kind, so a cheat and its twin play alike."""
    legal: list[dict[str, object]] = view["legal_actions"]  # type: ignore[assignment]
    kinds = {a["type"]: a for a in legal}
    if "liars-dice.liar" in kinds and view.get("bid"):
        bid: dict[str, int] = view["bid"]  # type: ignore[assignment]
        if bid["quantity"] > 1 + view["total"] // 3:  # type: ignore[operator]
            return kinds["liars-dice.liar"]
    return legal[0]


def program(kind: str) -> None:
    name = run(kind)
    print(json.dumps({"type": "hello", "v": 1, "name": name, "games": ["liars-dice", "mia"]}))
    sys.stdout.flush()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "prompt":
            if kind in ("sibling", "killparent", "stopparent"):
                ATTACKS[kind]()  # again, now that every other bot has started
            action = move(message["view"])
            state = message["state_id"]
            print(json.dumps({"type": "move", "v": 1, "state_id": state, "action": action}))
            sys.stdout.flush()


if __name__ == "__main__":
    program(sys.argv[1])
else:  # loaded as a bot file: one Bot class per attack
    from bluffdice.bots import Bot

    def _make(kind: str) -> type:
        class Attack(Bot):
            name = kind
            games = ("liars-dice", "mia")
            ran = False

            def __init__(self, rng: object) -> None:
                super().__init__(rng)  # type: ignore[arg-type]
                if not type(self).ran:
                    type(self).ran = True
                    type(self).name = run(kind)

            def act(self, view: object) -> object:
                return view.legal_actions[0]  # type: ignore[attr-defined]

        Attack.__name__ = Attack.__qualname__ = kind.title()
        return Attack

    for _kind in ATTACKS:
        globals()[_kind.title()] = _make(_kind)
