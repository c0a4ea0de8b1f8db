"""Rules points found in review, each played on the real open_battle table (see docs/rules.md rulings)."""

from __future__ import annotations

from helpers_engine import advance_past, advance_to, keep_only, m, new_game, place, scenario, troupe

from skirmish.data.scenario import Side, Zone
from skirmish.engine.core.actions import Move, Shoot, UseAbility
from skirmish.engine.game import Game
from skirmish.engine.steps.movement import flies
from skirmish.engine.steps.shooting import shot_scores, shot_specs


def test_r_b4_glide_lasts_for_the_move_only_then_cover_counts() -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p1.zuko"])
    place(g, {"p0.aang": (30.0, 10.0), "p1.zuko": (37.0, 30.0)})
    advance_to(g, "movement", 0)
    aang = m(g, "p0.aang")
    g.apply(UseAbility("p0.aang", "air_glide"))
    g.apply(Move("p0.aang", ((30.0, 10.0), (36.0, 18.0))))  # into the bamboo grove (dense)
    assert flies(aang)
    advance_to(g, "shooting", 1)
    assert not flies(aang) and g.cover(aang) == 3


def test_r_b4_a_flyer_crosses_impassable_terrain_but_may_not_land_on_it() -> None:
    g = new_game()
    keep_only(g, ["p0.appa", "p1.zuko"])
    place(g, {"p0.appa": (23.5, 9.0), "p1.zuko": (5.0, 45.0)})
    advance_to(g, "movement", 0)
    before = g.hash()
    try:
        g.apply(Move("p0.appa", ((23.5, 9.0), (23.5, 13.5))))  # onto the standing stone
        raise AssertionError("landing on impassable terrain was accepted")
    except ValueError as exc:
        assert "R-B4" in str(exc)
    assert g.hash() == before
    g.apply(Move("p0.appa", ((23.5, 9.0), (23.5, 17.0))))  # over it, landing beyond
    assert tuple(g.state.xy[m(g, "p0.appa").index]) == (23.5, 17.0)


def test_r_b3_seismic_sense_lets_toph_see_but_does_not_reveal_her() -> None:
    g = new_game()
    keep_only(g, ["p0.toph", "p1.zuko"])
    place(g, {"p0.toph": (23.5, 10.5), "p1.zuko": (23.5, 16.5)})  # the standing stone between them
    toph, zuko = m(g, "p0.toph"), m(g, "p1.zuko")
    assert g.sees(toph, zuko) and not g.sees(zuko, toph)


def test_r_e3_a_zone_scores_once_for_allied_players() -> None:
    sc = scenario("open_battle")
    sides = [
        Side(name="avatar", troupe="team_avatar", team=0),
        Side(name="kyoshi", troupe="kyoshi_warriors", team=0),
        Side(name="fire_nation", troupe="zuko_hunting_party", team=1),
    ]
    west = Zone(name="west", player=2, polygon=[[0, 10], [8, 10], [8, 38], [0, 38]])
    sc = sc.model_copy(update={"sides": sides, "deployment": [*sc.deployment, west]})
    g = Game(sc, [troupe("team_avatar"), troupe("kyoshi_warriors"), troupe("zuko_hunting_party")], seed=3)
    a0, k0, f0 = (g.player_models(p)[0].id for p in range(3))
    keep_only(g, [a0, k0, f0])
    place(g, {a0: (23.0, 23.0), k0: (25.5, 25.5), f0: (5.0, 45.0)})
    advance_to(g, "movement", 0)
    advance_past(g, "scoring")
    assert sum(p.battle_points[0] for p in g.state.players) == 1


def test_r_c6_push_aims_like_a_shot_not_into_melee() -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p0.sokka", "p1.zuko"])
    place(g, {"p0.aang": (22.0, 7.0), "p0.sokka": (25.0, 10.0), "p1.zuko": (26.0, 10.0)})
    advance_to(g, "shooting", 0)
    assert UseAbility("p0.aang", "air_blast", target="p1.zuko") not in g.legal_actions()


def test_r_m4_push_at_a_model_taking_cover_needs_a_perception_test() -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p1.zuko"])
    place(g, {"p0.aang": (33.0, 9.0), "p1.zuko": (34.0, 15.0)})  # Zuko in the bamboo grove
    advance_to(g, "shooting", 0)
    m(g, "p1.zuko").taking_cover = True
    g.dice.force(6)  # Aang's Perception is below 6: the test fails and the push is spent
    g.apply(UseAbility("p0.aang", "air_blast", target="p1.zuko"))
    assert [e.kind for e in g.log][-1] == "perception"
    assert tuple(g.state.xy[m(g, "p1.zuko").index]) == (34.0, 15.0)


def test_r_c1_nullified_cover_counts_only_for_the_user_s_shots() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p0.katara", "p1.zuko", "p1.iroh"])
    place(
        g,
        {"p0.sokka": (37.0, 8.0), "p0.katara": (33.0, 8.0), "p1.zuko": (37.0, 16.0), "p1.iroh": (10.0, 44.0)},
    )
    advance_to(g, "shooting", 0)
    sokka, katara, zuko = m(g, "p0.sokka"), m(g, "p0.katara"), m(g, "p1.zuko")
    whip = next(s for s in shot_specs(g, katara) if s.name == "water_whip")
    boomerang = next(s for s in shot_specs(g, sokka) if s.name == "boomerang")
    before = shot_scores(g, katara, zuko, whip)[0].base_total
    g.apply(UseAbility("p0.sokka", "flush_them_out", target="p1.zuko"))
    assert shot_scores(g, katara, zuko, whip)[0].base_total == before
    assert "target in the open" in shot_scores(g, sokka, zuko, boomerang)[0].explain()


def test_r_p5_pinning_throw_makes_a_model_limp_until_the_end_of_its_next_turn() -> None:
    g = new_game(troupes=[troupe("azula_and_agents"), troupe("team_avatar")])
    mai = next(x.id for x in g.player_models(0) if x.profile.name == "mai")
    keep_only(g, [mai, "p1.sokka"])
    place(g, {mai: (30.0, 8.0), "p1.sokka": (30.0, 14.0)})
    advance_to(g, "shooting", 0)
    g.apply(UseAbility(mai, "pinning_throw", target="p1.sokka"))
    sokka = m(g, "p1.sokka")
    assert sokka.limping and m(g, mai).fired
    assert not any(isinstance(a, Shoot) and a.model == mai for a in g.legal_actions())
    advance_to(g, "movement", 1, turn=g.state.turn + 1)
    assert sokka.limping  # its next turn
    advance_to(g, "movement", 1, turn=g.state.turn + 1)
    assert not sokka.limping
