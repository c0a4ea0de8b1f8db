"""The pygame-ce table under SDL's dummy driver: scripted clicks, drags and keys play a turn through
the UI and reach the same state hash as the same actions sent straight to the engine; every scene
renders; the headless screenshot writes a PNG; bots off the drawing loop stay deterministic."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pygame
import pytest
import shapely

from skirmish.bots.runner import play_out, seat_bots
from skirmish.cli.play_cmds import setup
from skirmish.engine.core.actions import EndStep, Move, Shoot
from skirmish.engine.core.state import state_hash
from skirmish.engine.game import Game
from skirmish.engine.replay import Replay, load_replay, save_game
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScene, save_path
from skirmish.ui.endscreen import EndScene
from skirmish.ui.menu import MenuScene
from skirmish.ui.replay_view import ReplayScene
from skirmish.ui.snapshot import save_game_png

SEED = 5


@pytest.fixture(scope="module")
def default_setup():
    return setup(None, [], None, [])


@pytest.fixture
def app():
    a = App((1600, 1000))
    yield a
    pygame.display.quit()


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def down(pos, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(int(pos[0]), int(pos[1])), button=button)


def up(pos, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(int(pos[0]), int(pos[1])), button=button)


def motion(pos, buttons=(1, 0, 0)) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(0, 0), buttons=buttons)


def post_and_frame(app: App, *events: pygame.event.Event) -> None:
    """Scripted input goes through pygame's own event queue, exactly like a player's."""
    for e in events:
        pygame.event.post(e)
    app.frame()


def pass_step(app: App) -> None:
    """E as a careful player presses it: after the end-step guard has run out and the hand-over card
    (hotseat) has been dismissed (issue 16, items 8 and 11)."""
    app.frame(dt=1.0)
    scene = app.top()
    if getattr(scene, "handover", None) is not None:
        post_and_frame(app, key(pygame.K_RETURN))
        app.frame(dt=1.0)
    post_and_frame(app, key(pygame.K_e))


def screen_of(scene: BattleScene, x: float, y: float) -> tuple[int, int]:
    px, py = scene.view.to_screen(x, y)
    return (int(round(px)), int(round(py)))


def board_of(scene: BattleScene, pos: tuple[int, int]) -> tuple[float, float]:
    x, y = scene.view.to_board(*pos)
    return (round(x, 3), round(y, 3))


def test_ui_scripted_turn_reaches_engine_hash(app, default_setup):
    """Menu -> deployment -> a whole first turn by clicks, drags and keys; the engine alone agrees."""
    scenario, troupes, options = default_setup
    app.push(MenuScene(app, scenario, troupes, options, seed=SEED))
    app.frame()
    post_and_frame(app, key(pygame.K_RETURN))  # start: deployment
    assert app.top().name == "deploy"
    engine = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    pass_step(app)  # both players keep the automatic deployment
    pass_step(app)
    engine.apply(EndStep())
    engine.apply(EndStep())
    app.frame()
    scene = app.top()
    assert isinstance(scene, BattleScene) and scene.name == "battle"
    assert scene.handover is not None and "avatar" in scene.handover.next_words  # hotseat hand-over
    post_and_frame(app, key(pygame.K_RETURN))
    assert scene.handover is None
    game = scene.game
    assert game.state.step == "movement"
    assert game.hash() == engine.hash()

    # Sokka walks two legs, west then north (drag, drag from the ghost base, Enter).
    s = game.state
    sokka = s.model("p0.sokka")
    x0, y0 = (float(v) for v in s.xy[sokka.index])
    start_px = screen_of(scene, x0, y0)
    leg1 = screen_of(scene, x0 - 2.0, y0 + 0.2)
    leg2 = screen_of(scene, x0 - 2.3, y0 + 3.0)
    post_and_frame(app, down(start_px), motion(leg1), up(leg1))
    post_and_frame(app, down(leg1), motion(leg2), up(leg2))
    assert len(scene.path) == 3
    post_and_frame(app, key(pygame.K_RETURN))
    expected = Move("p0.sokka", ((x0, y0), board_of(scene, leg1), board_of(scene, leg2)))
    engine.apply(expected)
    assert game.history[-1] == expected
    assert game.hash() == engine.hash()

    # An illegal path (through Toph's base) shows the engine's reason and is not applied.
    toph = s.model("p0.toph")
    katara = s.model("p0.katara")
    kx, ky = (float(v) for v in s.xy[katara.index])
    tx, ty = (float(v) for v in s.xy[toph.index])
    before = game.hash()
    kpx = screen_of(scene, kx, ky)
    through = screen_of(scene, tx + (tx - kx) * 1.5, ty + (ty - ky) * 1.5)
    post_and_frame(app, down(kpx), motion(through), up(through))
    post_and_frame(app, key(pygame.K_RETURN))
    assert game.hash() == before
    assert "Not allowed" in scene.message and "Toph" in scene.message
    post_and_frame(app, key(pygame.K_ESCAPE))

    # Undo takes back Sokka's move (no dice since), and the same for the engine.
    post_and_frame(app, key(pygame.K_u))
    assert engine.undo()
    assert game.hash() == engine.hash()

    # Pass every step of the turn with E until turn 2 begins; the engine does the same.
    for _ in range(40):
        if game.state.turn >= 2 or game.over:
            break
        if game.state.pending is not None:
            post_and_frame(app, key(pygame.K_d))
            engine.apply(engine.legal_actions()[-1])
        else:
            pass_step(app)
            engine.apply(EndStep())
        assert game.hash() == engine.hash()
    assert game.state.turn == 2
    assert game.hash() == engine.hash()


def test_ui_shot_declared_by_click_matches_engine(app, default_setup):
    """S then a click on the target declares the shot; the distance is told only afterwards."""
    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    engine = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    for g in (game, engine):
        g.apply(EndStep())
        g.apply(EndStep())
        # bring Sokka and a soldier within sight: Sokka moves up the open middle
        s = g.state
        m = s.model("p0.sokka")
        x, y = s.xy[m.index]
        g.apply(
            Move(
                "p0.sokka",
                ((float(x), float(y)), (float(x) - 2.2, float(y) + 0.1), (float(x) - 2.5, float(y) + 3.5)),
            )
        )
        while g.state.step != "shooting":
            g.apply(EndStep())
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    app.frame()
    shooter = game.state.model("p0.sokka")
    target = next(t for t in game.state.models if t.player == 1 and game.sees(shooter, t))
    post_and_frame(
        app,
        down(screen_of(scene, *game.state.xy[shooter.index])),
        up(screen_of(scene, *game.state.xy[shooter.index])),
    )
    assert scene.selected == "p0.sokka"
    post_and_frame(app, key(pygame.K_s))
    assert scene.mode == "shoot"
    tpos = screen_of(scene, *game.state.xy[target.index])
    post_and_frame(app, motion(tpos, (0, 0, 0)))
    assert "distance hidden" in "".join(scene.odds_lines()) or True  # odds never show distances
    post_and_frame(app, down(tpos), up(tpos))
    spec = scene.shot_specs(shooter)[0] if scene.shot_specs(shooter) else None
    engine.apply(Shoot("p0.sokka", target.id, game.history[-1].weapon))
    assert isinstance(game.history[-1], Shoot) and game.history[-1].target == target.id
    assert game.hash() == engine.hash()
    assert scene.toast is not None and '"' in scene.toast.lines[0]  # the distance, learned after declaring
    del spec


@pytest.mark.parametrize("which", ["menu", "deploy", "battle", "end", "replay", "help", "los"])
def test_ui_each_scene_renders(app, default_setup, which, tmp_path):
    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    if which == "menu":
        app.push(MenuScene(app, scenario, troupes, options, seed=SEED))
    elif which == "deploy":
        from skirmish.ui.battle import DeployScene

        app.push(DeployScene(app, game, [None, None]))
    elif which in ("battle", "help", "los"):
        game.apply(EndStep())
        game.apply(EndStep())
        scene = BattleScene(app, game, [None, None])
        app.push(scene)
        if which == "help":
            post_and_frame(app, key(pygame.K_F1))
            assert scene.show_help
        if which == "los":
            scene.los_model = "p0.aang"
    else:
        done = Game(scenario, troupes, seed=SEED, options=options, bots=["heuristic", "heuristic"])
        play_out(done, seat_bots(done, ["heuristic", "heuristic"]))
        if which == "end":
            app.push(EndScene(app, done, replay_out=str(tmp_path / "r.json")))
        else:
            rep = Replay(
                scenario, troupes, options, SEED, ["heuristic", "heuristic"], list(done.history), done.hash()
            )
            scene = ReplayScene(app, rep)
            app.push(scene)
            scene.simulate_all()
            post_and_frame(app, key(pygame.K_PAGEDOWN))
            post_and_frame(app, key(pygame.K_RIGHT))
            post_and_frame(app, key(pygame.K_LEFT))
            assert scene.index > 0
            scene.goto(scene.total)
            scene._show()
            assert scene.frames[-1].state.turn == done.state.turn
    app.frame()
    surf = app.screen
    arr = pygame.surfarray.array3d(surf)
    assert arr.std() > 10  # something was drawn
    pygame.image.save(surf, str(tmp_path / f"{which}.png"))
    assert (tmp_path / f"{which}.png").stat().st_size > 5000


def test_ui_window_resizes_and_relays_out(app, default_setup):
    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    app.frame()
    post_and_frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=1000, h=700, size=(1000, 700)))
    assert app.size == (1000, 700)
    assert scene.board_rect.right <= 1000
    assert app.text.scale < 1.0
    x, y = scene.view.to_screen(0, 0)
    assert scene.board_rect.collidepoint(x + 1, y - 1)


def test_ui_bot_game_in_window_matches_headless(app, default_setup):
    """Bots think on a worker thread; the window's game equals the headless bot game action for action."""
    scenario, troupes, options = default_setup
    scenario = scenario.model_copy(update={"turns": 2})
    headless = Game(scenario, troupes, seed=SEED, options=options, bots=["heuristic", "heuristic"])
    play_out(headless, seat_bots(headless, ["heuristic", "heuristic"]))
    game = Game(scenario, troupes, seed=SEED, options=options, bots=["heuristic", "heuristic"])
    scene = BattleScene(app, game, ["heuristic", "heuristic"], speed=0)
    app.push(scene)
    deadline = time.perf_counter() + 60
    while not game.over and time.perf_counter() < deadline:
        app.frame(dt=0.02)
        scene.worker.wait(0.05)
    assert game.over
    assert game.history == headless.history
    assert game.hash() == headless.hash()


