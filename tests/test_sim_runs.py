"""Troupe testing runs: determinism across workers and executors, early stopping, CSV replays, bad input.

Short games (3 turns on the default board) keep the file fast; the properties do not depend on length.
"""

from __future__ import annotations

import csv
import json
import shlex
from pathlib import Path

import pytest

from skirmish.cli.main import main
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.sim.executors import InlineExecutor, make_executor
from skirmish.sim.games import GameRecord, Matchup, Plan, a_side, default_batch_size
from skirmish.sim.run import run, width_rule

TURNS = 3


@pytest.fixture(scope="module")
def plan() -> Plan:
    scenario = find_scenario("open_battle").model_copy(update={"turns": TURNS})
    a, b = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    return Plan(
        scenario, (Matchup(a, b, "team_avatar", "zuko_hunting_party"),), scenario.options, seed=3, turns=TURNS
    )


def _rows(records: list[GameRecord]) -> list[tuple]:
    return [
        (
            r.index,
            r.seed,
            r.a_side,
            r.outcome,
            r.turns,
            r.bp_a,
            r.bp_b,
            r.kos_a,
            r.kos_b,
            [
                (m.key, m.damage_dealt, m.damage_taken, m.kos, m.survived, m.ap_spent, m.abilities)
                for m in r.models_a
            ],
        )
        for r in records
    ]


def _run(plan: Plan, kind: str, workers: int, games: int = 6, **kw) -> tuple[dict, list[tuple], object]:
    records: list[GameRecord] = []
    with make_executor(kind, workers) as ex:
        result = run(plan, games, ex, batch_size=2, on_record=records.append, **kw)
    return result.tallies[0].summary(), _rows(records), result


def test_same_seed_same_results_with_1_and_2_workers_and_a_local_dask_cluster(plan: Plan) -> None:
    pytest.importorskip("distributed", reason="needs the dask extra (pip install -e '.[test]')")
    one, rows1, _ = _run(plan, "local", 1)
    two, rows2, _ = _run(plan, "local", 2)
    dask, rows3, _ = _run(plan, "dask", 2)
    assert one == two == dask
    assert rows1 == rows2 == rows3
    assert [r[0] for r in rows1] == list(range(6))  # folded in game-index order
    assert one["games"] == 6 and one["wins_a"] + one["wins_b"] + one["draws"] == 6


def test_sides_swap_every_other_game_and_seeds_come_from_the_run_seed(plan: Plan) -> None:
    _, rows, _ = _run(plan, "local", 1, games=4)
    assert [r[2] for r in rows] == [0, 1, 0, 1] == [a_side(i) for i in range(4)]
    assert [r[1] for r in rows] == [plan.game_seed(i) for i in range(4)]
    assert len({r[1] for r in rows}) == 4


def test_early_stopping_is_deterministic_and_stops_at_a_batch_boundary(plan: Plan) -> None:
    stop = width_rule(0.7)
    s1, r1, res1 = _run(plan, "local", 1, games=12, stop=stop)
    s2, r2, res2 = _run(plan, "local", 2, games=12, stop=stop)
    assert s1 == s2 and r1 == r2
    assert res1.stopped_early and res2.stopped_early
    assert res1.games_played == res2.games_played < 12
    assert res1.games_played % 2 == 0
    lo, hi = s1["ci95_a"]
    assert hi - lo < 0.7


def test_default_batch_size_depends_on_the_number_of_games_only() -> None:
    assert default_batch_size(1) == 1
    assert default_batch_size(200) == 3
    assert default_batch_size(10_000) == 25


def test_inline_executor_hands_exceptions_back_through_the_future() -> None:
    fut = InlineExecutor().submit(int, "x")
    with pytest.raises(ValueError):
        fut.result()


def _play_lines(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code in (0, None)
    out = capsys.readouterr().out
    return {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in out.splitlines() if ":" in line}


def test_csv_rows_replay_exactly_with_skirmish_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.csv"
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "test-troupes",
                "team_avatar",
                "zuko_hunting_party",
                "--games",
                "3",
                "--seed",
                "5",
                "--turns",
                str(TURNS),
                "--workers",
                "1",
                "--json",
                "--csv",
                str(out),
            ]
        )
    assert exc.value.code in (0, None)
    report = json.loads(capsys.readouterr().out)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 3 == report["games"]
    scenario = find_scenario("open_battle")
    for row in rows:
        argv = shlex.split(row["command"])[1:]
        assert argv[argv.index("--seed") + 1] == row["seed"]
        assert [argv[i + 1] for i, a in enumerate(argv) if a == "--troupe"] == [row["side0"], row["side1"]]
        lines = _play_lines(argv, capsys)
        assert lines["Turns"] == row["turns"]
        a_idx = 0 if row["sides"] == "A,B" else 1
        name_a, name_b = scenario.sides[a_idx].name, scenario.sides[1 - a_idx].name
        bp = lines["Battle Points"]
        per_turn_a = row["battle_points_per_turn_a"].replace(";", ", ")
        assert f"{name_a} {row['battle_points_a']} (per turn [{per_turn_a}])" in bp
        per_turn_b = row["battle_points_per_turn_b"].replace(";", ", ")
        assert f"{name_b} {row['battle_points_b']} (per turn [{per_turn_b}])" in bp
        assert f"{name_a} {row['kos_a']}" in lines["KOs made"]
        winner = lines["Result"].split(" — ")[0]
        expected = {"A": name_a, "B": name_b, "draw": "draw"}[row["winner"]]
        assert winner == expected


