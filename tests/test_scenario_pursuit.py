"""The Pursuit (R-X3) on its shipped board with its shipped heroes and adversaries.

Every event card, adversary ability, objective kind and victory condition is forced: the test
stacks the Fire Nation deck (`extra["pursuit"]["deck"]`, card indices, top first), sets Tracking,
takes the models it does not need off the table and forces dice where dice decide.
"""

from __future__ import annotations

import json

import pytest
from helpers_engine import advance_to, events, keep_only, m, new_game, place

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario
from skirmish.data.errors import DataError
from skirmish.engine.actions import Decline, EndStep, Shoot
from skirmish.engine.damage import inflict
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps, parse_replay, verify
from skirmish.engine.scenarios_pursuit import PursuitRules, parse_config

HEROES = ["p0.aang", "p0.katara", "p0.sokka", "p0.appa"]
SPECIAL = find_scenario("the_pursuit").special


def card(name: str) -> int:
    """Index of a shipped event card by name."""
    return next(i for i, text in enumerate(SPECIAL["event_deck"]) if text.startswith(name + ":"))


def pursuit(
    keep: list[str] | None = None,
    deck: list[str] | None = None,
    tracking: int | None = None,
    **update: object,
) -> Game:
    g = new_game("the_pursuit", **update)
    if keep is not None:
        keep_only(g, keep, sentinels=[])
    st = g.state.extra["pursuit"]
    if deck is not None:
        st["deck"] = [card(c) for c in deck]
    if tracking is not None:
        st["tracking"] = tracking
    return g


def rules(g: Game) -> PursuitRules:
    assert isinstance(g.rules, PursuitRules)
    return g.rules


def st(g: Game) -> dict:
    return g.state.extra["pursuit"]


def start_turn(g: Game, turn: int = 1) -> None:
    """Pass until `turn` has begun (its event cards and abilities resolved) and heroes may move."""
    advance_to(g, "movement", turn=turn)


def pass_turn(g: Game) -> None:
    turn = g.turn
    while not g.over and g.turn == turn:
        g.apply(EndStep() if g.state.pending is None else Decline())


# ----------------------------------------------------------------- the event deck
def test_r_x3_event_card_tracking_adds_tracking() -> None:
    g = pursuit(keep=HEROES, deck=["find_the_avatar"])
    start_turn(g)
    assert st(g)["tracking"] == 1 + 2
    assert [e.data["card"] for e in events(g, "event_card")] == ["find_the_avatar"]
    assert "1 -> 3 of 12" in events(g, "tracking")[-1].text


def test_r_x3_event_card_hurt_active_takes_hp_from_the_active_hero_only() -> None:
    g = pursuit(keep=HEROES, deck=["fire_blade"])
    start_turn(g)
    assert st(g)["active"] == "p0.aang"
    assert [m(g, h).hp for h in HEROES] == [4, 5, 5, 6]


def test_r_x3_event_card_hurt_all_takes_hp_from_every_hero() -> None:
    g = pursuit(keep=HEROES, deck=["burning_village"])
    start_turn(g)
    assert [m(g, h).hp for h in HEROES] == [4, 4, 4, 5]
    assert len(events(g, "hurt")) == 4


def test_r_x3_event_card_reinforce_returns_kod_soldiers_to_the_adversaries_zone() -> None:
    g = pursuit(deck=["patrol_ships"])
    soldiers = [x for x in g.state.models if x.profile.name == "fire_soldier"]
    for s in soldiers:
        s.ko = s.removed = True
        g.state.extra.setdefault("ko_by", {})[s.id] = 0
    g.moved()
    start_turn(g)
    back = [s for s in soldiers if s.active]
    assert [s.id for s in back] == [soldiers[0].id, soldiers[1].id]  # Patrol Ships: up to 2
    for s in back:
        x, y = g.state.xy[s.index]
        assert 10 < x < 38 and 34 < y < 48 and s.hp == s.profile.hp
        assert s.id not in g.state.extra["ko_by"]
    others = [o for o in g.state.models if o.on_table and o not in back]
    for s in back:
        assert all(g.distance(s, o) > 0 for o in others)
    assert "return to the fight" in events(g, "reinforce")[-1].text
    g = pursuit(keep=HEROES + ["p1.prince_zuko"], deck=["fire_nation_reinforcements"])
    start_turn(g)
    assert [x.id for x in g.state.models if x.active and x.player == 1] == [
        "p1.prince_zuko",
        "p1.fire_soldier_1",
    ]
    assert "returns to the fight" in events(g, "reinforce")[-1].text  # Zuko is unique: only soldiers return


