"""The browser page's private tables, leaving, the creator's hand-over and the papercuts
of issue #31, in Debian's chromium against a `bluffdice serve` process (the server and
browser of tests/test_web_e2e.py). Run on its own:

    python -m pytest -m browser tests/test_web_page.py
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.test_web_e2e import (  # noqa: F401  (server and browser are fixtures)
    DESKTOP,
    PHONE,
    Player,
    browser,
    create_table,
    join,
    playwright_api,
    server,
)

pytestmark = pytest.mark.browser


def get(url: str) -> Any:
    return json.loads(urllib.request.urlopen(url, timeout=10).read())


def lobby_ids(player: Player, base: str) -> list[str]:
    """The tables a visitor's lobby links to."""
    page = player.page
    page.goto(base + "/")
    page.wait_for_selector("#tables li")
    links = page.locator("#tables a").evaluate_all("links => links.map(a => a.pathname)")
    return [str(link).rsplit("/", 1)[1] for link in links]


def seat_texts(player: Player) -> list[str]:
    return [text.strip() for text in player.page.locator("#players li").all_inner_texts()]


def latest_info(player: Player) -> dict[str, Any]:
    infos = [m for m in player.messages if m["type"] == "table"]
    return infos[-1]


def wait_for_info(player: Player, test: Any, timeout_ms: int = 10_000) -> dict[str, Any]:
    for _ in range(timeout_ms // 50):
        infos = [m for m in player.messages if m["type"] == "table"]
        if infos and test(infos[-1]):
            return infos[-1]
        player.page.wait_for_timeout(50)
    raise AssertionError(f"the table never got there: {latest_info(player)}")


def leave(player: Player) -> None:
    page = player.page
    page.click("#leave")
    page.click("#leave-yes")
    wait_for_info(player, lambda info: info["you"] is None)
    page.wait_for_selector("#leave", state="detached")


def test_a_friend_joins_by_link_a_stranger_sees_nothing_and_seats_are_handed_over(
    server: str,  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    rng = random.Random(3)
    ann, bob, cid = Player(browser, "Ann"), Player(browser, "Bob"), Player(browser, "Cid")
    stranger = Player(browser, "Zed")
    table = create_table(ann, server, "mia", ["", "", "", "honest"], lives=1)
    # the creator keeps the host token, which hands seats over
    host = ann.page.evaluate(f"() => localStorage.getItem('bluffdice.host.{table}')")
    assert host and len(host) >= 32
    # private by default: not in the lobby, not in the API's listing
    listed = get(f"{server}/api/tables?offset=0&limit=50")
    assert table not in [t["id"] for t in listed["tables"]]
    # a listed table is there, so the lobby does show tables
    page = stranger.page
    page.goto(server + "/")
    page.fill("#name", "Zed")
    page.select_option("#seat-count", "2")
    assert not page.is_checked("#listed")
    page.check("#listed")
    page.click("#create")
    page.wait_for_url("**/t/**")
    shown = page.url.rsplit("/", 1)[1]
    ids = lobby_ids(stranger, server)
    assert shown in ids and table not in ids
    # nor can a stranger reach it without the link: 96-bit ids, a guess finds nothing
    assert len(table) >= 16
    with pytest.raises(urllib.error.HTTPError) as missed:
        urllib.request.urlopen(f"{server}/api/tables/{table[:-2]}xy", timeout=10)
    assert missed.value.code == 404

    # friends with the link sit down; the game starts
    join(bob, server, table)
    join(cid, server, table)
    for player in (ann, bob, cid):
        player.page.wait_for_selector("#turn:not(:empty)")

    # a stranger with the link watches: no moves panel, nothing says "Your move"
    page.goto(f"{server}/t/{table}")
    page.wait_for_selector("#turn:not(:empty)")
    assert page.locator("#actions").inner_text() == ""
    assert "Your move" not in page.locator("main").inner_text()
    assert page.locator("#leave").count() == 0

    # Bob goes offline: the creator is offered his seat, the server says not yet
    bob.page.goto("about:blank")
    ann.page.wait_for_selector("#hand-over li[data-seat='1']")
    assert "offline" in ann.page.locator("#hand-over li[data-seat='1']").inner_text()
    ann.page.locator("#hand-over li[data-seat='1'] .hand-to-bot").click()
    ann.page.wait_for_selector("#notice:not(:empty)")
    assert "away for 120 seconds" in ann.page.locator("#notice").inner_text()
    # a person's seat is offered to the creator only: Cid has no such tools
    assert cid.page.locator("#hand-over li").count() == 0

    # Bob comes back and leaves: his token is forgotten, he watches on
    bob.page.goto(f"{server}/t/{table}")
    bob.page.wait_for_selector("#players li.me")
    leave(bob)
    token = bob.page.evaluate(f"() => localStorage.getItem('bluffdice.seat.{table}')")
    assert token is None
    assert "You are watching." in bob.page.locator(".status").inner_text()
    assert bob.page.locator("#actions").inner_text() == ""
    bob.page.reload()
    bob.page.wait_for_selector("#turn:not(:empty)")
    assert bob.page.locator("#players li.me").count() == 0

    # the creator hands Bob's seat to a bot
    row = ann.page.locator("#hand-over li[data-seat='1']")
    row.wait_for()
    assert "left" in row.inner_text()
    row.locator("select").select_option("random")
    row.locator(".hand-to-bot").click()
    wait_for_info(ann, lambda info: info["seats"][1]["kind"] == "bot")
    ann.page.wait_for_selector("#hand-over li[data-seat='1']", state="detached")
    assert ann.page.locator("#notice").inner_text() == ""
    assert "random" in seat_texts(ann)[1] and "bot" in seat_texts(ann)[1]

    # Cid leaves; the creator frees his seat, and a new player takes it by the link
    leave(cid)
    ann.page.locator("#hand-over li[data-seat='2'] .hand-to-player").click()
    wait_for_info(ann, lambda info: not info["seats"][2]["taken"])
    dee = Player(browser, "Dee")
    dee.page.goto(f"{server}/t/{table}")
    dee.page.wait_for_selector("#join-box form")
    assert "A seat is free" in dee.page.locator("#join-box").inner_text()
    dee.page.fill("#join-name", "Dee")
    dee.page.click("#join")
    dee.page.wait_for_selector("#players li.me")
    assert dee.seat() == 2
    assert "watching" not in dee.page.locator(".status").inner_text()

    # the game goes on to its end, with the bot in Bob's seat
    for _ in range(600):
        if ann.finished() and dee.finished():
            break
        if not (ann.move(rng) or dee.move(rng)):
            ann.page.wait_for_timeout(100)
    for player in (ann, dee, bob):
        player.page.wait_for_selector("#result h2", timeout=15_000)
    replay = get(f"{server}/api/replays/{table}")
    assert replay["names"][1] == "random" and replay["names"][2] == "Dee"
    # the rematch keeps its creator: the host token goes with the page to the new table
    ann.page.click("#rematch")
    ann.page.wait_for_function(f"() => location.pathname !== '/t/{table}'", timeout=15_000)
    rematch = ann.page.url.rsplit("/", 1)[1]
    assert rematch != table
    kept = ann.page.evaluate(f"() => localStorage.getItem('bluffdice.host.{rematch}')")
    assert kept == host
    for player in (ann, bob, cid, dee, stranger):
        assert not player.errors, (player.name, player.errors)
        player.context.close()


def announce_default_checked(player: Player) -> int | None:
    """On an announce picker: the index it shows first, checked against the roll the page
    shows (the index of announcing it where legal, else 0). Returns the index, or None
    where no announce picker is offered."""
    # read at once, from one drawing of the page: the values offered, which is chosen,
    # and the roll under the cup (once looked at)
    shown = player.page.evaluate(
        """() => {
          const picker = document.querySelector("#pick-mia-announce");
          if (!picker) return null;
          const roll = document.querySelector("#my-dice small");
          return {values: [...picker.options].map((o) => o.textContent),
                  chosen: picker.selectedIndex, roll: roll ? roll.textContent : null};
        }"""
    )
    if shown is None:
        return None
    values = [int(re.match(r"\d+", text)[0]) for text in shown["values"]]
    mine = int(re.match(r"\d+", shown["roll"])[0]) if shown["roll"] else None
    own = [i for i, value in enumerate(values) if value == mine]
    chosen = int(shown["chosen"])
    assert chosen == (own[0] if own else 0), (mine, values[chosen])
    return chosen


def tap(locator: Any) -> bool:
    """Click what may be gone by now (the page drew the next turn): False if it was."""
    try:
        locator.click(timeout=2000)
    except playwright_api.Error:
        return False
    return True


def odds_fit(page: Any) -> bool:
    """On an announce with many values: the odds open in a short box, the round's calls
    stay on screen below them, and on a phone the rows scroll. False if the turn moved
    on before the odds could be read (tried again later)."""
    if not tap(page.locator("#hint-button")):
        return False
    try:
        page.wait_for_selector("#hint .hint-rows li", timeout=3000)
    except playwright_api.Error:
        return False
    rows = page.locator("#hint .hint-rows")
    if rows.locator("li").count() <= 12:
        tap(page.locator("#hint-button"))
        return False
    box = page.locator("#hint").bounding_box()
    assert box is not None and box["height"] < 320, box
    calls = page.locator("#calls").bounding_box()
    assert calls is not None and calls["y"] + 40 < DESKTOP["height"], (box, calls)
    page.set_viewport_size(PHONE)
    phone = page.locator("#hint").bounding_box()
    assert phone is not None and phone["height"] < 360, phone
    assert rows.evaluate("el => el.scrollHeight > el.clientHeight")
    page.set_viewport_size(DESKTOP)
    tap(page.locator("#hint-button"))
    return True


def test_the_mia_table_papercuts(server: str, browser: Any) -> None:  # noqa: F811
    """The announce picker starts at your roll; the odds fit in a short box; the log is
    newest first with no numbers; the review shows flags as yes and no, and says each
    decision of its player by name (a bot's is not "you held 53")."""
    rng = random.Random(9)
    eve = Player(browser, "Eve")
    table = create_table(eve, server, "mia", ["", "honest"], lives=5)
    page = eve.page
    above_lowest = 0
    odds_checked = False
    for _ in range(800):
        if eve.finished():
            break
        chosen = announce_default_checked(eve)
        if chosen:
            above_lowest += 1
        if not odds_checked and chosen is not None:
            odds_checked = odds_fit(page)
        # look at the roll before announcing, so the picker has a roll to start at
        look = page.locator("#actions button[data-action='mia.look']")
        if not (look.count() and tap(look)) and not eve.move(rng):
            page.wait_for_timeout(100)
    page.wait_for_selector("#result h2", timeout=15_000)
    assert above_lowest, "no announce picker started above the lowest value"
    assert odds_checked, "no odds with many rows were shown"

    # the log: newest first, the last word the end of the game, no numbered markers
    log = page.locator("#log")
    assert log.evaluate("el => el.tagName") == "UL"
    assert log.locator("li").first.evaluate("li => getComputedStyle(li).listStyleType") == "none"
    items = log.locator("li").all_inner_texts()
    assert len(items) > 10
    assert items[0].startswith("Game over:"), items[:3]

    # the review: flags read yes or no, never 1 or 0
    page.click("#replay-link")
    page.wait_for_selector("#models h2")
    page.click("#replay-first")
    flags = []
    ratings = []  # each decision's words are about its player by name, never "you"
    for _ in range(400):
        for line in page.locator("#rating .figures li").all_inner_texts():
            label, _, value = line.partition(": ")
            if label in ("truthful", "model believes", "claim true"):
                flags.append(value)
        ratings.append(page.locator("#rating").inner_text())
        if len(flags) >= 3 and any("honest held" in r for r in ratings):
            break
        if page.locator("#replay-step").inner_text().startswith("Step "):
            n, total = page.locator("#replay-step").inner_text().split()[1::2]
            if n == total:
                break
        page.click("#replay-next")
    assert flags, "no flag was shown in the review"
    assert set(flags) <= {"yes", "no"}, flags
    assert any("honest held" in r or "honest's dice" in r for r in ratings), ratings[:5]
    assert not any(w in r for r in ratings for w in ("you held", "your dice", "you lied")), [
        r for r in ratings if "you" in r
    ][:3]
    assert get(f"{server}/api/replays/{table}")["names"] == ["Eve", "honest"]
    assert not eve.errors, eve.errors
    eve.context.close()


def test_the_liars_dice_reveal_and_replay_papercuts(server: str, browser: Any) -> None:  # noqa: F811
    """A player out of the game is out, not "0 dice", and has no hand at the reveal; the
    replay names each cup by its owner, never "Your dice"."""
    rng = random.Random(4)
    dee = Player(browser, "Dee")
    table = create_table(dee, server, "liars-dice", ["", "odds", "random"], lives=1)
    page = dee.page
    # one die each: the first reveal puts a player out, the second (the last) has their
    # empty cup among its hands
    dee.play_to_end(rng, 600)
    page.wait_for_selector("#result h2", timeout=20_000)
    reveals = [
        e
        for m in dee.messages
        if m["type"] == "update"
        for e in m["events"]
        if e["type"] == "liars-dice.revealed"
    ]
    last = reveals[-1]
    assert any(not hand for hand in last["hands"]), last
    hands = page.locator("#reveal .hands li").all_inner_texts()
    assert len(hands) == sum(1 for hand in last["hands"] if hand), (hands, last)
    assert all(text.split(": ", 1)[1].strip() for text in hands), hands
    assert not any("0 dice" in text for text in seat_texts(dee)), seat_texts(dee)
    assert sum(1 for text in seat_texts(dee) if text.endswith("out")) == 2, seat_texts(dee)

    page.click("#replay-link")
    page.wait_for_selector("#replay-step")
    page.click("#replay-first")
    said: list[str] = []
    for _ in range(30):
        said.extend(page.locator(".replay-step li").all_inner_texts())
        page.click("#replay-next")
    names = get(f"{server}/api/replays/{table}")["names"]
    assert not any("Your dice" in line for line in said), said
    owners = {line.split("'s dice:")[0] for line in said if "'s dice:" in line}
    assert owners == set(names), (owners, names)
    assert not dee.errors, dee.errors
    dee.context.close()


def test_copy_link_without_a_clipboard_selects_the_link(server: str, browser: Any) -> None:  # noqa: F811
    """On a plain http LAN address the page has no navigator.clipboard (it needs a
    secure context): Copy link selects the link and copies it the older way, or says to
    copy it by hand."""
    fay = Player(browser, "Fay")
    fay.context.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});"
    )
    table = create_table(fay, server, "mia", ["", ""], lives=1)
    page = fay.page
    page.reload()
    page.wait_for_selector("#copy-link")
    assert page.evaluate("() => navigator.clipboard") is None
    page.click("#copy-link")
    page.wait_for_selector("#copy-said:not(:empty)")
    assert page.evaluate("() => window.getSelection().toString()") == f"{server}/t/{table}"
    assert page.locator("#copy-said").inner_text() in (
        "Copied",
        "The link is selected: copy it (Ctrl+C or ⌘C).",
    )
    # the open table's leave button frees the creator's seat again
    leave(fay)
    assert not latest_info(fay)["seats"][0]["taken"]
    page.wait_for_selector("#join-box form")
    assert not fay.errors, fay.errors
    fay.context.close()
