"""The Pursuit (R-X3, Box 1 of Aang's Destiny) on its shipped board with its shipped heroes and adversaries.

Every event card, adversary ability, reward, objective kind and victory condition is forced: the
test stacks the Fire Nation deck (`extra["pursuit"]["deck"]`, card indices, top first) and the
adversary stack (`extra["pursuit"]["stack"]`, model ids, top first), chooses the one active
adversary, sets Tracking, takes the models it does not need off the table and forces dice where
dice decide.
"""

from __future__ import annotations

import json

import pytest
from helpers_engine import advance_to, events, keep_only, m, new_game, place

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario
from skirmish.data.errors import DataError
from skirmish.engine.core.actions import Decline, EndStep, Shoot, TakeCover
from skirmish.engine.effects.damage import inflict
from skirmish.engine.effects.placing import free_spot
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps, parse_replay, verify
from skirmish.engine.scenarios import PursuitRules, parse_config
from skirmish.rules.dice import Dice

HEROES = ["p0.aang", "p0.katara", "p0.sokka", "p0.appa"]
SPECIAL = find_scenario("the_pursuit").special


def card(name: str) -> int:
    """Index of a shipped event card by name."""
    return next(i for i, text in enumerate(SPECIAL["event_deck"]) if text.startswith(name + ":"))


ZUKO, SHIP = "p1.prince_zuko", "p1.fire_nation_ship"
SOLDIERS = ["p1.fire_soldier_1", "p1.fire_soldier_2", "p1.fire_soldier_3"]


def pursuit(
    keep: list[str] | None = None,
    deck: list[str] | None = None,
    tracking: int | None = None,
    adversary: str | None = None,
    stack: list[str] | None = None,
    **update: object,
) -> Game:
    """A Pursuit at deployment; with `keep`, only those heroes, `adversary` the one active adversary
    (None: nobody on the table) and `stack` the adversaries still face down (default: none)."""
    g = new_game("the_pursuit", **update)
    st = g.state.extra["pursuit"]
    if keep is not None:
        keep_only(g, keep, sentinels=[])
        for x in g.state.models:
            if x.player == 1:
                x.removed = True
        st["stack"] = list(stack or [])
        if adversary is not None:
            a = m(g, adversary)
            a.removed = False
            g.state.xy[a.index] = free_spot(g, a)
        g.moved()
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
    assert st(g)["last_cards"] == ["Find The Avatar: add 2 Tracking"]


def test_r_x3_event_card_hurt_active_takes_hp_from_the_active_hero_only() -> None:
    g = pursuit(keep=HEROES, deck=["cold_winds"])
    start_turn(g)
    assert st(g)["active"] == "p0.aang"
    assert [m(g, h).hp for h in HEROES] == [4, 5, 5, 6]


def test_r_x3_event_card_hurt_all_takes_hp_from_every_hero() -> None:
    g = pursuit(keep=HEROES, deck=["burning_village"])
    start_turn(g)
    assert [m(g, h).hp for h in HEROES] == [4, 4, 4, 5]
    assert len(events(g, "hurt")) == 4


def test_r_x3_discard_cards_lower_ap_this_turn() -> None:
    g = pursuit(keep=HEROES, deck=["ambush_at_dawn"])
    g.dice.force(2, 2)  # the AP bonus rolls of both players
    start_turn(g)
    assert [m(g, h).ap for h in HEROES] == [3 + 2 - 1, 3 + 2 - 1, 2 + 2 - 1, 2 + 2 - 1]
    g = pursuit(keep=HEROES, deck=["fire_blade"])
    g.dice.force(2, 2)
    start_turn(g)
    assert [m(g, h).ap for h in HEROES] == [3 + 2 - 1, 3 + 2, 2 + 2, 2 + 2]  # the active hero only


def test_r_x3_event_card_calm_changes_nothing() -> None:
    g = pursuit(keep=HEROES, deck=["quiet_waters"])
    start_turn(g)
    assert st(g)["tracking"] == 1 and [m(g, h).hp for h in HEROES] == [5, 5, 5, 6]
    assert events(g, "calm")


def test_r_x3_box_1_has_no_reinforcements_and_every_card_is_said_in_words() -> None:
    cfg = parse_config(find_scenario("the_pursuit"))
    assert "reinforce" not in {c.effect for c in cfg.deck}  # the source's Box 1 has none
    for c in cfg.deck:
        assert c.effect not in c.words() and "_" not in c.words(), c
    for a in cfg.abilities:
        assert a.words().startswith("Each time an effect"), a


