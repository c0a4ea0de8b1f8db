"""Shipped troupes: every file validates, the Heroic Troupes cover the Four Kingdoms and both sides of
the war at comparable points, and the profiles the brief names are there (R-P1..R-P4, R-B4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.data.building import building_problems
from skirmish.data.catalogue import find_troupe, shipped
from skirmish.data.loader import load_troupe, troupe_armoury
from skirmish.data.troupe import Allegiance, Kingdom, Troupe

TROUPE_FILES = shipped("troupes")
# The battle troupes: Heroic Troupes meant to face each other in ordinary scenarios.
BATTLE_TROUPES = [
    "team_avatar",
    "zuko_hunting_party",
    "azula_and_agents",
    "kyoshi_warriors",
    "omashu_defenders",
    "northern_water_tribe",
    "fire_nation_army",
    "piandao_school",
    "air_temple_monks",
]


def all_troupes() -> dict[str, Troupe]:
    return {p.stem: load_troupe(p) for p in TROUPE_FILES}


@pytest.mark.parametrize("path", TROUPE_FILES, ids=[p.stem for p in TROUPE_FILES])
def test_every_shipped_troupe_validates(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["validate", str(path)], capsys)
    assert code == 0, err
    assert out.strip() == f"{path}: ok"
    troupe = load_troupe(path)
    assert troupe.name == path.stem, "the file name is the name commands take"
    assert troupe.description
    assert troupe.points == troupe.total_points(), "every troupe declares its true total (B-DECLARED)"
    for entry in troupe.models:
        assert entry.profile.points > 0, f"{entry.profile.name} has no points"


def test_list_troupes_shows_at_least_8(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["list", "troupes"], capsys)
    assert code == 0
    names = [line.split("\t")[0] for line in out.splitlines()]
    assert len(names) >= 8
    assert set(BATTLE_TROUPES) <= set(names)
    assert all(" " not in n for n in names)


def test_heroic_troupes_cover_the_four_kingdoms_and_both_sides() -> None:
    troupes = [find_troupe(n) for n in BATTLE_TROUPES]
    assert all(t.heroic for t in troupes)
    assert len(troupes) >= 8
    assert {t.kingdom for t in troupes} == set(Kingdom)
    allegiances = {t.allegiance for t in troupes}
    assert {Allegiance.avatar, Allegiance.fire_nation} <= allegiances


@pytest.mark.parametrize("name", BATTLE_TROUPES)
def test_battle_troupes_cost_about_the_same(name: str) -> None:
    """Comparable points keep bot games interesting (brief: about 250-320)."""
    troupe = find_troupe(name)
    assert 250 <= troupe.total_points() <= 320
    assert 4 <= troupe.model_count() <= 8
    assert building_problems(troupe, name) == []


def test_r_b4_team_avatar_has_appa_as_a_large_flying_beast() -> None:
    troupe = find_troupe("team_avatar")
    assert troupe.model_count() >= 4
    profiles = {e.profile.name: e.profile for e in troupe.models}
    assert {"aang", "katara", "sokka", "toph", "appa"} <= set(profiles)
    appa = profiles["appa"]
    assert appa.base == 2.4 and appa.flying and "beast" in appa.keywords
    assert troupe_armoury(troupe).weapon_by_name()["tail_slam"].damage == 2
    assert profiles["aang"].elements[0].value == "air"
    assert "seismic_sense" in profiles["toph"].abilities


def test_zuko_hunting_party_keeps_five_models() -> None:
    troupe = find_troupe("zuko_hunting_party")
    assert troupe.model_count() >= 5
    names = {e.profile.name for e in troupe.models}
    assert {"zuko", "iroh"} <= names
    iroh = next(e.profile for e in troupe.models if e.profile.name == "iroh")
    assert "lightning_redirection" in iroh.abilities


@pytest.mark.parametrize(
    ("troupe", "characters"),
    [
        ("azula_and_agents", {"azula", "mai", "ty_lee"}),
        ("kyoshi_warriors", {"suki", "kyoshi_warrior"}),
        ("omashu_defenders", {"bumi", "earthbender"}),
        ("northern_water_tribe", {"pakku", "waterbender", "tribe_warrior"}),
        ("fire_nation_army", {"zhao", "yuyan_archer", "fire_soldier"}),
        ("piandao_school", {"piandao", "sword_student"}),
    ],
)
def test_troupes_field_the_characters_of_the_show(troupe: str, characters: set[str]) -> None:
    names = {e.profile.name for e in find_troupe(troupe).models}
    assert characters <= names


def test_r_p2_r_p3_every_troupe_uses_armour_and_weapons() -> None:
    for name, troupe in all_troupes().items():
        for entry in troupe.models:
            p = entry.profile
            assert p.armour is not None, f"{name}.{p.name} wears no armour"
            assert p.weapons, f"{name}.{p.name} has no weapon"
    shields = {e.profile.shield for t in all_troupes().values() for e in t.models} - {None}
    assert len(shields) >= 3


def test_custom_example_troupes_are_not_heroic_and_keep_a_300_limit() -> None:
    customs = [t for t in all_troupes().values() if not t.heroic]
    assert len(customs) >= 2
    for t in customs:
        assert t.total_points() <= 300
        assert building_problems(t, t.name, 300) == []


def test_pursuit_adversaries_include_zuko_soldiers_and_a_stationary_ship() -> None:
    adversaries = find_troupe("pursuit_adversaries")
    profiles = {e.profile.name: e.profile for e in adversaries.models}
    assert {"prince_zuko", "fire_soldier", "fire_nation_ship"} <= set(profiles)
    ship = profiles["fire_nation_ship"]
    assert ship.move == 0 and ship.charge == 0 and ship.advance == 0
    assert {"ship", "stationary", "impassable"} <= set(ship.keywords)
    heroes = find_troupe("pursuit_heroes")
    assert [e.profile.name for e in heroes.models] == ["aang", "katara", "sokka", "appa"]


@pytest.mark.parametrize(
    ("name", "native"),
    [
        ("aang_avatar_state", "air"),
        ("avatar_roku", "fire"),
        ("avatar_kyoshi", "earth"),
        ("avatar_kuruk", "water"),
        ("avatar_yangchen", "air"),
    ],
)
def test_r_x1_duel_avatars_bend_all_four_with_a_native_element_first(name: str, native: str) -> None:
    troupe = find_troupe(name)
    assert troupe.model_count() == 1
    avatar = troupe.models[0].profile
    assert avatar.elements[0].value == native
    assert {e.value for e in avatar.elements} == {"fire", "water", "earth", "air"}
    assert "avatar" in avatar.keywords
    reactions = {
        a.effect
        for a in troupe_armoury(troupe).abilities
        if a.name in avatar.abilities and a.timing.value == "reaction"
    }
    assert reactions, f"{name} has no R-X2 reaction"
