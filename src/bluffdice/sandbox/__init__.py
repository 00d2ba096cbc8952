"""Untrusted bot programs in a sandbox: they learn nothing but their own messages.

A bot that is not part of bluffdice (a Python file, a module, a `cmd:` program) is code
from a stranger. It runs in a bubblewrap sandbox (`bubblewrap`): its own pid, mount,
network, IPC and UTS namespaces and, as its own unprivileged user, no capabilities and
no new privileges; a read-only view of only the system, the Python and bluffdice, and
its own files; a private empty /tmp and HOME; an environment with nothing inherited;
bounds on its whole process tree (`cgroups`, else per process); and everything it
started ends with it. The host's processes make themselves non-dumpable, so not even a
process of the same user outside the sandbox may read their memory.

Where bubblewrap cannot be had, a bot program does not run unless the user says
`--unsandboxed` (isolation "process": a plain child process of the user, which can read
what the user can). `bluffdice bot isolation` reports what this machine gives.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bluffdice.errors import BluffdiceError

if TYPE_CHECKING:  # the limits load with the protocol
    from bluffdice.protocol.limits import Limits

ISOLATIONS = ("sandbox", "process")
"""sandbox: bubblewrap (the default); process: a plain child process (--unsandboxed)."""
UNSANDBOXED_GIVES_AWAY = (
    "it can read every file you can (stored games with their dice, the code of other "
    "bots, your keys), the memory of this program through /proc, your environment, and "
    "use the network"
)
INSTALL_HINT = (
    "install bubblewrap (Debian and Ubuntu: apt install bubblewrap; Fedora: dnf install "
    "bubblewrap; Arch: pacman -S bubblewrap)"
)
PR_SET_DUMPABLE = 4


class SandboxUnavailable(BluffdiceError):
    """A bot program would need the sandbox, and this machine cannot make one."""


@dataclass(frozen=True)
class Probe:
    """What this machine gives a bot program."""

    ok: bool
    reason: str
    """Why not, when not ok."""
    bwrap: str | None
    version: str
    as_root: bool
    tree: str
    """How the process tree is bounded: "cgroup v1", "cgroup v2" or "per process"."""


@functools.cache
def probe() -> Probe:
    """Start one empty sandbox, once per process, to see whether sandboxes work here."""
    import subprocess

    from bluffdice.sandbox import bubblewrap
    from bluffdice.sandbox.cgroups import Group

    root = bubblewrap.as_root()
    group = Group.make(64, 8)
    tree = group.kind if group is not None else "per process"
    if group is not None:
        group.remove()
    if not sys.platform.startswith("linux"):
        return Probe(False, f"the sandbox needs Linux, not {sys.platform}", None, "", root, tree)
    path = bubblewrap.bwrap_path()
    if path is None:
        return Probe(False, "bubblewrap (bwrap) is not installed", None, "", root, tree)
    try:
        version = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
        args = bubblewrap.argv(
            [sys.executable, "-I", "-S", "-c", "pass"],
            cwd="/",
            uid=bubblewrap.new_uid() if root else 0,
            processes=8,
            memory_mb=None,
            cpu_seconds=10,
            file_mb=1,
            open_files=64,
        )
        trial = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Probe(False, f"bubblewrap did not run: {exc}", path, "", root, tree)
    if trial.returncode != 0:
        said = (trial.stderr.strip().splitlines() or ["no message"])[-1]
        why = f"bubblewrap cannot make a sandbox here ({said})"
        return Probe(False, why, path, version, root, tree)
    return Probe(True, "", path, version, root, tree)


def require(isolation: str, what: str = "a bot program") -> None:
    """Refuse to run `what` when it would need a sandbox this machine cannot make."""
    if isolation not in ISOLATIONS:
        raise BluffdiceError(f"isolation is one of {', '.join(ISOLATIONS)}, not {isolation!r}")
    if isolation == "process":
        return
    found = probe()
    if not found.ok:
        raise SandboxUnavailable(
            f"{what} runs in a sandbox, and {found.reason}: {INSTALL_HINT}; or pass "
            f"--unsandboxed to run it as a plain process of yours ({UNSANDBOXED_GIVES_AWAY})"
        )


def hide_host() -> None:
    """Make this process non-dumpable (Linux): its memory and /proc files are then closed
    to every process that is not root, even one of the same user (ptrace, /proc/PID/mem,
    process_vm_readv). Runs once at the start of every host process."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        return


def _outermost(paths: tuple[str, ...]) -> list[str]:
    kept = sorted(set(paths))
    return [p for p in kept if not any(p.startswith(q.rstrip("/") + "/") for q in kept)]


def describe(isolation: str = "sandbox") -> list[tuple[str, str]]:
    """What a bot program can and cannot see or do here, line by line (for `bluffdice bot
    isolation`)."""
    from bluffdice.protocol.limits import Limits
    from bluffdice.sandbox.bubblewrap import TMP_MB, base_paths

    limits = Limits()
    if isolation == "process":
        return [
            ("isolation", "none: a plain child process of yours (--unsandboxed)"),
            ("what it gives away", UNSANDBOXED_GIVES_AWAY),
            ("bounds", "per process only: memory, CPU time, no core files"),
        ]
    found = probe()
    if not found.ok:
        return [("isolation", f"unavailable: {found.reason}"), ("to fix", INSTALL_HINT)]
    return [
        ("isolation", f"bubblewrap sandbox ({found.version or found.bwrap})"),
        ("identity", _identity(found.as_root)),
        (
            "processes",
            "its own pid namespace: it sees no process outside the sandbox, so it cannot "
            "read, trace, signal or stop this program or any other bot",
        ),
        ("network", "none: its own network namespace with only a loopback of its own"),
        (
            "files",
            "read-only: " + ", ".join(_outermost(base_paths())) + ", and the files and "
            "folders its command names; nothing else of the host",
        ),
        ("scratch space", f"private empty /tmp, HOME and /dev/shm, {TMP_MB} MiB each"),
        ("environment", "PATH, HOME, TMPDIR, LANG and USER only; nothing inherited"),
        ("bounds", _bounds(found.tree, limits)),
        (
            "time",
            f"{limits.move_time:g} s a move, {limits.cpu_seconds} s of CPU per process, "
            f"files of at most {limits.file_mb} MiB",
        ),
        (
            "standard error",
            "its last few kilobytes are kept for messages; reading stops after "
            f"{limits.stderr_mb} MiB",
        ),
        (
            "end",
            "when the bot ends, or the program that started it ends in any way, the "
            "sandbox and every process in it end",
        ),
        ("seeds", "its own seed only, which reveals nothing about anyone's dice"),
        ("host", "non-dumpable: its memory is closed to other processes of your user"),
    ]


def _identity(as_root: bool) -> str:
    if as_root:
        return (
            "a user id of its own (the host runs as root), not root, no capabilities, "
            "no new privileges"
        )
    return (
        "your user id mapped to nobody (65534) in a user namespace of its own, "
        "no capabilities, no new privileges, no nested user namespaces"
    )


def _bounds(tree: str, limits: Limits) -> str:
    """The memory and process bounds: of the whole tree in a control group, else per
    process."""
    memory = f"{limits.memory_mb} MiB"
    if tree != "per process":
        return (
            f"the whole process tree: {memory} of memory, {limits.processes} processes and "
            f"threads ({tree})"
        )
    return (
        f"per process: {memory} of address space; {limits.processes} processes and "
        "threads (no control group can be made here, so memory is bounded per process)"
    )
