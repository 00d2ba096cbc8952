"""The game loop's outputs, byte for byte as they were before it was written once
(`tests/golden_cases.py` made the files): seeded terminal games, tournaments with fixed
seeds (built-in bots and sandboxed programs, one of which crashes) and their replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden_cases import GOLDEN, outputs


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return outputs(tmp_path_factory.mktemp("golden"))


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_output_is_unchanged(printed: dict[str, str], path: Path) -> None:
    assert printed[path.stem] == path.read_text(encoding="utf-8")


def test_every_case_has_its_file(printed: dict[str, str]) -> None:
    assert sorted(printed) == sorted(p.stem for p in GOLDEN.glob("*.txt"))