def test_r_x3_reinforce_returns_a_defeated_soldier_to_the_bottom_of_the_stack() -> None:
    special = {**SPECIAL, "event_deck": ["patrol_ships:reinforce:2"]}
    g = pursuit(keep=HEROES, adversary=ZUKO, stack=[SHIP], special=special)
    st(g)["deck"] = [0]
    st(g)["defeated"] = [SOLDIERS[0], ZUKO]
    m(g, SOLDIERS[0]).ko = True
    start_turn(g)
    assert st(g)["stack"] == [SHIP, SOLDIERS[0]]  # Zuko is unique: only soldiers return
    assert "back in the adversary stack" in events(g, "reinforce")[-1].text


def test_r_x3_more_cards_are_drawn_as_tracking_stood_at_the_start_of_the_turn() -> None:
    for tracking, drawn in ((1, 1), (2, 2), (5, 2), (6, 3), (9, 4)):
        g = pursuit(keep=HEROES, deck=["quiet_waters"] * 4, tracking=tracking)
        start_turn(g)
        assert len(events(g, "event_card")) == drawn, tracking
    # Find the Avatar moves the token from 1 to 3 on the first card: still one card this turn
    g = pursuit(keep=HEROES, deck=["find_the_avatar", "quiet_waters"], tracking=1)
    start_turn(g)
    assert len(events(g, "event_card")) == 1 and st(g)["tracking"] == 3


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


# ----------------------------------------------------------------- one active adversary
def test_r_x3_one_adversary_is_active_at_a_time_from_a_seeded_shuffled_stack() -> None:
    sc = find_scenario("the_pursuit")
    troupes = new_game("the_pursuit").troupes
    # Fisher-Yates over [Zuko, soldier 1-3, ship]: D5..D2 all rolling their highest keep the order
    g = Game(sc, troupes, dice=Dice.forced([5, 4, 3, 2], strict=False))
    assert [x.id for x in rules(g).active_adversaries()] == [ZUKO]
    assert st(g)["stack"] == [*SOLDIERS, SHIP]
    assert all(m(g, x).removed and not m(g, x).ko for x in st(g)["stack"])
    # all 1s: each pick swaps with the first, and soldier 1 comes out on top
    g = Game(sc, troupes, dice=Dice.forced([1, 1, 1, 1], strict=False))
    assert [x.id for x in rules(g).active_adversaries()] == [SOLDIERS[0]]
    assert st(g)["stack"] == [SOLDIERS[1], SOLDIERS[2], SHIP, ZUKO]
    rolls = [r for r in g.dice.history if r.purpose == "shuffle the adversary stack"]
    assert [r.sides for r in rolls] == [5, 4, 3, 2]
    assert "A new adversary is revealed: Fire Nation Soldier" in events(g, "adversary")[0].text


def test_r_x3_a_fallen_adversary_gives_its_reward_at_once_and_is_replaced_at_the_end_of_the_turn() -> None:
    g = pursuit(keep=["p0.katara"], adversary=ZUKO, stack=[SHIP], deck=["quiet_waters"], tracking=5)
    zuko = m(g, ZUKO)
    zuko.hp = 1
    place(g, {"p0.katara": (24.0, 30.0), ZUKO: (24.0, 36.0)})
    advance_to(g, "shooting", 0, turn=1)
    g.dice.force(6, 1, 1)  # Katara hits; Zuko's dodge and armour save fail
    g.apply(Shoot("p0.katara", ZUKO, "water_lash"))
    assert zuko.ko and st(g)["defeated"] == [ZUKO]
    assert st(g)["tracking"] == 5 - 2  # Zuko's reward: remove 2 Tracking, at once
    assert "Reward for defeating Prince Zuko" in events(g, "reward")[-1].text
    assert m(g, SHIP).removed and not rules(g).active_adversaries()  # not yet: at the end of the turn
    pass_turn(g)
    assert [x.id for x in rules(g).active_adversaries()] == [SHIP] and st(g)["stack"] == []


def test_r_x3_ship_reward_heals_every_hero() -> None:
    g = pursuit(keep=HEROES, adversary=SHIP, deck=["quiet_waters"])
    m(g, "p0.sokka").hp = 2
    start_turn(g)
    inflict(g, m(g, SHIP), 99, shield_breaker=True, by=m(g, "p0.sokka"), source="a test")
    assert m(g, "p0.sokka").hp == 3


