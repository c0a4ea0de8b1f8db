"""UI benchmark: `frame_ms`, one frame of the default scenario at 1600x1000 with overlays on.

Headless (SDL dummy driver). The frame is the battle scene mid-game with a drawn path, the
line-of-sight overlay, the learners' odds box, a hovered model's profile card and the log panel,
i.e. everything a busy frame draws; the median of many frames is reported (issue 6 target:
<= 5 ms). `frame_text_renders` counts text surfaces rendered per frame after warm-up (0 means
unchanged text is never re-rendered).
"""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def run() -> dict[str, float]:
    import pygame

    from skirmish.bots.runner import seat_bots
    from skirmish.cli.play_cmds import setup
    from skirmish.engine.game import Game
    from skirmish.ui.app import App
    from skirmish.ui.battle import BattleScene
    from skirmish.ui.snapshot import render_game

    scenario, troupes, options = setup(None, [], None, [])
    game = Game(scenario, troupes, seed=5, options=options, bots=["heuristic", "heuristic"])
    bots = seat_bots(game, ["heuristic", "heuristic"])
    while game.state.turn < 3 and not game.over:  # a mid-game board
        game.apply(bots[game.state.active_player].choose(game))
    while game.state.step != "shooting" and not game.over:
        game.apply(bots[game.state.active_player].choose(game))
    app = App((1600, 1000))
    scene = BattleScene(app, game, [None, None])
    app.push(scene)
    mine = next(m for m in game.state.models if m.active and m.player == game.state.active_player)
    foe = next(m for m in game.state.models if m.active and m.player != mine.player)
    scene.selected = mine.id
    scene.hovered = foe.id
    scene.los_model = mine.id
    scene.show_odds = True
    scene.mode = "shoot"
    x, y = (float(v) for v in game.state.xy[mine.index])
    scene.path = [(x, y), (x + 1.0, y + 1.0)]
    for _ in range(10):  # warm-up: caches filled
        app.frame()
    renders = app.text.renders
    times = []
    n = 200
    for _ in range(n):
        t = time.perf_counter()
        app.frame(dt=1 / 60)
        times.append((time.perf_counter() - t) * 1000)
    per_frame_renders = (app.text.renders - renders) / n
    t = time.perf_counter()
    render_game(game, (1600, 1000))
    snap_ms = (time.perf_counter() - t) * 1000
    pygame.display.quit()
    return {
        "frame_ms": round(statistics.median(times), 3),
        "frame_ms_p95": round(sorted(times)[int(0.95 * n)], 3),
        "frame_text_renders": round(per_frame_renders, 3),
        "snapshot_ms": round(snap_ms, 1),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run()))