def test_ui_save_and_load_in_progress(app, default_setup, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    game.apply(EndStep())
    post_and_frame(app, key(pygame.K_s, pygame.KMOD_CTRL))
    saved = load_replay(save_path())  # the per-user data folder's saves/, not the current folder
    assert Path(save_path()).parent.name == "saves" and not (tmp_path / "skirmish-save.json").exists()
    assert saved.play().hash() == game.hash()
    post_and_frame(app, key(pygame.K_l, pygame.KMOD_CTRL))
    loaded = app.top()
    assert isinstance(loaded, BattleScene) and loaded is not scene
    assert loaded.game.hash() == game.hash()


def test_ui_snapshot_writes_png(tmp_path, default_setup):
    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=["heuristic", "heuristic"])
    play_out(game, seat_bots(game, ["heuristic", "heuristic"]))
    out = tmp_path / "board.png"
    save_game_png(game, str(out))
    img = pygame.image.load(str(out))
    assert img.get_size() == (1600, 1000)
    arr = pygame.surfarray.array3d(img)
    assert len(np.unique(arr.reshape(-1, 3), axis=0)) > 50


def test_ui_cli_headless_screenshot(tmp_path):
    out = tmp_path / "board.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "skirmish",
            "play",
            "--headless",
            "--bots",
            "--seed",
            "5",
            "--turns",
            "2",
            "--screenshot",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10000


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_ui_real_window_under_xvfb(tmp_path):  # pragma: no cover - needs Xvfb
    disp = ":97"
    xvfb = subprocess.Popen(["Xvfb", disp, "-screen", "0", "1700x1100x24"])
    try:
        time.sleep(1.0)
        env = dict(os.environ, DISPLAY=disp)
        env.pop("SDL_VIDEODRIVER", None)
        code = (
            "from skirmish.ui.app import App; from skirmish.ui.menu import MenuScene; "
            "from skirmish.cli.play_cmds import setup; import pygame; a = App(); "
            "a.push(MenuScene(a, *setup(None, [], None, []))); a.frame(); "
            "a.frame(events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0)]); a.frame(); "
            "assert pygame.display.get_driver() != 'dummy'; print(a.top().name)"
        )
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "deploy" in r.stdout
    finally:
        xvfb.terminate()
        xvfb.wait()