# ----------------------------------------------------------------- adversary abilities
def test_r_x3_zuko_each_time_tracking_is_added_the_active_hero_loses_1_health() -> None:
    g = pursuit(keep=HEROES, adversary=ZUKO, deck=["find_the_avatar"])
    start_turn(g)
    assert st(g)["tracking"] == 3
    assert m(g, "p0.aang").hp == 5 - 1  # once for the card's 2 Tracking, not once per point
    assert [e.data["ability"] for e in events(g, "adversary_ability")] == ["prince_zuko:on_tracking"]
    assert "Each time an effect adds any number of Tracking" in events(g, "adversary_ability")[0].text


def test_r_x3_only_the_active_adversarys_ability_applies() -> None:
    g = pursuit(keep=HEROES, adversary=SOLDIERS[0], stack=[ZUKO], deck=["find_the_avatar"])
    start_turn(g)
    assert m(g, "p0.aang").hp == 5  # Zuko waits in the stack
    g = pursuit(keep=HEROES, adversary=ZUKO, deck=["quiet_waters"])
    start_turn(g)
    rules(g).add_tracking(-1, "a test")
    assert m(g, "p0.aang").hp == 5  # removing Tracking does not trigger him


def test_r_x3_soldier_each_time_a_hero_discards_the_active_hero_loses_1_health() -> None:
    g = pursuit(keep=HEROES, adversary=SOLDIERS[1], deck=["ambush_at_dawn"])
    start_turn(g)
    assert [m(g, h).hp for h in HEROES] == [4, 5, 5, 6]  # once per effect
    assert [e.data["ability"] for e in events(g, "adversary_ability")] == ["fire_soldier:on_discard"]


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
    g = pursuit(keep=HEROES, adversary=ZUKO, deck=["cold_winds", "quiet_waters"])
    m(g, "p0.aang").hp = 1
    start_turn(g)
    aang = m(g, "p0.aang")
    assert aang.active and not aang.ko and aang.ap == 0
    assert st(g)["stunned"] == ["p0.aang"]
    assert st(g)["tracking"] == 1 + 1  # stun_tracking
    assert events(g, "stun")
    # Zuko's ability triggered by the stun's Tracking finds Aang stunned: no more Health lost
    assert "cannot lose Health" in events(g, "stunned")[-1].text
    assert inflict(g, aang, 3, shield_breaker=True, by=m(g, ZUKO), source="a test") is None
    pass_turn(g)
    assert aang.hp == aang.profile.hp and st(g)["stunned"] == []


def test_r_x3_hero_hit_to_0_hp_by_a_shot_is_stunned() -> None:
    g = pursuit(keep=HEROES, adversary=ZUKO, deck=["quiet_waters"])
    start_turn(g)
    katara = m(g, "p0.katara")
    inflict(g, katara, 9, shield_breaker=True, by=m(g, ZUKO), source="a test")
    assert not katara.ko and katara.active and "p0.katara" in st(g)["stunned"]
    assert "ko_by" not in g.state.extra or "p0.katara" not in g.state.extra["ko_by"]
    assert st(g)["tracking"] == 2 and m(g, "p0.aang").hp == 4  # Zuko hurt the active hero for the stun


def test_r_x3_hero_ko_rule_ko_variant_kos_heroes() -> None:
    g = pursuit(keep=HEROES, deck=["cold_winds"], special={**SPECIAL, "hero_ko": "ko"})
    m(g, "p0.aang").hp = 1
    start_turn(g)
    assert m(g, "p0.aang").ko


# ----------------------------------------------------------------- objectives and relief
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
    assert st(g)["tracking"] == 4 - 2  # objective_reward_tracking
    revealed = [e.data["objective"] for e in events(g, "objective") if "revealed" in e.text]
    assert revealed == ["visit_the_southern_air_temple", "protect_kyoshi_village"]


def test_r_x3_hold_objective_needs_consecutive_turns_without_adversaries() -> None:
    g = pursuit(keep=HEROES, adversary=SOLDIERS[0], deck=["quiet_waters"] * 6)
    st(g)["objective"], st(g)["revealed"] = 1, 1  # the air temple is done
    start_turn(g)
    place(g, {"p0.katara": (40.0, 20.0), SOLDIERS[0]: (30.0, 44.0)})
    pass_turn(g)
    assert st(g)["hold"] == 1
    place(g, {SOLDIERS[0]: (37.0, 25.0)})  # an adversary in the village: contested
    pass_turn(g)
    assert st(g)["hold"] == 0
    m(g, SOLDIERS[0]).removed = True
    g.moved()
    pass_turn(g)
    pass_turn(g)
    assert st(g)["completed"] == ["protect_kyoshi_village"]


