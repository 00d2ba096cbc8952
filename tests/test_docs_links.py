"""No document, message or comment names a file that the repository does not have.

The project stands alone: its rules, its protocol and its design are its own pages in
docs/. A name such as `SOMETHING.md`, or a path into one of the repository's folders
(`docs/...`, `examples/...`, `src/...`), must be a file (or folder) of this checkout,
read from the repository root or from the folder of the file that names it (the way a
Markdown link is read).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Any `name.md`, bare or with a path (`docs/web.md`, `../x/y.md`); not inside a URL.
MARKDOWN_NAME = re.compile(r"(?<![\w/.:*-])((?:\.\.?/)*(?:[\w.*-]+/)*[\w.*-]*\w\.md)(?![\w-])")
# A path into one of the repository's own folders, with or without an extension.
TOP_FOLDERS = ("docs", "examples", "benchmarks", "src", "tests", ".ci")
REPO_PATH = re.compile(
    r"(?<![\w/.:-])((?:\.\./)*(?:" + "|".join(re.escape(f) for f in TOP_FOLDERS) + r")/[\w./*-]*)"
)
# Extensions of files that are read as text; everything else (pictures, data) is skipped.
TEXT_SUFFIXES = {".md", ".py", ".toml", ".yml", ".yaml", ".json", ".js", ".html", ".css", ""}


def tracked_files() -> list[Path]:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listed = subprocess.run(
        [git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def _exists(name: str, origin: Path, tracked: set[str]) -> bool:
    """Read from the root or the naming file's folder; a name without a leading `../`
    may also be the end of a tracked path (code names `odds.md` inside docs/, the
    wheel names `bluffdice/docs/odds.md`)."""
    name = name.rstrip(".,;:)")
    if not name or "*" in name:  # a pattern such as tests/test_sim_*.py names no one file
        return True
    if (ROOT / name).exists() or (origin.parent / name).exists():
        return True
    if name.startswith("../"):
        return False
    tail = name.strip("/").removeprefix("bluffdice/")
    return any(t == tail or t.endswith("/" + tail) or t.startswith(tail + "/") for t in tracked)


def missing_names(path: Path, text: str, tracked: set[str]) -> list[str]:
    found = []
    for pattern in (MARKDOWN_NAME, REPO_PATH):
        for match in pattern.finditer(text):
            name = match.group(1)
            if not _exists(name, path, tracked):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    return found


def test_no_tracked_file_names_a_file_that_is_not_in_the_repository() -> None:
    missing: list[str] = []
    files = tracked_files()
    tracked = {p.relative_to(ROOT).as_posix() for p in files}
    for path in files:
        if path.suffix not in TEXT_SUFFIXES and path.name not in ("run",):
            continue
        if path == Path(__file__).resolve():  # its own examples of missing names
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        missing += missing_names(path, text, tracked)
    assert not missing, "names of files the repository does not have:\n" + "\n".join(missing)


def test_the_check_catches_what_it_should(tmp_path: Path) -> None:
    """The patterns find a missing page, bare or as a link, and pass pages that exist."""
    origin = ROOT / "docs" / "odds.md"
    absent = "NO" + "SUCH.md"
    text = (
        f"see {absent} rule 1; [the rules](rules/mia.md); [gone](rules/{absent.lower()})\n"
        "run examples/bot.py and docs/examples/nothing_here.py; https://example.org/x/README.md\n"
        "the wheel's bluffdice/docs/odds.md and ../README.md, docs/rules/*.md"
    )
    tracked = {"docs/odds.md", "docs/rules/mia.md", "examples/bot.py", "README.md"}
    found = [entry.split(": ", 1)[1] for entry in missing_names(origin, text, tracked)]
    assert found == [absent, f"rules/{absent.lower()}", "docs/examples/nothing_here.py"]
