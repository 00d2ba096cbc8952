"""What a newcomer meets first: the README's quick start is what CI runs, every package
the tests import is declared, and the package follows the conventions users expect
(--version, python -m bluffdice, py.typed, a license, docs that ship, help that fits)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bluffdice
from bluffdice.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
runner = CliRunner()


# --- the README's quick start is what CI runs ------------------------------------------


def quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readme_quick_start_commands_literally_and_first() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line for line in ci.splitlines() if not line.lstrip().startswith("#")]
    found = []
    for command in commands:
        at = [n for n, line in enumerate(lines) if command in line]
        assert at, f".ci/run does not run the README's command: {command}"
        found.append(at[0])
    extras = [n for n, line in enumerate(lines) if "[test,ray,bench,rl]" in line]
    assert extras and found == sorted(found) and found[-1] < extras[0], (
        "the quick start must run first, in the README's order, before any extra is installed"
    )
    # The play command runs with its input closed, not with extra flags of CI's own.
    assert any(commands[0] + " </dev/null" in line for line in lines)


def test_every_package_the_tests_import_is_declared() -> None:
    declared = {"bluffdice", "tests"}
    requirements = list(PYPROJECT["project"]["dependencies"])
    requirements += PYPROJECT["project"]["optional-dependencies"]["test"]
    names = {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}
    for module, dists in importlib.metadata.packages_distributions().items():
        if any(d.lower().replace("_", "-") in names for d in dists):
            declared.add(module)
    undeclared = set()
    for path in sorted((ROOT / "tests").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top not in sys.stdlib_module_names and top not in declared:
                    undeclared.add(f"{path.name}: {module}")
    assert not undeclared, f"imported by tests but not declared in pyproject: {undeclared}"


def test_the_test_extra_installs_no_click_and_the_tests_do_not_need_it() -> None:
    """typer 0.26 and later do not install click: a test importing it would stop
    collection on a fresh install (the bug this file was written for)."""
    for path in (ROOT / "tests").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import click|from click)", text, re.MULTILINE), path.name


# --- version, entry points, metadata -----------------------------------------------------


def test_version_has_one_source() -> None:
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "src/bluffdice/__init__.py"
    assert importlib.metadata.version("bluffdice") == bluffdice.__version__
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"bluffdice {bluffdice.__version__}\n"


def test_python_dash_m_bluffdice_is_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bluffdice", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == f"bluffdice {bluffdice.__version__}"
    done = subprocess.run(
        [sys.executable, "-m", "bluffdice", "rules", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "Usage:" in done.stdout


def test_typed_marker_license_and_metadata() -> None:
    assert (ROOT / "src" / "bluffdice" / "py.typed").is_file()
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "Typing :: Typed" in project["classifiers"]
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # PEP 639
    metadata = importlib.metadata.metadata("bluffdice")
    assert metadata["License-Expression"] == "MIT"
    # No public address yet: no invented project URLs (the docs ship; `bluffdice docs`).
    assert "urls" not in project
    assert not metadata.get_all("Project-URL")


def test_shell_completion_is_offered() -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout


def test_exit_codes_are_documented_as_the_code_uses_them() -> None:
    from bluffdice.terminal.session import EXIT_BOT_ERROR, EXIT_EOF, EXIT_INTERRUPT

    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    section = page.split("<!-- section: exit-codes -->", 1)[1].split("<!-- /section", 1)[0]
    rows = dict(re.findall(r"^\| `(\d+)` \| (.+?) \|$", section, re.MULTILINE))
    assert set(rows) == {"0", str(EXIT_EOF), "2", str(EXIT_BOT_ERROR), str(EXIT_INTERRUPT)}
    assert "input ended" in rows[str(EXIT_EOF)].lower()
    assert "ctrl-c" in rows[str(EXIT_INTERRUPT)].lower()


# --- docs that ship with the package --------------------------------------------------


def test_every_doc_page_ships_in_the_wheel() -> None:
    shipped = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    pages = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "docs").rglob("*")
        if p.suffix in (".md", ".py")
    )
    assert sorted(shipped) == pages
    assert all(target == "bluffdice/" + source for source, target in shipped.items())


def test_docs_command_lists_and_prints_the_pages() -> None:
    listing = runner.invoke(app, ["docs"])
    assert listing.exit_code == 0
    assert {"odds", "solve", "rules/mia", "examples/cautious_bot.py"} <= set(listing.stdout.split())
    page = runner.invoke(app, ["docs", "odds"])
    assert page.exit_code == 0
    assert page.stdout == (ROOT / "docs" / "odds.md").read_text(encoding="utf-8")
    assert runner.invoke(app, ["docs", "mia"]).stdout.startswith("#")  # rules/mia
    missing = runner.invoke(app, ["docs", "nothing"])
    assert missing.exit_code == 2 and "pages are: " in missing.stderr


def test_help_and_outputs_point_to_pages_a_wheel_has() -> None:
    """A user who installed the wheel has no docs/ folder: help names `bluffdice docs`."""
    for path in (ROOT / "src" / "bluffdice" / "cli").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"[^`\w]docs/\w", text.replace("docs/ folder", "")), path.name


# --- help that is never cut off ---------------------------------------------------------


def _groups() -> list[list[str]]:
    return [[], ["odds"]]


@pytest.mark.parametrize("group", _groups(), ids=lambda g: " ".join(g) or "bluffdice")
def test_command_lists_are_not_cut_off_at_80_columns(group: list[str]) -> None:
    result = runner.invoke(app, [*group, "--help"], env={"COLUMNS": "80"}, terminal_width=80)
    listing = result.stdout.split("Commands:", 1)[1]
    for line in listing.splitlines():
        assert len(line) <= 80 and not line.rstrip().endswith("..."), line


def test_no_help_line_is_cut_off_at_80_columns() -> None:
    from tests.test_cli_conventions import commands

    for name, _command in commands():
        result = runner.invoke(app, [*name.split(), "--help"], terminal_width=80)
        assert result.exit_code == 0, name
        for line in result.stdout.splitlines():
            assert len(line) <= 80, f"{name}: {line!r}"
            assert "…" not in line, f"{name}: {line!r}"
