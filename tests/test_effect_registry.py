"""Issue 12 item 4: ability effects are a registry (R-P4) — one object per effect, registered by
name, its parameters taken from the data layer's schema, the one list troupe files are checked
against. The example effect of docs/engine.md ("Adding an ability effect") is run as written: its
three files' worth of code registers a new effect, and a troupe dict that names it plays it.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skirmish.data import effects as schema
from skirmish.data.errors import DataError
from skirmish.data.loader import load_troupe_data
from skirmish.engine import Game, UseAbility, setup, why_not
from skirmish.engine.effects.abilities import EFFECTS, Aimed, Effect, register

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "engine.md"
MODULE = "skirmish.engine.effects.abilities.shove"


def _doc_blocks() -> tuple[str, str]:
    """The example effect's file and its schema line, as docs/engine.md shows them."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    effect = [b for b in blocks if b.startswith("# skirmish/engine/effects/abilities/shove.py")]
    entry = [b for b in blocks if b.strip().startswith('"shove":')]
    assert len(effect) == 1 and len(entry) == 1, "docs/engine.md lost its example effect"
    return effect[0], entry[0]


@pytest.fixture
def shove(monkeypatch: pytest.MonkeyPatch) -> Iterator[Effect]:
    """The doc's Shove registered (and its schema entry added) for one test, then taken away."""
    code, entry = _doc_blocks()
    params = eval("{" + entry.strip().rstrip(",") + "}", dict(vars(schema)))  # the doc's schema line
    for name, spec in params.items():
        monkeypatch.setitem(schema.EFFECTS, name, spec)
    module = types.ModuleType(MODULE)
    monkeypatch.setitem(sys.modules, MODULE, module)
    try:
        exec(compile(code, "docs/engine.md", "exec"), module.__dict__)
        yield EFFECTS["shove"]
    finally:
        EFFECTS.pop("shove", None)


def _troupe(distance: object = 2) -> dict[str, Any]:
    """A troupe file's data whose one model carries an ability of the new effect."""
    return {
        "name": "shovers",
        "title": "Shovers",
        "kingdom": "earth_kingdom",
        "models": [
            {
                "profile": {
                    "name": "haru",
                    "title": "Haru",
                    "move": 6,
                    "ap": 3,
                    "ranged": 1,
                    "dodge": 2,
                    "combat": 1,
                    "hp": 3,
                    "perception": 3,
                    "points": 40,
                    "abilities": ["shoulder_shove"],
                }
            }
        ],
        "armoury": {
            "abilities": [
                {
                    "name": "shoulder_shove",
                    "title": "Shoulder Shove",
                    "ap_cost": 1,
                    "timing": "move",
                    "effect": "shove",
                    "params": {"distance": distance},
                }
            ]
        },
    }


def test_r_p4_the_registry_is_the_schemas_active_effects_each_with_its_parameters() -> None:
    aimed = {n for n, e in EFFECTS.items() if e.aimed}
    assert aimed == {"push", "nullify_cover", "limp"}
    assert all(isinstance(EFFECTS[n], Aimed) for n in aimed)
    assert {n for n, e in EFFECTS.items() if e.counts_as_shot} == {"push", "limp"}
    assert {n for n, e in EFFECTS.items() if e.needs_target} == {"heal", "chi_block", *aimed}
    assert {n for n, e in EFFECTS.items() if e.needs_point} == {"wall"}
    for name, effect in EFFECTS.items():
        assert effect.params is schema.EFFECTS[name]


def test_r_p4_register_refuses_an_effect_the_data_layer_has_no_schema_for() -> None:
    class Nameless(Effect):
        name = "not_in_the_schema"

    with pytest.raises(ValueError, match="no parameter schema"):
        register(Nameless)
    assert "not_in_the_schema" not in EFFECTS


def test_r_p4_a_troupe_naming_an_unregistered_effect_is_refused_at_load() -> None:
    with pytest.raises(DataError, match="unknown effect `shove`"):
        load_troupe_data(_troupe(), "shovers.toml")


def test_r_p4_the_docs_new_effect_is_checked_at_load_and_plays_in_a_real_game(shove: Effect) -> None:
    assert shove.params == {"distance": schema.Param("float", 0, 6)}
    with pytest.raises(DataError, match="params.distance"):
        load_troupe_data(_troupe(distance=9), "shovers.toml")  # out of the schema's bounds
    troupe = load_troupe_data(_troupe(), "shovers.toml")

    game = Game.from_scenario("open_battle", troupes=[troupe, "zuko_hunting_party"], seed=3)
    setup.only(game, ["p0.haru", "p1.zuko"])
    setup.place_all(game, {"p0.haru": (20.0, 20.0), "p1.zuko": (21.0, 20.0)})  # bases touching
    setup.advance_to(game, "movement", player=0)

    use = UseAbility("p0.haru", "shoulder_shove", target="p1.zuko")
    assert use in game.legal_actions()
    assert why_not(game, use) is None
    before, ap, rolls = game.hash(), game.state.model("p0.haru").ap, len(game.dice.history)
    game.apply(use)
    haru, zuko = game.state.model("p0.haru"), game.state.model("p1.zuko")
    assert game.state.xy[zuko.index][0] == pytest.approx(23.0)  # 2" straight away
    assert haru.ap == ap - 1 and len(game.dice.history) == rolls  # paid; no dice
    assert game.log[-1].kind == "ability"
    assert game.log[-1].text == f"Haru uses Shoulder Shove: {zuko.name} is shoved away"
    refusal = why_not(game, use)
    assert refusal is not None and refusal.rule == "R-P4" and "already used" in refusal.reason
    assert game.undo() and game.hash() == before


def test_r_p4_the_new_effects_target_rule_refuses_a_model_out_of_reach(shove: Effect) -> None:
    game = Game.from_scenario(
        "open_battle", troupes=[load_troupe_data(_troupe(), "shovers.toml"), "zuko_hunting_party"], seed=3
    )
    setup.only(game, ["p0.haru", "p1.zuko"])
    setup.place_all(game, {"p0.haru": (20.0, 20.0), "p1.zuko": (25.0, 20.0)})
    setup.advance_to(game, "movement", player=0)
    assert not [a for a in game.legal_actions() if isinstance(a, UseAbility)]
    refusal = why_not(game, UseAbility("p0.haru", "shoulder_shove", target="p1.zuko"))
    assert refusal is not None and refusal.rule == "R-P4" and "not a valid target" in refusal.reason


def test_effect_modules_import_no_step_rulebook_or_game() -> None:
    """Effects decide what a rule does, the steps when (also an import-linter contract)."""
    for path in (ROOT / "skirmish" / "engine" / "effects").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"skirmish\.engine\.(steps|rulebook|game)\b", text), path
