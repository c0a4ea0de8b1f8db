"""The engine's public face (issue 12, item 5): everything here goes through `skirmish.engine` only.

No test in this file writes `game.state` or imports a step module: positions are set up with
`engine.setup`, refusals read with `why_not`, scores read from structured events. The board is the
shipped `open_battle` scenario (`watch_hill`: height 1, no cover; `bamboo_grove`: dense cover,
x 32-42, y 14-22; `tall_grass`: light, x 17-21, y 20-27; `standing_stone`: impassable, x 22-25,
y 12-15).
"""

from __future__ import annotations

import pytest

from skirmish.data.catalogue import find_troupe
from skirmish.engine import (
    Charge,
    EndStep,
    Event,
    Game,
    IllegalAction,
    Refusal,
    SetupError,
    Shoot,
    matchup,
    setup,
    why_not,
)
from skirmish.rules.dice import Dice
from skirmish.rules.odds import melee_odds, shot_odds


def _sokka_with_bow():
    """Shipped Sokka (Ranged 2, as Model A of the seed) with the standard 18" bow: on the shipped
    table the hill's edge is ~16" from the grove, beyond his 12" boomerang."""
    tr = find_troupe("team_avatar")
    models = [
        e.model_copy(update={"profile": e.profile.model_copy(update={"weapons": ["sword", "bow"]})})
        if e.profile.name == "sokka"
        else e
        for e in tr.models
    ]
    return tr.model_copy(update={"models": models})


def _worked_example() -> Game:
    game = Game.from_scenario("open_battle", troupes=[_sokka_with_bow(), "zuko_hunting_party"], seed=1)
    setup.only(game, ["p0.sokka", "p0.katara", "p1.zuko"])
    # Model A on the hill (no cover), a friend 2" away edge to edge, Model B in the dense grove.
    setup.place_all(game, {"p0.sokka": (14.5, 20.0), "p0.katara": (14.5, 23.0), "p1.zuko": (33.0, 18.0)})
    setup.advance_to(game, "shooting", player=0)
    setup.set_status(game, "p1.zuko", limping=True)
    return game


def test_r_c1_seed_worked_example_through_the_public_face_scores_5_against_4() -> None:
    """The rulebook's shooting example: hill, friend 2" away, target in dense cover and Limping, 3 v 2."""
    game = _worked_example()
    seen: list[Event] = []
    unsubscribe = game.subscribe(seen.append)
    game.dice.force(3, 2, 1)  # shoot 3, dodge 2, Zuko's armour save 1 (fails)
    game.apply(Shoot("p0.sokka", "p1.zuko", "bow"))
    unsubscribe()
    shot = next(e for e in seen if e.kind == "shot")
    attack, dodge = shot.data["attack"], shot.data["dodge"]
    assert (attack["stat"], attack["value"], attack["die"], attack["total"]) == ("Ranged", 2, 3, 5)
    assert (dodge["stat"], dodge["value"], dodge["die"], dodge["total"]) == ("Dodge", 2, 2, 4)
    assert [(m["name"], m["value"]) for m in attack["modifiers"]] == [
        ("higher ground", 1),
        ('friend within 5"', 1),
        ("target in dense cover", -2),
    ]
    assert [(m["name"], m["value"]) for m in dodge["modifiers"]] == [
        ("in dense cover", 1),
        ("shooter in the open", 1),
        ("limping", -2),
    ]
    assert shot.data["hit"] is True and shot.data["weapon"] == "bow"
    assert [r.value for r in shot.rolls] == [3, 2]
    wound = next(e for e in seen if e.kind == "wound")
    assert wound.data["saves"] == [{"save": "armour", "need": 4, "die": 1, "saved": False}]
    assert (wound.data["hp_lost"], wound.data["source"]) == (1, "Bow")
    assert seen[-1] is game.log[-1]  # observers see the events the log keeps, in order
    assert game.model("p1.zuko").hp == game.model("p1.zuko").profile.hp - 1


