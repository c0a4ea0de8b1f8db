"""Scenario special rules and victory conditions (R-T4, R-E3, R-X1, R-X2) on the shipped boards.

Each victory condition and special rule is forced on its real scenario with its real troupes:
models not in the situation are taken off the table, the others stood where the situation needs
them, dice forced where dice decide. The Pursuit (R-X3) has its own file.
"""

from __future__ import annotations

import pytest
from helpers_engine import (
    advance_to,
    assert_illegal,
    events,
    keep_only,
    m,
    new_game,
    place,
    troupe,
    with_profile,
)

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe, shipped
from skirmish.data.errors import DataError
from skirmish.data.scenario import Victory
from skirmish.engine.core.actions import Decline, EndStep, Move, React, Shoot, UseAbility
from skirmish.engine.effects.damage import inflict
from skirmish.engine.game import Game
from skirmish.engine.scenarios import VICTORY, DuelRules, EscortRules, PursuitRules, ScenarioSpecials
from skirmish.engine.steps.shooting import shot_scores, shot_specs

SCENARIOS = [p.stem for p in shipped("scenarios")]
MAX_TURNS = 4
"""Bot games are cut to this many turns so the whole matrix stays fast; every rule still plays."""


# ----------------------------------------------------------------- every scenario plays to a result
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", SCENARIOS)
def test_r_t4_every_shipped_scenario_plays_to_a_result_with_bots(name: str, seed: int) -> None:
    sc = find_scenario(name)
    sc = sc.model_copy(update={"turns": min(sc.turns, MAX_TURNS)})
    policies = [side.bot or "heuristic" for side in sc.sides]
    game = Game(
        sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, bots=policies, record_log=False
    )
    play_out(game, seat_bots(game, policies))
    result = game.result()
    assert game.over and result["reason"]
    assert 1 <= result["turns"] <= sc.turns
    teams = {p.team for p in game.state.players}
    assert game.state.winning_team is None or game.state.winning_team in teams
    if name == "four_kingdoms_melee" and game.state.winning_team is not None:
        assert result["winner"] is not None  # every side is its own team: one player wins, not an alliance


def test_r_t4_rules_are_chosen_by_victory_and_special_keys() -> None:
    assert type(new_game("escort_the_avatar").rules) is EscortRules
    assert type(new_game("avatar_duel").rules) is DuelRules
    assert type(new_game("day_of_black_sun").rules) is ScenarioSpecials
    assert type(new_game("open_battle").rules) is ScenarioSpecials
    assert type(new_game("the_pursuit").rules) is PursuitRules


def test_r_t4_the_registry_names_rules_for_every_victory_kind() -> None:
    """`scenarios.registry.VICTORY` is the one list of victory kinds: it must cover the data layer's."""
    assert set(VICTORY) == set(Victory)
    assert all(issubclass(rules, ScenarioSpecials) for rules in VICTORY.values())  # the eclipse everywhere


# ----------------------------------------------------------------- escort
def _escort_game(**update: object) -> Game:
    g = new_game("escort_the_avatar", **update)
    keep_only(g, ["p0.aang", "p0.katara", "p1.zuko"], sentinels=[])
    place(g, {"p0.aang": (24.0, 44.0), "p0.katara": (20.0, 4.0), "p1.zuko": (4.0, 28.0)})
    return g


def _end_step(g: Game) -> None:
    """Every player passes the current step (the scenario's checks run when the next step begins)."""
    step, turn = g.state.step, g.turn
    while not g.over and g.state.step == step and g.turn == turn:
        g.apply(EndStep() if g.state.pending is None else Decline())


def test_r_t4_escort_model_leaving_by_the_exit_edge_wins_at_once() -> None:
    g = _escort_game()
    advance_to(g, "movement", 0, turn=1)
    g.apply(Move("p0.aang", ((24.0, 44.0), (24.0, 47.5))))
    g.apply(EndStep())
    assert not g.over and g.state.step == "movement"  # the hunters still move in this step
    g.apply(EndStep())
    assert g.over and g.state.step == "take_cover" and g.turn == 1
    assert g.state.winning_team == g.state.players[0].team
    assert "escaped by the north edge" in g.state.result_reason
    assert events(g, "escort")


def test_r_t4_escort_model_short_of_the_edge_does_not_win() -> None:
    g = _escort_game()
    advance_to(g, "movement", 0, turn=1)
    g.apply(Move("p0.aang", ((24.0, 44.0), (24.0, 46.5))))
    _end_step(g)
    assert not g.over  # the turn goes on (here straight to turn 2: nobody can shoot or charge)


