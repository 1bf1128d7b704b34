"""The error catalogue: the solver's codes and the service's, each with a status and a meaning,
and the docs list them all (docs/api.md §3, "Errors")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.errors import CATALOGUE, AnswerCode, ServiceCode, status_of
from solver.game.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("code", CATALOGUE)
def test_every_code_has_a_status_and_a_meaning(code: AnswerCode) -> None:
    assert 400 <= status_of(code) < 600
    assert code.meaning and code.meaning[0].islower()


def test_the_catalogue_is_the_solver_codes_then_the_service_codes() -> None:
    solver_first = (*ErrorCode, *ServiceCode)
    assert solver_first == CATALOGUE
    assert len({code.value for code in CATALOGUE}) == len(CATALOGUE)  # no code in both
    assert all(status_of(code) == 422 for code in ErrorCode)  # every refusal of the solver


def test_every_code_is_in_the_api_docs_with_its_status() -> None:
    docs = (ROOT / "docs" / "api.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (\d{3}|the error's)", docs, re.M))
    assert set(rows) == {code.value for code in CATALOGUE}
    for code in CATALOGUE:
        if rows[code.value].isdigit():
            assert int(rows[code.value]) == status_of(code), code


def test_every_code_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = [code.value for code in CATALOGUE if f"`{code.value}`" not in readme]
    assert not missing


def test_a_bare_http_status_maps_to_a_code() -> None:
    assert ServiceCode.for_status(404) is ServiceCode.NOT_FOUND
    assert ServiceCode.for_status(403) is ServiceCode.FORBIDDEN
    assert ServiceCode.for_status(422) is ServiceCode.INVALID_REQUEST
    assert ServiceCode.for_status(418) is ServiceCode.HTTP_ERROR
