"""The arena: paired deals in every seat rotation, reproducible games, statistics, resume."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from solver.game.errors import TanError
from solver.search import Limits
from solver.tools.arena import (
    ArenaError,
    GameTask,
    Sprt,
    build_tasks,
    elo_difference,
    play_game,
    read_results,
    run_arena,
    runners,
    sprt_result,
    summarize,
    wilson_interval,
)


def _without_time(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in record.items() if key != "seconds"} for record in records]


# -- pairing ------------------------------------------------------------------------------


def test_every_deal_in_every_rotation() -> None:
    tasks = build_tasks(["random", "greedy", "ismcts"], deals=4, rules="durak", players=3, seed=9)
    assert len(tasks) == 12
    pairs = sorted((task.deal, task.rotation) for task in tasks)
    assert pairs == [(deal, rotation) for deal in range(4) for rotation in range(3)]
    lineup = ["random", "greedy", "ismcts"]
    for task in tasks:
        # Rotation r puts engine lineup[(i + r) % k] in seat i.
        assert list(task.engines) == [lineup[(i + task.rotation) % 3] for i in range(3)]
    for deal in range(4):
        rotations = [task for task in tasks if task.deal == deal]
        assert len({task.deal_seed for task in rotations}) == 1
        for seat in range(3):  # each engine sits in each seat once per deal
            assert sorted(task.engines[seat] for task in rotations) == sorted(lineup)
    assert len({task.deal_seed for task in tasks}) == 4
    assert len({task.move_seed for task in tasks}) == 12


def test_rotations_of_a_deal_share_the_deck() -> None:
    tasks = build_tasks(["random", "greedy"], deals=2, rules="tan", players=2, seed=1)
    records = run_arena(tasks, workers=1)
    assert [(r["deal"], r["rotation"]) for r in records] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert records[0]["deck"] == records[1]["deck"]
    assert records[2]["deck"] == records[3]["deck"]
    assert records[0]["deck"] != records[2]["deck"]
    assert len(set(records[0]["deck"])) == 52
    assert records[0]["engines"] == ["random", "greedy"] and records[1]["engines"] == ["greedy", "random"]
    for record in records:
        assert record["plies"] > 0 and record["seconds"] >= 0
        assert sorted(record["scores"]) in ([0.0, 1.0], [0.5, 0.5])
        assert record["loser"] is None or record["scores"][record["loser"]] == 0.0


def test_fewer_engines_than_seats_go_round_the_table() -> None:
    tasks = build_tasks(["greedy", "random"], deals=1, rules="tan", players=4)
    assert [task.engines for task in tasks] == [
        ("greedy", "random", "greedy", "random"),
        ("random", "greedy", "random", "greedy"),
    ] * 2


def test_search_engines_get_the_limits_and_like_engines_distinct_labels() -> None:
    specs = ["ismcts", {"engine": "ismcts", "limits": {"iterations": 50}}, "greedy"]
    tasks = build_tasks(specs, deals=1, rules="durak", players=3, limits=Limits(iterations=20, time_ms=None))
    assert tasks[0].seats[0] == {"engine": "ismcts", "limits": {"iterations": 20}}
    assert tasks[0].seats[2] == "greedy"
    assert tasks[0].engines == ("ismcts@20it", "ismcts@50it", "greedy")
    named = build_tasks(["random", {"engine": "random", "name": "other"}], deals=1, rules="tan")
    assert named[0].engines == ("random", "other")
    assert build_tasks(["random", "random"], deals=1, rules="tan")[0].engines == ("random#1", "random#2")


@pytest.mark.parametrize(
    ("specs", "kwargs"),
    [
        (["chess"], {}),
        (["random", "greedy", "random"], {"players": 2}),
        (["random"], {"deals": 0}),
        ([{"engine": "ismcts", "depth": 3}], {}),
        (["random"], {"players": 5}),
        ([], {}),
    ],
)
def test_bad_arenas_are_refused(specs: list[Any], kwargs: dict[str, Any]) -> None:
    options: dict[str, Any] = {"deals": 1, "rules": "tan", "players": 2, **kwargs}
    with pytest.raises(TanError):
        build_tasks(specs, **options)


# -- determinism --------------------------------------------------------------------------


def test_a_game_is_a_function_of_its_task() -> None:
    task = build_tasks([{"engine": "ismcts", "limits": {"iterations": 30}}, "greedy"], deals=1,
                       rules="durak", seed=4)[1]
    first, second = play_game(task), play_game(task)
    assert _without_time([first]) == _without_time([second])
    assert json.loads(json.dumps(first)) == first  # JSON-ready


def test_same_seeds_same_results_in_one_or_two_processes(tmp_path: Path) -> None:
    tasks = build_tasks(["random", "greedy"], deals=3, rules="durak", players=2, seed=7)
    one = run_arena(tasks, workers=1)
    again = run_arena(tasks, workers=1)
    two = run_arena(tasks, workers=2, out=tmp_path / "two.jsonl")
    assert _without_time(one) == _without_time(again) == _without_time(two)
    written = sorted(read_results(tmp_path / "two.jsonl"), key=lambda r: (r["deal"], r["rotation"]))
    assert _without_time(written) == _without_time(one)
    other_seed = run_arena(build_tasks(["random", "greedy"], deals=3, rules="durak", seed=8), workers=1)
    assert [r["deck"] for r in other_seed] != [r["deck"] for r in one]


# -- statistics ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mean", "n", "expected"),
    [
        # Published Wilson intervals (e.g. statsmodels proportion_confint(k, n, method="wilson")).
        (0.8, 10, (0.4901625, 0.9433178)),
        (0.5, 10, (0.2365931, 0.7634069)),
        (0.0, 10, (0.0, 0.2775328)),
        (0.5, 100, (0.4038315, 0.5961685)),
    ],
)
def test_wilson_interval(mean: float, n: int, expected: tuple[float, float]) -> None:
    assert wilson_interval(mean, n) == pytest.approx(expected, abs=1e-6)


def test_wilson_interval_is_symmetric_and_empty_is_everything() -> None:
    low, high = wilson_interval(0.3, 40)
    assert (1 - high, 1 - low) == pytest.approx(wilson_interval(0.7, 40))
    assert wilson_interval(0.5, 0) == (0.0, 1.0)


def test_elo_difference() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert elo_difference(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert elo_difference(1.0) == float("inf") and elo_difference(0.0) == float("-inf")


def _record(engines: list[str], scores: list[float]) -> dict[str, Any]:
    return {"engines": engines, "scores": scores, "players": len(engines), "plies": 10, "seconds": 0.5}


def test_summary_per_engine_with_elo_for_two_seats() -> None:
    records = [_record(["a", "b"], [1.0, 0.0])] * 6 + [_record(["b", "a"], [1.0, 0.0])] * 2
    records += [_record(["a", "b"], [0.5, 0.5])] * 2
    summary = summarize(records, order=["a", "b"])
    a, b = summary.engines
    assert (a.engine, a.games, a.wins, a.draws, a.losses) == ("a", 10, 6, 2, 2)
    assert a.score == pytest.approx(0.7) and b.score == pytest.approx(0.3)
    assert a.ci95 == pytest.approx(wilson_interval(0.7, 10))
    assert summary.elo is not None
    assert summary.elo == pytest.approx(
        (elo_difference(0.7), elo_difference(a.ci95[0]), elo_difference(a.ci95[1]))
    )
    data = summary.to_json()
    assert data["games"] == 10 and data["plies_per_game"] == 10 and data["seconds"] == 5.0
    assert data["elo"]["engine"] == "a" and data["elo"]["opponent"] == "b"
    assert data["elo"]["difference"] == pytest.approx(147.2, abs=0.1)
    assert data["engines"][0] == {
        "engine": "a", "games": 10, "score": 0.7, "ci95": [round(x, 6) for x in a.ci95],
        "wins": 6, "draws": 2, "losses": 2,
    }


def test_summary_without_elo_for_more_seats_and_infinite_elo_as_null() -> None:
    three = summarize([_record(["a", "b", "a"], [1.0, 0.0, 1.0])])
    assert three.elo is None
    assert [(s.engine, s.games, s.score) for s in three.engines] == [("a", 2, 1.0), ("b", 1, 0.0)]
    sweep = summarize([_record(["a", "b"], [1.0, 0.0])] * 3).to_json()
    assert sweep["elo"]["difference"] is None  # +inf has no JSON number
    low = wilson_interval(1.0, 3)[0]  # three wins of three: 0.44, a little below even
    assert sweep["elo"]["ci95"] == [pytest.approx(elo_difference(low), abs=0.05), None]


# -- output file and resume ---------------------------------------------------------------


def test_resume_plays_only_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "results.jsonl"
    tasks = build_tasks(["random", "greedy"], deals=3, rules="tan", seed=2)
    first = run_arena(tasks[:4], workers=1, out=out)
    assert len(out.read_text().splitlines()) == 4
    with out.open("a") as file:
        file.write('{"deal": 2, "rotation": 0, "sco')  # a run cut short mid-line
    played: list[int] = []
    real = runners.play_game

    def counting(task: GameTask) -> dict[str, Any]:
        played.append(task.deal * 10 + task.rotation)
        return real(task)

    monkeypatch.setattr(runners, "play_game", counting)
    records = run_arena(tasks, workers=1, out=out, resume=True)
    assert played == [20, 21]
    assert _without_time(records[:4]) == _without_time(first)
    assert len(records) == 6
    lines = out.read_text().splitlines()
    assert len(lines) == 6 and all(json.loads(line)["scores"] for line in lines)
    played.clear()
    assert _without_time(run_arena(tasks, workers=1, out=out, resume=True)) == _without_time(records)
    assert played == []
    run_arena(tasks[:1], workers=1, out=out)  # without resume the file starts afresh
    assert len(out.read_text().splitlines()) == 1


def test_resume_ignores_records_of_another_match(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_arena(build_tasks(["random", "greedy"], deals=1, rules="tan", seed=1), workers=1, out=out)
    tasks = build_tasks(["random", "greedy"], deals=1, rules="tan", seed=2)
    records = run_arena(tasks, workers=1, out=out, resume=True)
    assert [r["deal_seed"] for r in records] == [tasks[0].deal_seed] * 2
    assert len(read_results(out)) == 4  # the other match's records are kept in the file


def test_workers_must_be_positive() -> None:
    with pytest.raises(ArenaError):
        run_arena([], workers=0)


# -- SPRT ---------------------------------------------------------------------------------


def test_sprt_llr_by_hand() -> None:
    sprt = Sprt(0, 50)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    assert sprt.bounds == pytest.approx((-math.log(19), math.log(19)))
    assert s1 == pytest.approx(0.571463, abs=1e-6)
    # Scores 1, 0, 1, ½: n = 4, S = 2.5, var = 2.25/4 - 0.625² = 0.171875;
    # LLR = (s1 - s0)(2·2.5 - 4(s0 + s1)) / (2·0.171875) = 0.071463 · 0.714148 / 0.34375 = 0.148466.
    assert sprt.llr([1, 0, 1, 0.5]) == pytest.approx(0.148466, abs=1e-6)
    assert sprt.llr([1, 0, 1, 0.5]) == pytest.approx((s1 - s0) * (5 - 4 * (s0 + s1)) / (2 * 0.171875))
    # Two wins have no variance: it is taken over 1, 1, 0, 1 (mean 0.75, var 0.1875);
    # LLR = 0.071463 · (4 - 2·1.071463) / 0.375 = 0.353899.
    assert sprt.llr([1, 1]) == pytest.approx(0.353899, abs=1e-6)
    assert sprt.llr([0, 0]) == pytest.approx(0.071463 * (0 - 2 * 1.071463) / 0.375, abs=1e-5)
    assert sprt.llr([]) == 0.0
    # A mean score halfway between s0 and s1 favours neither.
    assert Sprt(-100, 100).llr([0, 1, 0.5, 0.5]) == pytest.approx(0.0, abs=1e-12)
    assert sprt.decision(2.95) == "H1" and sprt.decision(-2.95) == "H0"
    assert sprt.decision(2.9) == "inconclusive"
    wider = Sprt(0, 10, alpha=0.01, beta=0.1)
    assert wider.bounds == pytest.approx((math.log(0.1 / 0.99), math.log(0.9 / 0.01)))


@pytest.mark.parametrize(("elo0", "elo1", "alpha", "beta"), [(50, 0, 0.05, 0.05), (0, 0, 0.05, 0.05),
                                                             (0, 50, 0, 0.05), (0, 50, 0.05, 0.5)])
def test_bad_sprt_is_refused(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    with pytest.raises(ArenaError):
        Sprt(elo0, elo1, alpha, beta)


def _scripted(results: dict[int, tuple[float, float]], played: list[tuple[int, int]]) -> Any:
    """A stand-in for `play_game`: deal d's rotation r gives the first engine results[d][r]."""

    def play(task: GameTask) -> dict[str, Any]:
        played.append((task.deal, task.rotation))
        score = results[task.deal][task.rotation]
        first = task.engines.index("greedy")
        scores = [1.0 - score, 1.0 - score]
        scores[first] = score
        return {**task.to_json(), "scores": scores, "loser": None, "plies": 1, "seconds": 0.0}

    return play