def test_r_x3_event_card_reinforce_with_nobody_down_does_nothing() -> None:
    g = pursuit(deck=["fire_nation_reinforcements"])
    start_turn(g)
    assert "no fallen soldier" in events(g, "reinforce")[-1].text


def test_r_x3_event_card_drain_ap_lowers_every_heros_ap_this_turn() -> None:
    g = pursuit(keep=HEROES, deck=["ambush_at_dawn"])
    g.dice.force(2, 2)  # the AP bonus rolls of both players
    start_turn(g)
    assert [m(g, h).ap for h in HEROES] == [3 + 2 - 1, 3 + 2 - 1, 2 + 2 - 1, 2 + 2 - 1]


def test_r_x3_event_card_calm_changes_nothing() -> None:
    g = pursuit(keep=HEROES, deck=["quiet_waters"])
    start_turn(g)
    assert st(g)["tracking"] == 1 and [m(g, h).hp for h in HEROES] == [5, 5, 5, 6]
    assert events(g, "calm")


def test_r_x3_every_shipped_card_effect_is_known() -> None:
    cfg = parse_config(find_scenario("the_pursuit"))
    assert {c.effect for c in cfg.deck} == {
        "tracking",
        "hurt_active",
        "hurt_all",
        "reinforce",
        "drain_ap",
        "calm",
    }


def test_r_x3_more_cards_are_drawn_at_the_tracking_thresholds() -> None:
    for tracking, drawn in ((5, 1), (6, 2), (10, 3)):
        g = pursuit(keep=HEROES, deck=["quiet_waters", "quiet_waters", "quiet_waters"], tracking=tracking)
        start_turn(g)
        assert len(events(g, "event_card")) == drawn, tracking


def test_r_x3_deck_is_shuffled_with_the_games_dice_and_reshuffled_when_empty() -> None:
    a, b, c = pursuit(keep=HEROES), pursuit(keep=HEROES), pursuit(keep=HEROES, seed=2)
    for g in (a, b, c):
        start_turn(g)
    n = len(SPECIAL["event_deck"])
    order = [*st(a)["discard"], *st(a)["deck"]]
    assert sorted(order) == list(range(n))
    assert order == [*st(b)["discard"], *st(b)["deck"]]  # same seed, same deck
    assert order != [*st(c)["discard"], *st(c)["deck"]]
    shuffles = [r for r in a.dice.history if r.purpose == "shuffle the Fire Nation deck"]
    assert [r.sides for r in shuffles] == list(range(n, 1, -1))  # Fisher-Yates: D10, D9, ... D2
    g = pursuit(keep=HEROES)
    st(g)["deck"], st(g)["discard"] = [], [card("fire_blade"), card("quiet_waters")]
    start_turn(g)
    assert events(g, "shuffle") and sorted([*st(g)["deck"], *st(g)["discard"]]) == sorted(
        [card("fire_blade"), card("quiet_waters")]
    )


# ----------------------------------------------------------------- adversary abilities
def test_r_x3_zuko_whenever_tracking_is_added_the_active_hero_loses_2_hp() -> None:
    g = pursuit(keep=HEROES + ["p1.prince_zuko"], deck=["find_the_avatar"])
    start_turn(g)
    assert st(g)["tracking"] == 3
    assert m(g, "p0.aang").hp == 5 - 2  # once for the card's 2 Tracking, not once per point
    assert [e.data["ability"] for e in events(g, "adversary_ability")] == ["prince_zuko:on_tracking"]


def test_r_x3_zuko_does_not_trigger_on_tracking_removed_or_when_kod() -> None:
    g = pursuit(keep=HEROES, deck=["find_the_avatar"])
    start_turn(g)
    assert m(g, "p0.aang").hp == 5  # Zuko is off the table
    g = pursuit(keep=HEROES + ["p1.prince_zuko"], deck=["quiet_waters"])
    start_turn(g)
    rules(g).add_tracking(-1, "a test")
    assert m(g, "p0.aang").hp == 5


def test_r_x3_ship_adds_one_tracking_every_turn_while_afloat() -> None:
    g = pursuit(keep=HEROES + ["p1.fire_nation_ship"], deck=["quiet_waters", "quiet_waters"])
    start_turn(g)
    assert st(g)["tracking"] == 2
    m(g, "p1.fire_nation_ship").ko = True
    pass_turn(g)
    assert st(g)["tracking"] == 2


def test_r_x3_ship_and_zuko_together_hurt_the_active_hero_every_turn() -> None:
    g = pursuit(
        keep=HEROES + ["p1.prince_zuko", "p1.fire_nation_ship"], deck=["quiet_waters", "quiet_waters"]
    )
    start_turn(g)
    assert m(g, "p0.aang").hp == 3
    pass_turn(g)
    assert st(g)["active"] == "p0.katara" and m(g, "p0.katara").hp == 3


