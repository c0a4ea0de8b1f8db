"""Troupe-building rules (B-POINTS, B-KINGDOM, B-HEROES, B-UNIQUE, B-DECLARED) and `skirmish troupe cost`.

Each rule has a failing example built from a real shipped custom troupe with one thing changed, run
through the real `skirmish validate` command: it must exit 2 with a line naming the rule.
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

from skirmish.data.building import POINTS_PER_HERO, building_problems, cost_breakdown, hero_allowance
from skirmish.data.catalogue import content_root, find_troupe
from skirmish.data.loader import load_troupe_data

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()
GARRISON = CONTENT / "troupes" / "custom_ba_sing_se_garrison.toml"
HUNTERS = CONTENT / "troupes" / "custom_bounty_hunters.toml"


def toml_value(v: Any) -> str:
    """A TOML value for the plain data troupe files hold (inline tables for nested dicts)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def write_troupe(tmp_path: Path, data: dict[str, Any], name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{k} = {toml_value(v)}\n" for k, v in data.items()), encoding="utf-8")
    return path


def garrison() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(GARRISON.read_text(encoding="utf-8")))


def resum(data: dict[str, Any]) -> dict[str, Any]:
    """Keep the declared points equal to the models' sum, so only the rule under test breaks."""
    data["points"] = sum(m["count"] * m["profile"]["points"] for m in data["models"])
    return data


def test_shipped_custom_troupes_keep_every_rule_at_300_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["validate", "--points-limit", "300", str(GARRISON), str(HUNTERS)], capsys)
    assert code == 0, err
    assert out.count(": ok") == 2


def test_b_points_over_the_limit_is_refused_by_how_much(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = garrison()
    data["models"][2]["profile"]["points"] = 55 + 13  # two Dai Li agents: +26 over 300 -> 326
    path = write_troupe(tmp_path, resum(data))
    code, _, err = run(["validate", "--points-limit", "300", str(path)], capsys)
    assert code == 2
    assert "building rule B-POINTS" in err
    assert "326 points exceeds the 300-point limit by 26" in err
    assert f"{path}: models:" in err


def test_b_points_needs_a_limit_and_heroic_troupes_skip_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        ["validate", "--points-limit", "100", str(CONTENT / "troupes" / "team_avatar.toml")], capsys
    )
    assert code == 0, err
    troupe = find_troupe(str(GARRISON))
    assert building_problems(troupe, "g", 0) == []
    assert [p.message.split(":")[0] for p in building_problems(troupe, "g", 250)] == [
        "building rule B-POINTS",
        "building rule B-HEROES",  # 250 points allows only one hero; the garrison brings two
    ]


def test_b_kingdom_a_model_of_another_kingdom_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = garrison()
    data["models"][3]["profile"]["kingdom"] = "fire_nation"
    path = write_troupe(tmp_path, data)
    code, _, err = run(["validate", str(path)], capsys)
    assert code == 2
    assert "building rule B-KINGDOM" in err
    assert "models[3].profile.kingdom" in err
    assert "`wall_guard` is from fire_nation, not the troupe's earth_kingdom" in err


def test_b_kingdom_any_kingdom_models_may_join(capsys: pytest.CaptureFixture[str]) -> None:
    hunters = find_troupe(str(HUNTERS))
    outsiders = [e.profile for e in hunters.models if e.profile.kingdom not in (None, hunters.kingdom)]
    assert outsiders and all(p.any_kingdom for p in outsiders)
    code, _, err = run(["validate", str(HUNTERS)], capsys)
    assert code == 0, err


