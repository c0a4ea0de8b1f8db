"""The content docs keep up with the content: every troupe, ability, scenario and special key shipped
is described in docs/troupes.md or docs/scenarios.md."""

from __future__ import annotations

from pathlib import Path

from skirmish.data.catalogue import shipped
from skirmish.data.loader import load_scenario, standard_armoury

ROOT = Path(__file__).resolve().parents[1]


def test_docs_troupes_describes_every_troupe_and_ability() -> None:
    text = (ROOT / "docs" / "troupes.md").read_text(encoding="utf-8")
    for path in shipped("troupes"):
        assert f"(`{path.stem}`)" in text, path.stem
    for ability in standard_armoury().abilities:
        assert f"`{ability.name}`" in text, ability.name
    for effect in {a.effect for a in standard_armoury().abilities}:
        assert f"| `{effect}` |" in text, effect
    for rule in ("B-POINTS", "B-KINGDOM", "B-HEROES", "B-UNIQUE", "B-DECLARED"):
        assert rule in text


def test_docs_scenarios_describes_every_scenario_and_special_key() -> None:
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for path in shipped("scenarios"):
        scenario = load_scenario(path)
        assert f"(`{scenario.name}`)" in text, scenario.name
        for key in scenario.special:
            assert f"`{key}`" in text, f"{scenario.name}: special.{key}"
