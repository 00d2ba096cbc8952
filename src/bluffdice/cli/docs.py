"""`bluffdice docs`: the documentation pages that ship inside the package.

Help texts and outputs point to pages such as `bluffdice docs odds`; this command prints
them wherever bluffdice was installed from. A wheel carries them as `bluffdice/docs/`
(pyproject's force-include); a source checkout reads the repository's own docs/ folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bluffdice.cli.app import app, fail, out

DOCS_HELP = (
    "Print one of the documentation pages that ship with bluffdice (Markdown), or list "
    "them.\n\n"
    "Example: bluffdice docs odds | less"
)


def docs_folder() -> Path | None:
    """The shipped pages: inside the installed package, else the checkout's docs/."""
    here = Path(__file__).resolve().parent.parent  # .../bluffdice
    for folder in (here / "docs", here.parent.parent / "docs"):
        if (folder / "odds.md").is_file():
            return folder
    return None


def topics(folder: Path) -> dict[str, Path]:
    """Topic name -> page: `odds`, `rules/mia`, `examples/cautious_bot.py`, ..."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".md":
            found[path.relative_to(folder).with_suffix("").as_posix()] = path
        elif path.suffix == ".py":
            found[path.relative_to(folder).as_posix()] = path
    return found


@app.command(help=DOCS_HELP, short_help="Print a documentation page, such as odds or solve.")
def docs(
    topic: Annotated[
        str | None,
        typer.Argument(
            metavar="TOPIC",
            help="The page, e.g. odds, solve, tournaments, rules/mia. Leave out to list them.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The `docs` command; its help text is DOCS_HELP."""
    folder = docs_folder()
    if folder is None:
        raise fail("the documentation pages are not installed with this copy of bluffdice")
    pages = topics(folder)
    if topic is None:
        for name in pages:
            out.print(name, highlight=False, markup=False)
        return
    key = topic.strip().removesuffix(".md").removeprefix("docs/")
    page = pages.get(key) or pages.get(f"rules/{key}")
    if page is None:
        raise fail(f"no page {topic[:60]!r}; pages are: {', '.join(pages)}")
    typer.echo(page.read_text(encoding="utf-8"), nl=False)
