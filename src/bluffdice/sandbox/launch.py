"""The first program inside a bot's sandbox: its bounds, its identity, then the bot.

    python -I -S launch.py UID NPROC AS_MB CPU_S FSIZE_MB NOFILE -- COMMAND...

Bubblewrap has set up the namespaces and the file system; this sets what it does not:
the resource limits (the process count only counts in the sandbox's own user namespace
when it is set in there, after the namespace exists), and, when the host runs as root,
a user id of the bot's own with every capability dropped. It runs with `-I -S`, imports
nothing beyond the standard library's built-in modules, and ends in `execvp`, so it costs
a few milliseconds once per bot process and nothing per move. A value of 0 leaves that
bound unset; a UID of 0 keeps the identity bubblewrap gave.
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys

PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
LAST_CAP = 63
CAP_VERSION_3 = 0x20080522


def _bound(which: int, value: int) -> None:
    if value > 0:
        resource.setrlimit(which, (value, value))


def _drop_capabilities(libc: ctypes.CDLL) -> None:
    """Empty the bounding set while CAP_SETPCAP is still held; the uid change then clears
    the permitted and effective sets, and `capset` the inheritable one."""
    for cap in range(LAST_CAP + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)


def _clear_inheritable(libc: ctypes.CDLL) -> None:
    header = (ctypes.c_uint32 * 2)(CAP_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    libc.capset(header, data)


def main(argv: list[str]) -> None:
    if len(argv) < 9 or argv[7] != "--":
        sys.stderr.write("sandbox launcher: bad arguments\n")
        os._exit(126)
    uid, nproc, memory_mb, cpu, fsize_mb, nofile = (int(a) for a in argv[1:7])
    command = argv[8:]
    libc = ctypes.CDLL(None, use_errno=True)
    if uid:
        _drop_capabilities(libc)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        _clear_inheritable(libc)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _bound(resource.RLIMIT_NPROC, nproc)
    _bound(resource.RLIMIT_AS, memory_mb << 20)
    if cpu > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    _bound(resource.RLIMIT_FSIZE, fsize_mb << 20)
    _bound(resource.RLIMIT_NOFILE, nofile)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"cannot start {command[0]} in the sandbox: {exc.strerror}\n")
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv)