def test_r_t4_escort_model_kod_wins_for_the_other_side() -> None:
    g = _escort_game()
    advance_to(g, "movement", 0, turn=1)
    inflict(g, m(g, "p0.aang"), 99, shield_breaker=True, by=m(g, "p1.zuko"), source="a forced blow")
    _end_step(g)
    assert g.over and g.turn == 1
    assert g.state.winning_team == g.state.players[1].team
    assert "KO'd before escaping" in g.state.result_reason


def test_r_t4_escort_turn_limit_without_an_exit_goes_to_the_hunters() -> None:
    g = _escort_game(turns=1)
    advance_to(g, "movement", 0, turn=1)
    for _ in range(100):
        if g.over:
            break
        g.apply(EndStep() if g.state.pending is None else Decline())
    assert g.over and g.state.winning_team == g.state.players[1].team
    assert "did not escape" in g.log[-1].text


def test_r_t4_escort_side_wins_when_no_hunter_is_left() -> None:
    g = _escort_game()
    keep_only(g, ["p0.aang", "p0.katara"], sentinels=[])
    g.apply(EndStep())  # deployment ends; the check runs as turn 1 begins
    assert g.over and g.turn == 1 and g.state.winning_team == g.state.players[0].team
    assert "no enemy is left" in g.state.result_reason


def test_escort_keys_are_checked_when_the_game_starts() -> None:
    with pytest.raises(DataError) as info:
        new_game(
            "escort_the_avatar",
            special={"escort_model": "appa_the_second", "escort_side": "avatar", "exit_edge": "up"},
        )
    text = "\n".join(map(str, info.value.problems))
    assert "special.exit_edge" in text


# ----------------------------------------------------------------- the Day of Black Sun
ZHAO_WITH_BOW = with_profile(troupe("fire_nation_army"), "zhao", weapons=["sword", "fire_jab", "bow"])
"""Shipped Zhao with a bow as well, so he still has a (non-bending) shot in the eclipse and the
step waits for him: then his firebending can be tried and refused."""


def _black_sun() -> Game:
    g = new_game("day_of_black_sun", troupes=[troupe("team_avatar"), ZHAO_WITH_BOW])
    keep_only(g, ["p0.aang", "p1.zhao"], sentinels=[])
    place(g, {"p0.aang": (24.0, 20.0), "p1.zhao": (24.0, 26.0)})
    return g


def _to_fire_shooting(g: Game, turn: int) -> None:
    advance_to(g, "shooting", 1, turn=turn)


def test_black_sun_firebending_works_before_the_eclipse() -> None:
    g = _black_sun()
    assert g.rules.eclipse_turns == frozenset({2, 3})
    _to_fire_shooting(g, 1)
    zhao = m(g, "p1.zhao")
    assert {s.name for s in shot_specs(g, zhao)} >= {"fire_jab", "fire_blast"}
    legal = g.legal_actions()
    assert Shoot("p1.zhao", "p0.aang", "fire_jab") in legal
    assert UseAbility("p1.zhao", "burn_the_cover", target="p0.aang") in legal


@pytest.mark.parametrize("turn", [2, 3])
def test_black_sun_blocks_firebending_weapons_and_abilities_on_its_turns(turn: int) -> None:
    g = _black_sun()
    _to_fire_shooting(g, turn)
    zhao = m(g, "p1.zhao")
    assert [s.name for s in shot_specs(g, zhao)] == ["bow"]  # fire_jab and fire_blast are both fire
    assert [a for a in g.legal_actions() if isinstance(a, Shoot | UseAbility)] == [
        Shoot("p1.zhao", "p0.aang", "bow")
    ]
    assert_illegal(g, Shoot("p1.zhao", "p0.aang", "fire_jab"), "R-P4")
    assert_illegal(g, Shoot("p1.zhao", "p0.aang", "fire_blast"), "R-P4")
    assert_illegal(g, UseAbility("p1.zhao", "burn_the_cover", target="p0.aang"), "R-P4")
    assert any("eclipse begins" in e.text for e in events(g, "eclipse"))


def test_black_sun_other_elements_still_bend_during_the_eclipse() -> None:
    g = _black_sun()
    advance_to(g, "shooting", 0, turn=2)
    assert Shoot("p0.aang", "p1.zhao", "air_swipe") in g.legal_actions()


