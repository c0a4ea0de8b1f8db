"""The battle controller without a window (issue 12, item 7): it imports no pygame, applies and
refuses actions as the engine does, undoes, saves and loads, drives the bots to the same game as
the headless runner, and greys the banner's buttons with the engine's own refusals (item 3) — a
button is greyed exactly when the engine has no such action for the model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_engine import advance_to, keep_only, m, new_game, place

from skirmish.bots.runner import play_out, seat_bots
from skirmish.engine import queries
from skirmish.engine.core.actions import Charge, EndStep, Move, Shoot, TakeCover, UseAbility
from skirmish.engine.replay import load_replay
from skirmish.ui.control.battle import BattleControl
from skirmish.ui.control.offers import offers

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_ui_controller_imports_no_pygame_and_plays_without_a_window() -> None:
    """The controller, its offers, choices, odds and turn points load and play a turn in a fresh
    interpreter that never imports pygame."""
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from helpers_engine import new_game\n"
        "from skirmish.ui.control.battle import BattleControl\n"
        "from skirmish.ui.control.offers import offers\n"
        "from skirmish.engine.core.actions import EndStep\n"
        "ctl = BattleControl(new_game(), [None, None])\n"
        "while ctl.state.turn < 2:\n"
        "    ctl.time += 1.0\n"
        "    assert offers(ctl)\n"
        "    ctl.apply(EndStep()) if ctl.state.pending is None else ctl.apply(ctl.game.legal_actions()[-1])\n"
        "assert 'pygame' not in sys.modules, sorted(k for k in sys.modules if 'pygame' in k)\n"
        "print('ok', ctl.revision)\n"
    )
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok")


def test_r_m2_refused_path_changes_nothing_and_says_the_engines_reason() -> None:
    g = new_game()
    advance_to(g, "movement", 0)
    ctl = BattleControl(g, [None, None])
    before = g.hash()
    sokka = m(g, "p0.sokka")
    x, y = queries.position_of(g, sokka)
    far = ((x, y), (x + 30.0, y))
    assert not ctl.apply(Move(sokka.id, far))
    refusal = queries.why_not(g, Move(sokka.id, far))
    assert refusal is not None and ctl.message == f"Not allowed — {ctl.named(str(refusal))}"
    assert ctl.message_bad and g.hash() == before and ctl.revision == 0
    # the live check while dragging is the same verdict
    assert ctl.check_path(sokka, Move, list(far)) == ctl.named(str(refusal))
    ok = [(x, y), (x - 2.0, y + 0.2)]
    assert ctl.check_path(sokka, Move, ok) is None
    ctl.select(sokka.id)
    ctl.path = list(ok)
    ctl.commit_path()
    assert g.history[-1] == Move(sokka.id, tuple(ok)) and ctl.path == [] and ctl.revision == 1
    assert sokka.id in ctl.anims  # the move is animated along its path
    ctl.undo()
    assert g.hash() == before and ctl.message == "Undone"


def test_r_c1_a_declared_shot_comes_back_as_a_toast_and_clears_the_refusal() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (20.0, 10.0), "p1.zuko": (20.0, 16.0)})
    advance_to(g, "shooting", 0)
    ctl = BattleControl(g, [None, None])
    ctl.say("Not allowed — something", bad=True)
    spec = ctl.shot_specs(m(g, "p0.sokka"))[0]
    assert ctl.apply(Shoot("p0.sokka", "p1.zuko", spec.name))
    assert ctl.message == "" and ctl.toast is not None
    assert ctl.toast.lines[0].startswith("Declared: Prince Zuko was 5.") and ctl.highlight
    ctl.update(7.0)
    assert ctl.toast is None and not ctl.highlight


def test_r_c6_greyed_shoot_and_charge_buttons_carry_the_engines_refusal() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (20.0, 10.0), "p1.zuko": (20.0, 16.0)})
    advance_to(g, "shooting", 0)
    ctl = BattleControl(g, [None, None])
    ctl.select("p0.sokka")
    shoot = next(o for o in offers(ctl) if o.hotkey == "S")
    assert shoot.enabled and shoot.command == "shoot"
    g.apply(Shoot("p0.sokka", "p1.zuko", ctl.shot_specs(m(g, "p0.sokka"))[0].name))
    ctl.after_change()
    assert g.state.step == "shooting" and g.state.active_player == 0  # the sentinel may still shoot
    shoot = next(o for o in offers(ctl) if o.hotkey == "S")
    refusal = queries.why_not(g, Shoot("p0.sokka", "p1.zuko", "boomerang"))
    assert not shoot.enabled and refusal is not None and shoot.reason == refusal.reason
    assert refusal.rule == "R-C6"


def test_r_m4_take_cover_reason_is_the_engines() -> None:
    """Sokka began the Move Phase in the bamboo grove (dense cover), Katara in the open: the Take
    Cover button is live exactly when the engine would accept it, greyed with the engine's reason."""
    g = new_game()
    keep_only(g, ["p0.sokka", "p0.katara", "p1.zuko"])
    place(g, {"p0.sokka": (37.0, 18.0), "p0.katara": (20.0, 8.0), "p1.zuko": (5.0, 40.0)})
    advance_to(g, "take_cover", 0)
    ctl = BattleControl(g, [None, None])
    live = {}
    for model_id in ("p0.sokka", "p0.katara"):
        ctl.select(model_id)
        offer = next(o for o in offers(ctl) if o.hotkey == "C")
        refusal = queries.why_not(g, TakeCover(model_id))
        assert offer.enabled == (refusal is None)
        assert offer.reason == ("" if refusal is None else refusal.reason)
        live[model_id] = offer.enabled
    assert live == {"p0.sokka": True, "p0.katara": False}