def test_r_c1_matchup_gives_the_scores_and_exact_odds_of_the_worked_example() -> None:
    game = _worked_example()
    mu = matchup(game, "p0.sokka", "p1.zuko", weapon="bow")
    assert (mu.attack.base_total, mu.dodge.base_total) == (2, 2)
    assert mu.odds == shot_odds(2, 2, mu.armour, mu.shield, False, False, 1, game.model("p1.zuko").hp)
    assert 0 < mu.odds.hit < 0.5  # a tie is dodged


def test_r_c4_melee_matchup_counts_the_charge_bonus_and_the_taking_cover_save() -> None:
    game = Game.from_scenario("open_battle", seed=1)
    setup.only(game, ["p0.toph", "p1.zuko"])
    setup.place_all(game, {"p0.toph": (10.0, 10.0), "p1.zuko": (11.6, 10.0)})
    base = matchup(game, "p0.toph", "p1.zuko")
    charge = matchup(game, "p0.toph", "p1.zuko", charging=True)
    assert charge.attack.base_total == base.attack.base_total + 1
    assert ("charged this turn", 1) in [(m.name, m.value) for m in charge.attack.modifiers]
    assert charge.odds.defender_wounded > base.odds.defender_wounded
    plain = melee_odds(base.attack.base_total, base.defend.base_total)
    assert base.odds.attacker_hits == plain.attacker_hits and base.odds.tie == plain.tie


def test_r_c6_why_not_gives_the_engines_own_refusal_and_changes_nothing() -> None:
    game = _worked_example()
    before, log_len, rolls = game.hash(), len(game.log), len(game.dice.history)
    assert why_not(game, "shoot", "p0.sokka", target="p1.zuko", weapon="bow") is None
    refusal = why_not(game, "Shoot", "p0.sokka", target="p0.katara", weapon="bow")
    assert refusal == Refusal("R-C1", "Katara is not an enemy")
    assert why_not(game, "charge", "p0.sokka", target="p1.zuko").rule == "R-C1"  # not in this step
    assert why_not(game, Shoot("p0.sokka", "p1.zuko", "boomerang")).rule == "R-P3"
    assert (game.hash(), len(game.log), len(game.dice.history)) == (before, log_len, rolls)
    # The same answer as apply, and asking spends no forced die.
    game.dice.force(3, 2, 1)
    assert why_not(game, "shoot", "p0.sokka", target="p1.zuko", weapon="bow") is None
    assert game.dice.pending_forced == 3
    with pytest.raises(IllegalAction) as info:
        game.apply(Shoot("p0.sokka", "p0.katara", "bow"))
    assert (info.value.rule, info.value.reason) == (refusal.rule, refusal.reason)
    game.apply(Shoot("p0.sokka", "p1.zuko", "bow"))
    assert game.dice.pending_forced == 0
    assert why_not(game, "shoot", "p0.sokka", target="p1.zuko", weapon="bow") == Refusal(
        "R-C6", "Sokka has already fired this Combat Phase"
    )


def test_r_m2_why_not_a_move_without_a_path_asks_about_the_model() -> None:
    game = Game.from_scenario("open_battle", seed=1)
    setup.advance_to(game, "movement", player=0)
    assert why_not(game, "move", "p0.sokka") is None
    assert why_not(game, "move", "p1.zuko").rule == "R-M2"  # not the player to act
    with pytest.raises(ValueError, match="unknown action kind"):
        why_not(game, "teleport", "p0.sokka")


