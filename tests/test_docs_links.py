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


def test_the_check_reads_every_document_and_message() -> None:
    """The scan above covers the README, every page, the source's strings and the
    browser's message catalogues, whatever their suffix says."""
    scanned = {
        p.relative_to(ROOT).as_posix()
        for p in tracked_files()
        if p.suffix in TEXT_SUFFIXES or p.name == "run"
    }
    assert "README.md" in scanned
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md")} <= scanned
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "src").rglob("*.py")} <= scanned
    catalogues = {p.relative_to(ROOT).as_posix() for p in I18N.glob("*.json")}
    assert catalogues and catalogues <= scanned


# --- documents the project does not have, by name or by number ---------------------------

# The rules once cited numbered outside documents ("seed 000", "seeds 001, 004"). The
# rules pages are the project's own now; a page may number its own rules ("rule 1").
OUTSIDE_DOCUMENT = re.compile(r"[Ss]eeds? 0\d\d\b")
I18N = ROOT / "src" / "bluffdice" / "server" / "static" / "i18n"


def user_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_no_page_or_message_cites_an_outside_document() -> None:
    found = []
    for path in [*user_pages(), *sorted(I18N.glob("*.json"))]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE_DOCUMENT.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "pages that cite documents the repository does not have:\n" + "\n".join(found)


# --- no diaries: current figures with their commands, not dated measurement rounds -----

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATE = re.compile(
    r"\b20\d\d-\d\d-\d\d\b"  # 2026-12-01
    rf"|\b\d{{1,2}} (?:{MONTHS})\b|\b(?:{MONTHS}) \d{{1,2}}\b"  # 1 December, December 1
    r"|\b\d\d:\d\d(?:\s*(?:-|to)\s*\d\d:\d\d)? UTC\b"  # 14:40 UTC, 02:28 to 03:29 UTC
)
MEASURING = re.compile(
    r"measur|\bran\b|\bruns?\b|\bre-run|\bload\b|benchmark|\btook\b|seconds|/s\b|a second",
    re.IGNORECASE,
)
ROUNDS_OF_WORK = re.compile(
    r"\b[Rr]ound (?:one|two|three|four|five|six|seven|eight|nine|ten)\b"  # Round five: ...
    r"|\bin \d+ of \d+ runs\b"  # under 100 ms in 19 of 33 runs
)


def diary_entries(text: str) -> list[str]:
    """Paragraphs that date a measurement or count rounds of work on it."""
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        if (DATE.search(paragraph) and MEASURING.search(paragraph)) or ROUNDS_OF_WORK.search(
            paragraph
        ):
            found.append(" ".join(paragraph.split())[:120])
    return found


def test_no_page_holds_dated_measurement_rounds() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {entry}"
        for path in user_pages()
        for entry in diary_entries(path.read_text(encoding="utf-8"))
    ]
    assert not found, "diaries belong in commit messages:\n" + "\n".join(found)


def test_the_diary_check_catches_what_it_should() -> None:
    caught = [
        "measured on 2026-12-01 between 14:40 and 15:50 UTC: 1,022 rounds/s",
        "Round five: work moved off the event loop, measured and not kept.",
        "p99 under 100 ms in 19 of 33 runs",
        "Re-run after the change (1 December; load about 1 to 3).",
        "It ran 60 minutes (02:28 to 03:29 UTC) at the lowest priority.",
    ]
    for text in caught:
        assert diary_entries(text), text
    kept = [
        "a median of 1,022 rounds a second with 4 bots (`python benchmarks/bench_maexchen.py`)",
        "Round 1 · You start.\n\nThe round ends with the next player.",
        "the fair record of 2026-12-01 is verified\n\nIt ran 60 minutes.",
    ]
    for text in kept:
        assert not diary_entries(text), text


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
