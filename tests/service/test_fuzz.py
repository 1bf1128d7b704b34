"""Schema-driven fuzzing: whatever schemathesis sends, the service never answers 500.

Schemathesis reads the app's own OpenAPI schema and sends both valid and
invalid requests to every operation through ASGI (no network). A second,
Hypothesis-driven test sends *valid* positions from random games of every
preset and seat count, which random JSON almost never reaches.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.main import create_app
from service.schemas import EvaluateResponse, HintResponse, MovesResponse
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import PRESETS, Rules
from tests.support.service import TestClient, make_settings

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import response_schema_conformance  # noqa: E402

# The app is built when the module is collected, and every xdist worker collects it at once: a
# file of each process's own, so two workers never lock one database (replaced per session below).
_DB = Path(tempfile.mkdtemp(prefix="tan-fuzz-")) / "unused.db"
APP = create_app(make_settings(_DB, default_iterations=50, max_iterations=200, max_time_ms=200))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def _fresh_database(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The fuzzed app stores its games in a temporary file."""
    APP.state.settings = make_settings(
        tmp_path_factory.mktemp("fuzz") / "games.db",
        default_iterations=50,
        max_iterations=200,
        max_time_ms=200,
    )
    yield
    services = getattr(APP.state, "services", None)
    if services is not None:
        services.stop()


@SCHEMA.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_500(case: Any) -> None:
    """15 cases an operation by default; `-m long` sends 60 (test_fuzz_long.py)."""
    check_no_500(case)


def check_no_500(case: Any) -> None:
    """One schemathesis case: no 500, the documented schema, the error format."""
    response = case.call()
    # The answer matches the documented schema of its status, so /docs does not lie.
    case.validate_response(response, checks=[response_schema_conformance, not_a_server_error])
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"detail", "code"}, body
    if response.status_code == 503:
        assert "retry-after" in {key.lower() for key in response.headers}


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = Rules.from_json(preset)
    players = draw(st.integers(rules.min_players, rules.max_players))
    seed = draw(st.integers(0, 2**32))
    game = Game.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 200))):
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    seat = draw(st.integers(0, players - 1))
    return Position.from_game(game, seat).to_json()


@given(position=positions(), seed=st.integers(0, 2**63 - 1), algorithm=st.sampled_from(["ismcts", "pimc"]))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_valid_positions_of_every_preset(position: dict[str, Any], seed: int, algorithm: str) -> None:
    client = TestClient(APP)
    limits = {"iterations": 40, "time_ms": 200}
    moves = client.post("/v1/moves", json={"position": position})
    hint = client.post(
        "/v1/hint", json={"position": position, "limits": limits, "seed": seed, "algorithm": algorithm}
    )
    evaluate = client.post("/v1/evaluate", json={"position": position, "limits": limits, "seed": seed})
    to_move = position["to_move"] == position["seat"]
    assert moves.status_code == hint.status_code == (200 if to_move else 422), (moves.text, hint.text)
    assert evaluate.status_code == 200, evaluate.text
    EvaluateResponse.model_validate(evaluate.json(), strict=True)
    if to_move:
        assert hint.json()["best"] in moves.json()["moves"]
        HintResponse.model_validate(hint.json(), strict=True)
        MovesResponse.model_validate(moves.json(), strict=True)


_CARD_TEXT = st.sampled_from(["6s", "Th", "10h", "Q♥", "Ad", "2c", "Kc", "7c", "Zz", "", "A", "6S", "9♧"])
_VALUES = st.one_of(
    st.integers(-3, 60),
    st.none(),
    st.booleans(),
    _CARD_TEXT,
    st.lists(_CARD_TEXT, max_size=8),
    st.lists(st.integers(-1, 8), max_size=7),
    st.dictionaries(st.sampled_from(["0", "1", "2", "7", "x"]), st.lists(_CARD_TEXT, max_size=3), max_size=2),
    st.lists(
        st.fixed_dictionaries({"attack": _CARD_TEXT}, optional={"defense": st.one_of(st.none(), _CARD_TEXT)}),
        max_size=3,
    ),
    st.sampled_from(["durak", "tan", "perevodnoy", {"preset": "durak", "transfer": True}]),
)


def _like(value: Any) -> st.SearchStrategy[Any]:
    """Values of the same JSON type as `value`, so most mutants pass the schema and reach the rules."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(-2, 40)
    if isinstance(value, str):
        return _CARD_TEXT
    if isinstance(value, dict):
        return st.dictionaries(
            st.sampled_from(["0", "1", "2", "5"]), st.lists(_CARD_TEXT, max_size=3), max_size=2
        )
    if value and isinstance(value[0], dict):
        return st.lists(
            st.fixed_dictionaries(
                {"attack": _CARD_TEXT}, optional={"defense": st.one_of(st.none(), _CARD_TEXT)}
            ),
            max_size=3,
        )
    if value and isinstance(value[0], int):
        return st.lists(st.integers(-1, 8), max_size=7)
    return st.lists(_CARD_TEXT, max_size=8)


@st.composite
def broken_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A real position with one to three fields or list items changed, mostly to values of the right type."""
    position = draw(positions())
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(position)))
        value = position[key]
        if draw(st.integers(0, 9)) == 0:
            position[key] = draw(_VALUES)
        elif isinstance(value, list) and value and draw(st.booleans()):
            value = list(value)
            index = draw(st.integers(0, len(value) - 1))
            if draw(st.booleans()):
                del value[index]
            else:
                value[index] = draw(_like(value[index]) if not isinstance(value[index], str) else _CARD_TEXT)
            position[key] = value
        else:
            position[key] = draw(_like(value))
    return position


@given(position=broken_positions())
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_broken_positions_are_refused_in_the_error_format(position: dict[str, Any]) -> None:
    client = TestClient(APP)
    limits = {"iterations": 30, "time_ms": 100}
    for path in ("/v1/moves", "/v1/next", "/v1/hint", "/v1/evaluate"):
        searched = path in ("/v1/hint", "/v1/evaluate")
        body = {"position": position, "limits": limits} if searched else {"position": position}
        answer = client.post(path, json=body)
        assert answer.status_code in (200, 422), (path, position, answer.text)
        if answer.status_code == 422:
            assert set(answer.json()) == {"detail", "code"}