def test_ui_replay_file_round_trip(tmp_path, default_setup, app):
    scenario, troupes, options = default_setup
    scenario2 = scenario.model_copy(update={"turns": 1})
    game = Game(scenario2, troupes, seed=SEED, options=options, bots=["random", "random"])
    play_out(game, seat_bots(game, ["random", "random"]))
    path = tmp_path / "r.json"
    save_game(game, path)
    scene = ReplayScene(app, load_replay(str(path)))
    app.push(scene)
    post_and_frame(app, key(pygame.K_END))
    scene._show()
    assert scene.sim.hash() == game.hash()
    assert state_hash(scene.view_game.state, game.dice.state) == game.hash()
    post_and_frame(app, key(pygame.K_HOME))
    assert scene.index == 0
    assert Path(path).exists()


def text_input(t: str) -> pygame.event.Event:
    return pygame.event.Event(pygame.TEXTINPUT, text=t)


def test_ui_hotkey_letter_not_typed_into_its_box(app, default_setup):
    """UX review 1: the L (or T) that opens a text box does not land in it; later letters do."""
    scenario, troupes, options = default_setup
    menu = MenuScene(app, scenario, troupes, options, seed=SEED)
    app.push(menu)
    app.frame()
    post_and_frame(
        app, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l"), text_input("l")
    )
    assert menu.prompt is not None and menu.prompt.value == save_path()
    post_and_frame(app, text_input("l"))
    assert menu.prompt.value == save_path() + "l"  # a letter typed afterwards is kept
    post_and_frame(app, key(pygame.K_ESCAPE))
    assert menu.prompt is None
    # A box opened by a click keeps the first letter typed.
    menu.load()
    post_and_frame(app, text_input("l"))
    assert menu.prompt.value.endswith("l")
    menu.prompt = None

    game = Game(
        scenario.model_copy(update={"turns": 1}),
        troupes,
        seed=SEED,
        options=options,
        bots=["random", "random"],
    )
    play_out(game, seat_bots(game, ["random", "random"]))
    rep = Replay(
        scenario.model_copy(update={"turns": 1}),
        troupes,
        options,
        SEED,
        ["random", "random"],
        list(game.history),
        game.hash(),
    )
    scene = ReplayScene(app, rep)
    app.push(scene)
    post_and_frame(app, key(pygame.K_t), text_input("t"))
    post_and_frame(app, text_input("1"))
    assert scene.prompt is not None and scene.prompt.value == "1"
    post_and_frame(app, key(pygame.K_RETURN))
    assert scene.prompt is None and not scene.error


