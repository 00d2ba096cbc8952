"""The README is a five-minute read, and the Python examples of the README and of the pages
its Python moved to run as written and print what their comments promise."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# Where the README's engine and table examples went, and the rule-string example.
PYTHON_PAGES = [README, ROOT / "docs" / "api.md", ROOT / "docs" / "rules" / "rule-sets.md"]
# Issue 33: a newcomer reads the README in five minutes; everything else is on the site.
README_MOST_LINES = 200


def run_python_blocks(page: Path) -> str:
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks, f"{page.name} should show Python"
    out = io.StringIO()
    for block in blocks:
        with contextlib.redirect_stdout(out):
            exec(compile(block, page.name, "exec"), {})  # noqa: S102
    return out.getvalue()


def test_the_readme_is_under_200_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_MOST_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_shows_the_browser_table_and_links_the_pages() -> None:
    text = README.read_text(encoding="utf-8")
    assert "![" in text and "docs/web/table-desktop.png" in text
    linked = set(re.findall(r"\]\((docs/[\w/.-]+\.md)(?:#[\w-]+)?\)", text))
    for page in ("getting-started", "play", "web", "server", "bots", "benchmarks"):
        assert f"docs/{page}.md" in linked, page


def test_readme_python_example_runs() -> None:
    printed = run_python_blocks(README)
    assert "43 None" in printed  # its comment: seat 1 sees no dice


def test_the_engine_page_python_examples_run() -> None:
    printed = run_python_blocks(ROOT / "docs" / "api.md")
    # The engine example's own comments promise these lines.
    assert "43 None" in printed
    assert "(2, 3, 3)" in printed
    assert "Penalty" in printed
    # The table example: refusals by code, then a whole game and its first update as JSON.
    assert "not_your_turn\nstale\n" in printed
    assert 'b\'{"type":"update","recipient":0' in printed


def test_the_rule_sets_page_python_example_runs() -> None:
    printed = run_python_blocks(ROOT / "docs" / "rules" / "rule-sets.md")
    assert printed.strip() == "mia(lives=3,little_mia=on,joker32=on)"
