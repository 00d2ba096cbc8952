"""One source for what the page says about each event: the page's English log lines
(static/describe.js with the catalogue's English) are bluffdice.narration's words, checked
here for every event type of real games of Mia and Liar's Dice under several rule sets.

Differences the page is allowed, and only these: dice a narration line shows as `[4]` the
page draws as pips; the Liar's Dice reveal's hands go to the page's reveal box
(`revealedHands`), its log line is the narration's last line; the end of the game and a
timeout, which the narration leaves to the result screen and the turn line, get a line."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bluffdice.bots import load_bot
from bluffdice.narration import plain, words_for
from bluffdice.table import Table, seeded
from bluffdice.table.runners import run_sync
from tests.node_support import NODE, STATIC, run_harness

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
PIPS = "⚀⚁⚂⚃⚄⚅"
OWN_EYES_ONLY = {"mia.looked", "liars-dice.your_dice", "common-hand.your_dice"}
PAGE_ONLY = {"game_over", "timed_out"}

GAMES = [
    ("mia(lives=2)", 3, ["honest", "random", "odds"], 1),
    ("mia(mode=drinking,rounds=4,joker32=on,beat_mia=on)", 3, ["random"], 2),
    (
        "mia(mode=score,rounds=4,little_mia=on,halbmeier=on,pips=on,mia_end=instant)",
        3,
        ["random", "honest"],
        3,
    ),
    ("mia(lives=3,mia_doubled=on,end=first_out)", 4, ["random", "odds"], 4),
    ("liars-dice(dice=2,calza=on)", 3, ["random"], 5),
    ("liars-dice(dice=2,palifico=on,wild=highest)", 4, ["random", "odds"], 6),
    ("liars-dice(dice=3,calza=on,wild=off,faces=5)", 3, ["random"], 7),
    ("common-hand(lives=2)", 2, ["random", "honest", "bluffer"], 8),
    ("common-hand(lives=3,straights=off)", 2, ["random", "bluffer"], 9),
]

HARNESS = """
import { readFileSync } from "fs";
globalThis.document = {documentElement: {lang: "en"}};
const { useCatalogue } = await import("./i18n.js");
const { eventText, revealedHands } = await import("./describe.js");
useCatalogue(JSON.parse(readFileSync("./i18n/en.json")));
const out = [];
for (const c of JSON.parse(readFileSync(0))) {
  const ctx = {names: c.names, rules: c.rules, game: c.game, viewer: c.viewer};
  out.push({line: eventText(c.event, ctx), hands: revealedHands(c.event, c.names, c.rules)});
}
console.log(JSON.stringify(out));
"""


def cases() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for rules, players, bots, seed in GAMES:
        for game_seed in range(seed * 10, seed * 10 + 3):
            table = Table(
                rules, players, dice=seeded(game_seed), names=["Ann", "Bob", "Cid", "Dee"][:players]
            )
            game = table.spec.name
            rng = random.Random(game_seed)
            run_sync(table, [load_bot(bots[i % len(bots)], game, rng) for i in range(players)])
            words = words_for(table.rules)
            for entry in table.log:
                for event in entry.events:
                    data = msgspec.to_builtins(event)
                    viewers = [data["player"]] if data["type"] in OWN_EYES_ONLY else [None]
                    for viewer in viewers:
                        said = words.describe(event, table.names, viewer)
                        found.append(
                            {
                                "names": list(table.names),
                                "rules": rules,
                                "game": game,
                                "viewer": viewer,
                                "event": data,
                                "narration": None if said is None else plain(said),
                            }
                        )
    return found


def rare_cases() -> list[dict[str, Any]]:
    """Events seeded bot games seldom make: cheers, a stiff drink, palifico, a full cup."""
    from bluffdice.games.liars_dice.actions import DiceChanged, RoundStarted
    from bluffdice.games.mia.actions import CheersShown, MiaAttempt, Penalty

    names = ["Ann", "Bob", "Cid"]
    rare = [
        ("mia(joker32=on)", CheersShown(player=1)),
        ("mia(beat_mia=on)", MiaAttempt(player=2, value=21)),
        ("mia(beat_mia=on,pips=on)", MiaAttempt(player=0, value=64)),
        ("mia(mode=drinking)", Penalty(player=2, amount=1, reason="mia_found", stiff=True)),
        ("mia(mode=drinking)", Penalty(player=0, amount=3, reason="lied_about_mia")),
        ("mia(mia_doubled=on)", Penalty(player=0, amount=2, reason="beat_failed")),
        (
            "liars-dice(palifico=on)",
            RoundStarted(round=4, starter=2, dice=(1, 3, 2), palifico=True),
        ),
        ("liars-dice(calza=on)", DiceChanged(player=1, change=0, dice=5, reason="calza_right")),
        ("liars-dice(calza=on)", DiceChanged(player=1, change=1, dice=1, reason="calza_right")),
    ]
    found = []
    for rules, event in rare:
        table = Table(rules, 3, dice=seeded(1), names=names)
        said = words_for(table.rules).describe(event, names, None)
        found.append(
            {
                "names": names,
                "rules": rules,
                "game": table.spec.name,
                "viewer": None,
                "event": msgspec.to_builtins(event),
                "narration": None if said is None else plain(said),
            }
        )
    return found


def run_page(tmp_path: Path, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    result: list[dict[str, Any]] = run_harness(folder, HARNESS, found, timeout=120)
    return result


def as_page_draws_it(text: str) -> str:
    for face in range(1, 7):
        text = text.replace(f"[{face}]", PIPS[face - 1])
    for face in ("9", "10", "J", "Q", "K", "A"):  # poker dice: their faces, no brackets
        text = text.replace(f"[{face}]", face)
    return text.strip()


def test_the_page_says_what_the_narration_says_for_every_event_type(tmp_path: Path) -> None:
    found = cases() + rare_cases()
    page = run_page(tmp_path, found)
    types = set()
    for case, said in zip(found, page, strict=True):
        kind = case["event"]["type"]
        types.add(kind)
        narration, line = case["narration"], said["line"]
        if kind in PAGE_ONLY:
            assert narration is None and line, kind
            continue
        if narration is None:
            assert line is None, (kind, line)
            continue
        if kind in ("liars-dice.revealed", "common-hand.revealed"):
            *hands, last = narration.split("\n")
            assert [f"{n}: {f}" for n, f in said["hands"] if f] == [
                as_page_draws_it(h) for h in hands
            ]
            narration = last
        assert line is not None and as_page_draws_it(line) == as_page_draws_it(narration), case
    expected = {
        "round_started",
        "mia.rolled",
        "mia.looked",
        "mia.announced",
        "mia.passed",
        "mia.challenged",
        "mia.revealed",
        "mia.gave_up",
        "mia.penalty",
        "mia.mia_attempt",
        "mia.cheers_shown",
        "eliminated",
        "game_over",
        "liars-dice.round_started",
        "liars-dice.your_dice",
        "liars-dice.bid_made",
        "liars-dice.challenged",
        "liars-dice.calza_called",
        "liars-dice.revealed",
        "liars-dice.dice_changed",
        "common-hand.rolled",
        "common-hand.your_dice",
        "common-hand.claimed",
        "common-hand.challenged",
        "common-hand.revealed",
        "common-hand.life_lost",
    }
    assert expected <= types, expected - types
