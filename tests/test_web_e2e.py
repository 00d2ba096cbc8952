"""The real page in a real browser: Playwright (Python) driving Debian's chromium against a
`bluffdice serve` process. Skipped where chromium or Playwright is missing, and in the main
run; run it on its own:

    python -m pytest -m browser tests/test_web_e2e.py

With BLUFFDICE_SCREENSHOTS=docs/web it also saves the screenshots of docs/web.md.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
if CHROMIUM is None:
    pytest.skip("chromium is not installed", allow_module_level=True)

SHOTS = os.environ.get("BLUFFDICE_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}


def only_when_asked(request: pytest.FixtureRequest) -> None:
    """A browser run takes most of a minute: it runs in its own call (`-m browser`).
    Checked first in the module's fixtures, so the main run starts neither server nor
    browser."""
    if "browser" not in (request.config.option.markexpr or ""):
        pytest.skip("browser tests run on their own: pytest -m browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    only_when_asked(request)
    port = free_port()
    db = tmp_path_factory.mktemp("web") / "serve.db"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from bluffdice.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            "0.05",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/tables", timeout=1).read()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)
    yield base
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    only_when_asked(request)
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


class Player:
    """One browser context: its page, and every message its websockets received (each
    frame is a JSON array of messages; `connections` keeps them by connection)."""

    def __init__(
        self,
        browser: Any,
        name: str,
        viewport: dict[str, int] = DESKTOP,
        locale: str | None = None,
    ) -> None:
        self.context = browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)
        self.page = self.context.new_page()
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.connections: list[list[dict[str, Any]]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _watch(self, ws: Any) -> None:
        messages: list[dict[str, Any]] = []
        self.connections.append(messages)

        def received(payload: str) -> None:
            frame = json.loads(payload)
            if not isinstance(frame, list) or not frame:
                self.errors.append(f"a frame that is not an array of messages: {payload[:80]}")
                return
            messages.extend(frame)
            self.messages.extend(frame)

        ws.on("framereceived", received)

    def seat(self) -> int | None:
        infos = [f for f in self.messages if f["type"] == "table"]
        return infos[-1]["you"] if infos else None

    def move(self, rng: random.Random) -> bool:
        """Click one of the offered moves (a random one); False if none is offered."""
        buttons = self.page.locator("#actions .buttons button")
        count = buttons.count()
        if not count:
            return False
        try:
            buttons.nth(rng.randrange(count)).click(timeout=2000)
        except playwright_api.Error:
            return False
        return True

    def finished(self) -> bool:
        return self.page.locator("#result h2").count() > 0

    def play_to_end(self, rng: random.Random, tries: int) -> None:
        """Play random offered moves (the bots play theirs) until the result shows."""
        for _ in range(tries):
            if self.finished():
                return
            if not self.move(rng):
                self.page.wait_for_timeout(100)


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def create_table(
    player: Player, base: str, game: str, seats: list[str], lives: int, fair: bool = False
) -> str:
    page = player.page
    page.goto(base + "/")
    page.fill("#name", player.name)
    page.select_option("#game", game)
    page.select_option("#seat-count", str(len(seats)))
    for index, kind in enumerate(seats[1:]):
        page.locator(".seat-kind").nth(index).select_option(kind)
    page.click("details summary")
    key = "lives" if game == "mia" else "dice"
    page.fill(f"#opt-{key}", str(lives))
    page.locator(f"#opt-{key}").dispatch_event("change")
    page.wait_for_function(
        f"document.querySelector('#rule-string').textContent.includes('{key}={lives}')"
    )
    page.select_option("#limit", "")
    if fair:
        page.check("#fair")
    page.click("#create")
    page.wait_for_url("**/t/**")
    return page.url.rsplit("/", 1)[1]


def join(player: Player, base: str, table: str) -> None:
    page = player.page
    page.goto(f"{base}/t/{table}")
    page.fill("#join-name", player.name)
    page.click("#join")
    page.wait_for_selector("#players li.me")


def assert_no_foreign_dice(player: Player) -> None:
    """Every message of a connection is addressed to that connection's seat (the seat its
    token holds, None while it watched before sitting down), holds only that seat's view,
    and no dice drawn (chance) travel outside replays."""
    for messages in player.connections:
        infos = [f for f in messages if f["type"] == "table"]
        if infos:
            assert_one_seat(messages, infos[0]["you"])
    assert player.seat() is not None


def assert_one_seat(messages: list[dict[str, Any]], seat: int | None) -> None:
    for message in messages:
        if message["type"] in ("update", "welcome"):
            assert message["recipient"] == seat
            updates = [message, *message.get("history", [])]
            assert all(u.get("chance") is None for u in updates)
            assert all(u["view"]["player"] == seat for u in updates)
        if message["type"] == "prompt":
            assert message["seat"] == seat and message["view"]["player"] == seat


def test_friends_play_mia_reload_liars_dice_and_a_replay(server: str, browser: Any) -> None:
    rng = random.Random(7)
    ann = Player(browser, "Ann")
    bob = Player(browser, "Bob <img src=x onerror=alert(1)>")
    cid = Player(browser, "Cid", viewport=PHONE)
    ann.page.goto(server + "/")
    ann.page.wait_for_selector("#create")
    shot(ann.page, "lobby-desktop")
    table = create_table(ann, server, "mia", ["", "", "", "honest"], lives=1)
    join(bob, server, table)
    join(cid, server, table)
    for player in (ann, bob, cid):
        player.page.wait_for_selector("#turn:not(:empty)")
    # a name is text, never markup
    assert bob.page.locator("#players img").count() == 0
    assert "<img src=x" in ann.page.locator("#players").inner_text()

    players = [ann, bob, cid]
    reloaded = False
    took_shots = False
    for _ in range(600):
        if all(p.finished() for p in players):
            break
        moved = any(p.move(rng) for p in players)
        if not moved:
            ann.page.wait_for_timeout(100)
        calls = ann.page.locator("#calls .call-list")
        if not took_shots and calls.count() and "→" in calls.inner_text():
            shot(ann.page, "table-desktop")
            shot(cid.page, "table-phone")
            took_shots = True
        if not reloaded and len([f for f in bob.messages if f["type"] == "update"]) > 8:
            seat = bob.seat()
            bob.page.reload()
            bob.page.wait_for_selector("#players li.me")
            assert bob.seat() == seat
            assert "Bob" in bob.page.locator("#players li.me").inner_text()
            reloaded = True
    assert reloaded, "the game ended before anyone reloaded"
    assert took_shots or not SHOTS, "no round had two calls"
    for player in players:
        player.page.wait_for_selector("#result h2", timeout=10_000)
        assert_no_foreign_dice(player)
        assert not player.errors, player.errors
    shot(cid.page, "result-phone")

    # the replay, from the result screen
    ann.page.click("#replay-link")
    ann.page.wait_for_selector("#replay-step")
    first = ann.page.locator("#replay-step").inner_text()
    ann.page.click("#replay-next")
    ann.page.keyboard.press("ArrowRight")
    assert ann.page.locator("#replay-step").inner_text() != first
    assert "3" in ann.page.locator("#replay-step").inner_text()
    # the review beside the moves: each decision rated for its player, with its model
    ann.page.wait_for_selector("#models h2")
    ann.page.click("#replay-first")
    for _ in range(400):
        if ann.page.locator("#rating-model").count():
            break
        ann.page.click("#replay-next")
    model = ann.page.locator("#rating-model").inner_text()
    assert "Rated by:" in model
    assert model.split(":", 1)[1].strip().split()[0] in ann.page.locator("#models").inner_text()
    replay = json.loads(urllib.request.urlopen(f"{server}/api/replays/{table}").read())
    heading = ann.page.locator("#rating h2").inner_text()
    assert any(heading.startswith(f"{name}'s decision") for name in replay["names"]), heading
    shot(ann.page, "replay-desktop")

    # Liar's Dice: one round to the reveal
    dee = Player(browser, "Dee")
    create_table(dee, server, "liars-dice", ["", "odds"], lives=2)
    for _ in range(300):
        if dee.page.locator("#reveal h2").count():
            break
        if not dee.move(rng):
            dee.page.wait_for_timeout(100)
    dee.page.wait_for_selector("#reveal .hands li")
    shot(dee.page, "reveal-desktop")
    dee.page.set_viewport_size(PHONE)
    shot(dee.page, "reveal-phone")
    assert_no_foreign_dice(dee)
    assert not dee.errors, dee.errors
    # a refusal is shown, and goes once the table has moved on
    stale_refusal_goes(dee, rng)
    for player in (ann, bob, cid, dee):
        player.context.close()


def stale_refusal_goes(player: Player, rng: random.Random) -> None:
    """Two clicks on one move before the page hears back: the second is refused, and
    the refusal leaves the screen when the turn moves on (not only at the next click)."""
    page = player.page
    page.goto(page.url)  # back at the table, mid-game or at its end
    for _ in range(200):
        if player.finished() or page.locator("#actions .buttons button").count():
            break
        page.wait_for_timeout(100)
    if player.finished():
        pytest.fail("the Liar's Dice game ended before the refusal check")
    page.evaluate(
        "() => { const b = document.querySelector('#actions .buttons button');"
        " b.click(); b.click(); }"
    )
    page.wait_for_selector("#actions .error")
    refused = [f for f in player.messages if f["type"] == "refused"][-1]
    page.wait_for_function(
        "() => [...document.querySelectorAll('#actions .error')].length === 0",
        timeout=15_000,
    )
    # The page may act on the new turn before Playwright hands this test its frame. The
    # next seat's answer may also end the game (a bot calling the bid): then no turn
    # follows, and the refusal goes with the finished table's moves.
    for _ in range(100):
        turns = [f for f in player.messages if f["type"] == "turn"]
        if turns[-1]["state_id"] != refused["state_id"] or player.finished():
            break
        page.wait_for_timeout(50)
    assert turns[-1]["state_id"] != refused["state_id"] or player.finished()


def test_a_russian_browser_shows_russian_descriptions_and_reviews(
    server: str, browser: Any
) -> None:
    """A browser set to Russian: the lobby's presets and bots, and the replay's review,
    in the Russian catalogue's words."""
    static = Path(__file__).parent.parent / "src" / "bluffdice" / "server" / "static"
    ru = json.loads((static / "i18n" / "ru.json").read_text())
    rng = random.Random(5)
    ivan = Player(browser, "Иван", locale="ru-RU")
    page = ivan.page
    page.goto(server + "/")
    page.wait_for_selector("#create")
    assert page.locator("h1").inner_text() == ru["lobby.title"]
    assert (
        page.locator("#preset option").first.inner_text() == f"classic — {ru['preset.mia.classic']}"
    )
    abouts = [text.strip() for text in page.locator(".seats-form .about").all_inner_texts()]
    assert ru["bot.mia.honest"] in abouts
    # a house rule the parser refuses (no lives): the lobby says why in Russian
    page.click("details summary")
    page.fill("#opt-lives", "0")
    page.locator("#opt-lives").dispatch_event("change")
    refusal = page.locator("p.error[role=alert]")
    refusal.filter(has_text="целое число от 1 до 99").wait_for(timeout=10_000)
    assert "whole number" not in refusal.inner_text()
    create_table(ivan, server, "mia", ["", "honest"], lives=1)
    ivan.play_to_end(rng, 300)
    page.wait_for_selector("#result h2", timeout=10_000)
    page.click("#replay-link")
    page.wait_for_selector("#models h2")
    assert ru["rv.model.odds"] in page.locator("#models").inner_text()
    page.click("#replay-first")
    for _ in range(200):
        if page.locator("#rating-model").count():
            break
        page.click("#replay-next")
    rating = page.locator("#rating").inner_text()
    assert ru["review.model"].split("{")[0] in rating
    assert "you " not in rating and "the dice" not in rating, rating
    assert not ivan.errors, ivan.errors
    ivan.context.close()


