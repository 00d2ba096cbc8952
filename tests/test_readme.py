"""The README's Python examples run as written and print what their comments promise."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks, "the README should show the Python API"
    out = io.StringIO()
    for block in blocks:
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), {})  # noqa: S102
    printed = out.getvalue()
    # The API example's own comments promise these lines.
    assert "43 None" in printed
    assert "(2, 3, 3)" in printed
    assert "Penalty" in printed
    # The table example: refusals by code, then a whole game and its first update as JSON.
    assert "not_your_turn\nstale\n" in printed
    assert 'b\'{"type":"update","recipient":0' in printed
