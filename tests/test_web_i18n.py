"""The page's one message catalogue: every language (each static/i18n/*.json) holds
English's keys with the same placeholders, every key the page's scripts use is in it, and
the English of every text the Python code also says (rule options, game titles, presets,
bots, the review's sentences, the hall's refusals) is the Python text, translated in every
other language."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from bluffdice.games.catalogue import ruleset_entry
from bluffdice.games.registry import games

STATIC = Path(__file__).parent.parent / "src" / "bluffdice" / "server" / "static"
CATALOGUE = {
    path.stem: json.loads(path.read_text()) for path in sorted((STATIC / "i18n").glob("*.json"))
}
TRANSLATIONS = sorted(set(CATALOGUE) - {"en"})
PLACEHOLDER = re.compile(r"\{(\w+)\}")
OTHER_WORDING = {"bid": {"face", "faces", "quantity"}}
"""Keys whose translation may use other parameters of the ones the page passes (Russian
writes a bid as 3× 6, since its plural of a face depends on the number)."""


def test_the_page_offers_every_language_of_the_catalogue() -> None:
    assert {"en", "ru"} <= set(CATALOGUE)
    langs = re.search(r"const LANGS = \[([^\]]*)\]", (STATIC / "i18n.js").read_text())
    assert langs and set(re.findall(r'"(\w+)"', langs.group(1))) == set(CATALOGUE)
    picker = re.findall(r'<option value="(\w+)">', (STATIC / "index.html").read_text())
    assert set(picker) == set(CATALOGUE)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_language_has_the_english_keys_and_placeholders(lang: str) -> None:
    en, ru = CATALOGUE["en"], CATALOGUE[lang]
    assert set(en) == set(ru)
    for key, text in en.items():
        assert text.strip() and ru[key].strip(), key
        if key in OTHER_WORDING:
            assert set(PLACEHOLDER.findall(ru[key])) <= OTHER_WORDING[key], key
            continue
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(ru[key])), key


def assert_translated(key: str) -> None:
    """`key` is in English and written anew in every other language."""
    english = CATALOGUE["en"].get(key)
    assert english, f"{key} is not in i18n/en.json"
    for lang in TRANSLATIONS:
        assert CATALOGUE[lang].get(key) not in (None, "", english), f"{key} in i18n/{lang}.json"


def used_keys() -> set[str]:
    """Keys the scripts name: t("key"), and quoted strings in the catalogue's namespaces
    (keys handed to t() through a table or a result, such as PICKED or fair.bad.*)."""
    prefixes = {key.split(".")[0] for key in CATALOGUE["en"] if "." in key}
    keys: set[str] = set()
    for script in STATIC.glob("*.js"):
        text = script.read_text()
        keys |= set(re.findall(r"""\bt\(["']([\w.-]+)["']""", text))
        for found in re.findall(r'"([a-z]+\.[\w.-]+)"', text):
            if found.split(".")[0] in prefixes and not found.endswith(".js"):
                keys.add(found)
        for prefix in re.findall(r"t\(`([\w.]+)\.\$\{", text):
            assert any(k.startswith(prefix + ".") for k in CATALOGUE["en"]), prefix
    for page in STATIC.glob("*.html"):
        keys |= set(re.findall(r'data-t="([\w.]+)"', page.read_text()))
    return keys


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    keys = used_keys()
    assert {"lobby.fair", "fair.bad.roll", "act.announce", "review.model", "board.empty"} <= keys
    missing = sorted(keys - set(CATALOGUE["en"]))
    assert not missing, missing
    assert {f"status.{s}" for s in ("open", "running", "finished")} <= set(CATALOGUE["en"])


@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.name)
def test_rule_option_words_are_the_rules_own_in_english(spec: object) -> None:
    en = CATALOGUE["en"]
    options = ruleset_entry(spec.default_rules())["options"]  # type: ignore[attr-defined]
    game = spec.name  # type: ignore[attr-defined]
    for option in options:
        key = f"opt.{game}.{option['key']}"
        assert en.get(key) == option["meaning"], key
        assert_translated(key)
        for choice, doc in (option.get("choices") or {}).items():
            assert en.get(f"{key}.{choice}") == doc, f"{key}.{choice}"


def test_game_titles_presets_and_bots_are_the_registrys_own_in_english() -> None:
    """Each game's title, preset and bot description has a catalogue key (game.NAME,
    preset.GAME.NAME, bot.GAME.NAME) whose English is the registry's text and whose Russian
    is written: a new preset or bot without its words fails here, with the lines to add."""
    from bluffdice.bots import available_bots

    en = CATALOGUE["en"]
    wanted: dict[str, str] = {}
    for spec in games():
        wanted[f"game.{spec.name}"] = spec.title
        for name in spec.presets:
            wanted[f"preset.{spec.name}.{name}"] = spec.preset_docs.get(name, "")
        for name, bot in available_bots(spec.name).items():
            wanted[f"bot.{spec.name}.{name}"] = bot.description
    wrong = {key: text for key, text in wanted.items() if en.get(key) != text}
    assert not wrong, f"add to i18n/en.json (and a translation to the others): {json.dumps(wrong)}"
    for key in wanted:
        assert_translated(key)
    stale = {k for k in en if k.split(".")[0] in ("game", "preset", "bot")} - set(wanted)
    assert not stale, stale


def test_review_sentences_are_the_reviews_own_templates_in_english() -> None:
    """The replay page's review sentences (rv.*) are bluffdice.review.words.TEMPLATES in
    English, each translated; every figure the raters report has a label."""
    from bluffdice.review.words import TEMPLATES

    en = CATALOGUE["en"]
    for key, text in TEMPLATES.items():
        assert en.get(key) == text, key
        if key not in ("rv.note.and", "rv.policy.and"):  # "{first}; {second}" reads alike
            assert_translated(key)
    templates = {k for k in en if k.startswith("rv.") and k.split(".")[1] not in ("move", "figure")}
    assert templates == set(TEMPLATES)
    review = Path(__file__).parent.parent / "src" / "bluffdice" / "review"
    figures = {
        f for p in review.glob("*.py") for f in re.findall(r'figures\["(\w+)"\]', p.read_text())
    }
    assert {"p_challenge_wins", "p_bid_holds", "truthful"} <= figures
    for figure in figures:
        assert en.get(f"rv.figure.{figure}"), figure


def test_the_review_names_no_move_the_catalogue_lacks() -> None:
    """The odds model's answers and every game's one-word moves have their words."""
    from bluffdice.odds.mia_model import BEAT, BELIEVE, CHALLENGE, GIVE_UP, LOOK

    for word in (
        BEAT,
        BELIEVE,
        CHALLENGE,
        GIVE_UP,
        LOOK,
        "roll",
        "give-up",
        "pass",
        "liar",
        "calza",
        "reroll",
    ):
        assert_translated(f"rv.move.{word}")


def test_the_halls_refusals_and_the_websockets_codes_have_their_words() -> None:
    """Every refusal the hall sends with a key (HallError.said) is the catalogue's English,
    translated; every refusal and error code the websocket sends has its words."""
    from typing import get_args

    from bluffdice.server.refusals import REFUSALS
    from bluffdice.table.wire import RefusalCode

    en = CATALOGUE["en"]
    for key, text in REFUSALS.items():
        assert en.get(key) == text, key
        assert_translated(key)
    assert {k for k in en if k.startswith("err.")} == set(REFUSALS)
    server = Path(__file__).parent.parent / "src" / "bluffdice" / "server"
    error = re.compile(r'"error", code="(\w+)"|refuse\(\s*websocket, "(\w+)"')
    codes = {c for p in server.glob("*.py") for m in error.findall(p.read_text()) for c in m if c}
    assert {"rate_limited", "no_hint", "no_rematch", "no_table"} <= codes
    for code in codes:
        assert_translated(f"ws.error.{code}")
    for code in get_args(RefusalCode):
        assert_translated(f"ws.refused.{code}")


def test_what_a_bad_rule_string_is_told_has_its_words() -> None:
    """Every template of a rule-string error (RULE_TEXTS) is the catalogue's English,
    translated; the catalogue holds no other rule.* key."""
    from bluffdice.games.rule_texts import RULE_TEXTS

    en = CATALOGUE["en"]
    for key, text in RULE_TEXTS.items():
        assert en.get(key) == text, key
        assert_translated(key)
    assert {k for k in en if k.startswith("rule.")} == set(RULE_TEXTS)


@pytest.mark.parametrize("lang", sorted(CATALOGUE))
@pytest.mark.parametrize("name", ["index.html", "scoreboard.html"])
def test_a_page_without_javascript_is_told_so_in_its_readers_language(name: str, lang: str) -> None:
    """The server fills every data-t element (the <noscript> line above all: no script
    will) with the catalogue's text of the reader's language, and says that language."""
    from bluffdice.server.pages import render

    page = render(name, lang)
    assert f'<html lang="{lang}">' in page
    marked = re.findall(r'<(\w+)[^>]*data-t="([\w.]+)"[^>]*>([^<]*)</\1>', page)
    assert "noscript" in {tag for tag, _, _ in marked}
    for _, key, text in marked:
        assert html.unescape(text) == CATALOGUE[lang][key], key
    if lang != "en":
        noscript = re.search(r"<noscript[^>]*>([^<]*)</noscript>", page)
        assert noscript and re.search("[а-яё]", noscript.group(1), re.IGNORECASE)


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("en-GB,en;q=0.9,ru;q=0.8", "en"),
        ("de-DE,de;q=0.9,ru;q=0.5", "ru"),
        ("de, fr;q=0.5", "en"),
        ("en;q=0.1, ru;q=0.7", "ru"),
        ("ru;q=0, en", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("ru;q=nonsense,en;q=0.2", "en"),
    ],
)
def test_the_pages_language_is_the_readers_best_one_we_have(header: str | None, lang: str) -> None:
    from bluffdice.server.pages import best_language

    assert best_language(header) == lang