# ----------------------------------------------------------------- active hero and stun
def test_r_x3_active_hero_rotates_in_hero_order_skipping_absent_heroes() -> None:
    g = pursuit(keep=["p0.aang", "p0.sokka", "p0.appa"], deck=["quiet_waters"] * 4)
    seen = []
    for turn in (1, 2, 3, 4):
        start_turn(g, turn)
        seen.append(st(g)["active"])
        pass_turn(g)
    assert seen == ["p0.aang", "p0.sokka", "p0.appa", "p0.aang"]


def test_r_x3_hero_at_0_hp_is_stunned_not_kod_and_recovers_at_turn_end() -> None:
    g = pursuit(keep=HEROES + ["p1.prince_zuko"], deck=["fire_blade", "quiet_waters"])
    m(g, "p0.aang").hp = 1
    start_turn(g)
    aang = m(g, "p0.aang")
    assert aang.active and not aang.ko and aang.ap == 0
    assert st(g)["stunned"] == ["p0.aang"]
    assert st(g)["tracking"] == 1 + 1  # stun_tracking
    assert events(g, "stun")
    # Zuko's ability triggered by the stun's Tracking finds Aang stunned: no more Health lost
    assert "cannot lose Health" in events(g, "stunned")[-1].text
    assert inflict(g, aang, 3, shield_breaker=True, by=m(g, "p1.prince_zuko"), source="a test") is None
    pass_turn(g)
    assert aang.hp == aang.profile.hp and st(g)["stunned"] == []


def test_r_x3_hero_hit_to_0_hp_by_a_shot_is_stunned() -> None:
    g = pursuit(keep=HEROES + ["p1.prince_zuko"], deck=["quiet_waters"])
    start_turn(g)
    katara = m(g, "p0.katara")
    inflict(g, katara, 9, shield_breaker=True, by=m(g, "p1.prince_zuko"), source="a test")
    assert not katara.ko and katara.active and "p0.katara" in st(g)["stunned"]
    assert "ko_by" not in g.state.extra or "p0.katara" not in g.state.extra["ko_by"]
    assert st(g)["tracking"] == 2 and m(g, "p0.aang").hp == 3  # Zuko hurt the active hero for the stun


def test_r_x3_hero_ko_rule_ko_variant_kos_heroes() -> None:
    g = pursuit(keep=HEROES, deck=["fire_blade"], special={**SPECIAL, "hero_ko": "ko"})
    m(g, "p0.aang").hp = 1
    start_turn(g)
    assert m(g, "p0.aang").ko


# ----------------------------------------------------------------- objectives
def test_r_x3_objectives_are_revealed_one_at_a_time_in_story_order() -> None:
    g = pursuit(keep=HEROES, deck=["quiet_waters"] * 3)
    start_turn(g)
    assert [e.data["objective"] for e in events(g, "objective")] == ["visit_the_southern_air_temple"]
    place(g, {"p0.katara": (40.0, 22.0)})  # in Kyoshi Village: not the revealed objective yet
    pass_turn(g)
    assert st(g)["completed"] == [] and st(g)["hold"] == 0


def test_r_x3_reach_objective_completes_when_a_hero_ends_the_turn_in_the_zone() -> None:
    g = pursuit(keep=HEROES, deck=["quiet_waters"] * 3, tracking=4)
    start_turn(g)
    place(g, {"p0.aang": (6.0, 33.5)})
    pass_turn(g)
    assert st(g)["completed"] == ["visit_the_southern_air_temple"]
    assert st(g)["tracking"] == 4 - 1  # objective_reward_tracking
    revealed = [e.data["objective"] for e in events(g, "objective") if "revealed" in e.text]
    assert revealed == ["visit_the_southern_air_temple", "protect_kyoshi_village"]


def test_r_x3_hold_objective_needs_consecutive_turns_without_adversaries() -> None:
    g = pursuit(keep=HEROES + ["p1.fire_soldier_1"], deck=["quiet_waters"] * 6)
    st(g)["objective"], st(g)["revealed"] = 1, 1  # the air temple is done
    start_turn(g)
    place(g, {"p0.katara": (40.0, 20.0), "p1.fire_soldier_1": (30.0, 44.0)})
    pass_turn(g)
    assert st(g)["hold"] == 1
    place(g, {"p1.fire_soldier_1": (37.0, 25.0)})  # an adversary in the village: contested
    pass_turn(g)
    assert st(g)["hold"] == 0
    m(g, "p1.fire_soldier_1").removed = True
    g.moved()
    pass_turn(g)
    pass_turn(g)
    assert st(g)["completed"] == ["protect_kyoshi_village"]