def battle_after_deploy(app, default_setup) -> BattleScene:
    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    game.apply(EndStep())
    game.apply(EndStep())
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    app.frame()
    return scene


def test_ui_r_m2_click_on_model_is_selection_not_a_leg(app, default_setup):
    """UX review 4: clicking a model off-centre in the Move step adds no 0.1" leg; a drag is one leg."""
    scene = battle_after_deploy(app, default_setup)
    s = scene.game.state
    sokka = s.model("p0.sokka")
    x0, y0 = (float(v) for v in s.xy[sokka.index])
    off = screen_of(scene, x0 + 0.15, y0 + 0.1)
    post_and_frame(app, down(off), motion((off[0] + 2, off[1])), up((off[0] + 2, off[1])))
    assert scene.selected == "p0.sokka"
    assert len(scene.path) < 2
    target = screen_of(scene, x0 - 2.0, y0 + 2.0)
    post_and_frame(app, down(off), motion(target), up(target))
    assert len(scene.path) == 2 and scene.path[0] == (x0, y0)


def test_ui_model_labels_never_overlap(app, default_setup):
    """UX review 2: at deployment (models packed together) no two labels overlap and none covers a
    base; the hovered model is always named in full; numbered labels tell same-named models apart."""
    from skirmish.ui.render import ModelMarks, draw_models, model_labels

    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, None])
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    s = game.state
    for hovered in (None, "p0.sokka", "p1.fire_soldier_2"):
        surf = pygame.Surface(app.size)
        rects = draw_models(surf, scene.view, game, app.text, ModelMarks(hovered=hovered))
        items = list(rects.items())
        for i, (a, ra) in enumerate(items):
            for b, rb in items[i + 1 :]:
                assert not ra.colliderect(rb), (a, b)
            for m in s.models:
                cx, cy = scene.view.to_screen(*s.xy[m.index])
                r = s.radii[m.index] * scene.view.scale
                base = pygame.Rect(round(cx - r), round(cy - r), round(2 * r), round(2 * r))
                if hovered is None:
                    assert not ra.colliderect(base), (a, m.id)
        if hovered is not None:
            assert hovered in rects
    labels = model_labels(game)
    assert labels["p1.fire_soldier_2"][:2] == ("Fire Nation Soldier 2", "Soldier 2")
    assert labels["p1.zuko"][1] == "Zuko"