def test_r_x3_defeat_objective_counts_an_adversary_defeated_before_it_was_revealed() -> None:
    g = pursuit(keep=HEROES, adversary=SHIP, deck=["quiet_waters"] * 2)
    st(g)["objective"], st(g)["revealed"] = 2, 2
    st(g)["defeated"] = [ZUKO]
    start_turn(g)
    pass_turn(g)
    assert st(g)["completed"] == ["escape_prince_zuko"]
    assert not g.over  # the ship still stands: every adversary must be defeated


def test_r_x3_a_hero_laying_low_in_cover_lowers_tracking_once_a_turn() -> None:
    g = pursuit(keep=HEROES, adversary=SHIP, deck=["quiet_waters"] * 2, tracking=6)
    place(g, {"p0.sokka": (42.0, 32.0), "p0.katara": (40.0, 30.0), SHIP: (16.0, 42.0)})  # Kyoshi forest
    advance_to(g, "take_cover", 0, turn=1)
    g.apply(TakeCover("p0.sokka"))
    g.apply(TakeCover("p0.katara"))
    pass_turn(g)
    assert st(g)["tracking"] == 6 - 1  # two heroes laid low, Tracking moves once
    assert [e.text for e in events(g, "tracking") if "lays low" in e.text] == [
        "Katara lays low in cover removes 1 Tracking: 6 -> 5 of 12"  # the first in hero order
    ]


def test_r_x3_laying_low_costs_the_turn_a_hero_that_fires_does_not_lay_low() -> None:
    g = pursuit(keep=HEROES, adversary=SHIP, deck=["quiet_waters"] * 2, tracking=6)
    place(g, {"p0.sokka": (42.0, 32.0), SHIP: (16.0, 42.0)})
    advance_to(g, "take_cover", 0, turn=1)
    g.apply(TakeCover("p0.sokka"))
    m(g, "p0.sokka").fired = True  # as if its free weapon had been used from cover
    pass_turn(g)
    assert st(g)["tracking"] == 6


# ----------------------------------------------------------------- winning and losing
def test_r_x3_heroes_win_with_forced_dice_by_sinking_the_last_adversary() -> None:
    """The last objective and the last adversary: Katara's Water Lash sinks the ship (dice forced)."""
    g = pursuit(keep=["p0.katara"], adversary=SHIP, deck=["quiet_waters"])
    st(g)["objective"] = st(g)["revealed"] = 3
    ship = m(g, SHIP)
    ship.hp = 1
    place(g, {"p0.katara": (24.0, 34.0), ship.id: (24.0, 41.0)})
    advance_to(g, "shooting", 0, turn=1)
    g.dice.force(6, 1, 1, 1, 1)  # hit; every save and dodge fails
    g.apply(Shoot("p0.katara", ship.id, "water_lash"))
    assert ship.ko
    pass_turn(g)
    assert g.over and g.state.winning_team == g.state.players[0].team
    assert "every objective is complete and every adversary is defeated" in g.state.result_reason


def test_r_x3_game_plays_on_while_the_stack_holds_adversaries() -> None:
    g = pursuit(keep=HEROES, stack=[ZUKO], deck=["quiet_waters"] * 2)
    st(g)["objective"] = st(g)["revealed"] = 3
    start_turn(g)
    pass_turn(g)
    assert not g.over and [x.id for x in rules(g).active_adversaries()] == [ZUKO]


def test_r_x3_heroes_lose_at_once_when_tracking_reaches_its_end() -> None:
    g = pursuit(keep=HEROES, deck=["find_the_avatar"], tracking=10)
    g.apply(EndStep())  # deployment ends; turn 1's card is drawn as the turn begins
    assert g.over and g.turn == 1 and g.state.step == "ap_roll"
    assert g.state.winning_team == g.state.players[1].team
    assert "Tracking reached 12" in g.state.result_reason


def test_r_x3_heroes_lose_when_a_stun_pushes_tracking_to_its_end() -> None:
    g = pursuit(keep=HEROES, adversary=ZUKO, deck=["quiet_waters"], tracking=11)
    start_turn(g)
    inflict(g, m(g, "p0.sokka"), 9, shield_breaker=True, by=m(g, ZUKO), source="a test")
    assert g.over and g.state.winning_team == g.state.players[1].team


