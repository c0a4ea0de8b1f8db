"""Issue 16 item 7: rulings settled (docs/rules.md) — deployment in base contact (R-M3), the
two-hand +1 only with the two-hand weapon (R-C4), Taking Cover's Wall Shield in melee (option
`cover_shield_in_melee`, R-M4/R-C4) and one person fielding two troupes (R-T3: two allied seats)."""

from __future__ import annotations

from helpers_engine import (
    advance_to,
    assert_illegal,
    keep_only,
    m,
    new_game,
    place,
    scenario,
    troupe,
    with_profile,
)

from skirmish.data.scenario import Side
from skirmish.engine.core.actions import Deploy, EndStep, Shoot, TakeCover
from skirmish.engine.game import Game
from skirmish.engine.steps.melee import melee_score


# ----------------------------------------------------------------- R-M3: no contact at deployment
def _shared_zone_game() -> Game:
    """Open Battle with both deployment zones on the same strip, so enemies can be placed touching."""
    sc = scenario("open_battle")
    strip = [[0.0, 0.0], [48.0, 0.0], [48.0, 16.0], [0.0, 16.0]]
    sc = sc.model_copy(
        update={"deployment": [z.model_copy(update={"polygon": strip}) for z in sc.deployment]}
    )
    return Game(sc, [troupe(s.troupe) for s in sc.sides], seed=1)


def test_r_m3_a_model_deployed_in_base_contact_with_an_enemy_is_refused() -> None:
    g = _shared_zone_game()
    assert g.state.step == "deploy" and g.state.active_player == 0
    zuko = m(g, "p1.zuko")
    zx, zy = map(float, g.state.xy[zuko.index])
    touching = (zx, zy + 1.0)  # centres one diameter apart: the bases touch
    for at in (touching, (zx, zy + 1.005)):
        assert_illegal(g, Deploy("p0.aang", at), "R-M3", "base contact with prince zuko")
    # A hair beyond contact is fine, and so is touching a friend.
    free = (2.0, 2.0)
    g.apply(Deploy("p0.aang", (zx, zy + 1.05)))
    g.apply(Deploy("p0.katara", free))
    g.apply(Deploy("p0.sokka", (3.0, 2.0)))  # in contact with Katara, an ally
    assert g.distance(m(g, "p0.katara"), m(g, "p0.sokka")) <= 0.01


def test_r_m3_auto_deployment_never_puts_enemies_in_contact() -> None:
    g = _shared_zone_game()
    d = g.distances()
    for a in g.state.models:
        for b in g.state.models:
            if g.enemies(a, b):
                assert d[a.index, b.index] > 0.01


# ----------------------------------------------------------------- R-C4: two-hand +1 with that weapon
def _melee_of(weapons: list[str]) -> tuple[int, list[str]]:
    tr = with_profile(troupe("kyoshi_warriors"), "kyoshi_warrior", weapons=weapons)
    g = new_game(troupes=[tr, troupe("zuko_hunting_party")])
    keep_only(g, ["p0.kyoshi_warrior_1", "p1.fire_soldier_1"])
    place(g, {"p0.kyoshi_warrior_1": (10.0, 10.0), "p1.fire_soldier_1": (10.0, 11.0)})
    w, foe = m(g, "p0.kyoshi_warrior_1"), m(g, "p1.fire_soldier_1")
    score = melee_score(g, w, [foe], 0)
    return score.base_total, [mod.name for mod in score.modifiers]


def test_r_c4_two_hand_bonus_only_when_fighting_with_the_two_hand_weapon() -> None:
    total, mods = _melee_of(["war_fans"])
    assert "two hand weapons" in mods
    # A War Hammer (2 damage) is the weapon fought with: the fans' +1 does not apply.
    total_hammer, mods_hammer = _melee_of(["war_fans", "war_hammer"])
    assert "two hand weapons" not in mods_hammer and total_hammer == total - 1
    # Equal damage: the pair of hand weapons is chosen (it is strictly better), with its +1.
    _, mods_katana = _melee_of(["katana", "war_fans"])
    assert "two hand weapons" in mods_katana


