"""The Avatar Duel as Avatar War (R-X1, R-X2): pieces, hidden builds, exchanges, switches, bots.

Situations are set up on the shipped arena with the shipped Avatars: the models stood where the
situation needs them (in sight and 7" apart, in the open), the priority roll switched off so the
order of calls is known, and every build, attack and defence applied through `Game.apply`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers_engine import advance_to, assert_illegal, events, m, new_game, place, troupe
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots.duel_bot import DuelBot, round_payoffs
from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.data.errors import DataError
from skirmish.engine.core.actions import Attack, Build, Decline, Defend, UseAbility
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps, load_replay_text, verify
from skirmish.engine.scenarios.duel import exchange
from skirmish.engine.scenarios.duel.pieces import BuildError, check_build, parse_build, parse_piece
from skirmish.engine.scenarios.duel.templates import TEMPLATES, arms, candidate_texts, realise

ATTACK_LMS = "fire.L.point+water.M.point+earth.S.point"
WALL = "air.L.stand+earth.M.stand+water.S.deflect"


def duel(challenger: str = "avatar_roku", *, seed: int = 1, **special: Any) -> Game:
    """A duel waiting for Aang's build in round 1: Aang at (13, 8), the challenger 7" north, in the open."""
    sc = find_scenario("avatar_duel")
    g = new_game(
        "avatar_duel",
        troupes=[troupe("aang_avatar_state"), troupe(challenger)],
        seed=seed,
        options={"priority_roll": False},
        special={**sc.special, **special},
    )
    foe = next(x for x in g.state.models if x.player == 1)
    place(g, {"p0.aang": (13.0, 8.0), foe.id: (13.0, 16.0)})
    advance_to(g, "build", 0, turn=1)
    return g


def build_both(g: Game, mine: str, theirs: str) -> None:
    foe = next(x for x in g.state.models if x.player == 1)
    g.apply(Build("p0.aang", mine))
    g.apply(Build(foe.id, theirs))


def endurance(g: Game, model: str) -> list[int]:
    return list(g.state.extra["duel"]["endurance"][model])


# ----------------------------------------------------------------- building (R-X2)
@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("fire.L.point", "1 pieces"),
        ("fire.L.point+fire.L.stand", "used twice"),
        ("fire.L.point+water.L.point+earth.L.point+air.L.point+fire.M.point", "5 pieces"),
        ("fire.S.point+fire.M.point / water.S.point+water.M.point / earth.S.point+earth.M.point / "
         "air.S.point+air.M.point / fire.L.point+water.L.point", "at most 4"),
        ("fire.L.point^+water.M.stand", "ungrounded"),
        ("fire.M.stack+water.S.stand", "rest on"),
        ("fire.M.deflect+water.M.deflect+earth.S.stand", "lean on"),
        ("fire.X.point+water.M.stand", "S, M or L"),
        ("lava.L.point+water.M.stand", "element"),
    ],
)  # fmt: skip
def test_r_x2_a_build_that_breaks_the_building_rules_is_refused(text: str, fragment: str) -> None:
    g = duel()
    assert_illegal(g, Build("p0.aang", text), "R-X2", fragment)


def test_r_x2_stacked_standing_pieces_and_native_pieces_are_the_grounded_avatars_ungrounded_ones() -> None:
    g = duel()
    g.apply(Build("p0.aang", "air.L.point^+earth.M.stand"))  # air is Aang's native element
    g.apply(Build("p1.roku", "fire.L.point^+water.L.stand+earth.M.stack"))  # fire is Roku's
    assert g.state.step == "duel"


