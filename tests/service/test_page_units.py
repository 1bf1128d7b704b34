"""The web page's pure helpers and its words, unit-tested by node's own test runner (tests/web/*.mjs):
the modules under service/static/js are plain ES modules, so node imports them as the browser does.

Skipped without `node`, except under CI (`make test` installs it with the browser), where it fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "tests" / "web"


def test_the_page_modules_pass_their_node_unit_tests() -> None:
    node = shutil.which("node")
    if node is None and os.environ.get("CI"):
        pytest.fail("node not found under CI: make test's browser step should have installed it")
    if node is None:
        pytest.skip("node not found (make test installs Debian's nodejs)")
    files = sorted(str(path) for path in UNITS.glob("*.test.mjs"))
    assert files, "no unit tests found in tests/web"
    done = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
