"""What a Russian-language browser is shown: the lobby's game titles, preset and bot
descriptions and the replay page's review sentences, made by the page's own functions
(static/describe.js, run in node) from what the server sends over HTTP (/api/games, a
finished game's review, /static/i18n/*.json). In English the page must say exactly what
the server's English says; in Russian every text must be the Russian catalogue's, with
nothing left in English and no placeholder left unfilled. The same for the refusals the
page shows through its own `api()`: the hall's (a full table) and a bad house-rule string
typed in the lobby (the rule-string preview and the table's creation)."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.node_support import NODE, STATIC, run_harness
from tests.test_server import ORIGIN, create, database, hello, make_client, play_out

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

HARNESS = """
import { readFileSync } from "fs";
globalThis.document = {documentElement: {lang: "en"}};
const { useCatalogue } = await import("./i18n.js");
const { botText, gameTitle, moveText, phrase, presetText } = await import("./describe.js");
const { api } = await import("./dom.js");
const {catalogue, english, games, reviews, refusals} = JSON.parse(readFileSync(0));
useCatalogue(catalogue, english);
const refused = [];
for (const refusal of refusals) {
  globalThis.fetch = async () => ({ok: false, statusText: "Bad", json: async () => refusal});
  try { await api("/api/tables", {}); } catch (e) { refused.push(e.message); }
}
const said = (r, field) => phrase(r.said[field], r[field]);
console.log(JSON.stringify({
  lobby: games.flatMap((g) => [gameTitle(g.name, g.title),
    ...g.presets.map((p) => presetText(g.name, p)), ...g.bots.map((b) => botText(g.name, b))]),
  review: reviews.flatMap((review) => [
    ...review.ratings.flatMap((r) => Object.keys(r.said).map((field) => said(r, field))),
    ...Object.entries(review.models_said).flatMap(([, m]) => [phrase(m.name), phrase(m.about)]),
  ]),
  moves: reviews.flatMap((review) => review.ratings.map((r) => moveText(r.choice))),
  refused,
}));
"""

GAMES = [
    (
        "mia(lives=2)",
        [{"kind": "human"}, {"kind": "bot", "bot": "honest"}, {"kind": "bot", "bot": "liar"}],
    ),
    ("liars-dice(dice=2)", [{"kind": "human"}, {"kind": "bot", "bot": "odds"}]),
    ("common-hand(lives=1)", [{"kind": "human"}, {"kind": "bot", "bot": "bluffer"}]),
    ("mia(lives=3,little_mia=on,pips=on)", [{"kind": "human"}, {"kind": "bot", "bot": "liar"}]),
]

BAD_RULES = [
    "mia(lives=x)",
    "mia(lives=0)",
    "mia(lives)",
    "mia(mode)",
    "mia(livez=3)",
    "mia(pass=maybe)",
    "mia(mode=foo)",
    "mia(lives=2,lives=3)",
    "mia(relaxed_raise=on,pass=on)",
    "liars-dice(ones_bids=on,wild=off)",
    "liars-dice(dice=" + "9" * 30 + ")",
    "nosuch(lives=3)",
    "mia(,)",
    "mia(=3)",
    "(",
]
"""House-rule strings a person may type in the lobby, one per thing the parser refuses."""
ENGLISH_HANDS = re.compile(
    r"\b(Mia|little|pips|Halbmeier|pair|three|four|five|full house|straight|nothing|ones|twos|"
    r"threes|fours|fives|sixes|nines|tens|jacks|queens|kings|aces|heads-up|round|pass|doubles|"
    r"beat|give up|look|shown|once|over|and|to)\b"
)
"""English a review sentence must not show on a Russian page: the names of Mia values and
poker-dice hands, a bid's faces, the words of a solved round's title."""
ENGLISH_WORDS = re.compile(
    r"\b(option|options|must|whole|number|unknown|needs|value|takes|known|names|empty|cannot|"
    r"given|twice|forbids|without|rule|string|mean|games)\b"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with make_client(database(tmp_path_factory.mktemp("db"))) as client:
        reviews = []
        for rules, seats in GAMES:
            made = create(client, rules=rules, seats=seats)
            with client.websocket_connect(f"/ws/{made['id']}", headers=ORIGIN) as ws:
                play_out(hello(ws, made["token"]), random.Random(3))
            reviews.append(client.get(f"/api/replays/{made['id']}/review").json())
        full = client.post(f"/api/tables/{made['id']}/join", json={"name": "Zed"})
        assert full.status_code == 400
        refusals = [full.json()]
        for rules in BAD_RULES:
            made_badly = client.post("/api/tables", json={"rules": rules, "seats": GAMES[0][1]})
            previewed = client.get("/api/rules", params={"rules": rules})
            assert made_badly.status_code == previewed.status_code == 400, rules
            assert made_badly.json() == previewed.json(), rules
            refusals.append(made_badly.json())
        crowded = client.post("/api/tables", json={"rules": "common-hand", "seats": GAMES[0][1]})
        assert crowded.status_code == 400
        refusals.append(crowded.json())
        botless = [{"kind": "human"}, {"kind": "bot", "bot": "nobody"}]
        no_bot = client.post("/api/tables", json={"rules": "liars-dice", "seats": botless})
        assert no_bot.status_code == 400
        refusals.append(no_bot.json())
        yield {
            "refusals": refusals,
            "games": client.get("/api/games").json()["games"],
            "reviews": reviews,
            "en": client.get("/static/i18n/en.json").json(),
            "ru": client.get("/static/i18n/ru.json").json(),
        }


def page(tmp_path: Path, served: dict[str, Any], lang: str) -> dict[str, Any]:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    data = {"catalogue": served[lang], "english": served["en"], **served}
    result: dict[str, Any] = run_harness(folder, HARNESS, data, timeout=120)
    return result


def server_english(served: dict[str, Any]) -> dict[str, list[str]]:
    lobby = [
        text
        for g in served["games"]
        for text in [
            g["title"],
            *(p["description"] for p in g["presets"]),
            *(b["description"] for b in g["bots"]),
        ]
    ]
    review = [
        text
        for r in served["reviews"]
        for text in [
            *(row[field] for row in r["ratings"] for field in row["said"]),
            *(t for name, about in r["models"].items() for t in (name, about)),
        ]
    ]
    return {"lobby": lobby, "review": review}


def test_the_reviews_send_their_sentences_as_templates(served: dict[str, Any]) -> None:
    for review in served["reviews"]:
        assert review["reason"] is None and review["ratings"], review
        for row in review["ratings"]:
            assert {"situation", "knew", "model"} <= set(row["said"]), row
    fields = {f for r in served["reviews"] for row in r["ratings"] for f in row["said"]}
    assert "truth" in fields and "note" in fields


def said_params(said: Any) -> Iterator[tuple[str, Any]]:
    """Every (name, value) parameter of a sentence, nested sentences' too."""
    for name, value in said.get("params", {}).items():
        yield name, value
        if isinstance(value, dict) and "key" in value:
            yield from said_params(value)