def test_r_p5_setup_validates_positions_and_statuses_naming_rule_and_field() -> None:
    game = Game.from_scenario("open_battle", seed=1)
    before = game.hash()
    cases = [
        (lambda: setup.place(game, "p0.nobody", (5, 5)), "R-P1", "model"),
        (lambda: setup.place(game, "p0.sokka", (0.1, 5)), "R-M2", "at"),
        (lambda: setup.place(game, "p0.sokka", (23.5, 13.5)), "R-M2", "at"),
        (lambda: setup.place(game, "p0.sokka", ("x", 1)), "R-M2", "at"),
        (lambda: setup.place_all(game, {"p0.sokka": (0.1, 5)}), "R-M2", "positions['p0.sokka']"),
        (lambda: setup.set_hp(game, "p0.sokka", 0), "R-P1", "hp"),
        (lambda: setup.set_hp(game, "p0.sokka", 99), "R-P1", "hp"),
        (lambda: setup.set_ap(game, "p0.sokka", -1), "R-P4", "ap"),
        (lambda: setup.set_status(game, "p0.sokka", ko=True, taking_cover=True), "R-M4", "taking_cover"),
        (lambda: setup.advance_to(game, "lunch"), "R-T1", "step"),
    ]
    for call, rule, field in cases:
        with pytest.raises(SetupError) as info:
            call()
        assert (info.value.rule, info.value.field) == (rule, field), str(info.value)
        assert str(info.value).startswith(f"{rule}: {field}: ")
    xy = game.state.xy[game.model("p0.katara").index]
    with pytest.raises(SetupError, match="overlaps Katara"):
        setup.place(game, "p0.sokka", (float(xy[0]) + 0.5, float(xy[1])))
    assert game.hash() == before  # every refused set-up left the game as it was


def test_r_p5_setup_statuses_are_the_rules_statuses() -> None:
    game = Game.from_scenario("open_battle", seed=1)
    setup.set_status(game, "p1.zuko", ko=True)
    zuko = game.model("p1.zuko")
    assert zuko.ko and zuko.hp == 0 and not zuko.active
    setup.set_status(game, "p1.zuko", ko=False)
    setup.set_hp(game, "p1.zuko", 1)
    assert zuko.active and zuko.hp == 1
    setup.set_status(game, "p1.zuko", limping=True, limping_until_turn=1)
    setup.advance_to(game, "movement", turn=2)
    assert not zuko.limping  # cleared at the Move Phase after the turn given (R-P5)


def test_observers_get_only_accepted_actions_and_can_unsubscribe() -> None:
    game = Game.from_scenario("open_battle", seed=3, record_log=False)
    seen: list[Event] = []
    unsubscribe = game.subscribe(seen.append)
    with pytest.raises(IllegalAction):
        game.apply(Shoot("p0.sokka", "p1.zuko", "boomerang"))
    assert seen == []
    game.apply(EndStep())
    assert seen and all(isinstance(e, Event) for e in seen) and game.log == []
    unsubscribe()
    n = len(seen)
    game.apply(EndStep())
    assert len(seen) == n


def test_short_reprs() -> None:
    game = Game.from_scenario("open_battle", seed=3)
    assert repr(game).startswith("<Game open_battle seed=3 ")
    assert len(repr(game)) < 100
    assert all(len(repr(e)) < 120 for e in game.log)
    assert repr(Charge("p0.toph", "p1.zuko")) == "Charge(model='p0.toph', target='p1.zuko')"


def test_from_scenario_names_bad_input() -> None:
    from skirmish.data.errors import DataError

    with pytest.raises(DataError, match="no scenario of that name"):
        Game.from_scenario("no_such_scenario")
    with pytest.raises(DataError, match="no troupe of that name"):
        Game.from_scenario("open_battle", troupes=["nobody"])
    with pytest.raises(DataError, match="options: lunch"):
        Game.from_scenario("open_battle", options={"lunch": True})
    game = Game.from_scenario("open_battle", options={"premeasure": True}, seed=2)
    assert game.options.premeasure and game.seed == 2


