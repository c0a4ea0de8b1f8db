"""The table in the busy moments (issue 16, items 8-14), driven by scripted pygame events under SDL's
dummy driver: the end-step guard and the skipped-step announcements, the hotseat hand-over and the
turn summary, what things do on the card, the menu and the Shoot button, one melee line per pair,
floating results that never collide, the charge odds counting friends, the menus in words, and the
what-if in the replay viewer. Time is the frame's `dt`, so every guard is driven exactly."""

from __future__ import annotations

import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import end_steps, keep_only, new_game, place  # noqa: E402
from test_ui_scenes import key, post_and_frame  # noqa: E402

from skirmish.engine.core.actions import EndStep  # noqa: E402
from skirmish.ui.app import App  # noqa: E402
from skirmish.ui.battle import BattleScene  # noqa: E402
from skirmish.ui.handover import END_STEP_GUARD_SECONDS  # noqa: E402

SHOTS = Path(os.environ.get("SKIRMISH_SHOTS", "")) if os.environ.get("SKIRMISH_SHOTS") else None
"""Set SKIRMISH_SHOTS=docs/img to write the screenshots docs/ui.md shows."""


@pytest.fixture
def app():
    a = App((1600, 1000))
    yield a
    pygame.display.quit()


def shot(app: App, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(SHOTS / f"{name}.png"))


def hidden_pair():
    """Sokka and one soldier either side of the standing stone: no one in sight, the rest parked."""
    g = new_game()
    end_steps(g, 2)
    keep_only(g, ["p0.sokka", "p1.fire_soldier_1"], sentinels=[])
    place(g, {"p0.sokka": (23.5, 10.0), "p1.fire_soldier_1": (23.5, 17.0)})
    return g


def test_ui_r_t1_end_step_key_guarded_after_the_player_changes(app):
    """Item 8: an E pressed as the seat changes lands on the hand-over card, and an E right after
    the card is dismissed is ignored with a word; once the guard has run out, E ends the step."""
    g = hidden_pair()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame(dt=1.0)
    assert g.state.step == "movement" and g.state.active_player == 0
    post_and_frame(app, key(pygame.K_e))  # avatar ends the movement: fire_nation's seat now
    assert g.state.active_player == 1 and scene.handover is not None
    app.frame()
    shot(app, "handover")
    n = len(g.history)
    post_and_frame(app, key(pygame.K_e))  # the second press of a double tap: swallowed by the card
    assert len(g.history) == n and scene.handover is not None
    post_and_frame(app, key(pygame.K_RETURN))
    assert scene.handover is None
    post_and_frame(app, key(pygame.K_e))
    assert len(g.history) == n and "E ignored" in scene.message
    app.frame(dt=END_STEP_GUARD_SECONDS + 0.1)
    post_and_frame(app, key(pygame.K_e))
    assert len(g.history) == n + 1 and isinstance(g.history[-1], EndStep)


def test_ui_r_c1_skipped_steps_are_announced_and_logged(app):
    """Item 8: no one in sight, so shooting and charges are skipped: the log marks it and the banner
    says it; then the turn summary card tells the turn and hands over (item 11)."""
    g = hidden_pair()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame(dt=1.0)
    post_and_frame(app, key(pygame.K_e))
    post_and_frame(app, key(pygame.K_RETURN))
    app.frame(dt=1.0)
    post_and_frame(app, key(pygame.K_e))  # fire_nation ends the movement: the turn runs to its end
    assert g.state.turn == 2 and g.state.step == "movement"
    skips = [e.text for e in g.log if e.kind == "skip" and e.turn == 1]
    assert "avatar: no one in sight — shooting skipped" in skips
    assert "fire_nation: no one in sight to charge — charges skipped" in skips
    assert "no one in sight — shooting skipped" in scene.message
    card = scene.handover
    assert card is not None and card.title == "Turn 1 is over"
    assert "No model was KO'd" in card.lines
    assert any(ln.startswith("avatar: +0 Battle Points this turn") for ln in card.lines)
    assert "shrine: held by no one" in card.lines
    assert "avatar to act" in card.next_words
    app.frame()
    shot(app, "turn_summary")
    # the log panel shows the skipped steps under their step headings
    rows = [r.text for r in scene.log_panel.rows]
    assert any("shooting skipped" in t for t in rows)


def test_ui_no_handover_against_a_bot(app):
    """Item 11: the hand-over card is for two people at one screen, not for a bot's turn."""
    g = new_game()
    scene = BattleScene(app, g, [None, "heuristic"])
    app.push(scene)
    app.frame()
    post_and_frame(app, key(pygame.K_e))
    assert scene.handover is None and not scene.hotseat


