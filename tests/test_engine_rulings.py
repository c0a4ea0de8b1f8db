"""Rulings of docs/rules.md that the worked examples alone do not pin down."""

from __future__ import annotations

from helpers_engine import advance_to, keep_only, m, new_game, place, troupe, with_count, with_profile

from skirmish.engine.core.actions import Charge
from skirmish.engine.steps.melee import melee_score


def test_r_c4_charger_ending_inside_the_cover_gets_no_in_cover_bonus() -> None:
    """A warrior charging a soldier in the old ruins ends with its own centre inside the ruins: it
    takes "charging into cover" (-1) and not "in cover" (+1); the defender keeps its +1."""
    kyoshi = with_profile(
        with_count(troupe("kyoshi_warriors"), "kyoshi_warrior", 1), "kyoshi_warrior", combat=0
    )
    g = new_game(troupes=[kyoshi, troupe("zuko_hunting_party")])
    w, soldier = "p0.kyoshi_warrior", "p1.fire_soldier_1"
    keep_only(g, [w, soldier])
    place(g, {w: (32.0, 25.0), soldier: (32.0, 31.2)})
    advance_to(g, "charges", 0)
    g.apply(Charge(w, soldier))
    a, b = m(g, w), m(g, soldier)
    assert g.in_contact(a, b)
    assert g.cover(a) == 2, "the charger's centre should end inside the ruins for this test"
    text = melee_score(g, a, [b], 0).explain()
    assert "charging into cover" in text and "in cover" not in text.replace("charging into cover", "")
    assert "in cover" in melee_score(g, b, [a], 0).explain()
