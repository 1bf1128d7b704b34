"""Schema-driven fuzzing at length: 60 cases an operation where test_fuzz.py sends 15.

Schemathesis builds every operation's cases when it makes the test, that is when the file is
collected, on every xdist worker; so this file is collected only when long runs are selected
(tests/service/conftest.py), not merely deselected by `-m 'not long'`.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.service.test_fuzz import SCHEMA, _fresh_database, check_no_500  # noqa: F401 - the fixture


@pytest.mark.long
@SCHEMA.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_500_at_length(case: Any) -> None:
    check_no_500(case)