def test_black_sun_firebending_returns_after_the_eclipse() -> None:
    g = _black_sun()
    _to_fire_shooting(g, 4)
    assert Shoot("p1.zhao", "p0.aang", "fire_jab") in g.legal_actions()
    assert any("eclipse ends" in e.text for e in events(g, "eclipse"))


def test_black_sun_eclipse_blocks_fire_reactions_too() -> None:
    """The eclipse keys work on any scenario: here Roku cannot Flame Reflect in the dark."""
    special = {"no_bending_element": "fire", "no_bending_turns": [1]}
    g = new_game("avatar_duel", special=special, victory=Victory.last_standing)
    place(g, {"p0.aang": (18.0, 10.0), "p1.roku": (18.0, 16.0)})
    advance_to(g, "shooting", 0, turn=1)
    g.apply(Shoot("p0.aang", "p1.roku", "air_swipe"))
    pending = g.legal_actions()
    assert React("p1.roku", "flame_reflect") not in pending
    assert React("p1.roku", "water_deflect") in pending


def test_black_sun_bad_keys_are_refused() -> None:
    with pytest.raises(DataError) as info:
        new_game("day_of_black_sun", special={"no_bending_element": "plasma", "no_bending_turns": [0]})
    text = "\n".join(map(str, info.value.problems))
    assert "special.no_bending_element" in text and "special.no_bending_turns" in text


# ----------------------------------------------------------------- bending outside the Duel (R-X1, R-X2)
def _duel(challenger: str = "avatar_roku") -> Game:
    """The duel's arena and Avatars played as a plain battle (the standard turn): the weakness cycle
    and the AP reactions of every scenario but the Duel (which plays Avatar War's techniques)."""
    g = new_game(
        "avatar_duel",
        troupes=[troupe("aang_avatar_state"), troupe(challenger)],
        victory=Victory.last_standing,
        special={},
    )
    foe = next(x for x in g.state.models if x.player == 1)
    place(g, {"p0.aang": (18.0, 10.0), foe.id: (18.0, 16.0)})
    return g


def test_r_x1_bending_weakness_cycle_gives_plus_one_to_the_element_the_target_is_weak_to() -> None:
    g = _duel()
    aang, roku = m(g, "p0.aang"), m(g, "p1.roku")
    advance_to(g, "shooting", 0, turn=1)
    specs = {s.name: s for s in shot_specs(g, aang)}
    water, _ = shot_scores(g, aang, roku, specs["water_whip"])
    air, _ = shot_scores(g, aang, roku, specs["air_swipe"])
    assert ("water against fire", 1) in [(x.name, x.value) for x in water.modifiers]
    assert water.base_total == air.base_total + 1 + specs["water_whip"].bonus - specs["air_swipe"].bonus
    fire, _ = shot_scores(g, roku, aang, {s.name: s for s in shot_specs(g, roku)}["fire_jab"])
    assert not [x for x in fire.modifiers if "against" in x.name]  # fire is not what air is weak to


def test_r_x2_bending_block_stops_an_attack_of_equal_or_lower_power() -> None:
    g = _duel()
    advance_to(g, "shooting", 1, turn=1)
    rolls = len(g.dice.history)
    g.apply(Shoot("p1.roku", "p0.aang", "fire_jab"))
    assert g.state.pending is not None and g.state.pending.kind == "reaction"
    assert React("p0.aang", "stone_block") in g.legal_actions()
    g.apply(React("p0.aang", "stone_block"))
    assert "blocks" in events(g, "reaction")[-1].text
    assert m(g, "p0.aang").hp == 6 and len(g.dice.history) == rolls  # no die: the attack is stopped


def test_r_x2_bending_block_cannot_stop_a_stronger_attack() -> None:
    g = _duel()
    advance_to(g, "shooting", 1, turn=1)
    g.apply(Shoot("p1.roku", "p0.aang", "lightning"))  # power 2 > Stone Block's 1
    options = g.legal_actions()
    assert React("p0.aang", "stone_block") not in options
    assert React("p0.aang", "air_shield") in options


def test_r_x2_bending_deflect_stops_any_attack_but_the_weak_element() -> None:
    g = _duel()
    advance_to(g, "shooting", 1, turn=1)
    g.apply(Shoot("p1.roku", "p0.aang", "lightning"))
    g.apply(React("p0.aang", "air_shield"))
    assert "deflects" in events(g, "reaction")[-1].text and m(g, "p0.aang").hp == 6
    k = _duel("avatar_kyoshi")
    advance_to(k, "shooting", 1, turn=1)
    k.apply(Shoot("p1.kyoshi", "p0.aang", "rock_fist"))  # earth: the element air is weak to
    options = k.legal_actions()
    assert React("p0.aang", "air_shield") not in options
    assert React("p0.aang", "stone_block") in options


