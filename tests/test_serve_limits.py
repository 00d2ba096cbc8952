"""`bluffdice serve`'s limits as settings: `--limit NAME=VALUE`, `--no-limits`, the help
and the docs table made from the one class, and a taken port said before the link."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bluffdice.cli.app import app
from bluffdice.server.limits import Limits, described, parse_settings

DOCS = Path(__file__).resolve().parent.parent / "docs" / "server.md"


def served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> tuple[Any, Any]:
    """Run `serve` with uvicorn replaced: the application it would have served."""
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda application, **kw: seen.update(app=application))
    with socket.socket() as probe:  # a port nobody uses (the server is never started)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(
        app, ["serve", "--port", str(port), "--db", str(tmp_path / "s.db"), *args]
    )
    return result, seen.get("app")


def test_limits_given_on_the_command_line_reach_the_hall(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result, application = served(
        monkeypatch, tmp_path, "--limit", "tables=7", "--limit", "idle-seconds=60.5"
    )
    assert result.exit_code == 0, result.output
    limits = application.state.hall.limits
    assert limits.tables == 7 and limits.idle_seconds == 60.5
    assert limits.tables_per_address == Limits().tables_per_address  # the rest as they were


def test_no_limits_lifts_every_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result, application = served(monkeypatch, tmp_path, "--no-limits")
    assert result.exit_code == 0, result.output
    assert application.state.hall.limits == Limits.unlimited()


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("tables", "write NAME=VALUE"),
        ("nothing=3", "write NAME=VALUE with a NAME of tables_per_address"),
        ("tables=many", "'many' is not a whole number"),
        ("idle_seconds=soon", "'soon' is not a number"),
        ("tables=-1", "must be 0 or more"),
        ("open_seconds=inf", "must be 0 or more (and finite)"),
        ("open_seconds=nan", "must be 0 or more"),
    ],
)
def test_a_wrong_limit_is_one_error_line_and_nothing_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, setting: str, said: str
) -> None:
    result, application = served(monkeypatch, tmp_path, "--limit", setting)
    assert result.exit_code == 2 and application is None
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --limit") and said in lines[0]
    with pytest.raises(ValueError):
        parse_settings([setting])


def test_a_taken_port_is_said_before_any_link_is_printed(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            app, ["serve", "--port", str(port), "--db", str(tmp_path / "s.db")]
        )
    assert result.exit_code == 2
    assert "Open http" not in result.stdout
    assert (
        result.stderr.strip() == f"error: cannot serve on 127.0.0.1:{port}: Address already in use"
    )


def test_the_help_and_the_docs_list_every_limit_with_its_default() -> None:
    help_text = " ".join(CliRunner().invoke(app, ["serve", "--help"]).stdout.split())
    table = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| `(\w+)` \| ([\d.]+) \| (.+?) \|$", DOCS.read_text(), re.M)
    }
    for name, default, meaning in described():
        assert f"{name} ({default})" in help_text
        assert table.get(name) == (default, meaning), name
    assert set(table) == {name for name, _, _ in described()}