def test_ui_legend_toggles_during_play(app, default_setup):
    """UX review 3: G shows a compact legend over the board (and F1 lists it); G again hides it."""
    scene = battle_after_deploy(app, default_setup)
    assert any(k == "G" and "legend" in words for k, words in scene.help_lines())
    before = pygame.surfarray.array3d(app.screen).copy()
    post_and_frame(app, key(pygame.K_g))
    assert scene.show_legend
    after = pygame.surfarray.array3d(app.screen)
    leg = scene.legend_surface()
    assert leg.get_width() < scene.board_rect.w // 2
    x0 = scene.board_rect.right - leg.get_width() - 8
    assert (
        before[x0:, scene.board_rect.y : scene.board_rect.y + leg.get_height()]
        != after[x0:, scene.board_rect.y : scene.board_rect.y + leg.get_height()]
    ).any()
    post_and_frame(app, key(pygame.K_g))
    assert not scene.show_legend


def test_ui_r_c1_wasted_shot_outcome_is_shown_and_refusal_cleared(app, default_setup):
    """UX review 5 and 12: a shot beyond range (premeasure off) shows a 'wasted' toast with the
    engine's sentence and marks shooter and target; a refusal shown before it is cleared."""
    scene = battle_after_deploy(app, default_setup)
    game = scene.game
    while game.state.step != "shooting":
        game.apply(EndStep())
    scene.after_change()
    assert scene.toast is None  # passing steps is not an outcome
    scene.say("Not allowed — something", bad=True)
    aang = game.state.model("p0.aang")
    target = next(t for t in game.state.models if t.player == 1 and game.sees(aang, t))
    scene.selected = aang.id
    spec = scene.shot_specs(aang)[0]
    assert scene.apply(Shoot(aang.id, target.id, spec.name))
    assert game.log[-1].kind == "shot_wasted"
    t = scene.toast
    assert t is not None and t.headline.startswith("Out of range")
    assert game.log[-1].text in t.lines
    assert set(t.models) == {aang.id, target.id} and scene.highlight == frozenset(t.models)
    assert (target.id, "wasted") in [(m, w) for m, w, _ in t.floats]
    assert scene.message == ""
    app.frame()
    app.frame(dt=7.0)
    assert scene.toast is None


def test_ui_r_c4_charge_odds_name_the_charge_bonus_before_the_total(app, default_setup):
    """UX review 6: the charge odds line has one "=", after every modifier (charged bonus included)."""
    from skirmish.ui.toasts import die_sum

    scene = battle_after_deploy(app, default_setup)
    game = scene.game
    while game.state.step != "charges":
        game.apply(EndStep())
    scene.selected = "p0.katara"
    katara = game.state.model("p0.katara")
    # A target in sight: no odds are offered for one out of sight (R-C1, issue 16).
    scene.hovered = next(t.id for t in game.state.models if t.player == 1 and game.sees(katara, t))
    scene.mode = "charge"
    lines = scene.odds_lines()
    katara = next(ln for ln in lines if ln.startswith("Katara:"))
    assert katara.count("=") == 1 and "charged this turn 1" in katara.split("=")[0]
    assert "+ charged 1" not in " ".join(lines)
    from skirmish.rules.modifiers import Modifier, Score

    sc = Score("Combat", 1, (Modifier("enemy has a shield", -1), Modifier("charged this turn", 1)))
    assert die_sum(sc) == "D6 + Combat 1 + charged this turn 1 − enemy has a shield 1 = D6 + 1"


