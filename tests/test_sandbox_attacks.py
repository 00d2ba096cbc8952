"""Bots that cheat at the level a real attacker works at: /proc, ptrace, the file
system, the network, signals, forks. Each attack runs in both documented bot forms (a
`cmd:` program and a Python bot file), once in the sandbox, where it must learn and do
nothing, and, where that is safe, once as a plain child process (`--unsandboxed`), where
it must succeed: the attack is real, the sandbox is what stops it.

The attack bot is tests/data/attack_bot.py; it says what it got in its hello name.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.process import BotFault
from bluffdice.protocol.specs import bot_command
from bluffdice.sandbox import probe

ROOT = Path(__file__).resolve().parent.parent
ATTACK = ROOT / "tests" / "data" / "attack_bot.py"
HONEST = ROOT / "examples" / "bot.py"
BLUFFDICE = str(Path(sys.executable).parent / "bluffdice")
ROOTED = os.geteuid() == 0

if not probe().ok:
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the sandbox's tests: {probe().reason}", pytrace=False)
    pytest.skip(f"no sandbox here: {probe().reason}", allow_module_level=True)

CANARY = ("BLUFFDICE-CANARY-" + secrets.token_hex(16)).encode()
"""Held in this process's memory: a bot that reads it has read the host's memory."""
SECRET = secrets.token_hex(16)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """What the attacks aim at: a store with a seed, a private file, a listening port."""
    import sqlite3

    home = tmp_path_factory.mktemp("host")
    db = home / "bluffdice.db"
    with sqlite3.connect(db) as con:
        con.execute("create table tournaments (seed text)")
        con.execute("insert into tournaments values (?)", (str(2**100 + 12345),))
    secret_file = home / "secret.txt"
    secret_file.write_text(SECRET)
    secret_file.chmod(0o600)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    yield {
        "db": str(db),
        "secret_file": str(secret_file),
        "port": server.getsockname()[1],
        "listen_port": free_port(),
        "marker": "bluffdice-daemon-" + secrets.token_hex(8),
        "home": str(home),
    }
    server.close()


def attack_file(folder: Path, targets: dict[str, object]) -> Path:
    """The attack bot, aimed: its TARGETS line filled in, alone in a folder of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "attack_bot.py"
    text = ATTACK.read_text().replace(
        "TARGETS: dict[str, object] = {}  # the test replaces this line",
        f"TARGETS: dict[str, object] = {targets!r}",
    )
    path.write_text(text)
    return path


def command(path: Path, kind: str, form: str) -> tuple[str, ...]:
    if form == "program":
        return (sys.executable, str(path), kind)
    return bot_command(f"{path}:{kind.title()}", "liars-dice")


LIMITS = {"memory_mb": 512, "processes": 32, "stderr_mb": 1, "start_time": 60.0}


def hello(tmp_path: Path, targets: dict[str, object], kind: str, form: str, isolation: str):
    """Start the attack bot; its name says what the attack got ('kind:...')."""
    path = attack_file(tmp_path / "bot", targets)
    limits = Limits(isolation=isolation, **LIMITS)  # type: ignore[arg-type]
    os.environ["BLUFFDICE_TEST_SECRET"] = SECRET
    try:
        return ProcessBot(command(path, kind, form), limits)
    finally:
        del os.environ["BLUFFDICE_TEST_SECRET"]


def outcome(bot: ProcessBot) -> str:
    kind, _, got = bot.name.partition(":")
    return got


