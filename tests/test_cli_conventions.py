"""The conventions every command shares, checked across all of them: help that explains
itself, one unwrapped error line and no traceback for a user's mistake, bad input that
changes nothing, and the terminal examples of the README and the user pages printing what
they show."""

from __future__ import annotations

import importlib.util
import inspect
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperArgument, TyperGroup, TyperOption
from typer.testing import CliRunner, Result

from bluffdice.cli import app
from bluffdice.store import Store

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# The README and the pages whose `$ bluffdice ...` text blocks are whole or partial
# transcripts of quick commands (the README's were moved to these pages). Pages with
# transcripts of long runs (solve.md) or of files the reader makes (sandbox.md) are not here.
SESSION_PAGES = [
    README,
    ROOT / "docs" / "getting-started.md",
    ROOT / "docs" / "play.md",
    ROOT / "docs" / "rules" / "rule-sets.md",
    ROOT / "docs" / "odds.md",
    ROOT / "docs" / "fairness.md",
]
# The page that shows a whole interactive game as it was captured in a terminal.
PLAY_PAGE = ROOT / "docs" / "play.md"


def invoke(*args: str, stdin: str | None = None) -> Result:
    result = runner.invoke(app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a crash, not a refusal: show its traceback
    return result


def commands() -> list[tuple[str, Any]]:
    """Every command, `odds mia` and `odds liars-dice` included, with its full name.

    Typer's own classes are checked, not click's: typer 0.26 and later carry their own
    copy of click, whose objects are no instances of the `click` package's classes."""
    found: list[tuple[str, Any]] = []

    def walk(prefix: str, group: TyperGroup) -> None:
        for name, command in group.commands.items():
            full = f"{prefix} {name}".strip()
            if isinstance(command, TyperGroup):
                walk(full, command)
            else:
                found.append((full, command))

    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    walk("", root)
    return found


def test_the_command_walk_reaches_every_command_and_parameter() -> None:
    """The per-command checks below run on real commands and parameters: the walk goes
    into the `odds` group, and typer's Argument and Option classes match what it built."""
    found = dict(commands())
    assert {"play", "rules", "tournament", "replay", "odds mia", "odds liars-dice"} <= set(found)
    params = [p for _, command in found.items() for p in command.params]
    assert sum(isinstance(p, TyperArgument) for p in params) >= 4
    assert sum(isinstance(p, TyperOption) for p in params) >= 40
    assert all(isinstance(p, TyperArgument | TyperOption) for p in params)


# --- help -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "command"), commands(), ids=lambda c: str(c))
def test_help_is_prose_with_every_option_and_argument_explained(name: str, command: Any) -> None:
    text = inspect.cleandoc(command.help or "")
    assert text, f"{name} has no help"
    # Typer keeps single line breaks inside paragraphs, so a wrapped docstring would
    # print as ragged half-lines: every paragraph must be one line of text.
    for paragraph in text.split("\n\n"):
        assert "\n" not in paragraph, f"{name}: hard line break in {paragraph!r}"
    for param in command.params:
        if isinstance(param, TyperArgument):
            assert param.metavar and param.metavar.isupper(), f"{name}: {param.name} metavar"
        if isinstance(param, TyperOption) and "--help" not in param.opts:
            assert getattr(param, "help", None), f"{name}: {param.opts} has no help"
    plot = [p for p in command.params if "--plot" in getattr(p, "opts", [])]
    for option in plot:
        words = getattr(option, "help", "").lower()
        assert ".png" in words and ".svg" in words and "pdf" not in words, name


def test_help_of_every_command_prints_and_exits_0() -> None:
    for name, _command in commands():
        result = invoke(*name.split(), "--help")
        assert result.exit_code == 0 and "Usage" in result.stdout, name


# --- one clear error line ---------------------------------------------------------------

LONG_ERRORS = [
    ["rules", "mia(lifes=3)"],
    ["rules", "no-such-preset"],
    ["play", "--watch", "--rules", "no-such-preset"],
    ["odds", "mia", "--rules", "no-such-preset"],
    ["tournament", "--rules", "no-such-preset", "--no-store"],
    ["solve", "mia", "--rules", "mia(players=3)"],
    ["explain-policy", "--rules", "mia(pips=on)"],
]


@pytest.mark.parametrize("args", LONG_ERRORS, ids=lambda a: " ".join(a))
def test_a_long_error_is_one_line_on_stderr_and_nothing_on_stdout(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert len(lines[0]) > 80  # long enough that an 80-column console would wrap it


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--watch", "--rules", ""], "cannot read rule string ''"),
        (["tournament", "--rules", "", "--no-store"], "cannot read rule string ''"),
        (["tournament", "--bots", "", "--no-store"], "name at least one bot"),
        (["odds", "liars-dice", "--dice", "100000"], "1000"),
        (["odds", "liars-dice", "--rules", "dudo", "--players", "300"], "at most 1000"),
        (["odds", "liars-dice", "--rules", "meyer", "--players", "2"], "not of liars-dice"),
        (["solve", "liars-dice", "--target-exploitability", "0"], "must be above 0"),
        (["solve", "liars-dice", "--iterations", "3", "--out", "."], "it is a folder"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else None,
)
def test_empty_unbounded_or_misplaced_values_are_refused(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


def test_a_database_whose_driver_is_missing_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if importlib.util.find_spec("MySQLdb") is not None:
        pytest.skip("the MySQL driver is installed here")
    monkeypatch.chdir(tmp_path)
    url = "mysql+mysqldb://user@127.0.0.1:1/none"
    for args in (["tournament", "--games", "2", "--bots", "odds,random"], ["replay", "--list"]):
        result = invoke(*args, "--db", url)
        assert result.exit_code == 2, result.stderr
        assert "driver is not installed" in result.stderr and "MySQLdb" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_replay_of_a_tournament_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    assert invoke("tournament", "--bots", "odds,random", "--games", "2", "--db", db).exit_code == 0
    result = invoke("replay", "--list", "--tournament", "99", "--db", db)
    assert result.exit_code == 2 and "no tournament 99" in result.stderr
    assert invoke("replay", "--list", "--tournament", "1", "--db", db).exit_code == 0


CRASHING_BOT = (
    "from bluffdice.bots import Bot\n\n"
    "class Crash(Bot):\n"
    "    def act(self, view):\n"
    "        if self.rng.random() < 0.05:\n"
    "            raise RuntimeError('boom')\n"
    "        return view.legal_actions[0]\n"
)


def test_a_failing_bot_never_loses_the_games_played(tmp_path: Path) -> None:
    """Issue 11: a bot that fails forfeits its game and the tournament goes on; with
    --on-bot-error stop it ends with an error, and the games played stay stored."""
    crash = tmp_path / "crash_bot.py"
    crash.write_text(CRASHING_BOT)
    args = ["tournament", "--bots", f"{crash},honest", "--games", "10", "--seed", "1"]
    db = tmp_path / "t.db"
    ok = ["tournament", "--bots", "honest,liar", "--games", "3", "--db", str(db)]
    assert invoke(*ok).exit_code == 0
    result = invoke(*args, "--workers", "1", "--db", str(db))
    assert result.exit_code == 0 and "boom" in result.stderr and "faults" in result.stdout
    result = invoke(*args, "--workers", "1", "--db", str(db), "--on-bot-error", "stop")
    assert result.exit_code == 2 and "boom" in result.stderr
    assert "stored as tournament 3" in result.stderr
    store = Store(str(db), create=False)
    try:
        assert [t.id for t in store.tournaments()] == [1, 2, 3]
        assert 3 + 10 < len(store.games(None, limit=1000)) < 3 + 10 + 10
        assert len(store.games(2, limit=100)) == 10
    finally:
        store.close()


# --- the terminal examples of the README and the pages ---------------------------------


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def _shows(expected: list[str], printed: list[str]) -> bool:
    """The page's lines appear in order, however the console wrapped them; a line
    `...` skips output, `text ...` stands for a line that goes on."""
    flat = " ".join(" ".join(printed).split())
    at = 0
    for line in expected:
        want = " ".join(line.removesuffix("...").split())
        if not want:
            continue
        found = flat.find(want, at)
        if found < 0:
            return False
        at = found + len(want)
    return True


def page_sessions() -> list[tuple[str, list[str]]]:
    sessions = []
    for page in SESSION_PAGES:
        blocks = re.findall(r"```text\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
        sessions += [
            (block.splitlines()[0][2:], _lines(block)[1:])
            for block in blocks
            if block.startswith("$ bluffdice ")
        ]
    return sessions


def test_the_pages_show_sessions_to_check() -> None:
    """Every page named holds at least one session, so none drops out of the check unseen."""
    for page in SESSION_PAGES:
        assert "```text\n$ bluffdice " in page.read_text(encoding="utf-8"), page.name


@pytest.mark.parametrize(("command", "shown"), page_sessions(), ids=lambda c: str(c)[:60])
def test_a_page_command_prints_what_the_page_shows(command: str, shown: list[str]) -> None:
    result = invoke(*shlex.split(command)[1:])
    printed = _lines(result.output)
    assert _shows(shown, printed), "\n".join(printed)
    if not any(line.endswith("...") for line in shown):  # a whole transcript
        assert [line for line in printed if line] == [line for line in shown if line]


def test_the_interactive_game_on_the_play_page_is_what_the_command_prints() -> None:
    text = PLAY_PAGE.read_text(encoding="utf-8")
    intro = re.search(r"\(`bluffdice (play [^`]*)`, captured in a terminal\):", text)
    assert intro is not None
    block = text[intro.end() :].split("```text\n", 1)[1].split("```", 1)[0]
    typed = [line[2:] for line in block.splitlines() if line.startswith("> ")]
    # Piped input is not echoed: the page's "> roll" then "You roll." reads "> You roll.".
    expected = _lines(re.sub(r"^> .*\n", "> ", block, flags=re.MULTILINE))
    result = invoke(*shlex.split(intro.group(1)), stdin="".join(f"{t}\n" for t in typed))
    printed = _lines(result.output)
    assert printed[: len(expected)] == expected, "\n".join(printed)