def test_r_x2_an_airborne_avatar_builds_every_piece_in_the_air() -> None:
    h = new_game(
        "avatar_duel",
        troupes=[troupe("aang_avatar_state"), troupe("avatar_roku")],
        options={"priority_roll": False},
    )
    place(h, {"p0.aang": (13.0, 8.0), "p1.roku": (13.0, 16.0)})
    advance_to(h, "movement", 0, turn=1)
    h.apply(UseAbility("p0.aang", "air_glide"))
    advance_to(h, "build", 0, turn=1)
    assert_illegal(h, Build("p0.aang", "water.L.point^+earth.M.stand"), "R-X2", "in the air")
    h.apply(Build("p0.aang", "water.L.point^+earth.M.stand^"))


def test_r_x2_every_template_is_a_legal_build_in_every_situation() -> None:
    for name, k, v in arms():
        for up in (False, True):
            for airborne in (False, True):
                techs = realise(name, k, v, may_unground=up or airborne, native="air", airborne=airborne)
                assert techs, (name, k, v, up, airborne)
                check_build(
                    techs, may_unground=up or airborne, specials=False, native="air", airborne=airborne
                )
    assert len(TEMPLATES) == 5 and len(candidate_texts(may_unground=False)) > 10


def test_r_x2_the_text_form_of_a_build_round_trips() -> None:
    techs = parse_build("fire.L.point^+earth.M.stack / air.S.deflect+water.S.stand")
    assert [len(t) for t in techs] == [2, 2]
    assert techs[0][0].up and techs[0][1].ungrounded and not techs[1][0].ungrounded
    with pytest.raises(BuildError):
        parse_piece("fire.L.stack^")


# ----------------------------------------------------------------- one exchange (pure)
def _resolve(attack: str, defence: str | None, setting: exchange.Setting | None = None, **kw: Any) -> Any:
    a = parse_build(attack)[0]
    d = parse_build(defence)[0] if defence else None
    args = {
        "cover": 0,
        "target_endurance": frozenset({1, 2, 3}),
        "target_native": None,
        "attacker_endurance": frozenset({1, 2, 3}),
        "attacker_native": None,
    }
    args.update(kw)
    return exchange.resolve(a, d, setting or exchange.Setting(), **args)


def test_r_x2_standing_blocks_its_size_or_smaller_and_both_pieces_are_lost() -> None:
    out = _resolve("water.M.point+fire.S.stand", "earth.M.stand+fire.S.deflect")  # fire cannot deflect water
    assert [s.how for s in out.stops] == ["block"] and out.damage == []
    assert out.lost_attack == {0} and out.lost_defence == {0}
    small = _resolve("fire.L.point+water.S.stand", "earth.M.stand+air.S.stand")
    assert small.damage == [3]  # a medium standing piece cannot stop a large attack


def test_r_x2_deflecting_stops_any_size_except_its_weak_element_and_is_kept() -> None:
    out = _resolve("earth.L.point+water.S.stand", "fire.S.deflect+air.M.stand")
    assert [s.how for s in out.stops] == ["deflect"] and out.lost_defence == set()
    weak = _resolve("water.L.point+air.S.stand", "fire.S.deflect+earth.M.stand")  # fire is weak to water
    assert weak.damage == [3]


def test_r_x2_pointing_reflects_the_same_element_and_size_back_at_the_attacker() -> None:
    out = _resolve("fire.M.point+water.S.stand", "fire.M.point+air.S.stand")
    assert [s.how for s in out.stops] == ["reflect"] and out.reflected_damage == [2]
    other = _resolve("fire.M.point+water.S.stand", "fire.L.point+air.S.stand")
    assert other.damage == [2] and other.reflected_damage == []


def test_r_x2_damage_is_by_size_and_a_size_already_lost_takes_no_more() -> None:
    out = _resolve("fire.L.point+water.L.point+earth.S.point", None, target_endurance=frozenset({1, 2}))
    assert out.damage == [1]  # the large endurance piece is gone: both large attacks do nothing


def test_r_x1_an_attack_of_the_element_the_target_is_weak_to_strikes_one_size_harder() -> None:
    hit = _resolve(
        "water.S.point+air.S.stand", None, target_endurance=frozenset({2, 3}), target_native="fire"
    )
    assert hit.damage == [2]
    plain = _resolve(
        "earth.S.point+air.S.stand", None, target_endurance=frozenset({2, 3}), target_native="fire"
    )
    assert plain.damage == []


