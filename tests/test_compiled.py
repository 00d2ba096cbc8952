"""The optional compiled build: the server's per-move path compiled by mypyc.

The compiled modules are the same source files as the pure-Python ones, so the whole suite
is their test. CI builds the compiled wheel, installs it in a venv of its own and runs the
suite there with `BLUFFDICE_EXPECT_COMPILED=1`; the check below makes sure that run really
imported compiled modules and did not fall back to the sources.
"""

from __future__ import annotations

import importlib
import inspect
import os
import tomllib
from pathlib import Path
from typing import Any

import msgspec
import pytest

ROOT = Path(__file__).resolve().parent.parent


def mypyc_hook() -> dict[str, Any]:
    """pyproject.toml's settings of the mypyc build hook."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hook: dict[str, Any] = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    return hook


def compiled_modules() -> list[str]:
    """The module names the mypyc hook compiles."""
    names = []
    for path in mypyc_hook()["include"]:
        assert path.startswith("/src/") and path.endswith(".py"), path
        names.append(path.removeprefix("/src/").removesuffix(".py").replace("/", "."))
    return names


def test_the_hook_is_off_unless_asked_for() -> None:
    assert mypyc_hook()["enable-by-default"] is False  # `pip install -e .` needs no compiler
    assert compiled_modules() == [
        "bluffdice.server.connections",
        "bluffdice.server.tables",
        "bluffdice.table.table",
    ]


@pytest.mark.parametrize("name", compiled_modules())
def test_compiled_modules_define_no_msgspec_types(name: str) -> None:
    # mypyc builds a compiled module's classes without msgspec's class keywords (`tag`,
    # `frozen`, `gc`): a message type there would lose its tag and the wire codec would
    # no longer know it. They live in modules that are never compiled.
    module = importlib.import_module(name)
    defined = [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and value.__module__ == name
    ]
    assert defined, f"{name} defines no classes: is the list of compiled modules stale?"
    assert [c.__name__ for c in defined if issubclass(c, msgspec.Struct)] == []


@pytest.mark.skipif(
    not os.environ.get("BLUFFDICE_EXPECT_COMPILED"),
    reason="only in CI's run of the compiled build (BLUFFDICE_EXPECT_COMPILED=1)",
)
@pytest.mark.parametrize("name", compiled_modules())
def test_the_compiled_build_imports_compiled_modules(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    assert not module.__file__.endswith(".py"), f"{name} came from its source: {module.__file__}"
