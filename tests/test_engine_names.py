"""Numbered display names (issue 16, item 10): models that share a profile are told apart in the
log, the toasts and the labels, and the names stay out of the state hash."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import new_game, troupe  # noqa: E402

from skirmish.engine.core.names import display_names, model_number  # noqa: E402


def test_identical_models_are_numbered_and_the_hash_ignores_names() -> None:
    g = new_game()
    names = {m.id: m.name for m in g.state.models}
    assert names["p1.fire_soldier_1"] == "Fire Nation Soldier 1"
    assert names["p1.fire_soldier_3"] == "Fire Nation Soldier 3"
    assert names["p0.sokka"] == "Sokka"
    before = g.hash()
    for m in g.state.models:
        m.label = "renamed"
    assert g.hash() == before  # presentation only: never part of the state


def test_mirror_match_names_say_whose_model() -> None:
    t = troupe("team_avatar")
    g = new_game("open_battle", [t, t])
    names = [m.name for m in g.state.models]
    assert "Sokka (avatar)" in names and "Sokka (fire_nation)" in names
    assert len(set(names)) == len(names)
    assert display_names(g.state.models, [p.name for p in g.state.players]) == names


def test_model_number_comes_from_the_id() -> None:
    assert model_number("p1.fire_soldier_2", 9) == "2"
    assert model_number("p0.sokka", 4) == "4"
