"""Issue 16 item 4: every aimed ability tests Perception against a model Taking Cover (R-M4, R-M5);
nullifying cover is not the model's shot and spares that shot a second test (ruling R-C6).
"""

from __future__ import annotations

from helpers_engine import (
    advance_to,
    keep_only,
    last_event,
    m,
    new_game,
    place,
    rolls_since,
    troupe,
)

from skirmish.engine.core.actions import Shoot, TakeCover, UseAbility
from skirmish.engine.game import Game


def _cover_target() -> Game:
    """A Fire Nation soldier Taking Cover in the old ruins (medium), Mai and a Yuyan archer facing it."""
    g = new_game(troupes=[troupe("azula_and_agents"), troupe("fire_nation_army")])
    keep_only(g, ["p0.mai", "p1.fire_soldier_1", "p1.yuyan_archer_1"])
    place(g, {"p0.mai": (31.0, 25.0), "p1.fire_soldier_1": (31.0, 31.0), "p1.yuyan_archer_1": (40.0, 40.0)})
    advance_to(g, "take_cover", 1)
    g.apply(TakeCover("p1.fire_soldier_1"))
    return g


def test_r_m5_pinning_throw_at_a_model_taking_cover_needs_a_perception_test() -> None:
    g = _cover_target()
    advance_to(g, "shooting", 0)
    soldier = m(g, "p1.fire_soldier_1")
    assert soldier.taking_cover
    start = len(g.dice.history)
    g.dice.force(6)  # Mai's Perception 5: a 6 fails
    g.apply(UseAbility("p0.mai", "pinning_throw", target="p1.fire_soldier_1"))
    assert rolls_since(g, start) == [6] and "fails" in last_event(g, "perception").text
    assert not soldier.limping and m(g, "p0.mai").fired  # spent, and it was the shot


def test_r_m5_pinning_throw_passing_perception_pins_the_model_taking_cover() -> None:
    g = _cover_target()
    advance_to(g, "shooting", 0)
    g.dice.force(5)
    g.apply(UseAbility("p0.mai", "pinning_throw", target="p1.fire_soldier_1"))
    assert m(g, "p1.fire_soldier_1").limping


def _archer_and_sokka_in_cover() -> Game:
    """A Yuyan archer (Perception 5, Eagle Eye) facing Sokka Taking Cover in the old ruins."""
    g = new_game(troupes=[troupe("fire_nation_army"), troupe("team_avatar")])
    keep_only(g, ["p0.yuyan_archer_1", "p1.sokka", "p1.katara"])
    place(g, {"p0.yuyan_archer_1": (31.0, 20.0), "p1.sokka": (31.0, 31.0), "p1.katara": (44.0, 44.0)})
    advance_to(g, "take_cover", 1)
    g.apply(TakeCover("p1.sokka"))
    advance_to(g, "shooting", 0)
    return g


def test_r_c6_nullify_cover_tests_perception_is_not_the_shot_and_spares_the_second_test() -> None:
    g = _archer_and_sokka_in_cover()
    archer = m(g, "p0.yuyan_archer_1")
    start = len(g.dice.history)
    g.dice.force(5)  # Perception 5 passes
    g.apply(UseAbility("p0.yuyan_archer_1", "eagle_eye", target="p1.sokka"))
    assert rolls_since(g, start) == [5] and not archer.fired
    assert Shoot("p0.yuyan_archer_1", "p1.sokka", "longbow") in g.legal_actions()
    start = len(g.dice.history)
    g.dice.force(1, 6)  # shot 1 v dodge 6: dodged; no Perception die in between
    g.apply(Shoot("p0.yuyan_archer_1", "p1.sokka", "longbow"))
    assert rolls_since(g, start) == [1, 6]
    assert "target in the open" in last_event(g, "shot").text


def test_r_c6_nullify_cover_failing_perception_leaves_the_cover() -> None:
    g = _archer_and_sokka_in_cover()
    g.dice.force(6)
    g.apply(UseAbility("p0.yuyan_archer_1", "eagle_eye", target="p1.sokka"))
    assert not m(g, "p1.sokka").buffs.get("exposed:p0.yuyan_archer_1")