def test_r_x3_defeat_objective_completes_when_its_adversary_is_kod() -> None:
    g = pursuit(keep=HEROES + ["p1.fire_nation_ship", "p1.prince_zuko"], deck=["quiet_waters"] * 2)
    st(g)["objective"], st(g)["revealed"] = 2, 2
    start_turn(g)
    inflict(g, m(g, "p1.fire_nation_ship"), 99, shield_breaker=True, by=m(g, "p0.katara"), source="a test")
    pass_turn(g)
    assert st(g)["completed"] == ["sink_the_fire_nation_ship"]
    assert not g.over  # Zuko still stands: every adversary must be defeated


# ----------------------------------------------------------------- winning and losing
def test_r_x3_heroes_win_with_forced_dice_by_sinking_the_ship_last() -> None:
    """The last objective and the last adversary: Katara's Water Lash sinks the ship (dice forced)."""
    g = pursuit(keep=["p0.katara", "p1.fire_nation_ship"], deck=["quiet_waters"])
    st(g)["objective"], st(g)["revealed"] = 2, 2
    ship = m(g, "p1.fire_nation_ship")
    ship.hp = 1
    place(g, {"p0.katara": (24.0, 34.0), ship.id: (24.0, 41.0)})
    advance_to(g, "shooting", 0, turn=1)
    g.dice.force(6, 1, 1, 1, 1)  # hit; every save and dodge fails
    g.apply(Shoot("p0.katara", ship.id, "water_lash"))
    assert ship.ko
    pass_turn(g)
    assert g.over and g.state.winning_team == g.state.players[0].team
    assert "every objective is complete and every adversary is defeated" in g.state.result_reason


def test_r_x3_game_plays_on_when_the_adversaries_are_down_but_objectives_remain() -> None:
    g = pursuit(keep=HEROES, deck=["quiet_waters"] * 2)
    start_turn(g)
    pass_turn(g)
    assert not g.over and g.turn == 2


def test_r_x3_heroes_lose_at_once_when_tracking_reaches_its_end() -> None:
    g = pursuit(keep=HEROES, deck=["find_the_avatar"], tracking=10)
    g.apply(EndStep())  # deployment ends; turn 1's card is drawn as the turn begins
    assert g.over and g.turn == 1 and g.state.step == "ap_roll"
    assert g.state.winning_team == g.state.players[1].team
    assert "Tracking reached 12" in g.state.result_reason


def test_r_x3_heroes_lose_when_a_stun_pushes_tracking_to_its_end() -> None:
    g = pursuit(keep=HEROES + ["p1.prince_zuko"], deck=["quiet_waters"], tracking=11)
    start_turn(g)
    inflict(g, m(g, "p0.sokka"), 9, shield_breaker=True, by=m(g, "p1.prince_zuko"), source="a test")
    assert g.over and g.state.winning_team == g.state.players[1].team


def test_r_x3_heroes_lose_at_the_turn_limit() -> None:
    g = pursuit(keep=HEROES, deck=["quiet_waters"], turns=1)
    start_turn(g)
    pass_turn(g)
    assert g.over and g.state.winning_team == g.state.players[1].team
    assert "ran out of time" in g.log[-1].text


# ----------------------------------------------------------------- data and replays
@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("event_deck", ["bad_card:explode:1"], "special.event_deck[0]"),
        ("event_deck", ["no_amount:tracking"], "special.event_deck[0]"),
        ("adversary_abilities", ["prince_zuko:sometimes:tracking:1"], "special.adversary_abilities[0]"),
        ("adversary_abilities", ["azula:each_turn:tracking:1"], "special.adversary_abilities[0]"),
        ("objectives", ["go:reach:ba_sing_se"], "special.objectives[0]"),
        ("objectives", ["win:defeat:ozai"], "special.objectives[0]"),
        ("tracking_start", 20, "special.tracking_start"),
        ("hero_ko", "explode", "special.hero_ko"),
        ("hero_side", "villains", "special.hero_side"),
    ],
)
def test_r_x3_bad_pursuit_keys_are_refused_naming_the_key(key: str, value: object, fragment: str) -> None:
    with pytest.raises(DataError) as info:
        new_game("the_pursuit", special={**SPECIAL, key: value})
    assert fragment in "\n".join(map(str, info.value.problems))


def test_r_x3_bot_game_replays_to_the_same_hash() -> None:
    policies = ["heuristic", "heuristic"]
    g = new_game("the_pursuit", seed=5, turns=3)
    g = Game(g.scenario, g.troupes, seed=5, bots=policies)
    play_out(g, seat_bots(g, policies))
    assert g.over and events(g, "event_card")
    ok, why = verify(parse_replay(json.loads(dumps(g)), "pursuit"))
    assert ok, why