FORMS = ["program", "file"]
BLOCKED = [
    "memory",
    "vmread",
    "ptrace",
    "cmdline",
    "environ",
    "readdb",
    "writedb",
    "secretfile",
    "connect",
]
WHAT_A_PLAIN_CHILD_GETS = {
    "memory": CANARY.decode()[17:29],
    "vmread": CANARY.decode()[17:29],
    "ptrace": "attached",
    "environ": SECRET[:12],
    "readdb": str(2**100 + 12345)[:12],
    "writedb": "opened",
    "secretfile": SECRET[:12],
    "connect": "connected",
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("kind", BLOCKED)
def test_the_sandbox_blocks(tmp_path: Path, targets, kind: str, form: str) -> None:
    bot = hello(tmp_path, targets, kind, form, "sandbox")
    try:
        assert outcome(bot).startswith("blocked"), bot.name
    finally:
        bot.close()


@pytest.mark.parametrize("kind", sorted(WHAT_A_PLAIN_CHILD_GETS))
def test_the_same_attack_works_on_a_plain_child_process(tmp_path: Path, targets, kind) -> None:
    """The control: without the sandbox the attack gets what it aims at (memory and
    ptrace of the parent need root where Yama limits tracing to descendants)."""
    if kind in ("memory", "vmread", "ptrace") and not ROOTED:
        pytest.skip("a non-root child may not read its parent's memory under Yama")
    bot = hello(tmp_path, targets, kind, "program", "process")
    try:
        assert outcome(bot) == WHAT_A_PLAIN_CHILD_GETS[kind]
    finally:
        bot.close()
    assert CANARY  # kept alive in this process until here


@pytest.mark.parametrize("isolation", ["sandbox", "process"])
def test_a_listening_bot_is_reachable_only_without_the_sandbox(tmp_path, targets, isolation):
    bot = hello(tmp_path, targets, "listen", "program", isolation)
    try:
        assert outcome(bot) == "listening"  # in its own network namespace, when sandboxed
        try:
            with socket.create_connection(("127.0.0.1", targets["listen_port"]), timeout=2):
                reached = True
        except OSError:
            reached = False
        assert reached == (isolation == "process")
    finally:
        bot.close()


def processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("form", FORMS)
def test_a_setsid_double_fork_is_gone_when_the_bot_ends(tmp_path, targets, form) -> None:
    marker = str(targets["marker"])
    bot = hello(tmp_path, targets, "daemon", form, "sandbox")
    assert outcome(bot) == "started"
    started = time.monotonic()
    while not processes_with(marker) and time.monotonic() - started < 5:
        time.sleep(0.05)  # the grandchild starts its shell after the bot's hello
    assert processes_with(marker), "the daemon should run while the bot does"
    bot.close()
    deadline = time.monotonic() + 5
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not processes_with(marker)


def test_a_plain_child_process_leaves_its_daemon_behind(tmp_path, targets) -> None:
    marker = str(targets["marker"]) + "-plain"
    bot = hello(tmp_path, {**targets, "marker": marker}, "daemon", "program", "process")
    started = time.monotonic()
    while not processes_with(marker) and time.monotonic() - started < 5:
        time.sleep(0.05)
    bot.close()
    time.sleep(0.2)
    left = processes_with(marker)
    for pid in left:
        os.kill(pid, 9)
    assert left, "without the sandbox the daemon outlives the bot (the attack is real)"


@pytest.mark.parametrize("form", FORMS)
def test_fifty_forks_are_cut_at_the_process_bound(tmp_path, targets, form) -> None:
    bot = hello(tmp_path, targets, "forks", form, "sandbox")
    try:
        made = int(outcome(bot).removesuffix("forks"))
        assert made < 32
    finally:
        bot.close()


def test_memory_split_over_children_is_bounded_for_the_whole_tree(tmp_path, targets) -> None:
    if probe().tree == "per process":
        pytest.skip("no control group can be made here: memory is bounded per process")
    try:
        bot = hello(tmp_path, targets, "split", "program", "sandbox")
    except BotFault as fault:  # the kernel killed the bot itself: bounded too
        assert "used more than 512 MiB" in str(fault) or fault.kind == "crash"
        return
    try:
        assert outcome(bot) in ("0held", "1held"), bot.name
    finally:
        bot.close()
    plain = hello(tmp_path, targets, "split", "program", "process")
    try:
        assert outcome(plain) == "3held"  # each child stays under its own 512 MiB
    finally:
        plain.close()


@pytest.mark.parametrize("isolation", ["sandbox", "process"])
def test_a_gigabyte_to_stderr_is_cut_off_after_the_limit(tmp_path, targets, isolation) -> None:
    bot = hello(tmp_path, targets, "stderr", "program", isolation)
    try:
        cut = outcome(bot)
        assert cut.startswith("cut") and int(cut.removeprefix("cut")) <= 2, cut
        assert bot.process.stderr_tail().endswith("(more standard error was not read)")
    finally:
        bot.close()


# --- at a real tournament, with the real host (`bluffdice tournament`) ----------------

LONG_SEED = str(secrets.randbits(128))


def tournament(tmp_path: Path, targets, kinds: list[str], *extra: str, timeout: float = 120):
    path = attack_file(tmp_path / "bot", targets)
    bots = [f"cmd:{sys.executable} {path} {kind}" for kind in kinds]
    bots.append(f"cmd:{sys.executable} {HONEST}")
    db = tmp_path / "games.db"
    args = [BLUFFDICE, "tournament", "liars-dice", "--bots", ",".join([*bots, "odds"])]
    args += ["--games", "24", "--seed", LONG_SEED, "--db", str(db), "--json", *extra]
    env = {**os.environ, "BLUFFDICE_TEST_SECRET": SECRET}
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.mark.parametrize("kind", ["killparent", "stopparent", "sibling", "cmdline"])
def test_a_tournament_plays_on_whatever_a_bot_does_to_the_others(tmp_path, targets, kind):
    done = tournament(tmp_path, targets, [kind])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    names = set(result["bots"])
    assert f"{kind}:blocked" in names
    assert all(stats["games"] >= 1 for stats in result["bots"].values())
    assert result["faults"] == [], "no bot is blamed for what another bot did"


def test_without_the_sandbox_a_bot_kills_the_tournament(tmp_path, targets) -> None:
    done = tournament(tmp_path, targets, ["killparent"], "--unsandboxed")
    assert done.returncode == -9  # the attack is real: the sandbox is what stops it


def test_without_the_sandbox_a_bot_gets_its_honest_sibling_blamed(tmp_path, targets) -> None:
    done = tournament(tmp_path, targets, ["sibling"], "--unsandboxed")
    assert done.returncode == 0, done.stderr
    faults = json.loads(done.stdout)["faults"]
    assert faults and {f["bot"] for f in faults} == {"example-py"}


def test_a_sandboxed_cheat_wins_exactly_as_often_as_its_honest_twin(tmp_path, targets) -> None:
    """Same seeds, same strategy: a cheat that learned nothing plays its twin's games."""
    results = {}
    for kind in ("memory", "readdb", "cmdline", "none"):
        done = tournament(tmp_path / kind, targets, [kind], "--games", "60")
        assert done.returncode == 0, done.stderr
        stats = json.loads(done.stdout)["bots"]
        name = next(n for n in stats if n.startswith(kind + ":"))
        assert name.endswith((":blocked", ":honest"))
        results[kind] = stats[name]
    for kind in ("memory", "readdb", "cmdline"):
        assert results[kind] == results["none"], kind


def test_without_bubblewrap_a_bot_program_needs_the_explicit_flag(tmp_path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap on this PATH
    args = [BLUFFDICE, "tournament", "liars-dice", "--games", "2", "--no-store"]
    args += ["--bots", f"cmd:{sys.executable} {HONEST},odds"]
    refused = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
    assert refused.returncode == 2
    line = refused.stderr.strip()
    assert line.startswith("error:") and "\n" not in line
    assert "apt install bubblewrap" in line and "--unsandboxed" in line
    allowed = subprocess.run(
        [*args, "--unsandboxed"], capture_output=True, text=True, env=env, timeout=60
    )
    assert allowed.returncode == 0, allowed.stderr