def test_sprt_stops_once_the_llr_crosses_a_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Wins only: after 2n games the LLR is 0.066356 · 2n (2n + 2)² / (2(2n + 1)):
    # 1.820 after 3 deals, 2.949 >= ln 19 after 4, so H1 with the fourth deal.
    played: list[tuple[int, int]] = []
    monkeypatch.setattr(runners, "play_game", _scripted({d: (1.0, 1.0) for d in range(10)}, played))
    tasks = build_tasks(["greedy", "random"], deals=10, rules="durak", seed=1)
    sprt = Sprt(0, 50)
    out = tmp_path / "sprt.jsonl"
    records = run_arena(tasks, workers=1, out=out, sprt=sprt)
    assert played == [(d, r) for d in range(4) for r in range(2)]
    assert len(records) == 8 and len(read_results(out)) == 8
    result = sprt_result(sprt, tasks, records)
    assert (result.decision, result.deals, result.games) == ("H1", 4, 8)
    assert result.llr == pytest.approx(0.071463 * 0.928537 * 8 * 100 / 18, abs=1e-4)
    played.clear()  # resuming a decided test plays nothing more
    assert len(run_arena(tasks, workers=1, out=out, resume=True, sprt=sprt)) == 8
    assert played == []


def test_sprt_goes_by_whole_deals_in_deal_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deals alternate a loss (0, 0) and a split (1, 0): against elo1 = 100 the LLR falls to H0
    # with the fifth deal (mean score 0.2, -3.239);
    # the games are given back shuffled, as a pool would finish them.
    script = {d: ((1.0, 0.0) if d % 2 else (0.0, 0.0)) for d in range(12)}
    played: list[tuple[int, int]] = []
    monkeypatch.setattr(runners, "play_game", _scripted(script, played))
    tasks = build_tasks(["greedy", "random"], deals=12, rules="durak", seed=1)
    sprt = Sprt(0, 100)
    scores: list[float] = []
    expected = None
    for deal in range(12):
        scores += script[deal]
        if sprt.decision(sprt.llr(scores)) != "inconclusive":
            expected = (sprt.decision(sprt.llr(scores)), deal + 1)
            break
    assert expected == ("H0", 5)
    assert sprt.llr(scores) == pytest.approx(-3.2393, abs=1e-4)
    records = run_arena(tasks, workers=1, sprt=sprt)
    assert len(records) == 10
    shuffled = [*records[5:], *records[:5]]
    shuffled.reverse()
    result = sprt_result(sprt, tasks, shuffled)
    assert (result.decision, result.deals) == expected
    assert result.to_json()["decision"] == "H0" and result.to_json()["bounds"] == [-2.9444, 2.9444]