def test_a_fair_game_shows_its_commitment_and_verifies_at_the_end(
    server: str, browser: Any
) -> None:
    rng = random.Random(11)
    eve = Player(browser, "Eve")
    table = create_table(eve, server, "mia", ["", "honest"], lives=1, fair=True)
    page = eve.page
    page.wait_for_selector("#commitment")
    commitment = page.locator("#commitment").inner_text().strip()
    assert len(commitment) == 64
    page.wait_for_selector("#turn:not(:empty)")  # the seed went in, the game started
    own = [f for f in eve.messages if f["type"] == "table"][-1]["fair"]["seed"]
    assert own and len(own) == 32 and own in page.locator("#fair").inner_text()
    shot(page, "fair-table-desktop")
    eve.play_to_end(rng, 600)
    page.wait_for_selector("#fair-verdict.good", timeout=20_000)
    shot(page, "fair-verified-desktop")
    export = json.loads(urllib.request.urlopen(f"{server}/api/tables/{table}/fair").read())
    assert export["commitment"] == commitment
    seen = [json.dumps(f) for f in eve.messages]
    assert not any(export["server_seed"] in text for text in seen)
    assert export["client_seeds"][0] and export["client_seeds"][1] == ""
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "bluffdice",
            "verify",
            f"{server}/t/{table}",
            "--commitment",
            commitment,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout
    assert_no_foreign_dice(eve)
    assert not eve.errors, eve.errors
    eve.context.close()


def test_the_pages_work_under_their_content_security_policy(server: str, browser: Any) -> None:
    """The other tests let Playwright evaluate its own scripts (bypass_csp); this one
    keeps the policy on and checks that the lobby and its scripts run under it."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    response = page.goto(server + "/")
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.locator("form").first.wait_for(timeout=10_000)
    page.wait_for_timeout(500)
    context.close()
    assert not violations