def test_ui_r_p4_card_menu_and_shoot_button_say_what_things_do(app):
    """Item 9: the card lists range, effect and rules text of every weapon and ability and the
    active buffs (Avatar State's +2 Ranged); the ability menu and the Shoot button say the same."""
    from skirmish.data.scenario import Victory
    from skirmish.engine.core.actions import UseAbility

    # The duel's arena and Avatars in the standard turn (the Duel itself plays techniques, no shots).
    g = new_game("avatar_duel", victory=Victory.last_standing, special={})
    end_steps(g, 2)
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame()
    aang = next(m for m in g.state.models if m.player == 0)
    scene.select(aang.id)
    post_and_frame(app, key(pygame.K_a))
    labels = [label for label, _, _ in scene.menu_items]
    assert "Avatar State (3 AP: +2 Ranged this turn for itself)" in labels
    assert any("Glowing eyes" in n for n in scene.menu_notes)  # the rules text under the entry
    shot(app, "ability_menu")
    post_and_frame(app, key(pygame.K_ESCAPE))
    g.apply(UseAbility(aang.id, "avatar_state"))
    scene.after_change()
    app.frame()
    lines = [w for w, _, _, _ in scene.card.lines(app.text, g, aang)]
    assert "Active: +2 Ranged this turn" in lines
    text = " ".join(lines)
    assert 'Air Blast (1 AP, shooting, range 6"): pushes the target 4" away' in text
    assert 'Air Swipe: range 8", damage 1' in text and "A gust hurls" in text
    shot(app, "profile_card")
    # the Shoot button names the weapon's range and effect
    while g.state.step != "shooting":
        g.apply(EndStep())
    scene.after_change()
    scene.select(aang.id)
    shoot = next(b for b in scene.actions() if b.hotkey == "S")
    assert '" range, damage' in shoot.label


def _game_to_first_melee():
    """A bot game on Hold the Zones played until its first melee has been fought."""
    from skirmish.bots.runner import seat_bots

    g = new_game("hold_the_zones", seed=2, turns=3)
    bots = seat_bots(g, ["heuristic", "heuristic"])
    while not any(e.kind == "melee" for e in g.log):
        g.apply(bots[g.state.active_player].choose(g))
    return g