def test_sprt_needs_two_engines_at_two_seats() -> None:
    with pytest.raises(ArenaError, match="two engines"):
        run_arena(build_tasks(["greedy"], deals=1, rules="durak"), workers=1, sprt=Sprt(0, 50))
    with pytest.raises(ArenaError, match="two engines"):
        run_arena(build_tasks(["greedy", "random"], deals=1, rules="durak", players=3), workers=1,
                  sprt=Sprt(0, 50))


def test_a_scheduler_without_dask_or_at_no_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = build_tasks(["random", "greedy"], deals=1, rules="durak")
    if importlib.util.find_spec("distributed") is not None:
        with pytest.raises(ArenaError, match="no Dask scheduler at nonsense"):
            run_arena(tasks, scheduler="nonsense")
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask were not installed
    with pytest.raises(ArenaError, match=r"--scheduler needs dask.distributed: pip install"):
        run_arena(tasks, scheduler="tcp://127.0.0.1:8786")


def test_sprt_in_a_pool_hands_out_only_a_few_games_past_the_decision(tmp_path: Path) -> None:
    tasks = build_tasks(["greedy", "random"], deals=40, rules="durak", seed=5)
    sprt = Sprt(0, 200)
    out = tmp_path / "sprt.jsonl"
    records = run_arena(tasks, workers=2, out=out, sprt=sprt)
    alone = run_arena(tasks, workers=1, sprt=sprt)
    assert _without_time(records) == _without_time(alone)
    result = sprt_result(sprt, tasks, records)
    assert result.decided and len(records) == result.games
    # Two games a worker are handed out at a time, so at most four past the deciding one.
    assert result.games <= len(read_results(out)) <= result.games + 4