def test_r_x2_cover_stops_one_grounded_piece_of_its_size() -> None:
    out = _resolve("fire.M.point+water.S.point", None, cover=2)
    assert len(out.damage) == 1 and [s.how for s in out.stops] == ["cover"]
    up = _resolve("fire.M.point^+water.S.point^", None, cover=2)
    assert up.damage == [1, 2]


def test_r_x2_each_level_stops_only_its_own_attacks() -> None:
    out = _resolve("fire.L.point^+water.S.stand", "air.L.stand+earth.S.stand")
    assert out.damage == [3]
    stacked = _resolve("fire.L.point^+water.S.stand", "air.L.stand+earth.L.stack")
    assert stacked.damage == [] and [s.how for s in stacked.stops] == ["block"]


def test_r_x2_the_defender_pieces_are_matched_to_save_the_most() -> None:
    # Greedy matching would put the large standing piece on the first (small) attack; the best
    # matching deflects the small one and blocks the large one.
    out = _resolve("water.S.point+fire.L.point", "earth.L.stand+air.M.deflect")
    assert out.damage == [] and sorted(s.how for s in out.stops) == ["block", "deflect"]


# ----------------------------------------------------------------- the round on the table
def test_r_x2_attack_defend_counter_attack_attrition_and_the_round_end() -> None:
    g = duel()
    build_both(
        g, f"{ATTACK_LMS} / {WALL}", "fire.M.point^+water.L.point / fire.L.stand+earth.M.stand+air.S.stand"
    )
    assert g.state.pending.kind == "duel_call" and g.state.pending.player == 0
    g.apply(Attack("p0.aang", "p1.roku", "a"))
    assert g.state.pending.kind == "duel_defend"
    assert Defend("p1.roku", "b") in g.legal_actions()
    g.apply(Defend("p1.roku", "b"))
    # fire.L blocked by fire.L stand, water.M by earth.M stand, earth.S by air.S stand: all lost.
    text = events(g, "exchange")[-1].text
    assert "blocks the large pointing fire" in text and endurance(g, "p1.roku") == [1, 2, 3]
    roku = g.observation(0)["scenario"]["techniques"]["p1.roku"]
    assert roku[1]["pieces"] == [] and roku[0] == {"name": "a", "hidden": True}
    # Roku's defence fell: it is out of techniques? No: technique a is still standing.
    assert g.state.pending.kind == "duel_call" and g.state.pending.data["counter"]
    g.apply(Attack("p1.roku", "p0.aang", "a"))
    g.apply(Defend("p0.aang", "b"))
    ex = g.state.extra["duel"]["exchanges"][-1]
    assert ex["damage"] == [2]  # Roku's ungrounded (native) fire gets through; the water is deflected
    assert endurance(g, "p0.aang") == [1, 3]
    # Nobody has an unused technique with a pointing piece left: the round ends, pieces return.
    assert any("The round ends: nobody attacks" in e.text for e in g.log)
    assert g.state.extra["duel"]["tech"] == {} and g.turn == 2


def test_r_x2_the_sources_sample_game_both_techniques_fall_below_two_pieces() -> None:
    """Jonathan's two attacking pieces meet Devin's two standing pieces: all four are lost, and both
    techniques, left with one piece each, lose that one too."""
    g = duel()
    build_both(
        g,
        "fire.L.point+water.M.point+air.S.stand / earth.L.stand+air.M.deflect",
        "earth.L.stand+fire.M.stand+water.S.stand / air.L.point+water.L.point",
    )
    g.apply(Attack("p0.aang", "p1.roku", "a"))
    g.apply(Defend("p1.roku", "a"))
    falls = [e.text for e in events(g, "attrition")]
    assert len(falls) == 2 and all("falls below two pieces" in t for t in falls)
    duel_st = g.state.extra["duel"]
    assert duel_st["tech"]["p0.aang"][0]["pieces"] == [] and duel_st["tech"]["p1.roku"][0]["pieces"] == []


