"""One registry of engines and one of rules options: a new entry reaches every face (issue 19).

A fixture adds a dummy engine to `solver.players.ENGINES` and a dummy side rule to
`solver.game.rules.RULE_OPTIONS`; the player specs, the schemas and OpenAPI, `GET /v1/rules`, the
CLI's help and the web page's form (built from what the server answers) all show them, with no
other list edited. The search endpoints are the routes marked so, not paths matched by string.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from service.capacity import is_search_route
from service.main import ROUTERS, create_app
from service.schemas import EXAMPLE_POSITION, PositionIn, PositionOut
from service.settings import Settings
from solver.cli import build_parser
from solver.game.moves import Move
from solver.game.position import POSITION_FIELDS, Position
from solver.game.rules import RULE_OPTIONS, RuleOption
from solver.players import ENGINES, Engine, make_player
from solver.players.specs import search_options, simple
from solver.search import PRESETS, Solver
from solver.search.beliefs import History
from solver.search.config import OPTIONS
from tests.support.service import TestClient, make_client
from tests.support.web import DESKTOP, Server, browser_fixture, open_page, server_fixture

if TYPE_CHECKING:
    from playwright.sync_api import Browser

DUMMY_ENGINE = "dummy"
DUMMY_OPTION = "dummy_rule"
DUMMY_MEANING = "a side rule that only this test knows"


@dataclass
class FirstMovePlayer:
    """The dummy engine: always the first legal move."""

    name: str = DUMMY_ENGINE

    def choose(self, position: Position, seed: int = 0, history: History | None = None) -> Move:
        return position.legal_moves()[0]


@pytest.fixture
def dummies(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dummy engine and a dummy side rule, each added to its registry and nowhere else."""
    monkeypatch.setitem(
        ENGINES, DUMMY_ENGINE, Engine(DUMMY_ENGINE, "the first legal move", simple(FirstMovePlayer))
    )
    monkeypatch.setitem(
        RULE_OPTIONS, DUMMY_OPTION, RuleOption(DUMMY_OPTION, "boolean", False, DUMMY_MEANING, toggle=True)
    )


@pytest.fixture
def fresh_client(dummies: None, settings: Settings) -> Iterator[TestClient]:
    with make_client(settings) as test_client:
        yield test_client


def test_a_new_engine_is_a_seat_spec(dummies: None) -> None:
    player = make_player(DUMMY_ENGINE)
    assert isinstance(player, FirstMovePlayer)
    with pytest.raises(ValueError, match="takes no options"):
        make_player({"engine": DUMMY_ENGINE, "limits": {"iterations": 5}})


def test_a_new_engine_plays_a_stored_game(fresh_client: TestClient) -> None:
    request = {"rules": "durak", "seats": [DUMMY_ENGINE, "human"], "seed": 3}
    answer = fresh_client.post("/v1/games", json=request)
    assert answer.status_code == 201, answer.text
    assert answer.json()["game"]["seats"][0] == {"kind": "engine", "engine": DUMMY_ENGINE, "limits": None}


def test_the_new_entries_reach_the_openapi(fresh_client: TestClient) -> None:
    schema = fresh_client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    engine = components["EngineSeatIn"]["properties"]["engine"]
    assert DUMMY_ENGINE in engine["enum"] and DUMMY_ENGINE in engine["description"]
    seats = components["GameCreateRequest"]["properties"]["seats"]["items"]
    assert f'"{DUMMY_ENGINE}"' in seats["description"]
    for model in ("GameCreateRequest", "PositionIn"):
        options = components[model]["properties"]["rules"]["anyOf"][1]["properties"]
        assert options[DUMMY_OPTION] == {"type": "boolean", "default": False, "description": DUMMY_MEANING}


def test_the_new_entries_reach_get_rules(fresh_client: TestClient) -> None:
    body = fresh_client.get("/v1/rules").json()
    assert DUMMY_ENGINE in body["engines"]
    detail = {engine["name"]: engine for engine in body["engine_details"]}[DUMMY_ENGINE]
    assert detail == {
        "name": DUMMY_ENGINE, "description": "the first legal move", "label": f"engine_{DUMMY_ENGINE}",
        "searches": False, "limits": None, "options": {},
    }
    options = {option["name"]: option for option in body["options"]}
    assert options[DUMMY_OPTION]["description"] == DUMMY_MEANING
    assert options[DUMMY_OPTION]["toggle"] is True and options[DUMMY_OPTION]["type"] == "boolean"


