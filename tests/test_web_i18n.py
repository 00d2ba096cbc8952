"""The page's one message catalogue: English and Russian hold the same keys with the same
placeholders, every key the page's scripts use is in it, and the English words of each
rule option are the rules' own documentation (the lobby's form shows them from here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bluffdice.cli.rules import ruleset_entry
from bluffdice.games.registry import games

STATIC = Path(__file__).parent.parent / "src" / "bluffdice" / "server" / "static"
CATALOGUE = {
    lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text()) for lang in ("en", "ru")
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
OTHER_WORDING = {"bid": {"face", "faces", "quantity"}}
"""Keys whose translation may use other parameters of the ones the page passes (Russian
writes a bid as 3× 6, since its plural of a face depends on the number)."""


def test_english_and_russian_have_the_same_keys_and_placeholders() -> None:
    en, ru = CATALOGUE["en"], CATALOGUE["ru"]
    assert set(en) == set(ru)
    for key, text in en.items():
        assert text.strip() and ru[key].strip(), key
        if key in OTHER_WORDING:
            assert set(PLACEHOLDER.findall(ru[key])) <= OTHER_WORDING[key], key
            continue
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(ru[key])), key


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
    keys |= set(re.findall(r'data-t="([\w.]+)"', (STATIC / "index.html").read_text()))
    return keys


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    keys = used_keys()
    assert {"lobby.fair", "fair.bad.roll", "act.announce", "review.model"} <= keys
    missing = sorted(keys - set(CATALOGUE["en"]))
    assert not missing, missing
    assert {f"status.{s}" for s in ("open", "running", "finished")} <= set(CATALOGUE["en"])


@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.name)
def test_rule_option_words_are_the_rules_own_in_english(spec: object) -> None:
    en, ru = CATALOGUE["en"], CATALOGUE["ru"]
    options = ruleset_entry(spec.default_rules())["options"]  # type: ignore[attr-defined]
    game = spec.name  # type: ignore[attr-defined]
    for option in options:
        key = f"opt.{game}.{option['key']}"
        assert en.get(key) == option["meaning"], key
        assert ru.get(key) and ru[key] != option["meaning"], key
        for choice, doc in (option.get("choices") or {}).items():
            assert en.get(f"{key}.{choice}") == doc, f"{key}.{choice}"
            assert ru.get(f"{key}.{choice}"), f"{key}.{choice}"