def test_json_has_the_keys_of_cli_md(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(
            [
                "test-troupes",
                "team_avatar",
                "zuko_hunting_party",
                "--games",
                "2",
                "--turns",
                "2",
                "--workers",
                "1",
                "--json",
            ]
        )
    report = json.loads(capsys.readouterr().out)
    for key in ("games", "wins_a", "wins_b", "draws", "win_rate_a", "ci95_a", "games_per_second"):
        assert key in report
    assert isinstance(report["ci95_a"], list) and len(report["ci95_a"]) == 2
    assert report["games"] == 2


def test_compare_plays_the_variant_on_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(
            [
                "test-troupes",
                "team_avatar",
                "zuko_hunting_party",
                "--compare",
                "team_avatar",
                "--games",
                "2",
                "--turns",
                "2",
                "--workers",
                "1",
                "--json",
            ]
        )
    report = json.loads(capsys.readouterr().out)
    comp = report["compare"]
    # The variant is the original here: same seeds, same games, so no difference at all.
    assert comp["wins"] == report["wins_a"] and comp["difference"] == 0.0
    assert comp["paired"]["only_original_won"] == comp["paired"]["only_variant_won"] == 0


def test_round_robin_fills_the_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(
            [
                "test-troupes",
                "--round-robin",
                "team_avatar",
                "zuko_hunting_party",
                "kyoshi_warriors",
                "--games",
                "1",
                "--turns",
                "1",
                "--workers",
                "1",
                "--json",
            ]
        )
    report = json.loads(capsys.readouterr().out)
    m = report["matrix"]
    assert len(m) == 3 and all(m[i][i] is None for i in range(3))
    assert all(m[i][j] is not None for i in range(3) for j in range(3) if i != j)
    assert len(report["pairs"]) == 3


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["team_avatar", "nope"], "nope"),
        (["team_avatar", "zuko_hunting_party", "--games", "0"], "--games"),
        (["team_avatar", "zuko_hunting_party", "--workers", "0"], "--workers"),
        (["team_avatar", "zuko_hunting_party", "--workers", "two"], "--workers"),
        (["team_avatar", "zuko_hunting_party", "--executor", "cloud"], "--executor"),
        (["team_avatar", "zuko_hunting_party", "--scheduler", "tcp://x:1"], "--scheduler"),
        (["team_avatar", "zuko_hunting_party", "--stop-width", "1.5"], "--stop-width"),
        (["team_avatar"], "TROUPES"),
        (["team_avatar", "zuko_hunting_party", "--scenario", "four_kingdoms_melee"], "--scenario"),
        (["team_avatar", "zuko_hunting_party", "--csv", "/no/such/dir/x.csv"], "--csv"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["test-troupes", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and flag in err[0] and "Traceback" not in err[0]


def test_plot_writes_a_png_for_a_run_and_a_comparison(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="needs the plot extra (pip install -e '.[test]')")
    out = tmp_path / "run.png"
    argv = [
        "test-troupes",
        "team_avatar",
        "zuko_hunting_party",
        "--compare",
        "kyoshi_warriors",
        "--games",
        "2",
    ]
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--turns", "1", "--workers", "1", "--plot", str(out)])
    assert exc.value.code in (0, None)
    assert "Plot written" in capsys.readouterr().out
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_a_batch_collects_garbage_less_often_and_gives_the_collector_back(
    plan: Plan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`fewer_collections`: while a batch plays, the first-generation threshold is raised; after
    it (and after a failing batch) the caller's thresholds are back; and the games are the same
    records with the collector at its default pace (no rule or bot reads it)."""
    import gc
    from contextlib import nullcontext

    import skirmish.sim.games as games_mod
    from skirmish.sim.collector import BATCH_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    original = games_mod.play_game

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return original(*args, **kwargs)

    monkeypatch.setattr(games_mod, "play_game", spy)
    fast = _rows(games_mod.play_batch(plan, 0, 2))
    assert seen and all(t[0] == max(BATCH_THRESHOLD, before[0]) for t in seen)
    assert gc.get_threshold() == before
    monkeypatch.setattr(games_mod, "fewer_collections", lambda: nullcontext())
    assert _rows(games_mod.play_batch(plan, 0, 2)) == fast
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("a batch that fails")
    assert gc.get_threshold() == before