def test_dice_snapshot_restore_replays_the_same_rolls() -> None:
    dice = Dice(42)
    dice.force(6)
    snap = dice.snapshot()
    first = [dice.d6("a") for _ in range(5)]
    dice.restore(snap)
    assert [dice.d6("a") for _ in range(5)] == first and first[0] == 6
    assert len(dice.history) == 5
    with pytest.raises(ValueError, match="cannot be restored"):
        Dice(1).restore(dice.snapshot())  # a snapshot from later than that stream has got


def test_docs_engine_notebook_example_runs() -> None:
    """The worked example of docs/engine.md is real code: run it as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "engine.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if b.startswith("# notebook")]
    assert len(blocks) == 1
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "docs/engine.md", "exec"), namespace)
    assert namespace["odds"].odds.hit == pytest.approx(15 / 36)  # type: ignore[attr-defined]


def test_state_reprs_are_short() -> None:
    game = Game.from_scenario("open_battle", seed=3)
    setup.set_status(game, "p1.zuko", limping=True)
    zuko = game.model("p1.zuko")
    assert repr(zuko) == f"<Model p1.zuko {zuko.hp}/{zuko.profile.hp} HP {zuko.ap} AP, Limping>"
    assert repr(game.state.players[0]).startswith("<Player 0 ")
    assert repr(game.state) == "<GameState turn 0 deploy, 10 models, 2 players>"


@pytest.mark.parametrize("name", ["open_battle_random_s7_t3", "four_kingdoms_melee_heuristic_s5_t3"])
def test_r_t1_why_not_accepts_every_legal_action_and_the_recorded_one_changing_nothing(name: str) -> None:
    """Over a golden replay: at every fourth position each of `legal_actions()` is accepted by
    `why_not`, as is the action the game really took, and asking never changes the game."""
    from pathlib import Path

    from skirmish.engine import load_replay

    rep = load_replay(Path(__file__).resolve().parent / "golden" / f"{name}.json")
    game = rep.new_game()
    asked = 0
    for i, action in enumerate(rep.actions):
        before = (game.hash(), len(game.log), len(game.history), len(game.dice.history))
        candidates = game.legal_actions() if i % 4 == 0 else []
        for candidate in [*candidates, action]:
            assert why_not(game, candidate) is None, f"{name} #{i}: {candidate!r}"
            asked += 1
        assert (game.hash(), len(game.log), len(game.history), len(game.dice.history)) == before
        game.apply(action)
    assert game.hash() == rep.final_hash and asked > len(rep.actions)


def test_r_t1_why_not_refuses_exactly_as_apply_does() -> None:
    """Actions of every kind for every model, at positions of a golden replay: whenever `why_not`
    names a refusal, `apply` raises `IllegalAction` with that rule and reason, leaving no trace."""
    from pathlib import Path

    from skirmish.engine import Advance, Disengage, Move, TakeCover, UseAbility, load_replay

    rep = load_replay(Path(__file__).resolve().parent / "golden" / "open_battle_random_s7_t3.json")
    game = rep.new_game()
    refused = 0
    for i, action in enumerate(rep.actions):
        if i % 6 == 0:
            s = game.state
            for m in s.models:
                here = tuple(float(v) for v in s.xy[m.index])
                tries = [TakeCover(m.id), Move(m.id, (here, here)), Advance(m.id, (here, here))]
                tries += [Disengage(m.id, (here, here)), Charge(m.id, "p1.zuko"), Charge(m.id, "p0.aang")]
                tries += [Shoot(m.id, t.id, w) for t in s.models[::3] for w in m.profile.weapons[-1:]]
                tries += [UseAbility(m.id, a) for a in m.profile.abilities[:2]]
                for candidate in tries:
                    refusal = why_not(game, candidate)
                    if refusal is None:
                        continue
                    refused += 1
                    before = game.hash()
                    with pytest.raises(IllegalAction) as info:
                        game.apply(candidate)
                    assert (info.value.rule, info.value.reason) == (refusal.rule, refusal.reason), candidate
                    assert game.hash() == before
        game.apply(action)
    assert game.hash() == rep.final_hash and refused > 100