def test_the_new_entries_reach_the_cli_help(dummies: None) -> None:
    for command in ("arena", "play"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            build_parser().parse_args([command, "--help"])
        assert DUMMY_ENGINE in out.getvalue() and DUMMY_MEANING in out.getvalue(), command


def test_a_search_seat_takes_the_search_configs_own_options() -> None:
    """A search seat's options are the public fields of `SearchConfig` (`OPTIONS`), so a new search
    option needs no second list; each engine's defaults are its preset's."""
    options = search_options()
    assert {"exploration", "exact_cards", "beliefs", "particles", "setup", "sees_hands"} <= set(options)
    assert not {"algorithm", "threads", "stop", "_exact_root", "_opponent_model"} & set(options)
    assert list(options)[: len(OPTIONS)] == list(OPTIONS)
    assert options["exact_cards"] == Solver().config.exact_cards
    for name, preset in PRESETS.items():
        assert ENGINES[name].options == {**options, **preset.config.options()}
    assert ENGINES["ismcts_playouts"].options["value"] is False


def test_search_endpoints_are_the_marked_routes() -> None:
    marked = {(route.path, method) for router in ROUTERS for route in router.routes if is_search_route(route)
              for method in getattr(route, "methods", ())}
    assert marked == {
        ("/v1/hint", "POST"), ("/v1/evaluate", "POST"), ("/v1/next", "POST"), ("/v1/records/convert", "POST"),
        ("/v1/games/{game_id}/hint", "GET"), ("/v1/games/{game_id}/analysis", "GET"),
        ("/v1/games/{game_id}/tracker", "GET"), ("/v1/puzzles", "POST"),
    }
    openapi = create_app().openapi()
    assert openapi["paths"]["/v1/hint"]["post"]["x-search-slot"] is True
    assert "x-search-slot" not in openapi["paths"]["/v1/moves"]["post"]


def test_a_positions_fields_are_declared_once() -> None:
    """The request and answer models and the example have the fields `Position` declares, in its
    order; `to_json` writes them in that order too."""
    names = [declared.name for declared in POSITION_FIELDS]
    assert list(PositionIn.model_fields) == names and list(PositionOut.model_fields) == names
    required = [declared.name for declared in POSITION_FIELDS if declared.required]
    assert [name for name, info in PositionIn.model_fields.items() if info.is_required()] == required
    position = Position.from_json(EXAMPLE_POSITION)
    assert list(position.to_json()) == [declared.name for declared in POSITION_FIELDS if not declared.quiet]
    assert position.to_json() == EXAMPLE_POSITION


# -- the page's form, from what the server answers ---------------------------------------------

server = pytest.fixture(scope="module")(server_fixture)
browser = pytest.fixture(scope="module")(browser_fixture)


@pytest.mark.browser
def test_the_new_entries_reach_the_pages_form(
    browser: Browser, server: Server, fresh_client: TestClient
) -> None:
    """The page's engine list and side-rule boxes come from GET /v1/rules: answered here by an app
    that has the dummies, the dummy engine is offered and the dummy side rule is a tick box (with
    the server's words, the page having none of its own), and a game asked for with them says so."""
    rules: dict[str, Any] = fresh_client.get("/v1/rules").json()
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    page.route("**/v1/rules", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(rules)))
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    page.click("#advanced > summary")
    page.wait_for_selector(f"#engine option[value={DUMMY_ENGINE}]", state="attached")
    assert page.inner_text(f"#engine option[value={DUMMY_ENGINE}]") == DUMMY_ENGINE
    box = page.locator(f"#side-rules input[name={DUMMY_OPTION}]")
    assert DUMMY_MEANING in page.inner_text(f"#option-{DUMMY_OPTION}")
    names = page.eval_on_selector_all("#engine option", "options => options.map(o => o.value)")
    assert names == ["", *ENGINES]
    page.select_option("#engine", DUMMY_ENGINE)
    assert page.locator("#time-ms").is_disabled()  # the dummy does not search
    box.check()
    page.route("**/v1/games", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body=json.dumps({"detail": "refused by the test", "code": "unknown_rules"})))
    with page.expect_request("**/v1/games") as created:
        page.click("#start")
    request = json.loads(created.value.post_data or "{}")
    assert request["seats"][1:] == [{"engine": DUMMY_ENGINE}]
    assert request["rules"][DUMMY_OPTION] is True
    assert [error for error in errors if "422" not in error] == []
    page.close()


@pytest.mark.browser
def test_a_rule_picked_from_a_list_reaches_the_pages_form(browser: Browser, server: Server) -> None:
    """Who may throw in (issue 62), a choice whose `toggle` lists what the form offers, is a list in
    the page's words, set to the preset's value and sent only when another is picked."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    page.click("#advanced > summary")
    pick = "#side-rules select[name=throwers]"
    page.wait_for_selector(pick, state="attached")
    assert page.eval_on_selector_all(f"{pick} option", "options => options.map(o => o.textContent)") == [
        "everyone but the defender", "the defender's two neighbours", "the main attacker alone"]
    assert page.input_value(pick) == "all" and "Who may throw in" in page.inner_text("#option-throwers")
    page.route("**/v1/games", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body=json.dumps({"detail": "refused by the test", "code": "unknown_rules"})))
    page.select_option("#preset", "durak")
    with page.expect_request("**/v1/games") as created:
        page.click("#start")
    assert json.loads(created.value.post_data or "{}")["rules"] == "durak"
    page.select_option(pick, "attacker")
    with page.expect_request("**/v1/games") as created:
        page.click("#start")
    assert json.loads(created.value.post_data or "{}")["rules"] == {"preset": "durak", "throwers": "attacker"}
    assert [error for error in errors if "422" not in error] == []
    page.close()