def test_r_x2_bending_reflect_turns_the_attack_back_on_the_attacker() -> None:
    g = _duel()
    advance_to(g, "shooting", 0, turn=1)
    g.apply(Shoot("p0.aang", "p1.roku", "fire_blast"))
    assert React("p1.roku", "flame_reflect") in g.legal_actions()
    start = len(g.dice.history)
    g.dice.force(6, 1)  # Roku's reflected shot rolls 6, Aang dodges 1; Fire Blast is Shield Breaker: no save
    g.apply(React("p1.roku", "flame_reflect"))
    assert "turns" in events(g, "reaction")[-1].text
    shot = events(g, "shot")[-1]
    assert shot.text.startswith("Avatar Roku fires Fire Blast") and "hit" in shot.text
    assert [r.value for r in g.dice.history[start : start + 2]] == [6, 1]
    assert m(g, "p0.aang").hp == 5 and m(g, "p1.roku").hp == 6


def test_r_x2_bending_airborne_attacker_is_blocked_only_by_an_airborne_defender() -> None:
    g = _duel("avatar_yangchen")
    advance_to(g, "movement", 1, turn=1)
    g.apply(UseAbility("p1.yangchen", "air_glide"))
    advance_to(g, "shooting", 1, turn=1)
    g.apply(Shoot("p1.yangchen", "p0.aang", "air_swipe"))
    options = g.legal_actions()
    assert React("p0.aang", "stone_block") not in options  # Aang stands on the ground
    grounded = _duel("avatar_yangchen")
    advance_to(grounded, "shooting", 1, turn=1)
    grounded.apply(Shoot("p1.yangchen", "p0.aang", "air_swipe"))
    assert React("p0.aang", "stone_block") in grounded.legal_actions()


def test_r_x1_option_weakness_cycle_off_drops_the_plus_one() -> None:
    g = _duel()
    g.options = g.options.with_overrides({"weakness_cycle": False})
    aang, roku = m(g, "p0.aang"), m(g, "p1.roku")
    advance_to(g, "shooting", 0, turn=1)
    water, _ = shot_scores(g, aang, roku, {s.name: s for s in shot_specs(g, aang)}["water_whip"])
    assert not [x for x in water.modifiers if "against" in x.name]


def test_r_x2_option_bending_reactions_off_offers_no_reaction() -> None:
    on, off = _duel(), _duel()
    off.options = off.options.with_overrides({"bending_reactions": False})
    for g in (on, off):
        advance_to(g, "shooting", 1, turn=1)
        g.apply(Shoot("p1.roku", "p0.aang", "fire_jab"))
    assert on.state.pending is not None and on.state.pending.kind == "reaction"
    assert off.state.pending is None and events(off, "shot")


def test_r_x2_bending_bots_use_the_reactions() -> None:
    sc = find_scenario("avatar_duel").model_copy(update={"victory": Victory.last_standing, "special": {}})
    game = Game(sc, [troupe("aang_avatar_state"), troupe("avatar_roku")], seed=1, bots=["heuristic"] * 2)
    play_out(game, seat_bots(game, ["heuristic"] * 2))
    reactions = events(game, "reaction")
    assert reactions, "the bots never reacted"
    assert {"deflects", "turns"} & {w for e in reactions for w in e.text.split()}


# ----------------------------------------------------------------- deployment
def test_r_t1_auto_deploy_fits_a_big_base_in_a_zone_one_base_deep() -> None:
    """A zone 2.5" deep takes Appa's 2.4" base (it used to need a zone deeper than 4 radii)."""
    sc = find_scenario("open_battle")
    zones = [
        z.model_copy(update={"polygon": [[10, 0], [38, 0], [38, 2.5], [10, 2.5]]}) if z.player == 0 else z
        for z in sc.deployment
    ]
    g = Game(
        sc.model_copy(update={"deployment": zones}), [troupe("team_avatar"), troupe("zuko_hunting_party")]
    )
    appa = m(g, "p0.appa")
    y = float(g.state.xy[appa.index, 1])
    assert 1.2 < y < 1.3
    for x in g.player_models(0):
        r = float(g.state.radii[x.index])
        assert r < g.state.xy[x.index, 1] < 2.5 - r + 1e-6
