"""Issue 16 item 1: range guessing for everything that reaches (R-C1): aimed abilities are declared
before measuring and wasted out of range; the ruler measures only your own model's path.
"""

from __future__ import annotations

import numpy as np
from helpers_engine import (
    advance_to,
    assert_illegal,
    events,
    keep_only,
    last_event,
    m,
    new_game,
    place,
    rolls_since,
)

from skirmish.engine import ruler
from skirmish.engine.core.actions import Shoot, UseAbility
from skirmish.engine.game import Game


def _aang_and_zuko(**opts: bool) -> Game:
    g = new_game(options=opts or None)
    keep_only(g, ["p0.aang", "p1.zuko"])
    # 11" edge to edge: beyond Air Blast's 6".
    place(g, {"p0.aang": (28.0, 8.0), "p1.zuko": (28.0, 20.0)})
    return g


def test_r_c1_ranged_ability_is_offered_at_a_visible_target_out_of_range_and_wasted() -> None:
    g = _aang_and_zuko()
    advance_to(g, "shooting", 0)
    aang, zuko = m(g, "p0.aang"), m(g, "p1.zuko")
    assert g.distance(aang, zuko) > 6.0
    blast = UseAbility("p0.aang", "air_blast", target="p1.zuko")
    assert blast in g.legal_actions()  # nothing tells the player the distance first
    ap, where, start = aang.ap, g.state.xy[zuko.index].copy(), len(g.dice.history)
    g.apply(blast)
    wasted = last_event(g, "shot_wasted")
    assert "beyond its 6" in wasted.text and "wasted" in wasted.text
    assert aang.ap == ap - 1 and aang.fired and aang.buffs.get("used:air_blast")
    assert np.allclose(g.state.xy[zuko.index], where) and rolls_since(g, start) == []
    # It was the model's one shot (R-C6).
    assert_illegal(g, Shoot("p0.aang", "p1.zuko", "air_swipe"), "R-C6", "already fired")


def test_r_c1_premeasure_hides_out_of_range_ability_targets_and_refuses_them_with_the_range() -> None:
    g = _aang_and_zuko(premeasure=True)
    advance_to(g, "shooting", 0)
    blast = UseAbility("p0.aang", "air_blast", target="p1.zuko")
    assert blast not in g.legal_actions()
    assert_illegal(g, blast, "R-C1", "beyond air blast's 6")


def test_r_c1_ability_in_range_still_works_without_premeasure() -> None:
    g = _aang_and_zuko()
    place(g, {"p1.zuko": (28.0, 12.0)})
    advance_to(g, "shooting", 0)
    g.apply(UseAbility("p0.aang", "air_blast", target="p1.zuko"))
    assert float(g.state.xy[m(g, "p1.zuko").index][1]) > 13.0 and not events(g, "shot_wasted")


def test_r_c1_r_b3_ability_targets_out_of_sight_are_not_offered() -> None:
    g = _aang_and_zuko()
    # The standing stone (22..25 x 12..15) blocks every line between the two bases.
    place(g, {"p0.aang": (23.5, 9.0), "p1.zuko": (23.5, 18.0)})
    advance_to(g, "shooting", 0)
    assert not g.sees(m(g, "p0.aang"), m(g, "p1.zuko"))
    blast = UseAbility("p0.aang", "air_blast", target="p1.zuko")
    assert blast not in g.legal_actions()
    assert_illegal(g, blast, "R-P4", "not a valid target")


def test_r_c1_the_ruler_measures_your_own_path_not_model_to_model_in_the_move_phase() -> None:
    g = new_game()  # Aang and Zuko where they deploy: 39" apart edge to edge (the issue's case)
    advance_to(g, "movement", 0)
    aang, zuko = m(g, "p0.aang"), m(g, "p1.zuko")
    a, z = tuple(g.state.xy[aang.index]), tuple(g.state.xy[zuko.index])
    gap = g.distance(aang, zuko)
    assert f"{gap:.1f}" == "39.0"  # what the ruler used to say, model to model
    seen = ruler.reading(g, [a, z], model=aang, ends=(aang, zuko))
    assert seen.length is None and f"{gap:.1f}" not in seen.text() and "beyond" in seen.text()
    # Its own path, within its Move: the drawn length, never snapped to bases.
    step = (a[0], a[1] + 4.0)
    assert ruler.reading(g, [a, step], model=aang, ends=(aang, None)).length == 4.0
    # Not its own model, or a Combat Phase step: the ruler tells nothing.
    assert ruler.reading(g, [a, z], model=zuko).tape == 0.0
    advance_to(g, "shooting", 0)
    assert ruler.reading(g, [a, step], model=aang).length is None
    # With premeasuring, every distance is open, edge to edge.
    p = new_game(options={"premeasure": True})
    advance_to(p, "movement", 0)
    pa, pz = m(p, "p0.aang"), m(p, "p1.zuko")
    got = ruler.reading(
        p, [tuple(p.state.xy[pa.index]), tuple(p.state.xy[pz.index])], model=pa, ends=(pa, pz)
    )
    assert got.length is not None and abs(got.length - p.distance(pa, pz)) < 1e-9
    assert "edge to edge" in got.text()