def test_r_c4_melee_hits_with_the_weapon_whose_bonus_counts() -> None:
    from skirmish.engine.core.state import melee_weapon

    tr = with_profile(troupe("kyoshi_warriors"), "kyoshi_warrior", weapons=["war_fans", "war_hammer"])
    g = new_game(troupes=[tr, troupe("zuko_hunting_party")])
    w = m(g, "p0.kyoshi_warrior_1")
    weapon = melee_weapon(w, g.armoury(w))
    assert weapon is not None and weapon.name == "war_hammer" and not weapon.two_hand


# ----------------------------------------------------------------- R-M4/R-C4: cover_shield_in_melee
def _charge_into_cover(**opts: bool) -> Game:
    g = new_game(options=opts or None)
    keep_only(g, ["p0.sokka", "p1.iroh"])
    # Iroh (no shield) stands in the old ruins (medium) from the start of the Move Phase.
    place(g, {"p1.iroh": (31.0, 31.0), "p0.sokka": (31.0, 25.0)})
    advance_to(g, "take_cover", 1)
    g.apply(TakeCover("p1.iroh"))
    return g


def test_r_m4_taking_cover_wall_shield_gives_attackers_the_shield_minus_one_by_default() -> None:
    g = _charge_into_cover()
    sokka, iroh = m(g, "p0.sokka"), m(g, "p1.iroh")
    assert iroh.taking_cover and iroh.profile.shield is None
    assert "enemy has a shield" in [x.name for x in melee_score(g, sokka, [iroh], 0).modifiers]
    # Iroh's own score is not touched: Sokka carries no shield.
    assert "enemy has a shield" not in [x.name for x in melee_score(g, iroh, [sokka], 0).modifiers]


def test_r_m4_option_off_the_wall_shield_is_only_a_save() -> None:
    g = _charge_into_cover(cover_shield_in_melee=False)
    sokka, iroh = m(g, "p0.sokka"), m(g, "p1.iroh")
    assert "enemy has a shield" not in [x.name for x in melee_score(g, sokka, [iroh], 0).modifiers]


def test_r_m4_option_is_a_rule_option_with_the_file_checks() -> None:
    from skirmish.data.options import RuleOptions

    assert RuleOptions().cover_shield_in_melee is True
    assert RuleOptions().with_overrides({"cover_shield_in_melee": False}).cover_shield_in_melee is False


# ----------------------------------------------------------------- R-T3: two troupes, two allied seats
def _two_troupes_for_one_player() -> Game:
    """Open Battle where the Avatar's player brings Team Avatar and the Kyoshi Warriors: two seats
    on team 0 (the ruling), sharing the south edge, against the Fire Nation on team 1."""
    sc = scenario("open_battle")
    south, north = sc.deployment
    west = south.model_copy(update={"player": 0, "polygon": [[0, 0], [24, 0], [24, 8], [0, 8]]})
    east = south.model_copy(
        update={"name": "south_east", "player": 1, "polygon": [[24, 0], [48, 0], [48, 8], [24, 8]]}
    )
    sides = [
        Side(name="avatar", team=0, troupe="team_avatar"),
        Side(name="kyoshi", team=0, troupe="kyoshi_warriors"),
        Side(name="fire_nation", team=1, troupe="zuko_hunting_party"),
    ]
    sc = sc.model_copy(
        update={"sides": sides, "deployment": [west, east, north.model_copy(update={"player": 2})]}
    )
    return Game(sc, [troupe(s.troupe) for s in sides], seed=3)


def test_r_t3_one_player_fields_two_troupes_as_two_allied_seats() -> None:
    g = _two_troupes_for_one_player()
    aang, suki, zuko = m(g, "p0.aang"), m(g, "p1.suki"), m(g, "p2.zuko")
    assert not g.enemies(aang, suki) and g.enemies(aang, zuko) and g.enemies(suki, zuko)
    advance_to(g, "movement", 0)
    # Each troupe rolls its own AP bonus and moves all its models before the next troupe (R-M1, R-M2).
    rolls = [e for e in g.log if "bonus AP" in e.text]
    assert len(rolls) == 3
    advance_to(g, "movement", 1)
    assert g.state.order.index(0) < g.state.order.index(1) < g.state.order.index(2)
    # Allies never shoot each other.
    place(g, {"p0.sokka": (20.0, 20.0), "p1.suki": (20.0, 24.0)})
    advance_to(g, "shooting", 0)
    assert_illegal(g, Shoot("p0.sokka", "p1.suki", "boomerang"), "R-C1", "not an enemy")
    g.apply(EndStep())
