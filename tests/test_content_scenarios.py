"""Shipped scenarios: every file validates, boards have room to deploy, and the special rules of the
escort, the Day of Black Sun, the siege, the four-kingdom melee, the Pursuit (R-X3) and the Duel
(R-X1, R-X2) are complete and consistent with the troupes they name."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import shapely
from helpers_cli import run

from skirmish.data.catalogue import find_scenario, find_troupe, shipped
from skirmish.data.loader import load_scenario
from skirmish.data.scenario import Cover, Scenario, Victory
from skirmish.engine.scenarios.pursuit import EFFECTS, TRIGGERS

SCENARIO_FILES = shipped("scenarios")
EXPECTED = {
    "open_battle": Victory.battle_points,
    "hold_the_zones": Victory.battle_points,
    "escort_the_avatar": Victory.escort,
    "day_of_black_sun": Victory.battle_points,
    "siege_of_ba_sing_se": Victory.battle_points,
    "four_kingdoms_melee": Victory.battle_points,
    "the_pursuit": Victory.pursuit,
    "avatar_duel": Victory.duel,
}
EVENT_EFFECTS = set(EFFECTS)
OBJECTIVE_KINDS = {"reach", "hold", "defeat"}


def impassable(s: Scenario) -> shapely.Geometry:
    return shapely.union_all([shapely.Polygon(t.polygon) for t in s.terrain if t.impassable])


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_every_shipped_scenario_validates(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["validate", str(path)], capsys)
    assert code == 0, err
    assert out.strip() == f"{path}: ok"
    assert load_scenario(path).name == path.stem


def test_list_scenarios_shows_at_least_8(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["list", "scenarios"], capsys)
    assert code == 0
    names = [line.split("\t")[0] for line in out.splitlines()]
    assert len(names) >= 8
    assert set(EXPECTED) <= set(names)


@pytest.mark.parametrize(("name", "victory"), sorted(EXPECTED.items()))
def test_r_t4_each_scenario_has_its_victory_turn_limit_and_a_varied_board(
    name: str, victory: Victory
) -> None:
    s = find_scenario(name)
    assert s.victory is victory
    # the Pursuit's clock is its Tracking path: its turn limit is only a safety cap (R-X3)
    assert 1 <= s.turns <= (30 if victory is Victory.pursuit else 12)
    assert s.description
    assert s.board.width >= 30 and s.board.height >= 30
    covers = {t.cover for t in s.terrain}
    assert len(s.terrain) >= 6
    assert any(t.impassable for t in s.terrain), "something to go around"
    assert any(t.blocks_sight for t in s.terrain), "something to hide behind"
    assert len(covers - {Cover.none}) >= 2 or (Cover.dense in covers and any(t.height for t in s.terrain))


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_r_m2_each_side_has_room_to_deploy_its_default_troupe(path: Path) -> None:
    s = load_scenario(path)
    blocked = impassable(s)
    for i, side in enumerate(s.sides):
        assert side.troupe is not None
        troupe = find_troupe(side.troupe)
        zone = shapely.union_all([shapely.Polygon(z.polygon) for z in s.deployment if z.player == i])
        free = zone.difference(blocked)
        need = sum(e.count * math.pi * (e.profile.base / 2) ** 2 for e in troupe.models)
        assert free.area >= 4 * need, f"{side.name} has {free.area:.0f} sq in for {need:.0f}"
        largest = max(e.profile.base for e in troupe.models)
        assert free.buffer(-largest / 2).area > 0, f"{side.name}: the largest base does not fit"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_r_e3_scoring_zones_and_deployment_zones_lie_on_open_ground(path: Path) -> None:
    s = load_scenario(path)
    blocked = impassable(s)
    for z in [*s.scoring.zones, *s.deployment]:
        poly = shapely.Polygon(z.polygon)
        assert poly.difference(blocked).area >= 0.5 * poly.area, f"{z.name} is mostly impassable"


def test_open_battle_keeps_its_name_sides_and_zones() -> None:
    s = find_scenario("open_battle")
    assert [side.name for side in s.sides] == ["avatar", "fire_nation"]
    assert [(z.name, z.player) for z in s.deployment] == [("south", 0), ("north", 1)]


def test_escort_names_a_model_of_the_escorting_side_and_an_edge() -> None:
    s = find_scenario("escort_the_avatar")
    sides = {side.name: side for side in s.sides}
    escort_side = sides[str(s.special["escort_side"])]
    troupe = find_troupe(str(escort_side.troupe))
    assert s.special["escort_model"] in {e.profile.name for e in troupe.models}
    assert s.special["exit_edge"] in {"north", "south", "east", "west"}
    # The escorting side deploys away from the exit edge (north is y = board height).
    player = s.sides.index(escort_side)
    ys = [y for z in s.deployment if z.player == player for _, y in z.polygon]
    assert max(ys) < s.board.height / 2


def test_day_of_black_sun_silences_firebending_on_turns_2_and_3() -> None:
    s = find_scenario("day_of_black_sun")
    assert s.special["no_bending_element"] == "fire"
    assert s.special["no_bending_turns"] == [2, 3]
    assert all(1 <= t <= s.turns for t in s.special["no_bending_turns"])  # type: ignore[union-attr]
    fire = find_troupe(str(s.sides[1].troupe))
    assert any(e.profile.elements and e.profile.elements[0].value == "fire" for e in fire.models)


def test_siege_walls_are_impassable_and_the_breach_is_open() -> None:
    s = find_scenario("siege_of_ba_sing_se")
    terrain = {t.name: t for t in s.terrain}
    walls = s.special["walls"]
    assert isinstance(walls, list) and walls
    for w in walls:
        assert terrain[w].impassable and terrain[w].blocks_sight
    breach = terrain[str(s.special["breach"])]
    assert not breach.impassable
    # The wall (with its gaps) spans the table: only the breach and the ladder gaps let models through.
    wall = shapely.union_all([shapely.Polygon(terrain[w].polygon) for w in walls])
    line = shapely.LineString([(0, 29.5), (s.board.width, 29.5)])
    gaps = line.difference(wall)
    assert gaps.length >= 6 - 1e-9
    assert {side.name for side in s.sides} == {s.special["attacker_side"], s.special["defender_side"]}


def test_four_kingdoms_melee_is_a_four_way_free_for_all() -> None:
    s = find_scenario("four_kingdoms_melee")
    assert len(s.sides) == 4
    assert len({z.player for z in s.deployment}) == 4
    assert all(side.team == -1 for side in s.sides)
    kingdoms = {find_troupe(str(side.troupe)).kingdom for side in s.sides}
    assert len(kingdoms) == 4
    assert s.special["free_for_all"] is True


def test_r_x3_the_pursuit_defines_tracking_events_objectives_and_a_bot_side() -> None:
    s = find_scenario("the_pursuit")
    sp = s.special
    assert isinstance(sp["tracking_length"], int) and sp["tracking_length"] > sp["tracking_start"]  # type: ignore[operator]
    sides = {side.name: side for side in s.sides}
    adversary_side = sides[str(sp["adversary_side"])]
    assert adversary_side.bot == "heuristic"
    hero_side = sides[str(sp["hero_side"])]
    assert hero_side.bot is None and hero_side.team != adversary_side.team
    adversaries = {e.profile.name for e in find_troupe(str(adversary_side.troupe)).models}
    heroes = [e.profile.name for e in find_troupe(str(hero_side.troupe)).models]
    assert sp["hero_order"] == heroes and 1 <= len(heroes) <= 4
    assert sp["hero_ko"] == "stun"

    deck = sp["event_deck"]
    assert isinstance(deck, list) and len(deck) >= 8
    names = set()
    for card in deck:
        name, effect, amount = card.split(":")
        assert effect in EVENT_EFFECTS and int(amount) >= 0
        names.add(name)
    assert len(names) == len(deck), "card names are unique"
    assert any(c.split(":")[1] == "tracking" for c in deck)
    assert all(isinstance(t, int) for t in sp["events_extra_at"])  # type: ignore[union-attr]

    zones = {z.name for z in s.scoring.zones}
    objectives = sp["objectives"]
    assert isinstance(objectives, list) and len(objectives) >= 2
    for obj in objectives:
        _, kind, target, *rest = obj.split(":")
        assert kind in OBJECTIVE_KINDS
        assert target in (adversaries if kind == "defeat" else zones)
        if kind == "hold":
            assert int(rest[0]) >= 1

    abilities = sp["adversary_abilities"]
    assert isinstance(abilities, list)
    parsed = [a.split(":") for a in abilities]
    for model, trigger, effect, amount in parsed:
        assert model in adversaries and trigger in TRIGGERS and effect in EVENT_EFFECTS and int(amount) > 0
    # the source's "loses 2 Health" of 10, scaled to these heroes' 5 (docs/scenarios.md)
    assert ["prince_zuko", "on_tracking", "hurt_active", "1"] in parsed
    assert set(sp["adversary_stack"]) <= adversaries  # type: ignore[arg-type]


def test_r_x1_r_x2_the_duel_pits_aang_against_a_past_avatar() -> None:
    s = find_scenario("avatar_duel")
    assert len(s.sides) == 2
    troupes = [find_troupe(str(side.troupe)) for side in s.sides]
    assert [t.model_count() for t in troupes] == [1, 1]
    assert troupes[0].models[0].profile.name == "aang"
    assert s.special["weakness_cycle"] is True and s.special["reactions"] is True
    pairs = {tuple(p.split(":")) for p in s.special["weakness_pairs"]}  # type: ignore[union-attr]
    assert pairs == {("water", "fire"), ("fire", "water"), ("air", "earth"), ("earth", "air")}
    challengers = s.special["challengers"]
    assert isinstance(challengers, list) and s.sides[1].troupe in challengers
    for name in challengers:
        assert "past_avatar" in find_troupe(name).models[0].profile.keywords