def test_the_served_page_speaks_the_accept_language(tmp_path: Path) -> None:
    from tests.test_server import database, make_client

    with make_client(database(tmp_path)) as client:
        ru = client.get("/t/abc", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
        en = client.get("/", headers={"Accept-Language": "en-US"})
    assert ru.status_code == en.status_code == 200
    assert ru.headers["vary"] == "Accept-Language"
    assert '<html lang="ru">' in ru.text and CATALOGUE["ru"]["noscript.play"] in ru.text
    assert '<html lang="en">' in en.text and CATALOGUE["en"]["noscript.play"] in en.text


def test_every_face_a_bid_may_name_has_its_words() -> None:
    """A bid on any face the rules allow (faces=9 at most) is said as the narration says it."""
    from bluffdice.games.liars_dice import face_plural
    from bluffdice.games.liars_dice.rules import LiarsDiceRules
    from bluffdice.games.rulestring import option_infos

    most = option_infos(LiarsDiceRules)["faces"].maximum
    assert most is not None
    for face in range(1, most + 1):
        assert CATALOGUE["en"].get(f"face.{face}") == face_plural(face), face
        assert_translated(f"face.{face}")


def test_russian_names_mia_one_way() -> None:
    """The game and its best roll, 21, are «Мия» wherever the English says Mia (as the
    Russian source of the rules calls them, declined as Russian declines the name); the
    Danish game keeps its own name «Мейер» only where the English says Meyer."""
    mia = re.compile(r"\bМи(?:я|и|ю|ей|е)\b")
    for key, text in CATALOGUE["ru"].items():
        english = CATALOGUE["en"][key]
        assert not re.search("Мэйер|Майер|Меер|Миа", text), key
        if re.search(r"\bMia\b", english):
            assert mia.search(text), key
        if "Мейер" in text:
            assert "Meyer" in english, key
    assert CATALOGUE["ru"]["game.mia"] == "Мия"
    assert CATALOGUE["ru"]["value.mia"] == "21 (Мия)"


def test_the_scoreboard_names_every_reason_a_round_is_lost_for() -> None:
    from bluffdice.maexchen.wire import REASONS

    for reason in REASONS:
        assert_translated(f"board.reason.{reason}")