def test_r_x2_an_attack_needs_sight_and_a_technique_attacks_once_a_round() -> None:
    g = duel()
    build_both(g, f"{ATTACK_LMS} / {WALL}", "water.L.deflect+air.M.stand / fire.M.deflect+earth.S.stand")
    assert_illegal(g, Attack("p0.aang", "p1.roku", "b"), "R-X2", "no pointing piece")
    assert_illegal(g, Attack("p0.aang", "p1.roku", "e"), "R-X2", "no technique")
    g.apply(Attack("p0.aang", "p1.roku", "a"))
    g.apply(Decline())  # Roku does not defend: every piece lands
    assert endurance(g, "p1.roku") == []
    assert g.over and g.state.winning_team == g.state.players[0].team
    assert "last Avatar standing" in g.log[-1].text


def test_r_x2_an_attack_beyond_range_falls_short() -> None:
    g = duel()
    place(g, {"p1.roku": (13.0, 27.0)})
    build_both(g, f"{ATTACK_LMS} / {WALL}", WALL)
    g.apply(Attack("p0.aang", "p1.roku", "a"))
    assert "falls short" in events(g, "attack")[-1].text and endurance(g, "p1.roku") == [1, 2, 3]


# ----------------------------------------------------------------- hidden information
def test_r_x2_the_opponents_hidden_techniques_do_not_reach_the_observation_or_the_bot() -> None:
    a, b = duel(seed=5), duel(seed=5)
    a.apply(Build("p0.aang", f"{ATTACK_LMS} / {WALL}"))
    b.apply(Build("p0.aang", "water.L.point+air.M.point / fire.L.stand+earth.M.stand+air.S.stand"))
    assert a.hash() != b.hash()  # the state (and the replay) knows the difference
    assert a.observation(1) == b.observation(1)  # Roku's view does not
    assert "fire.L.point" not in json.dumps(a.observation(1))
    assert "fire.L.point" not in " ".join(e.text for e in a.log)
    for bot in (DuelBot(5, 1), HeuristicBot(5, 1)):
        assert bot.choose(a) == bot.choose(b)  # Roku's bot builds the same: it cannot see
    # Once revealed, the technique is public.
    for g in (a, b):
        g.apply(g.legal_actions()[0])
    a.apply(Attack("p0.aang", "p1.roku", "a"))
    assert "fire.L.point" in json.dumps(a.observation(1))


def test_r_x2_the_defending_bot_sees_only_the_revealed_attack() -> None:
    """Same attack revealed, different hidden remainder: the defender's bot chooses the same defence."""
    a, b = duel(seed=3), duel(seed=3)
    roku = "fire.L.stand+earth.M.stand+air.S.stand / water.L.point+air.M.point"
    build_both(a, f"{ATTACK_LMS} / {WALL}", roku)
    build_both(b, f"{ATTACK_LMS} / air.L.point+earth.M.point", roku)
    for g in (a, b):
        g.apply(Attack("p0.aang", "p1.roku", "a"))
    assert a.observation(1) == b.observation(1)  # Aang's unrevealed technique b differs: unseen
    bot = DuelBot(3, 1)
    assert bot.choose(a) == bot.choose(b) == Defend("p1.roku", "a")


def test_r_x2_the_replay_records_the_builds_and_re_simulates_exactly() -> None:
    sc = find_scenario("avatar_duel")
    g = Game(
        sc, [find_troupe("aang_avatar_state"), find_troupe("avatar_kyoshi")], seed=4, bots=["heuristic"] * 2
    )
    play_out(g, seat_bots(g, ["heuristic"] * 2))
    text = dumps(g)
    assert '"type": "Build"' in text
    ok, reached = verify(load_replay_text(text, "duel.json"))
    assert ok, reached