def test_r_c4_charge_odds_are_the_engines_matchup() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p0.katara", "p1.fire_soldier_1"])
    place(g, {"p1.fire_soldier_1": (20.0, 20.0), "p0.katara": (21.0, 20.0), "p0.sokka": (20.0, 24.0)})
    advance_to(g, "charges", 0)
    ctl = BattleControl(g, [None, None])
    ctl.select("p0.sokka")
    lines = ctl.odds_lines("charge", "p1.fire_soldier_1")
    fight = queries.matchup(g, "p0.sokka", "p1.fire_soldier_1", charging=True)
    assert "friends already in the melee: 1 of yours, 0 of theirs" in lines[0]
    assert f"{fight.odds.defender_wounded:.0%}" in lines[3] and f"{fight.odds.attacker_ko:.0%}" in lines[3]
    assert lines[1].endswith(f"= D6 + {fight.attack.base_total}")


def _kinds(action: object) -> str:
    return type(action).__name__


@pytest.mark.parametrize("name", ["open_battle_heuristic_s11", "four_kingdoms_melee_heuristic_s5_t3"])
def test_r_t1_a_refused_button_means_the_engine_has_no_such_action(name: str) -> None:
    """Over a golden replay: whenever `why_not_model` refuses a model a kind of action (a greyed
    button), `legal_actions()` holds none of that kind for that model, and asking changes nothing."""
    rep = load_replay(GOLDEN / f"{name}.json")
    g = rep.new_game()
    kinds = ("Move", "TakeCover", "Shoot", "Charge", "Advance", "Disengage", "UseAbility")
    for i, action in enumerate(rep.actions):
        if i % 3 == 0 and g.state.pending is None:
            legal = g.legal_actions()
            before = g.hash()
            for model in g.player_models(g.state.active_player):
                for kind in kinds:
                    fields = {}
                    if kind == "Shoot":
                        opts = queries.shot_options(g, model)
                        if not opts:
                            continue
                        fields["weapon"] = opts[0].name
                    if kind == "UseAbility":
                        for ab in queries.abilities_of_model(g, model):
                            if queries.why_not_model(g, kind, model, ability=ab.name) is not None:
                                assert not any(
                                    isinstance(a, UseAbility) and a.model == model.id and a.ability == ab.name
                                    for a in legal
                                ), (i, model.id, ab.name)
                        continue
                    if queries.why_not_model(g, kind, model, **fields) is not None:
                        assert not any(
                            _kinds(a) == kind
                            and getattr(a, "model", None) == model.id
                            and getattr(a, "weapon", fields.get("weapon")) == fields.get("weapon")
                            for a in legal
                        ), (i, model.id, kind)
            assert g.hash() == before
        g.apply(action)


def test_ui_controller_drives_the_bots_to_the_headless_game(tmp_path: Path) -> None:
    g = new_game(turns=2)
    headless = new_game(turns=2)
    play_out(headless, seat_bots(headless, ["heuristic", "heuristic"]))
    ctl = BattleControl(g, ["heuristic", "heuristic"], speed=0, replay_out=str(tmp_path / "r.json"))
    ended = False
    for _ in range(100000):
        ended = ctl.update(0.02) or ended
        if g.over:
            break
        ctl.act()
        ctl.worker.wait(0.05)
    assert g.over and ended and g.history == headless.history and g.hash() == headless.hash()
    assert load_replay(tmp_path / "r.json").final_hash == g.hash()
    assert ctl.message.startswith("Game over. Replay written to")


def test_ui_controller_saves_loads_and_leaves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path / "data"))
    g = new_game()
    ctl = BattleControl(g, [None, "heuristic"], replay_out=str(tmp_path / "out.json"))
    g.apply(EndStep())
    ctl.after_change()
    ctl.save()
    assert ctl.message.startswith("Saved to ")
    found = ctl.load()
    assert found is not None
    game, seats, path = found
    assert game.hash() == g.hash() and seats == [None, "heuristic"] and path.endswith("skirmish-save.json")
    words, bad = ctl.leave()
    assert not bad and words.count("Battle saved to") == 2
    assert json.loads((tmp_path / "out.json").read_text())["final_hash"] == g.hash()
    assert ctl.load(str(tmp_path / "nothing.json")) is None and ctl.message_bad


def test_r_t1_end_step_guard_and_hand_over_are_the_controllers() -> None:
    g = new_game()
    advance_to(g, "movement", 0)
    ctl = BattleControl(g, [None, None])
    ctl.time = 5.0
    ctl.end_step()
    assert g.state.active_player == 1 and ctl.handover is not None and ctl.handover.next_player == 1
    n = len(g.history)
    ctl.dismiss_card()
    ctl.end_step()
    assert len(g.history) == n and "E ignored" in ctl.message
    ctl.time += 1.0
    ctl.end_step()
    assert len(g.history) == n + 1


def test_r_c3_selection_cycles_own_active_models_and_charge_is_offered_by_the_engine() -> None:
    g = new_game()
    advance_to(g, "charges", 0)
    ctl = BattleControl(g, [None, None])
    seen = []
    for _ in range(len(g.player_models(0))):
        ctl.cycle_selection()
        seen.append(ctl.selected)
    assert sorted(seen) == sorted(x.id for x in g.player_models(0) if x.active)
    for model in g.player_models(0):
        ctl.select(model.id)
        offer = next(o for o in offers(ctl) if o.hotkey == "H")
        has = any(isinstance(a, Charge) and a.model == model.id for a in g.legal_actions())
        if has:
            assert offer.enabled
        if not offer.enabled:
            assert not has and offer.reason == queries.why_not_model(g, "Charge", model).reason  # type: ignore[union-attr]