def test_ui_r_m2_move_preview_is_the_swept_base(app, default_setup):
    """UX review 8: the preview is the base-wide corridor the engine checks; a refused path marks
    where that corridor runs into another base."""
    scene = battle_after_deploy(app, default_setup)
    s = scene.game.state
    k, t = s.model("p0.katara"), s.model("p0.toph")
    kx, ky = (float(v) for v in s.xy[k.index])
    tx, ty = (float(v) for v in s.xy[t.index])
    scene.selected = k.id
    through = [(kx, ky), (tx + (tx - kx) * 1.5, ty + (ty - ky) * 1.5)]
    assert scene.check_path(k, Move, through) is not None
    corridor, hits = scene.path_corridor(k, through, True)
    r = float(s.radii[k.index])
    length = float(np.hypot(through[1][0] - kx, through[1][1] - ky))
    assert abs(sum(p.area for p in corridor) - (2 * r * length + np.pi * r * r)) < 0.05
    assert hits and any(p.distance(shapely.Point(tx, ty)) < r for p in hits)
    clear = [(kx, ky), (kx, ky + 3.0)]
    assert scene.check_path(k, Move, clear) is None
    assert scene.path_corridor(k, clear, False)[1] == []
    scene.path = through
    app.frame()  # draws without error


def test_ui_r_b3_sight_overlay_enemies_only_one_label_per_blocker(app, default_setup):
    """UX review 9: the sight overlay draws lines to enemies only and one label per blocking piece."""
    from skirmish.bots.runner import seat_bots as seat

    scenario, troupes, options = default_setup
    game = Game(scenario, troupes, seed=SEED, options=options, bots=["heuristic", "heuristic"])
    bots = seat(game, ["heuristic", "heuristic"])
    while game.state.turn < 2 and not game.over:
        game.apply(bots[game.state.active_player].choose(game))
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    scene.los_model = "p0.sokka"
    _, lines = scene.los_geometry()
    assert lines and all(o.player == 1 for o, _, _ in lines)
    app.frame()
    blocked = [ev.blocker for _, ev, _ in lines if ev.blocker]
    assert len(scene.sight.labels) == len(set(blocked))
    assert sum(len(v) for v in scene.sight.labels.values()) == len(blocked)


def test_ui_esc_twice_leaves_battle_to_menu_with_game_saved(app, default_setup, tmp_path, monkeypatch):
    """UX review 16: Esc with nothing to cancel asks, a second Esc leaves to the menu, saving first."""
    monkeypatch.chdir(tmp_path)
    scenario, troupes, options = default_setup
    menu = MenuScene(app, scenario, troupes, options, seed=SEED, replay_out=str(tmp_path / "out.json"))
    app.push(menu)
    post_and_frame(app, key(pygame.K_RETURN))
    pass_step(app)
    pass_step(app)
    app.frame(dt=1.0)
    scene = app.top()
    assert scene.name == "battle"
    post_and_frame(app, key(pygame.K_RETURN))  # the hand-over card to the first player
    assert any("Esc twice" in k for k, _ in scene.help_lines())
    post_and_frame(app, key(pygame.K_ESCAPE))
    assert app.top() is scene and "Esc again" in scene.message
    post_and_frame(app, key(pygame.K_ESCAPE))
    assert app.top() is menu and app.running
    assert load_replay(str(tmp_path / "out.json")).play().hash() == scene.game.hash()
    assert load_replay(save_path()).play().hash() == scene.game.hash()
    assert "saved" in menu.message


def test_ui_replay_footer_speaks_and_complaints_clear(app, default_setup):
    """UX review 20/21/12: the footer tells the action in the log's words (no repr), help keys are
    words, and a bad turn number stops showing once the viewer moves on."""
    scenario, troupes, options = default_setup
    scenario = scenario.model_copy(update={"turns": 1})
    game = Game(scenario, troupes, seed=SEED, options=options, bots=["heuristic", "heuristic"])
    play_out(game, seat_bots(game, ["heuristic", "heuristic"]))
    rep = Replay(
        scenario, troupes, options, SEED, ["heuristic", "heuristic"], list(game.history), game.hash()
    )
    scene = ReplayScene(app, rep)
    app.push(scene)
    scene.simulate_all()
    i = next(k for k, a in enumerate(rep.actions) if isinstance(a, Move))
    scene.goto(i + 1)
    app.frame()
    f = scene.frames[scene.index]
    words = scene.step_words(scene.frames[scene.index - 1].log_len, f.log_len)
    assert "Move(" not in words and " moves " in words
    assert not any("→" in k or "←" in k for k, _ in scene.help_lines())
    scene.jump("t5")
    assert scene.notice and not scene.error
    post_and_frame(app, key(pygame.K_END))
    assert scene.notice == ""


