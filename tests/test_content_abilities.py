"""Abilities (R-P4): each is paid in AP, has a timing, and names one of the engine's generic effects
with the parameters that effect reads, so the engine resolves every ability without special cases."""

from __future__ import annotations

import pytest

from skirmish.data.armoury import Ability, Timing
from skirmish.data.catalogue import shipped
from skirmish.data.loader import load_troupe, standard_armoury, troupe_armoury

# effect name -> the params it needs (required) and may take (allowed). Keep in step with docs/troupes.md.
EFFECTS: dict[str, tuple[set[str], set[str]]] = {
    "ranged_attack": ({"damage"}, {"damage", "shield_breaker", "bonus", "element"}),
    "heal": ({"amount"}, {"amount"}),
    "wall": ({"length", "width"}, {"length", "width"}),
    "push": ({"distance"}, {"distance", "damage"}),
    "sense": ({"range"}, {"range"}),
    "glide": ({"bonus_move"}, {"bonus_move"}),
    "chi_block": (set(), set()),
    "distraction": (set(), set()),
    "nullify_cover": (set(), set()),
    "reaction_block": ({"power"}, {"power"}),
    "reaction_deflect": (set(), set()),
    "reaction_reflect": (set(), set()),
    "buff": ({"stat", "amount"}, {"stat", "amount"}),
    "redirect": (set(), set()),
    "limp": ({"turns"}, {"turns"}),
}
REACTIONS = {"reaction_block", "reaction_deflect", "reaction_reflect", "redirect"}
BUFFABLE = {"move", "ranged", "dodge", "combat", "perception"}
ELEMENTS = {"fire", "water", "earth", "air"}
ABILITIES = standard_armoury().abilities


def all_abilities() -> list[Ability]:
    """The standard abilities plus any troupe-specific ones."""
    found = {a.name: a for a in ABILITIES}
    for path in shipped("troupes"):
        for a in load_troupe(path).armoury.abilities:
            found[a.name] = a
    return [found[k] for k in sorted(found)]


def test_r_p4_at_least_20_abilities() -> None:
    assert len(ABILITIES) >= 20


@pytest.mark.parametrize("ability", all_abilities(), ids=lambda a: a.name)
def test_r_p4_each_ability_names_a_known_effect_with_its_params(ability: Ability) -> None:
    assert ability.effect in EFFECTS, f"unknown effect `{ability.effect}`"
    required, allowed = EFFECTS[ability.effect]
    assert required <= set(ability.params), f"missing params {required - set(ability.params)}"
    assert set(ability.params) <= allowed, f"unexpected params {set(ability.params) - allowed}"
    assert ability.description, "rules text is shown on the profile card"
    assert isinstance(ability.timing, Timing)
    if ability.effect in REACTIONS:
        assert ability.timing is Timing.reaction
    if ability.effect == "ranged_attack":
        assert ability.range is not None and ability.timing is Timing.shooting
        assert ability.params.get("element") == ability.element
    if ability.effect in ("heal", "push"):
        assert ability.range is not None
    if ability.effect == "buff":
        assert ability.params["stat"] in BUFFABLE
    if ability.timing is Timing.passive:
        assert ability.ap_cost == 0, "a passive ability is always on: nothing to pay"
    if ability.element is not None:
        assert ability.element in ELEMENTS
    for key in ("damage", "amount", "distance", "length", "width", "bonus_move", "range"):
        if key in ability.params:
            assert isinstance(ability.params[key], (int, float)) and ability.params[key] >= 0


@pytest.mark.parametrize(
    ("name", "effect", "check"),
    [
        ("water_whip", "ranged_attack", {"element": "water"}),
        ("ice_spikes", "ranged_attack", {"element": "water"}),
        ("rock_throw", "ranged_attack", {"element": "earth"}),
        ("fire_blast", "ranged_attack", {"shield_breaker": True}),
        ("lightning", "ranged_attack", {"damage": 2}),
        ("boomerang_throw", "ranged_attack", {}),
        ("knife_throw", "ranged_attack", {}),
        ("healing_waters", "heal", {}),
        ("earth_wall", "wall", {}),
        ("earth_shove", "push", {}),
        ("air_blast", "push", {}),
        ("seismic_sense", "sense", {}),
        ("air_glide", "glide", {}),
        ("chi_blocking", "chi_block", {}),
        ("combat_distraction", "distraction", {}),
        ("eagle_eye", "nullify_cover", {}),
        ("stone_block", "reaction_block", {}),
        ("air_shield", "reaction_deflect", {}),
        ("flame_reflect", "reaction_reflect", {}),
        ("calm_counsel", "buff", {"stat": "combat"}),
        ("lightning_redirection", "redirect", {}),
    ],
)
def test_the_abilities_of_the_brief_exist(name: str, effect: str, check: dict[str, object]) -> None:
    ability = standard_armoury().ability_by_name()[name]
    assert ability.effect == effect
    for key, value in check.items():
        assert ability.params[key] == value


def test_r_e2_combat_distraction_is_an_end_phase_ability() -> None:
    cd = standard_armoury().ability_by_name()["combat_distraction"]
    assert cd.timing is Timing.end and cd.ap_cost == 0


def test_every_effect_and_reaction_kind_is_used_by_a_shipped_model() -> None:
    used: set[str] = set()
    for path in shipped("troupes"):
        troupe = load_troupe(path)
        by_name = troupe_armoury(troupe).ability_by_name()
        for entry in troupe.models:
            used.update(by_name[a].effect for a in entry.profile.abilities)
    assert used == set(EFFECTS)


def test_every_standard_ability_is_carried_by_some_model() -> None:
    carried = {a for p in shipped("troupes") for e in load_troupe(p).models for a in e.profile.abilities}
    assert {a.name for a in ABILITIES} <= carried


def test_bending_abilities_belong_to_benders() -> None:
    """A model carries an elemental ability only if it bends that element (Chi Blocking needs none)."""
    for path in shipped("troupes"):
        troupe = load_troupe(path)
        by_name = troupe_armoury(troupe).ability_by_name()
        for entry in troupe.models:
            bends = {e.value for e in entry.profile.elements}
            for a in entry.profile.abilities:
                element = by_name[a].element
                assert element is None or element in bends, f"{troupe.name}.{entry.profile.name}: {a}"