# ----------------------------------------------------------------- the switches
def _exchange_outcome(**special: Any) -> tuple[list[int], list[int], str]:
    """Aang attacks Roku with a scripted technique; Roku's bot-free defence is the same each time."""
    g = duel(**special)
    build_both(
        g,
        "water.L.point+fire.S.point+earth.M.point / air.L.stand+earth.L.stack",
        "fire.L.deflect+air.L.stand / earth.S.stand+water.S.stand",
    )
    g.apply(Attack("p0.aang", "p1.roku", "a"))
    if g.state.pending is not None and g.state.pending.kind == "duel_defend":
        g.apply(Defend("p1.roku", "a"))
    return endurance(g, "p1.roku"), endurance(g, "p0.aang"), events(g, "exchange")[-1].text


def test_r_x1_switch_weakness_cycle_off_lets_fire_deflect_water() -> None:
    on, off = _exchange_outcome(), _exchange_outcome(weakness_cycle=False)
    assert on != off
    assert "deflects the large pointing water" in off[2] and "deflects the large pointing water" not in on[2]


def test_r_x1_switch_weakness_pairs_decide_which_element_beats_which() -> None:
    swapped = ["earth:fire", "fire:earth", "air:water", "water:air"]
    assert _exchange_outcome() != _exchange_outcome(weakness_pairs=swapped)


def test_r_x1_switch_native_element_none_removes_native_weakness_and_mastery() -> None:
    hit = _resolve(
        "water.S.point+air.S.stand", None, target_endurance=frozenset({2, 3}), target_native="fire"
    )
    g_on, g_off = duel(), duel(native_element="none")
    assert g_on.observation(0)["scenario"]["natives"]["p1.roku"] == "fire"
    assert g_off.observation(0)["scenario"]["natives"]["p1.roku"] is None
    g_on.apply(Build("p0.aang", "air.L.point^+earth.M.stand"))
    assert_illegal(g_off, Build("p0.aang", "air.L.point^+earth.M.stand"), "R-X2", "ungrounded")
    assert hit.damage == [2]


def test_r_x2_switch_reactions_off_means_no_defence() -> None:
    on, off = _exchange_outcome(), _exchange_outcome(reactions=False)
    assert on != off and off[0] == [] and "defends with nothing" in off[2]


def test_r_x2_switch_airborne_rule_off_lets_a_grounded_piece_stop_an_ungrounded_attack() -> None:
    def run(**special: Any) -> list[int]:
        g = duel(**special)
        build_both(g, "air.L.point^+water.M.stand", "earth.L.stand+fire.M.stand")
        g.apply(Attack("p0.aang", "p1.roku", "a"))
        g.apply(Defend("p1.roku", "a"))
        return endurance(g, "p1.roku")

    assert run() == [1, 2] and run(airborne_only_blocked_by_airborne=False) == [1, 2, 3]


def test_r_x2_switch_specials_on_makes_three_deflecting_air_an_air_shield() -> None:
    shield = "air.S.deflect+air.M.deflect+air.L.deflect"
    off = duel()
    off.apply(Build("p0.aang", ATTACK_LMS))
    assert_illegal(off, Build("p1.roku", shield), "R-X2", "lean on")
    on = duel(specials=True)
    build_both(on, "earth.L.point+earth.M.point+earth.S.point", shield)  # earth: air's weakness
    on.apply(Attack("p0.aang", "p1.roku", "a"))
    on.apply(Defend("p1.roku", "a"))
    assert endurance(on, "p1.roku") == [1, 2, 3] and "Air Shield" in events(on, "exchange")[-1].text