def test_an_arena_of_matches_counts_every_game() -> None:
    rules = {"preset": "tan", "tribute": True, "trump_swap": True, "trump_repeat_limit": 2}
    tasks = build_tasks(["greedy", "random"], deals=2, rules=rules, players=2, seed=4, match=3)
    records = run_arena(tasks, workers=1)
    assert all(len(record["games"]) == 3 and record["match"] == 3 for record in records)
    for record in records:
        assert record["scores"] == [sum(game[seat] for game in record["games"]) / 3 for seat in range(2)]
    summary = summarize(records)
    assert summary.games == 12 and all(stats.games == 12 for stats in summary.engines)
    again = build_tasks(["greedy", "random"], deals=2, rules=rules, seed=4, match=3)
    assert [r["games"] for r in records] == [r["games"] for r in run_arena(again, workers=1)]
    with pytest.raises(ArenaError):
        build_tasks(["greedy"], deals=1, match=0)


def test_side_rules_in_single_games_follow_the_deal_seed() -> None:
    rules = {"preset": "tan", "redeal_without_trump": True, "trump_swap": True, "take_when_beaten": True}
    tasks = build_tasks(["greedy", "random"], deals=3, rules=rules, seed=6)

    def played() -> list[dict[str, object]]:
        return [{k: v for k, v in record.items() if k != "seconds"} for record in run_arena(tasks, workers=1)]

    assert played() == played()


