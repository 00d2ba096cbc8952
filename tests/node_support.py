"""Running the web page's ES modules in node, for the tests that check the page's own
JavaScript against the Python it mirrors."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

STATIC = Path(__file__).parent.parent / "src" / "bluffdice" / "server" / "static"
NODE = shutil.which("node")


def run_harness(folder: Path, harness: str, data: object, timeout: float) -> Any:
    """Run `harness` as an ES module in `folder` (which holds the page's files it imports),
    with `data` as JSON on its standard input; what it prints is read back as JSON."""
    (folder / "package.json").write_text('{"type": "module"}')
    (folder / "check.js").write_text(harness)
    assert NODE is not None
    done = subprocess.run(
        [NODE, "check.js"],
        cwd=folder,
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return json.loads(done.stdout)