def test_r_x2_switch_challengers_limits_who_may_take_a_seat() -> None:
    sc = find_scenario("avatar_duel")
    hero = troupe("aang_avatar_state").model_copy(update={"name": "not_an_avatar"})
    with pytest.raises(DataError) as info:
        Game(sc, [troupe("aang_avatar_state"), hero])
    assert "special.challengers" in str(info.value.problems[0])
    open_sc = sc.model_copy(update={"special": {**sc.special, "challengers": []}})
    Game(open_sc, [troupe("aang_avatar_state"), hero])  # an empty list lets any one-Avatar troupe in
    with pytest.raises(DataError) as many:
        Game(open_sc, [troupe("aang_avatar_state"), troupe("team_avatar")])
    assert "one Avatar per side" in str(many.value.problems[0])


def test_r_x2_every_switch_off_plays_a_different_bot_game() -> None:
    """The issue's check: with every switch off, seed 2 no longer reaches the same end."""
    sc = find_scenario("avatar_duel")
    off = {
        **sc.special,
        "weakness_cycle": False,
        "reactions": False,
        "airborne_only_blocked_by_airborne": False,
        "native_element": "none",
    }
    hashes = []
    for special in (sc.special, off):
        g = Game(
            sc.model_copy(update={"special": special}),
            [find_troupe("aang_avatar_state"), find_troupe("avatar_roku")],
            seed=2,
            bots=["heuristic"] * 2,
        )
        play_out(g, seat_bots(g, ["heuristic"] * 2))
        hashes.append(g.hash())
    assert hashes[0] != hashes[1]


# ----------------------------------------------------------------- bots and more Avatars
@pytest.mark.parametrize("name", ["avatar_trial_of_three", "avatar_council_of_four"])
@pytest.mark.parametrize("seed", [1, 3, 4])  # council seed 2 ends with the last two falling together
def test_r_x2_three_and_four_avatar_duels_play_to_a_single_winner(name: str, seed: int) -> None:
    sc = find_scenario(name)
    g = Game(sc, [find_troupe(s.troupe) for s in sc.sides], seed=seed, bots=["heuristic"] * len(sc.sides))
    play_out(g, seat_bots(g, ["heuristic"] * len(sc.sides)))
    assert g.over and g.state.winner is not None
    assert len(g.teams_on_table()) == 1 and "one Avatar is left standing" in g.state.result_reason


def test_r_x2_the_duel_bot_mixes_its_builds_and_is_reproducible() -> None:
    builds: list[str] = []
    for seed in range(6):
        g = duel(seed=seed)
        action = DuelBot(seed, 0).choose(g)
        assert action == DuelBot(seed, 0).choose(g)
        assert isinstance(action, Build)
        builds.append(action.techniques)
    assert len(set(builds)) >= 3


def test_r_x2_random_bots_finish_a_duel_too() -> None:
    sc = find_scenario("avatar_duel")
    g = Game(sc, [find_troupe("aang_avatar_state"), find_troupe("avatar_kuruk")], seed=9, bots=["random"] * 2)
    play_out(g, seat_bots(g, ["random"] * 2))
    assert g.over and m(g, "p0.aang") is not None


@settings(max_examples=40, deadline=None)
@given(
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=4),
    mine=st.frozensets(st.sampled_from((1, 2, 3))),
    weakness=st.booleans(),
    airborne=st.booleans(),
    glider=st.booleans(),
)
def test_r_x2_the_bots_payoff_table_equals_its_template_by_template_reference(
    picks: list[int], mine: frozenset[int], weakness: bool, airborne: bool, glider: bool
) -> None:
    """`round_payoffs` values each distinct technique once; it must give the reference
    `_template_payoff`'s floats for every template, whatever the opponent revealed."""
    realised = [
        realise(n, k, v, may_unground=glider, native="air", airborne=glider and v == "high")
        for n, k, v in arms()
    ]
    techs = [t for b in realised for t in b]
    seen = [techs[p % len(techs)] for p in picks]
    setting = exchange.Setting(weakness=weakness, airborne_rule=airborne)
    got = round_payoffs(realised, seen, setting, mine)
    assert got == [DuelBot._template_payoff(b, seen, setting, mine) for b in realised]