def test_r_x3_the_safety_cap_is_a_draw_and_says_so() -> None:
    g = pursuit(keep=HEROES, adversary=SHIP, deck=["quiet_waters"], turns=1)
    start_turn(g)
    pass_turn(g)
    assert g.over and g.state.winning_team is None
    assert "safety cap of 1 turns was reached: a draw" in g.log[-1].text


def test_r_x3_status_lines_say_the_pursuit_in_words() -> None:
    g = pursuit(keep=HEROES, adversary=ZUKO, stack=[SHIP], deck=["find_the_avatar"])
    start_turn(g)
    lines = rules(g).status_lines()
    assert lines[0].startswith("Tracking 3 of 12")
    assert "Active hero: Aang" in lines
    assert any(
        "Adversary: Prince Zuko" in x and "the active hero loses 1 Health" in x and "1 more" in x
        for x in lines
    )
    assert any(x.startswith("Objective 1 of 3: Visit the southern air temple") for x in lines)
    assert lines[-1] == "Fire Nation cards: Find The Avatar: add 2 Tracking"
    assert not any("hurt_active" in x or "air_temple" in x for x in lines)


# ----------------------------------------------------------------- data and replays
@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("event_deck", ["bad_card:explode:1"], "special.event_deck[0]"),
        ("event_deck", ["no_amount:tracking"], "special.event_deck[0]"),
        ("adversary_abilities", ["prince_zuko:sometimes:tracking:1"], "special.adversary_abilities[0]"),
        ("adversary_abilities", ["ozai:each_turn:tracking:1"], "special.adversary_abilities[0]"),
        ("adversary_rewards", ["prince_zuko:tracking"], "special.adversary_rewards[0]"),
        ("adversary_stack", ["ozai"], "special.adversary_stack[0]"),
        ("adversary_stack", ["prince_zuko", "prince_zuko"], "special.adversary_stack"),
        ("objectives", ["go:reach:the_capital"], "special.objectives[0]"),
        ("objectives", ["win:defeat:ozai"], "special.objectives[0]"),
        ("tracking_start", 20, "special.tracking_start"),
        ("lay_low_tracking", 2, "special.lay_low_tracking"),
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
    g = new_game("the_pursuit", seed=5, turns=4)
    g = Game(g.scenario, g.troupes, seed=5, bots=policies)
    play_out(g, seat_bots(g, policies))
    assert g.over and events(g, "event_card")
    ok, why = verify(parse_replay(json.loads(dumps(g)), "pursuit"))
    assert ok, why


# ----------------------------------------------------------------- the troupe tester: fixed roles
def test_r_x3_fixed_roles_keep_a_on_the_heroes_side_and_the_game_driving_the_adversaries() -> None:
    from skirmish.sim.games import Matchup, Plan

    sc = find_scenario("the_pursuit")
    assert sc.fixed_roles
    g = new_game("the_pursuit")
    plan = Plan(sc, (Matchup(g.troupes[0], g.troupes[1], "a", "b"),), sc.options, 4)
    assert [plan.a_side(i) for i in range(4)] == [0, 0, 0, 0]  # no side swap
    assert plan.policies(1) == ["heuristic", "heuristic"]
    random_b = Plan(sc, plan.matchups, sc.options, 4, policy_b="random")
    assert random_b.policies(1) == ["heuristic", "heuristic"]  # the game drives the adversaries itself
    open_battle = new_game("open_battle")
    other = Plan(open_battle.scenario, plan.matchups, sc.options, 4)
    assert [other.a_side(i) for i in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("side", ["heroes", "adversaries"])
def test_r_x3_test_troupes_compare_works_for_a_variant_of_either_side(
    side: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skirmish.cli.main import main
    from skirmish.data.catalogue import content_root

    name = "pursuit_heroes" if side == "heroes" else "pursuit_adversaries"
    text = (content_root() / "troupes" / f"{name}.toml").read_text(encoding="utf-8")
    variant = tmp_path / f"{name}_variant.toml"
    variant.write_text(text.replace(f'name = "{name}"', f'name = "{name}_variant"', 1), encoding="utf-8")
    argv = ["test-troupes", "pursuit_heroes", "pursuit_adversaries", "--scenario", "the_pursuit"]
    argv += ["--games", "2", "--seed", "4", "--workers", "1", "--json", "--compare", str(variant)]
    try:
        main(argv)
    except SystemExit as exc:
        assert exc.code in (0, None), capsys.readouterr().err
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["compare"]["games"] == 2
    # an unchanged variant plays the very same games: no difference
    assert report["compare"]["win_rate"] == report["win_rate_a"] and report["compare"]["difference"] == 0
