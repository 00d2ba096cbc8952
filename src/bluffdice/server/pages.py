"""The HTML pages, already in the reader's language before any script runs.

The page's script picks its language itself (the one saved in the browser, else the
browser's own) and words everything from the message catalogue. A browser without
JavaScript never runs it, yet it should be told in its own language why the page stays
empty: so the server fills every element marked `data-t="key"` (the `<noscript>` line,
the scoreboard's headings) with the catalogue's text for the best language of the
request's Accept-Language header, and sets `<html lang>` to it.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

STATIC = Path(__file__).parent / "static"
DEFAULT = "en"
MARKED = re.compile(r'(<(\w+)\b[^>]*\bdata-t="([\w.-]+)"[^>]*>)([^<]*)(</\2>)')
HTML_LANG = re.compile(r'<html lang="[\w-]*">')


@lru_cache(maxsize=1)
def catalogues() -> dict[str, dict[str, str]]:
    """Each language of static/i18n, by its code."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((STATIC / "i18n").glob("*.json"))
    }


def best_language(accept: str | None) -> str:
    """The first language of an Accept-Language header (by its q weights) that the
    catalogue has: `ru-RU,ru;q=0.9,en;q=0.8` gives ru; none of ours gives English."""
    wanted: list[tuple[float, int, str]] = []
    for place, item in enumerate((accept or "")[:1000].split(",")):
        tag, _, weight = item.strip().partition(";")
        q = 1.0
        if weight.strip().startswith("q="):
            try:
                q = float(weight.strip()[2:])
            except ValueError:
                q = 0.0
        if q > 0:
            wanted.append((-q, place, tag.strip().split("-")[0].lower()))
    known = catalogues()
    for _, _, lang in sorted(wanted):
        if lang in known:
            return lang
    return DEFAULT


@lru_cache(maxsize=16)
def render(name: str, lang: str) -> str:
    """Page `name` of static/ with its marked elements in `lang`."""
    words = catalogues()[lang]
    english = catalogues()[DEFAULT]

    def fill(found: re.Match[str]) -> str:
        key = found.group(3)
        text = words.get(key) or english.get(key)
        if text is None:
            return found.group(0)
        return f"{found.group(1)}{html.escape(text, quote=False)}{found.group(5)}"

    page = (STATIC / name).read_text(encoding="utf-8")
    page = HTML_LANG.sub(f'<html lang="{lang}">', page, count=1)
    return MARKED.sub(fill, page)


def page_response(request: Request, name: str) -> Response:
    lang = best_language(request.headers.get("accept-language"))
    return HTMLResponse(
        render(name, lang),
        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"},
    )
