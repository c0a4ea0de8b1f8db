"""Profiles and the armoury as the rules read them (R-P1, R-P2, R-P3, R-P4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from skirmish.data.armoury import Ability, Timing, Weapon, WeaponKind
from skirmish.data.catalogue import content_root
from skirmish.data.loader import load_troupe, standard_armoury, troupe_armoury
from skirmish.data.troupe import Profile
from skirmish.rules.odds import shot_odds

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()
MINIMAL = dict(name="w", title="W", move=6, ap=1, ranged=1, dodge=1, hp=1, perception=3, points=5)


def test_r_p1_profile_has_every_characteristic_with_seed_defaults() -> None:
    p = Profile.model_validate(MINIMAL)
    assert p.combat == 0  # the seed's worked melee example uses no Combat skill
    assert (p.base, p.charge, p.advance) == (1.0, 6.0, 6.0)
    assert (p.armour, p.shield, p.weapons, p.abilities, p.elements) == (None, None, [], [], [])
    for field in (
        "move",
        "ap",
        "ranged",
        "dodge",
        "combat",
        "hp",
        "perception",
        "base",
        "armour",
        "shield",
        "weapons",
        "abilities",
        "elements",
        "kingdom",
        "keywords",
        "points",
    ):
        assert field in Profile.model_fields, field


def test_r_p1_shipped_profiles_are_playable() -> None:
    troupe = load_troupe(CONTENT / "troupes" / "team_avatar.toml")
    for entry in troupe.models:
        p = entry.profile
        assert p.hp >= 1 and 0 <= p.perception <= 6 and p.move >= 0
        # A shipped model's profile yields a legal odds query against itself.
        assert 0.0 <= shot_odds(max(1, p.ranged), p.dodge, hp=p.hp).hit <= 1.0


@pytest.mark.parametrize("field, value", [("hp", 0), ("perception", 7), ("move", -1), ("ap", -1)])
def test_r_p1_profile_refuses_impossible_characteristics(field: str, value: int) -> None:
    with pytest.raises(ValidationError):
        Profile.model_validate({**MINIMAL, field: value})


def test_r_p2_standard_armour_and_shield_saves() -> None:
    arm = standard_armoury()
    armour = {a.name: a.save for a in arm.armour}
    shields = {s.name: s.save for s in arm.shields}
    assert {k: armour[k] for k in ("robes", "light", "medium", "imperial")} == {
        "robes": 6,
        "light": 5,
        "medium": 4,
        "imperial": 3,
    }
    assert {k: shields[k] for k in ("wooden", "buckler", "broad", "wall")} == {
        "wooden": 6,
        "buckler": 5,
        "broad": 4,
        "wall": 3,
    }
    assert all(2 <= s <= 6 for s in [*armour.values(), *shields.values()])


def test_r_p2_troupes_may_add_their_own_armour() -> None:
    for path in sorted((CONTENT / "troupes").glob("*.toml")):
        troupe = load_troupe(path)
        merged = troupe_armoury(troupe).armour_by_name()
        for item in troupe.armoury.armour:
            assert merged[item.name].save == item.save


def test_r_p3_weapon_kinds_ranges_damage_and_keywords() -> None:
    weapons = standard_armoury().weapon_by_name()
    assert all((w.kind is WeaponKind.ranged) == (w.range is not None) for w in weapons.values())
    assert weapons["sword"].damage == 1  # default damage per hit
    assert weapons["crossbow"].shield_breaker and weapons["crossbow"].kind is WeaponKind.ranged
    assert weapons["dual_swords"].two_hand
    with pytest.raises(ValidationError, match="range"):
        Weapon.model_validate({"name": "bow2", "title": "Bow", "kind": "ranged"})
    with pytest.raises(ValidationError, match="range"):
        Weapon.model_validate({"name": "axe", "title": "Axe", "kind": "melee", "range": 3})
    with pytest.raises(ValidationError):
        Weapon.model_validate({"name": "axe", "title": "Axe", "kind": "melee", "damage": 0})


def test_r_p4_abilities_cost_ap_and_state_their_timing() -> None:
    abilities = standard_armoury().abilities
    assert abilities, "the standard armoury ships abilities"
    for a in abilities:
        assert a.ap_cost >= 0 and isinstance(a.timing, Timing)
    assert any(a.ap_cost > 0 for a in abilities)
    with pytest.raises(ValidationError):
        Ability.model_validate({"name": "x", "title": "X", "timing": "whenever", "effect": "heal"})
    with pytest.raises(ValidationError):
        Ability.model_validate({"name": "x", "title": "X", "timing": "move", "effect": "heal", "ap_cost": -1})
