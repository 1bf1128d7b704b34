"""The web page's pure helpers and its words, unit-tested by node's own test runner (tests/web/*.mjs):
the modules under service/static/js are plain ES modules, so node imports them as the browser does.

Skipped without `node`, except under CI (`make test` installs it with the browser), where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from solver.game.errors import Refusal
from solver.game.phases import Chance, LeadReason
from solver.game.rules import RULE_OPTIONS

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "tests" / "web"


def _node() -> str:
    node = shutil.which("node")
    if node is None and os.environ.get("CI"):
        pytest.fail("node not found under CI: make test's browser step should have installed it")
    if node is None:
        pytest.skip("node not found (make test installs Debian's nodejs)")
    return node


def test_the_page_modules_pass_their_node_unit_tests() -> None:
    node = _node()
    files = sorted(str(path) for path in UNITS.glob("*.test.mjs"))
    assert files, "no unit tests found in tests/web"
    done = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


def test_every_name_the_api_gives_for_the_page_to_word_has_words_in_both_languages() -> None:
    """Each `Refusal` the API may give in a view's `unplayable` (docs/api.md §3) has its `why_` word
    in words.js, each `LeadReason` of a view's `lead` its `lead_` word, each `Chance` of a hint,
    an evaluation or a review its `chance_` and `hintNote_` words, each side rule the forms offer
    (`RULE_OPTIONS` with a `toggle`) its name, its note and a word for each choice of a list, in
    Vietnamese and English: a new name reaches the page's words."""
    script = (
        'import("./service/static/words.js").then(({ WORDS }) => '
        "console.log(JSON.stringify({ vi: Object.keys(WORDS.vi), en: Object.keys(WORDS.en) })))"
    )
    done = subprocess.run([_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    keys = json.loads(done.stdout)
    wanted = [f"why_{reason.value}" for reason in Refusal] + [f"lead_{reason.value}" for reason in LeadReason]
    wanted += [f"{kind}_{chance.value}" for chance in Chance for kind in ("chance", "hintNote")]
    for option in RULE_OPTIONS.values():  # the side rules the page's forms offer, and each choice of a list
        if option.toggle is not None:
            wanted += [f"option_{option.name}", f"option_{option.name}_note"]
            choices = option.toggle if isinstance(option.toggle, list) else []
            wanted += [f"option_{option.name}_{value}" for value in choices]
    for lang in ("vi", "en"):
        missing = [key for key in wanted if key not in keys[lang]]
        assert missing == [], (lang, missing)