def test_b_heroes_one_hero_per_150_points(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert POINTS_PER_HERO == 150
    assert [hero_allowance(p) for p in (0, 149, 150, 299, 300, 449, 450)] == [1, 1, 1, 1, 2, 2, 3]
    data = garrison()
    data["models"][3]["profile"]["hero"] = True  # a third hero in a 300-point troupe
    path = write_troupe(tmp_path, data)
    code, _, err = run(["validate", "--points-limit", "300", str(path)], capsys)
    assert code == 2
    assert "building rule B-HEROES: 3 heroes but the 300-point limit allows 2" in err
    assert "1 too many" in err


def test_b_heroes_without_a_limit_counts_the_troupes_own_points(tmp_path: Path) -> None:
    data = garrison()
    data["models"].pop(3)  # drop the wall guard: 265 points, still two heroes
    troupe = load_troupe_data(resum(data), "g")
    problems = building_problems(troupe, "g")
    assert [p.message for p in problems] == [
        "building rule B-HEROES: 2 heroes but 265 points allows 1 (one per 150 points), 1 too many"
    ]
    assert building_problems(troupe, "g", 300) == []


def test_b_unique_a_named_character_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = garrison()
    data["models"][0]["count"] = 2
    path = write_troupe(tmp_path, resum(data))
    code, _, err = run(["validate", str(path)], capsys)
    assert code == 2
    assert "building rule B-UNIQUE" in err
    assert "models[0].count" in err
    assert "at most 1 per troupe, not 2" in err


def test_b_unique_also_binds_heroic_troupes_and_catches_a_second_profile(tmp_path: Path) -> None:
    data = tomllib.loads((CONTENT / "troupes" / "zuko_hunting_party.toml").read_text(encoding="utf-8"))
    twin = copy.deepcopy(data["models"][0])
    twin["profile"]["name"] = "zuko_again"
    data["models"].append(twin)
    troupe = load_troupe_data(resum(data), "z")
    assert troupe.heroic
    messages = [str(p) for p in building_problems(troupe, "z", 0)]
    assert len(messages) == 1
    assert "building rule B-UNIQUE: Prince Zuko is already fielded as models[0]" in messages[0]
    assert "models[3].profile.title" in messages[0]


def test_b_declared_points_must_match_the_sum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = garrison()
    data["points"] = 280
    path = write_troupe(tmp_path, data)
    code, _, err = run(["validate", str(path)], capsys)
    assert code == 2
    assert "building rule B-DECLARED: declares 280 points but the models cost 300 (under by 20)" in err
    assert f"{path}: points:" in err


def test_every_broken_rule_is_reported_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = garrison()
    data["models"][0]["count"] = 2
    data["models"][3]["profile"]["kingdom"] = "water_tribe"
    data["models"][3]["profile"]["hero"] = True
    data["points"] = 1
    path = write_troupe(tmp_path, data)
    code, out, err = run(["validate", "--points-limit", "300", str(path)], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    rules = sorted(line.split("building rule ")[1].split(":")[0] for line in lines)
    assert rules == ["B-DECLARED", "B-HEROES", "B-KINGDOM", "B-POINTS", "B-UNIQUE"]
    assert all(line.startswith(f"skirmish: {path}: ") for line in lines)
    assert "Traceback" not in err


def test_validate_points_limit_must_not_be_negative(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["validate", "--points-limit", "-5", str(GARRISON)], capsys)
    assert code == 2
    assert "--points-limit" in err


def test_troupe_cost_prints_the_breakdown_and_total(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["troupe", "cost", "custom_ba_sing_se_garrison", "--points-limit", "300"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Ba Sing Se Garrison (custom) (custom_ba_sing_se_garrison) — custom troupe")
    assert any("2 x Dai Li Agent" in ln and "55 =  110" in ln for ln in lines)
    assert "  total: 300 points, 5 models, 2 heroes (declared 300)" in lines
    assert "  limit: 300 points (0 to spare); heroes allowed: 2" in lines
    assert not any("problem:" in ln for ln in lines)


def test_troupe_cost_json_and_scenario_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["troupe", "cost", str(HUNTERS), "--scenario", "open_battle", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    troupe = find_troupe(str(HUNTERS))
    assert data["total"] == troupe.total_points() == sum(m["total"] for m in data["models"])
    assert data["points_limit"] == 300
    assert data["problems"] == []
    assert [m["name"] for m in data["models"]] == [line.name for line in cost_breakdown(troupe)]


def test_troupe_cost_lists_problems_of_an_over_limit_troupe(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["troupe", "cost", str(GARRISON), "--points-limit", "275"], capsys)
    assert code == 0
    assert "limit: 275 points (over by 25)" in out
    assert "building rule B-POINTS: 300 points exceeds the 275-point limit by 25" in out


def test_troupe_cost_heroic_troupe_says_limits_do_not_apply(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["troupe", "cost", "team_avatar"], capsys)
    assert code == 0
    assert "Heroic Troupe" in out
    assert any(ln.strip().startswith("1 x Appa") for ln in out.splitlines())


def test_troupe_cost_unknown_troupe_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["troupe", "cost", "no_such_troupe"], capsys)
    assert code == 2
    assert "no troupe of that name" in err
    assert "Traceback" not in err