def test_an_engine_that_always_keeps_in_the_setup() -> None:
    from solver.game.position import Position
    from solver.game.reference import Game
    from solver.game.rules import Rules
    from solver.players import make_player
    from tests.support.games import ordered_deck

    rules = Rules.preset_named("tan", trump_swap=True)
    hands = [
        ["2h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = Game.deal(rules, 2, deck=ordered_deck(rules, hands, "Ah"))  # seat 0 holds the 2 of trumps
    keeper = make_player({"engine": "ismcts", "setup": "keep", "limits": {"iterations": 50}})
    assert str(keeper.choose(Position.from_game(game, 0))) == "keep"
    with pytest.raises(TanError):
        make_player({"engine": "ismcts", "setup": "sometimes"})


def test_an_engine_shown_the_hands_sees_them_and_only_it() -> None:
    """`sees_hands` (the ceiling on reading hands): its seat's position knows every other hand;
    the other seat's does not; a bad value is refused."""
    from solver.game.position import Position
    from solver.game.reference import Game, random_deck
    from solver.game.rules import Rules
    from solver.players import make_player

    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 3), chance_seed=3)
    shown = Position.from_game(game, 0, reveal_hands=True)
    assert shown.known[1] == tuple(sorted(game.hands[1]))
    assert shown.hidden_slots().total == len(game.stock) - 1  # the stock's order, nothing else
    assert Position.from_game(game, 0).known[1] == ()
    oracle = make_player({"engine": "ismcts", "sees_hands": True, "limits": {"iterations": 20}})
    assert getattr(oracle, "sees_hands", False) and not getattr(make_player("ismcts"), "sees_hands", True)
    with pytest.raises(TanError):
        make_player({"engine": "ismcts", "sees_hands": "yes"})
    lineup = [{"engine": "ismcts", "sees_hands": True, "beliefs": False, "name": "oracle"}, "greedy"]
    tasks = build_tasks(lineup, 1, "durak", 2, seed=4, limits=Limits(iterations=20))
    assert all(play_game(task)["plies"] > 0 for task in tasks)