def test_ui_r_c4_one_melee_line_per_pair_with_the_breakdown_on_a_click(app):
    """Item 10: the log and the toast give one line per pair, named with numbers; a click on the
    entry opens every roll and modifier."""
    g = _game_to_first_melee()
    e = next(e for e in g.log if e.kind == "melee")
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame()
    rows = [r for r in scene.log_panel.rows if r.event == g.log.index(e)]
    texts = [r.text for r in rows]
    # one line per pair, "A 8 v B 9 => B hits, saved": the exact names and scores follow the bot
    # game, so the form is checked, not one game's numbers
    pair_line = re.compile(r"^.+ \d+ v .+ \d+ => .+$")
    pairs = [t for t in texts if t.strip() and not t.startswith("  (click")]
    assert pairs and all(pair_line.match(t) for t in pairs), texts
    assert "  (click for every roll and modifier)" in texts
    assert not any("rolls" in t for t in texts)
    y = next(y for y, r in scene.log_panel.visible_rows() if r.event == g.log.index(e))
    pos = (scene.log_panel.rect.x + 40, scene.log_panel.rect.y + y + 2)
    post_and_frame(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    rows = [r.text for r in scene.log_panel.rows if r.event == g.log.index(e)]
    assert any(t.startswith("Melee — ") and " rolls" in t for t in rows)
    shot(app, "melee_lines")
    from skirmish.ui.toasts import outcome_toast

    toast = outcome_toast(g, [e], 0.0)
    assert toast is not None and any(pair_line.match(t) for t in toast.lines)


def test_ui_floating_results_never_cover_labels_or_each_other(app):
    """Item 10: two results rising from neighbouring models and a label in the way: all clear."""
    from skirmish.ui.floats import place_floats

    bounds = pygame.Rect(0, 0, 800, 600)
    label = pygame.Rect(380, 250, 80, 20)
    wanted = [(400.0, 280.0, 320.0, 60, 24), (410.0, 282.0, 322.0, 60, 24), (420.0, 284.0, 324.0, 50, 24)]
    rects = place_floats(wanted, [label], bounds)
    assert all(r is not None for r in rects)
    placed = [r for r in rects if r is not None]
    assert all(not r.colliderect(label) for r in placed)
    assert all(not a.colliderect(b) for i, a in enumerate(placed) for b in placed[i + 1 :])
    # in the window: after the melee's hits, the toast's floats keep off every name label
    g = _game_to_first_melee()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    scene.control._seen_log = next(i for i, e in enumerate(g.log) if e.kind == "melee")
    scene.after_change()
    assert scene.toast is not None and scene.toast.floats
    for _ in range(3):
        app.frame(dt=0.5)
        floats, labels = scene.toasts.float_rects, list(scene.label_rects.values())
        assert floats
        assert all(f.collidelist(labels) < 0 for f in floats)
        assert not any(f.colliderect(scene.toast_rect()) for f in floats)
        assert all(not a.colliderect(b) for i, a in enumerate(floats) for b in floats[i + 1 :])
    shot(app, "floats")


def test_ui_r_c4_charge_odds_count_friends_already_in_the_melee(app):
    """Item 10: Katara already fights the soldier; Sokka's charge odds count her (+1)."""
    g = new_game()
    end_steps(g, 2)
    keep_only(g, ["p0.sokka", "p0.katara", "p1.fire_soldier_1"])
    place(g, {"p1.fire_soldier_1": (20.0, 20.0), "p0.katara": (21.0, 20.0), "p0.sokka": (20.0, 24.0)})
    while not (g.state.step == "charges" and g.state.active_player == 0):
        g.apply(EndStep())
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame()
    scene.select("p0.sokka")
    post_and_frame(app, key(pygame.K_h))
    scene.hovered = "p1.fire_soldier_1"
    scene.show_odds = True
    lines = scene.odds_lines()
    assert "friends already in the melee: 1 of yours, 0 of theirs" in lines[0]
    assert "friends in the melee 1" in lines[1] and lines[1].count("=") == 1
    app.frame()
    shot(app, "charge_odds")


def test_ui_menu_options_and_troupes_explain_themselves(app):
    """Item 13: every option says in words what it does, on and off; each troupe line lists its
    models and points; changing a value changes the words."""
    from skirmish.cli.play_cmds import setup
    from skirmish.ui.menu import MenuScene

    scenario, troupes, options = setup(None, [], None, [])
    menu = MenuScene(app, scenario, troupes, options, seed=1)
    app.push(menu)
    app.frame()
    rows = {r.label: r for r in menu.rows}
    troupe = rows["avatar: troupe"].note
    assert troupe is not None and "Aang" in troupe() and troupe().endswith("points")
    pre = rows["Measure before declaring (premeasure)"]
    assert pre.note is not None and pre.note().startswith("off: ranges are guessed")
    k = menu.rows.index(pre)
    for _ in range(k):
        post_and_frame(app, key(pygame.K_DOWN))
    post_and_frame(app, key(pygame.K_RIGHT))
    assert menu.options.premeasure and pre.note().startswith("on: distances are shown")
    assert all(r.note is not None and r.note() for r in menu.rows if r.label != "Scenario")
    shot(app, "menu")


def test_campaign_without_a_subcommand_says_how_to_play(tmp_path, capsys, monkeypatch):
    """Item 13: `skirmish campaign` alone explains the commands, then shows where the campaign stands."""
    from skirmish.cli.main import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["campaign"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("How to play the campaign")
    assert "skirmish campaign play" in out and "Next: chapter 1" in out


def test_ui_replay_viewer_what_if_matches_the_command(app):
    """Item 14: X at a step of a golden replay asks how many endings, re-plays them on a thread and
    shows the distribution next to what happened — the same one `sim.whatif` gives for that seed."""
    from skirmish.engine.replay import load_replay
    from skirmish.sim.executors import InlineExecutor
    from skirmish.sim.whatif import WhatIfPlan, run_whatif
    from skirmish.ui.replay_view import ReplayScene

    golden = Path(__file__).resolve().parent / "golden" / "open_battle_heuristic_s11.json"
    rep = load_replay(golden)
    scene = ReplayScene(app, rep)
    app.push(scene)
    scene.goto(96)
    app.frame()
    post_and_frame(app, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="x"))
    post_and_frame(app, pygame.event.Event(pygame.TEXTINPUT, text="x"))  # the opening key is not typed
    assert scene.prompt is not None and scene.prompt.value == "40"
    post_and_frame(app, key(pygame.K_BACKSPACE), key(pygame.K_BACKSPACE))
    post_and_frame(app, pygame.event.Event(pygame.TEXTINPUT, text="3"), key(pygame.K_RETURN))
    runner = scene.whatif
    assert runner is not None and runner.games == 3 and runner.plan.at == 96
    assert runner.wait(120)
    app.frame()
    lines = runner.lines()
    assert lines[0].startswith(f"What if: from action 96 of {len(rep.actions)}, 3 endings")
    assert any(ln.startswith("What really happened: ") for ln in lines)
    expected = run_whatif(WhatIfPlan(rep, 96, 1), 3, InlineExecutor()).distribution()
    assert runner.result is not None and runner.result.distribution() == expected
    shot(app, "what_if")
    post_and_frame(app, key(pygame.K_ESCAPE))
    assert scene.whatif is None and app.top() is scene


def test_ui_r_m2_movement_that_ends_by_itself_is_announced(app):
    """Item 8: moving the last model that can move ends the step for that player, and the banner
    says so ("all models have moved") instead of waiting for an E that would end the next step."""
    from test_ui_scenes import down, motion, screen_of, up

    g = hidden_pair()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame(dt=1.0)
    s = g.state
    x, y = (float(v) for v in s.xy[s.model("p0.sokka").index])
    a, b = screen_of(scene, x, y), screen_of(scene, x - 3.0, y)
    post_and_frame(app, down(a), motion(b), up(b))
    post_and_frame(app, key(pygame.K_RETURN))
    assert type(g.history[-1]).__name__ == "Move"
    assert "all models have moved — movement over (avatar)" in scene.message
    assert g.state.active_player == 1 and scene.handover is not None
    assert [e.text for e in g.log if e.kind == "skip"][-1] == "avatar: all models have moved — movement over"
