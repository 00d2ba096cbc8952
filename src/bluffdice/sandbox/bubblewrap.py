"""The bubblewrap command line that puts one bot program in a sandbox of its own.

Bubblewrap (`bwrap`, what Flatpak runs its apps in) does the work: new pid, mount,
network, IPC, UTS and cgroup namespaces, a file system made only of what is bound into
it, read-only, and the sandbox's death with the process that started it. What is bound
is the system's programs and libraries (`/usr` and its links), the Python that runs
bluffdice, bluffdice itself, and the paths the bot was named by; `/tmp` and `HOME` are
small private tmpfs; the environment is rebuilt from nothing.

Run by root, bubblewrap sets the sandbox up with root's rights (so it can bind an
interpreter under `/root`) and `launch.py` then becomes a user id nobody else has, with
every capability dropped. Run by anyone else, it makes a user namespace in which the bot
is `nobody`, and nested user namespaces are refused.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import bluffdice

SANDBOX_HOME = "/home/bot"
UID_BASE = 2_000_000_000
"""Root's sandboxes run under `UID_BASE + n` for a random n: an id no account has."""
UID_SPAN = 1 << 24
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_ETC = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
)
TMP_MB = 64
"""Size of the sandbox's /tmp, of its HOME and of its /dev/shm (each)."""
LAUNCHER = Path(__file__).with_name("launch.py")


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def base_paths() -> tuple[str, ...]:
    """What every sandbox sees read-only: the system, this Python, and bluffdice."""
    found = ["/usr", *SYSTEM_ETC]
    found += [str(p) for p in sorted(Path("/etc").glob("java-*"))]
    for prefix in {sys.base_prefix, sys.prefix, sys.exec_prefix, sys.base_exec_prefix}:
        found.append(prefix)
    executable = Path(sys.executable)
    found.append(str(executable.parent))
    found.append(str(executable.resolve().parent.parent))
    found.append(str(Path(bluffdice.__file__).resolve().parent.parent))
    return tuple(found)


def named_paths(command: Sequence[str], cwd: str) -> list[str]:
    """The existing files and folders that a bot's command line names (a Python bot's
    `file.py:Class` names file.py): the bot's own files, bound read-only."""
    paths = []
    for word in command[1:]:
        for candidate in (word, word.partition(":")[0]):
            if not candidate or candidate.startswith("-"):
                continue
            path = Path(cwd, candidate)
            if path.exists():
                paths.append(str(path.resolve()))
                break
    if command and "/" in command[0]:  # a bare name is found on the sandbox's own PATH
        program = Path(cwd, command[0])
        if program.exists():
            paths.append(str(program.resolve()))
    return paths


def _under(path: str, parents: Sequence[str]) -> bool:
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in parents)


def _binds(paths: Sequence[str], folder: str) -> list[str]:
    """`--ro-bind` for each path not already inside another, parents first, with the
    folders above each (and the working folder) made world-traversable: bubblewrap
    would make them 0700, closed to a bot that runs under another user id."""
    args: list[str] = []
    bound: list[str] = []
    made: set[str] = {"/"}

    def make(path: Path) -> None:
        for step in [*reversed(path.parents), path]:
            text = str(step)
            if text not in made and not _under(text, bound):
                args.extend(["--perms", "0755", "--dir", text])
                made.add(text)

    for path in sorted({os.path.normpath(p) for p in paths if os.path.exists(p)}, key=len):
        if _under(path, bound):
            continue
        make(Path(path).parent)
        args += ["--ro-bind", path, path]
        bound.append(path)
        made.add(path)
    make(Path(folder))
    return args


def _system_links() -> list[str]:
    args: list[str] = []
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


CLEAN_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
"""The environment bubblewrap itself starts with: nothing of the host's, so there is no
secret even in the memory of the process that sets the sandbox up."""


def as_root() -> bool:
    return os.geteuid() == 0


def new_uid() -> int:
    return UID_BASE + secrets.randbelow(UID_SPAN)


def argv(
    command: Sequence[str],
    *,
    cwd: str,
    uid: int,
    processes: int | None,
    memory_mb: int | None,
    cpu_seconds: int | None,
    file_mb: int | None,
    open_files: int,
) -> list[str]:
    """The full command: bubblewrap, then the launcher, then the bot's own command."""
    bwrap = bwrap_path()
    if bwrap is None:
        raise FileNotFoundError("bwrap")
    args = [
        bwrap,
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--as-pid-1",  # no bubblewrap process in the sandbox for the bot to reach
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "bluffdice-bot",
        "--cap-drop",
        "ALL",
    ]
    if uid:
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
    else:
        args += ["--unshare-user", "--disable-userns", "--uid", "65534", "--gid", "65534"]
    args += _system_links()
    args += ["--proc", "/proc", "--dev", "/dev"]
    size = str(TMP_MB << 20)
    for folder in ("/tmp", SANDBOX_HOME, "/dev/shm"):
        args += ["--perms", "1777", "--size", size, "--tmpfs", folder]
    if not os.path.isabs(cwd) or _under(cwd, ["/proc", "/dev", SANDBOX_HOME]) or cwd == "/tmp":
        cwd = SANDBOX_HOME
    args += _binds([*base_paths(), *named_paths(command, cwd)], cwd)
    args += ["--chdir", cwd]
    args += ["--clearenv"]
    for name, value in (
        ("PATH", "/usr/local/bin:/usr/bin:/bin"),
        ("HOME", SANDBOX_HOME),
        ("TMPDIR", "/tmp"),
        ("LANG", "C.UTF-8"),
        ("USER", "bot"),
        ("PYTHONDONTWRITEBYTECODE", "1"),
        # The bluffdice a Python bot's host imports: this process's own (a checkout run
        # with PYTHONPATH, or an editable install whose source is bound here read-only).
        ("PYTHONPATH", str(Path(bluffdice.__file__).resolve().parent.parent)),
    ):
        args += ["--setenv", name, value]
    bounds = [uid, processes, memory_mb, cpu_seconds, file_mb, open_files]
    args += ["--", sys.executable, "-I", "-S", str(LAUNCHER)]
    args += [str(b or 0) for b in bounds]
    args += ["--", *command]
    return args