def test_the_reviews_send_values_and_titles_as_what_they_are(served: dict[str, Any]) -> None:
    """A Mia value, a bid, a poker hand and a solved round's title reach the page as
    structured values ({"term": kind, ...}) and templates, never as English words."""
    kinds: set[str] = set()
    for review in served["reviews"]:
        sentences = [s for row in review["ratings"] for s in row["said"].values()]
        sentences += [m[part] for m in review["models_said"].values() for part in ("name", "about")]
        for sentence in sentences:
            for name, value in said_params(sentence):
                if name in ("value", "previous", "announced", "bid", "claim", "hand"):
                    assert isinstance(value, dict) and "term" in value, (name, value)
                    kinds.add(value["term"])
                if name == "title":
                    assert isinstance(value, dict) and value["key"].startswith("rv.policy."), value
                if name == "dice" and isinstance(value, dict):
                    assert value["term"] == "mia.value"
                    kinds.add(value["term"])
                elif name == "dice":
                    assert re.fullmatch(r"[\dJQKA ]+", value), value
    assert kinds == {"mia.value", "ld.bid", "ch.hand"}


def test_an_english_page_says_what_the_server_says(tmp_path: Path, served: dict[str, Any]) -> None:
    shown = page(tmp_path, served, "en")
    expected = server_english(served)
    assert shown["lobby"] == expected["lobby"]
    assert shown["review"] == expected["review"]
    assert shown["refused"] == [refusal["error"] for refusal in served["refusals"]]
    assert shown["refused"][0] == "this table has no free seat"
    assert "mia option lives must be a whole number from 1 to 99; got 'x'" in shown["refused"]


def test_a_russian_page_shows_russian_descriptions_and_reviews(
    tmp_path: Path, served: dict[str, Any]
) -> None:
    shown = page(tmp_path, served, "ru")
    english = server_english(served)
    for kind in ("lobby", "review"):
        assert len(shown[kind]) == len(english[kind]) > 10
        for russian, original in zip(shown[kind], english[kind], strict=True):
            assert russian != original, original
            assert re.search("[а-яё]", russian, re.IGNORECASE), russian
            assert not re.search(r"\{\w+\}", russian), russian
    for russian in shown["review"]:
        assert not ENGLISH_HANDS.search(russian), russian
    said = " ".join(shown["review"])
    assert "раунд Мии один на один" in said  # the solved round's title
    assert re.search(r"против ставки \d+× \d", said), said  # a bid, as Russian writes one
    named = {
        term["named"]
        for review in served["reviews"]
        for row in review["ratings"]
        for sentence in row["said"].values()
        for _, term in said_params(sentence)
        if isinstance(term, dict) and term.get("term") == "mia.value"
    }
    assert "pips" in named  # (the bots' dice vary: which other names come up does too)
    words = {"mia": "21 (Мия)", "littleMia": "31 (маленькая Мия)", "pips": " очков)"}
    for name in named - {None}:
        assert words[name] in said, name
    assert (
        "не верю" in shown["moves"] or "поверить" in shown["moves"] or "бросить" in shown["moves"]
    )


def test_a_russian_lobby_words_a_bad_rule_string_in_russian(
    tmp_path: Path, served: dict[str, Any]
) -> None:
    shown = page(tmp_path, served, "ru")["refused"]
    assert len(shown) == len(served["refusals"]) == len(BAD_RULES) + 3
    for russian, refusal in zip(shown, served["refusals"], strict=True):
        assert refusal.get("key"), refusal  # every refusal came with its catalogue key
        assert russian != refusal["error"]
        assert re.search("[а-яё]", russian, re.IGNORECASE), russian
        assert not re.search(r"\{\w+\}|\[object", russian), russian
        assert not ENGLISH_WORDS.search(russian), russian
    wrong = "параметр lives игры mia должен быть таким: целое число от 1 до 99; получено 'x'"
    assert wrong in shown
    assert shown[-2] == "в игру «Общая рука (покерные кости)» играют от 2 до 2 игроков"
    assert shown[-1].startswith("нет бота 'nobody' для игры liars-dice; боты: ")
