"""Bounds on a bot's whole process tree: a control group of its own, where one can be made.

Per-process limits do not bound a tree: three children under a 2 GiB address-space
limit hold 6 GiB between them. The kernel's control groups count the whole tree. A
group is made under this process's own group in the `memory` and `pids` controllers
(cgroup v1, as on machines where root runs the host) or in the unified hierarchy
(cgroup v2, where this process's group lets us create children with both controllers),
the bot's first process joins it between fork and exec, and everything it starts is in
it too. Where no group can be made (an unprivileged user without a delegated
subtree), `Group.make` returns None and the sandbox keeps its per-process bounds; `bluffdice
bot isolation` says which of the two a bot gets.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

_V1 = ("memory", "pids")


def _mounts() -> tuple[dict[str, Path], Path | None]:
    """The cgroup v1 mount of each controller, and the cgroup v2 mount."""
    v1: dict[str, Path] = {}
    v2: Path | None = None
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return v1, v2
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, more = left.split(), right.split()
        if len(fields) < 5 or len(more) < 3:
            continue
        if more[0] == "cgroup2" and v2 is None:
            v2 = Path(fields[4])
        elif more[0] == "cgroup":
            for option in more[2].split(","):
                if option in _V1:
                    v1[option] = Path(fields[4])
    return v1, v2


def _own_paths() -> dict[str, str]:
    """This process's group in each hierarchy ("" is the unified one)."""
    paths: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return paths
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _write(path: Path, text: str) -> None:
    path.write_text(text)


@dataclass
class Group:
    """One bot's control group (one directory per hierarchy it lives in)."""

    kind: str
    """"cgroup v1" or "cgroup v2"."""
    dirs: list[Path] = field(default_factory=list)

    @classmethod
    def make(cls, memory_mb: int | None, processes: int | None) -> Group | None:
        """A new group with these bounds, or None when this process may not make one."""
        v1, v2 = _mounts()
        own = _own_paths()
        name = f"bluffdice-bot-{secrets.token_hex(6)}"
        if all(c in v1 and c in own for c in _V1):
            group = cls("cgroup v1")
            try:
                for controller in _V1:
                    folder = v1[controller] / own[controller].lstrip("/") / name
                    folder.mkdir()
                    group.dirs.append(folder)
                memory, pids = group.dirs
                if memory_mb is not None:
                    limit = str(memory_mb << 20)
                    _write(memory / "memory.limit_in_bytes", limit)
                    with contextlib.suppress(OSError):  # absent without swap accounting
                        _write(memory / "memory.memsw.limit_in_bytes", limit)
                if processes is not None:
                    _write(pids / "pids.max", str(processes))
                return group
            except OSError:
                group.remove()
        if v2 is not None and "" in own:
            base = v2 / own[""].lstrip("/")
            group = cls("cgroup v2")
            try:
                enabled = (base / "cgroup.subtree_control").read_text().split()
                if not {"memory", "pids"} <= set(enabled):
                    return None
                folder = base / name
                folder.mkdir()
                group.dirs.append(folder)
                if memory_mb is not None:
                    _write(folder / "memory.max", str(memory_mb << 20))
                    with contextlib.suppress(OSError):
                        _write(folder / "memory.swap.max", "0")
                if processes is not None:
                    _write(folder / "pids.max", str(processes))
                return group
            except OSError:
                group.remove()
        return None

    def join_files(self) -> list[str]:
        """The files a process writes its pid to, to enter the group (between fork and
        exec: see `bluffdice.sandbox.bubblewrap`)."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def pids(self) -> list[int]:
        found: set[int] = set()
        for folder in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (folder / "cgroup.procs").read_text().split())
        return sorted(found)

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the tree for want of memory."""
        for folder in self.dirs:
            for name in ("memory.oom_control", "memory.events"):
                with contextlib.suppress(OSError, ValueError):
                    words = (folder / name).read_text().split()
                    counts = dict(zip(words[::2], words[1::2], strict=False))
                    if int(counts.get("oom_kill", "0")) > 0:
                        return True
        return False

    def kill(self) -> None:
        """SIGKILL every process still in the group (whatever it forked or re-parented)."""
        for folder in self.dirs:
            if (folder / "cgroup.kill").exists():
                with contextlib.suppress(OSError):
                    _write(folder / "cgroup.kill", "1")
        for _ in range(50):
            left = self.pids()
            if not left:
                return
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def remove(self) -> None:
        """Remove the group's directories (a group can only go once it is empty)."""
        for folder in reversed(self.dirs):
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
        self.dirs.clear()