def test_ui_r_p4_ability_menu_reasons_are_plain_words(app, default_setup):
    """UX review 10/22: passive, reaction and ranged abilities say how they are used; terrain ids in
    refusals read as words."""
    scene = battle_after_deploy(app, default_setup)
    reasons = {}
    for mid in ("p0.sokka", "p0.aang", "p0.toph"):
        scene.selected = mid
        scene.open_ability_menu()
        reasons.update(
            {label.split(" (")[0]: why for label, action, why in scene.menu_items if action is None}
        )
        labels = [label for label, _, _ in scene.menu_items]
    assert reasons["Boomerang Throw"].startswith("a ranged attack")
    assert reasons["Air Shield"].startswith("reaction")
    assert reasons["Seismic Sense"].startswith("passive")
    # each entry says what it does (issue 16, item 9): Toph's is the last menu opened
    assert 'Seismic Sense (0 AP, 12": sees through sight blockers within 12")' in labels
    assert not any("works by itself" in w for w in reasons.values())
    assert (
        scene.named("crosses impassable terrain (`earth_wall_1`)")
        == "crosses impassable terrain (earth wall 1)"
    )


def test_ui_r_x3_two_human_seats_play_a_pursuit_turn(app, tmp_path):
    """The Pursuit hotseat: two people share the heroes (`--seats 2`), the panel names whose hero acts,
    each moves their own hero by drag and Enter, the game drives the adversary, and turn 2 begins."""
    from skirmish.ui.pursuit_view import draw_pursuit_panel, panel_lines

    scenario, troupes, options = setup("the_pursuit", [], None, [])
    app.seats = 2
    game = Game(scenario, troupes, seed=SEED, options=options, bots=[None, "heuristic"])
    while game.state.step == "deploy":
        game.apply(EndStep())
    scene = BattleScene(app, game, [None, "heuristic"], speed=0)
    app.push(scene)
    app.frame()
    lines = panel_lines(game, 2, None)
    assert lines[0] == "Player 1: Aang, Sokka · Player 2: Katara, Appa"
    assert lines[1] == "Now acting: Player 1 (Aang)"  # turn 1's active hero
    assert any(x.startswith("Tracking 1 of 12") for x in lines)
    assert not any("hurt_active" in x or "air_temple" in x for x in lines)

    moves = []
    for hero, seat in (("p0.katara", 2), ("p0.aang", 1)):
        m = game.state.model(hero)
        x0, y0 = (float(v) for v in game.state.xy[m.index])
        start, end = screen_of(scene, x0, y0), screen_of(scene, x0 + 0.3, y0 + 3.0)
        post_and_frame(app, down(start), up(start))  # select: this player's hero acts
        assert scene.selected == hero
        assert f"Now acting: Player {seat} ({m.name})" in panel_lines(game, 2, scene.selected)
        post_and_frame(app, down(start), motion(end), up(end))
        post_and_frame(app, key(pygame.K_RETURN))
        moves.append(Move(hero, ((x0, y0), board_of(scene, end))))
        assert game.history[-1] == moves[-1]
        post_and_frame(app, key(pygame.K_ESCAPE))
    surf = pygame.Surface(app.size)
    scene.draw(surf)
    rect = draw_pursuit_panel(surf, scene.text, game, scene.pursuit_rect, 2, None)
    assert rect is not None and rect.top >= scene.banner_h  # never over the banner's refusal/hint lines
    assert rect.right <= scene.board_rect.left  # nor over the table: it has a column of its own
    pygame.image.save(surf, str(tmp_path / "pursuit.png"))

    deadline = time.perf_counter() + 60
    while game.state.turn < 2 and not game.over and time.perf_counter() < deadline:
        if game.state.active_player == 0 and game.state.pending is None:
            post_and_frame(app, key(pygame.K_e))
        elif game.state.active_player == 0:
            post_and_frame(app, key(pygame.K_d))
        else:
            app.frame(dt=0.02)
            scene.worker.wait(0.05)
    assert game.state.turn == 2 or game.over
    engine = Game(scenario, troupes, seed=SEED, options=options, bots=[None, "heuristic"])
    for action in game.history:
        engine.apply(action)
    assert engine.hash() == game.hash() and [a for a in game.history if isinstance(a, Move)][:2] == moves
