"""Post-game review over HTTP: `POST /v1/analyze` with a record (a job), `GET /v1/games/{id}/analysis`
once a stored game is over (docs/api.md §3)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from service.deps import services_of
from solver.game.rules import Rules
from tests.support.records import BLUNDER, ENDGAME_DECK, GOOD, endgame_record, record_of_game
from tests.support.service import (
    TestClient,
    bearer,
    create,
    error,
    finished_job,
    make_client,
    make_settings,
    move,
    play_out,
    view,
)

LIMITS = {"iterations": 200}


def queue(client: TestClient, record: dict[str, Any], **extra: Any) -> Any:
    """`POST /v1/analyze`: the raw answer (202 with the job, or an error)."""
    return client.post("/v1/analyze", json={"record": {**record}, "limits": LIMITS, **extra})


def analyze(client: TestClient, record: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The review `POST /v1/analyze` queues, once its job is done."""
    job = finished_job(client, queue(client, record, **extra))
    assert job["status"] == "done", job
    return dict(job["result"])


def stable(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without its timing, which no seed fixes."""
    return {**answer, "stats": {k: v for k, v in answer["stats"].items() if k != "time_ms"}}


def test_analyze_a_record(client: TestClient) -> None:
    data = analyze(client, endgame_record(BLUNDER).to_json(), seed=2)
    assert set(data) == {"seat", "moves", "summary", "stats"} and data["seat"] == 0
    last = data["moves"][-1]
    assert set(last) == {"index", "ply", "move", "notation", "best", "best_notation", "played_score",
                         "best_score", "loss", "label", "exact", "chance", "position", "played_ci95",
                         "best_ci95", "played_visits", "best_visits", "played_exact",
                         "best_exact"}  # fmt: skip
    assert last["chance"] == "win"  # two seats: what played_score and best_score are the chance of
    assert last["move"] == {"action": "attack", "card": "9c"} and last["best_notation"] == GOOD
    assert (last["loss"], last["label"], last["exact"]) == (0.5, "blunder", True)
    assert sorted(last["position"]["hand"]) == ["9c", "Ah"]
    summary = data["summary"]
    assert summary["decisions"] == len(data["moves"]) == sum(summary["labels"].values())
    assert summary["labels"]["forced"] == 1 and summary["labels"]["blunder"] >= 1
    stats = data["stats"]
    assert stats["seed"] == 2 and stats["searches"] == len(data["moves"]) - 1
    assert stats["limits"]["iterations"] == 200 and stats["limits"]["time_ms"] > 0  # a hang guard, always
    # The same record, seed and iterations give the same review.
    assert stable(analyze(client, endgame_record(BLUNDER).to_json(), seed=2)) == stable(data)
    good = analyze(client, endgame_record(GOOD).to_json(), seed=2)["moves"][-1]
    assert (good["loss"], good["label"]) == (0.0, "good")


def test_a_bad_record_is_refused_with_its_event(client: TestClient) -> None:
    record = endgame_record().to_json()
    illegal = {**record, "events": [*record["events"]]}
    illegal["events"][2] = {"seat": 0, "move": "attack Ah"}  # seat 0 was not dealt the ace of trumps
    assert error(queue(client, illegal), 422, "illegal_move").startswith("events[2]: ")
    early = {**record, "events": [{"seat": 1, "move": "attack 7s"}, *record["events"]]}
    assert error(queue(client, early), 422, "not_your_turn").startswith("events[0]: ")
    error(queue(client, {**record, "seat": 4}), 422, "invalid_seat")
    error(queue(client, {**record, "hand": ["Zz"]}), 422, "invalid_card")
    error(client.post("/v1/analyze", json={"limits": LIMITS}), 422, "invalid_request")
    error(client.post("/v1/analyze", json={"record": record, "limits": {"iterations": 0}}), 422, "bad_limits")
    store = services_of(client.app).store  # type: ignore[arg-type]
    assert store.job_counts()["queued"] == 0 and sum(store.job_counts().values()) == 0  # nothing queued


def test_a_jobs_budget_is_its_iterations(tmp_path: Path) -> None:
    """A review job searches each decision a fixed number of iterations (the default, or the
    request's, capped); the clock only guards against a hang (analysis_budget_ms a decision)."""
    settings = make_settings(tmp_path / "g.db", analysis_budget_ms=30_000, max_time_ms=2_000)
    with make_client(settings) as client:
        job = finished_job(client, client.post("/v1/analyze", json={"record": endgame_record().to_json()}))
        assert job["result"]["stats"]["limits"] == {"iterations": 300, "time_ms": 30_000}
        assert job["result"]["stats"]["skipped"] == 0  # a job is never cut by the clock
        huge = {"iterations": 10**9, "time_ms": 5.0}
        capped = analyze(client, endgame_record().to_json(), limits=huge)
        assert capped["stats"]["limits"] == {"iterations": 5_000, "time_ms": 30_000}


def _play_to_the_end(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 plays its first legal move until the game is over; the last view."""
    seen = view(client, game, 0)
    for _ in range(200):
        if seen["status"] == "over":
            return seen
        answer = move(client, game, 0, seen["legal_moves"][0])
        assert answer.status_code == 200, answer.text
        seen = answer.json()
    raise AssertionError("the game did not end")


@pytest.mark.long
def test_a_stored_game_is_reviewed_once_over_from_its_seats_record(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "greedy"], deck=ENDGAME_DECK, first_attacker=0)
    path = f"/v1/games/{game['id']}/analysis"
    token = bearer(game["tokens"][0])
    detail = error(client.get(path, params={"seat": 0}, headers=token), 409, "game_not_over")
    assert game["id"] in detail
    error(client.post(path, params={"seat": 0}, headers=token), 409, "game_not_over")
    over = _play_to_the_end(client, game)

    answer = client.get(path, params={"seat": 0, "seed": 5, **LIMITS}, headers=token)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    history = over["history"]
    assert data["moves"] and [m["ply"] for m in data["moves"]] == [
        ply for ply, entry in enumerate(history) if entry["seat"] == 0
    ]
    for reviewed in data["moves"]:
        assert reviewed["move"] == history[reviewed["ply"]]["move"]
    # The service's record of the game is the seat's: the same decisions as POSTing that record
    # (searched with other seeds: a stored game's every decision with the game hint's seed).
    moves = [(entry["seat"], entry["notation"]) for entry in history]
    record = record_of_game(Rules.preset_named("durak"), 2, ENDGAME_DECK, moves, 0, first_attacker=0)
    posted = analyze(client, record.to_json(), seed=5)
    decided = ("index", "ply", "move", "position")

    def decisions(answer: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: m[k] for k in decided} for m in answer["moves"]]

    assert decisions(posted) == decisions(data)
    # Against greedy the scores are its calibrated win chances, as the game's hints are.
    assert data["stats"]["calibrated"] == "greedy (durak, 2 seats)" and "calibrated" not in posted["stats"]
    # And as a job of the stored game: the same review (the hint's seed, calibrated), its time cap aside.
    queued = client.post(path, params={"seat": 0, "seed": 5, **LIMITS}, headers=token)
    job = finished_job(client, queued)
    reviewed = len(data["moves"])
    assert job["kind"] == "review" and job["progress"] == {"done": reviewed, "total": reviewed}
    assert _unlimited(job["result"]) == _unlimited(data)


def _unlimited(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without its timing and its time limit."""
    return {**answer, "stats": {k: v for k, v in answer["stats"].items() if k not in ("time_ms", "limits")}}


def test_a_stored_games_review_is_its_hints_search(client: TestClient) -> None:
    """One scale: at each decision, the hint asked with the review's limits and seed ranks and grades
    the moves as the review does — so the hint's best move is reviewed as good, and the move played
    gets the label and the chance the hint gave it."""
    game = create(client, rules="durak", players=2, seats=["human", "greedy"], seed=23)
    token = bearer(game["tokens"][0])
    hints: dict[int, dict[str, Any]] = {}
    seen = view(client, game, 0)
    for _ in range(200):
        if seen["status"] == "over":
            break
        ply = len(seen["history"])
        path = f"/v1/games/{game['id']}/hint"
        hint = client.get(path, params={"seat": 0, **LIMITS}, headers=token).json()
        hints[ply] = hint
        labels = ("good", "inaccuracy", "mistake", "blunder", "forced", "unscored", "uncertain")
        assert all(m["label"] in labels for m in hint["moves"])
        best = next(m for m in hint["moves"] if m["move"] == hint["best"])
        assert best["loss"] == 0.0
        # Play the hint's best move at even plies, its worst at odd ones (so that costs show).
        chosen = best if ply % 2 == 0 else max(hint["moves"], key=lambda m: m["loss"] or 0.0)
        answer = move(client, game, 0, chosen["move"])
        assert answer.status_code == 200, answer.text
        seen = answer.json()
    assert seen["status"] == "over"
    path = f"/v1/games/{game['id']}/analysis"
    review = client.get(path, params={"seat": 0, **LIMITS}, headers=token).json()
    assert review["stats"]["calibrated"] == "greedy (durak, 2 seats)"
    checked = 0
    for reviewed in review["moves"]:
        hint = hints[reviewed["ply"]]
        hinted = next(m for m in hint["moves"] if m["move"] == reviewed["move"])
        if reviewed["label"] == "forced":
            assert hinted["label"] == "forced"
            continue
        assert reviewed["best"] == hint["best"]
        assert reviewed["label"] == hinted["label"] and reviewed["loss"] == hinted["loss"]
        assert reviewed["played_score"] == hinted["score"]
        if reviewed["move"] == hint["best"]:
            assert reviewed["label"] == "good"
        checked += 1
    assert checked >= 5
    assert any(m["label"] != "good" for m in review["moves"] if m["label"] != "forced")


def test_reviewing_a_stored_game_needs_the_seats_token(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "greedy"], deck=ENDGAME_DECK, first_attacker=0)
    _play_to_the_end(client, game)
    path = f"/v1/games/{game['id']}/analysis"
    error(client.get(path, params={"seat": 0}), 401, "unauthorized")
    error(client.get(path, params={"seat": 0}, headers=bearer("wrong")), 404, "not_found")
    error(client.get(path, params={"seat": 1}, headers=bearer(game["tokens"][0])), 403, "engine_seat")
    error(client.get(path, params={"seat": 7}, headers=bearer(game["tokens"][0])), 422, "invalid_seat")
    unknown = client.get("/v1/games/nosuchgame/analysis", params={"seat": 0}, headers=bearer("x"))
    error(unknown, 404, "not_found")
    bad = client.get(path, params={"seat": 0, "iterations": -3}, headers=bearer(game["tokens"][0]))
    error(bad, 422, "bad_limits")
    error(client.post(path, params={"seat": 0}), 401, "unauthorized")
    error(client.post(path, params={"seat": 0}, headers=bearer("wrong")), 404, "not_found")
    bad = client.post(path, params={"seat": 0, "iterations": -3}, headers=bearer(game["tokens"][0]))
    error(bad, 422, "bad_limits")


def test_bad_seat_counts_get_their_documented_code_and_side_rules_are_reviewed(client: TestClient) -> None:
    """docs/api.md §2.3: a seat count the rules do not allow is `bad_players` as in a position, on
    every operation that reads a record — and a stored game under the side rules is reviewed."""
    record = endgame_record(BLUNDER).to_json()
    for players in (0, -1, 7, 10**40):
        bad = {**record, "players": players}
        error(queue(client, bad), 422, "bad_players")
        error(client.post("/v1/hint", json={"record": bad, "limits": LIMITS}), 422, "bad_players")
        error(client.post("/v1/evaluate", json={"record": bad, "limits": LIMITS}), 422, "bad_players")
    rules = {"preset": "durak", "redeal_without_trump": True, "tribute": True, "trump_swap": True}
    game = create(client, rules=rules, seats=["human", "random"], seed=1)
    _play_to_the_end(client, game)
    path = f"/v1/games/{game['id']}/analysis"
    answer = client.get(path, params={"seat": 0, **LIMITS}, headers=bearer(game["tokens"][0]))
    assert answer.status_code == 200, answer.text[:300]
    assert answer.json()["moves"]


def test_reviews_wait_for_a_search_slot(tmp_path: Path) -> None:
    with make_client(make_settings(tmp_path / "g.db", max_searches=1)) as client:
        game = create(client, rules="durak", seats=["human", "greedy"], deck=ENDGAME_DECK, first_attacker=0)
        _play_to_the_end(client, game)
        release, started = threading.Event(), threading.Event()

        def hold() -> None:
            started.set()
            release.wait(10)

        services_of(client.app).pool.submit(hold)  # type: ignore[arg-type]
        assert started.wait(5)
        try:
            stored = client.get(f"/v1/games/{game['id']}/analysis", params={"seat": 0},
                                headers=bearer(game["tokens"][0]))
            error(stored, 503, "busy")
        finally:
            release.set()


def test_a_seats_setup_decision_is_not_reviewed(client: TestClient) -> None:
    """Under trump swap seat 0 is dealt the lowest trump (seed 3) and keeps it: its keep is in the
    history but the review covers only its moves in play."""
    game = create(client, rules={"preset": "tan", "trump_swap": True}, seats=["human", "greedy"], seed=3)
    over = _play_to_the_end(client, game)
    history = over["history"]
    assert {key: history[0][key] for key in ("seat", "move", "notation")} == {
        "seat": 0, "move": {"action": "keep"}, "notation": "keep"
    }
    answer = client.get(f"/v1/games/{game['id']}/analysis", params={"seat": 0, "iterations": 100},
                        headers=bearer(game["tokens"][0]))
    assert answer.status_code == 200, answer.text
    reviewed = answer.json()["moves"]
    assert [m["ply"] for m in reviewed] == [ply for ply, e in enumerate(history) if e["seat"] == 0][1:]
    assert all(m["position"].get("phase", "play") == "play" for m in reviewed)


def test_a_take_when_a_small_card_beats_is_at_least_an_inaccuracy(client: TestClient) -> None:
    """The review is not lenient: seat 0 takes at its first defence where a card of the attacked suit
    beats; taking then costs at least an inaccuracy's loss (and the hint, at the same budget, said
    so too). At 2,000 iterations: at 200 the take's loss (0.014) is within the search's noise. The
    search tries the take only some 15 times, so its interval reaches the best's: its label is then
    `uncertain` (issue 63: few visits are shown as uncertain, not costed), its loss still a loss."""
    game = create(client, rules="durak", players=2, seats=["human", "greedy"], seed=4)
    token = bearer(game["tokens"][0])
    seen = view(client, game, 0)
    taken_at = None
    for _ in range(200):
        if seen["status"] == "over":
            break
        legal = seen["legal_moves"]
        trump = seen["position"]["trump"][1]
        beats = [m for m in legal if m["action"] == "defend" and m["card"][1] != trump]
        take = next((m for m in legal if m["action"] == "take"), None)
        chosen = legal[0]
        if taken_at is None and beats and take is not None:
            chosen, taken_at = take, len(seen["history"])
        answer = move(client, game, 0, chosen)
        assert answer.status_code == 200, answer.text
        seen = answer.json()
    assert taken_at is not None and seen["status"] == "over"
    path = f"/v1/games/{game['id']}/analysis"
    review = client.get(path, params={"seat": 0, "iterations": 2000}, headers=token).json()
    taken = next(m for m in review["moves"] if m["ply"] == taken_at)
    assert taken["move"] == {"action": "take"}
    assert taken["label"] in ("inaccuracy", "mistake", "blunder", "uncertain"), taken
    assert taken["loss"] >= 0.03, taken
    if taken["label"] == "uncertain":
        assert taken["played_ci95"][1] >= taken["best_ci95"][0], taken


def test_a_job_can_be_cancelled_over_http(tmp_path: Path) -> None:
    """`DELETE /v1/jobs/{id}`: 404 for no such job; a queued one (no worker runs in this app)
    becomes `cancelled` and stays so, and cancelling it again answers the same; a done job is
    answered as it is (the queue's worker-side test: tests/service/test_jobs.py)."""
    with make_client(make_settings(tmp_path / "games.db", job_workers=0)) as idle:
        error(idle.delete("/v1/jobs/no-such-job"), 404, "not_found")
        queued = queue(idle, endgame_record(BLUNDER).to_json())
        assert queued.status_code == 202
        cancelled = idle.delete(queued.headers["location"])
        assert cancelled.status_code == 200, cancelled.text
        body = cancelled.json()
        assert body["status"] == "cancelled" and body["result"] is None and body["id"] == queued.json()["id"]
        assert idle.get(queued.headers["location"]).json() == body
        assert idle.delete(queued.headers["location"]).json() == body


def test_a_done_job_is_not_cancelled(client: TestClient) -> None:
    done = finished_job(client, queue(client, endgame_record(GOOD).to_json()))
    again = client.delete(f"/v1/jobs/{done['id']}")
    assert again.status_code == 200 and again.json() == done


def test_one_moment_one_number_and_the_review_kept_with_the_game(client: TestClient) -> None:
    """Issue 63: a stored game's review, its hint and the board's hint of a moment (the game's record
    cut at the decision, POST /v1/hint) answer one number; each cost is the difference of the two
    chances shown; a row the search barely tried is never costed; and the job's review is kept with
    the game, read back by GET /v1/games/{id}/review without a search."""
    game = create(client, rules="durak", players=2, seats=["human", "greedy"], seed=23)
    token = bearer(game["tokens"][0])
    over = play_out(client, game)
    assert over["status"] == "over"
    kept = f"/v1/games/{game['id']}/review"
    none = client.get(kept, params={"seat": 0, **LIMITS}, headers=token)
    assert none.status_code == 200 and none.json() is None  # none kept yet: no error for a page to log
    error(client.get(kept, params={"seat": 0, **LIMITS}), 401, "unauthorized")
    job = finished_job(client, client.post(f"/v1/games/{game['id']}/analysis", params={"seat": 0, **LIMITS},
                                           headers=token))
    review = job["result"]
    answer = client.get(kept, params={"seat": 0, **LIMITS}, headers=token)
    assert answer.status_code == 200, answer.text
    assert answer.json() == review  # kept as the job answered it
    # Another budget is another review: none kept.
    assert client.get(kept, params={"seat": 0, "iterations": 300}, headers=token).json() is None
    assert review["stats"]["calibrated"] == "greedy (durak, 2 seats)"
    record = client.get(f"/v1/games/{game['id']}/record", params={"seat": 0}, headers=token).json()
    searched = [m for m in review["moves"] if m["label"] not in ("forced", "unscored")]
    assert len(searched) >= 5
    for reviewed in searched:
        difference = max(0.0, reviewed["best_score"] - reviewed["played_score"])
        assert reviewed["loss"] == pytest.approx(difference, abs=2e-6)
        if reviewed["label"] in ("inaccuracy", "mistake", "blunder"):
            assert reviewed["played_ci95"][1] < reviewed["best_ci95"][0]  # clearly below the best's
        elif reviewed["label"] == "uncertain":
            assert reviewed["played_ci95"][1] >= reviewed["best_ci95"][0]
    assert review["summary"]["total_loss"] == pytest.approx(
        sum(m["loss"] for m in searched if m["label"] not in ("uncertain",)), abs=1e-5)
    # The board's question of the moment: the record up to the decision, the review's budget and seed.
    for reviewed in searched[:3]:
        moment = {**{k: v for k, v in record.items() if k not in ("deck", "result")},
                  "events": record["events"][: reviewed["index"]]}
        hint = client.post("/v1/hint", json={"record": moment, "limits": LIMITS}).json()
        assert hint["best"] == reviewed["best"]
        assert hint["stats"]["calibrated"] == review["stats"]["calibrated"]
        rows = {str(m["move"]): m for m in hint["moves"]}
        assert rows[str(reviewed["move"])]["score"] == reviewed["played_score"]
        assert rows[str(reviewed["best"])]["score"] == reviewed["best_score"]
        assert rows[str(reviewed["move"])]["label"] == reviewed["label"]


def test_a_review_whose_budget_the_job_cap_lowered_is_kept_under_the_budget_asked(tmp_path: Path) -> None:
    """TAN_MAX_JOB_ITERATIONS shares a long job's work out (fewer iterations a decision than asked):
    its review is still read back with the iterations the page asked for (at least 5 searched
    decisions: 200 each at most, against 300 asked)."""
    asked = {"iterations": 300}
    with make_client(make_settings(tmp_path / "games.db", max_job_iterations=1_000)) as client:
        game = create(client, rules="durak", players=2, seats=["human", "greedy"], seed=23)
        token = bearer(game["tokens"][0])
        assert play_out(client, game)["status"] == "over"
        job = finished_job(client, client.post(f"/v1/games/{game['id']}/analysis",
                                               params={"seat": 0, **asked}, headers=token))
        assert job["result"]["stats"]["limits"]["iterations"] < asked["iterations"]  # the cap lowered it
        kept = client.get(f"/v1/games/{game['id']}/review", params={"seat": 0, **asked}, headers=token)
        assert kept.status_code == 200 and kept.json() == job["result"], kept.text
