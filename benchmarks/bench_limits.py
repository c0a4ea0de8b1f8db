"""Input limits (issue 11): the cost of the pre-scan, of refusing bombs, and of a game at the bounds.

Figures: milliseconds to pre-scan a 1 MB TOML text; milliseconds to refuse the issue's 40 KB
dotted-key file (1.6 GB inside `tomllib` before the pre-scan); CPU seconds of one heuristic game on
open_battle with terrain at the vertex bound (64 pieces of 16 vertices, all blocking sight and
impassable: the costliest layout measured), and with 30 v 30 models (the per-troupe bound).
"""

from __future__ import annotations

import math
import time

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.data.errors import DataError
from skirmish.data.limits import (
    MAX_MODELS_PER_TROUPE,
    MAX_TERRAIN_PIECES,
    MAX_TERRAIN_VERTICES,
    check_toml_text,
)
from skirmish.data.loader import parse_toml
from skirmish.data.scenario import Cover, Terrain
from skirmish.engine.game import Game


def _ms(fn: object, repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t)
    return best * 1000


def _refuse(text: str) -> None:
    try:
        parse_toml(text, "bomb.toml")
    except DataError:
        return
    raise AssertionError("the bomb was not refused")


def _game(scenario: object, troupes: list[object]) -> float:
    """CPU seconds of one game (CPU, not wall time: the figure must not depend on the machine's load)."""
    t = time.process_time()
    g = Game(scenario, troupes, seed=1, record_log=False, transactional=False)  # type: ignore[arg-type]
    play_out(g, seat_bots(g, ["heuristic", "heuristic"]))
    return time.process_time() - t


def run() -> dict[str, float]:
    out: dict[str, float] = {}
    big = "".join(f'k{i} = "{"x" * 20}"\n' for i in range(9000)) + "# " + "y" * 700_000 + "\n"
    out["prescan_ms_per_mb"] = _ms(lambda: check_toml_text(big, "big")) / (len(big) / 1e6)
    out["refuse_dotted_40kb_ms"] = _ms(lambda: _refuse("a" + ".a" * 20_000 + " = 1\n"))
    base = find_scenario("open_battle")
    per = MAX_TERRAIN_VERTICES // MAX_TERRAIN_PIECES
    terrain = []
    for i in range(MAX_TERRAIN_PIECES):
        cx, cy = 4 + (i % 8 + 0.5) * 5, 10 + (i // 8 + 0.5) * 3.5
        pts = [
            [cx + 1.2 * math.cos(2 * math.pi * j / per), cy + 1.2 * math.sin(2 * math.pi * j / per)]
            for j in range(per)
        ]
        terrain.append(
            Terrain(name=f"t{i}", polygon=pts, cover=Cover.light, blocks_sight=True, impassable=True)
        )
    dense = base.model_copy(update={"terrain": terrain})
    avatar, zuko = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    out["game_cpu_seconds_at_terrain_bound"] = _game(dense, [avatar, zuko])
    crowd = []
    for name in ("fire_nation_army", "kyoshi_warriors"):
        t = find_troupe(name)
        k = MAX_MODELS_PER_TROUPE // t.model_count()
        crowd.append(
            t.model_copy(update={"models": [e.model_copy(update={"count": e.count * k}) for e in t.models]})
        )
    out["game_cpu_seconds_at_model_bound"] = _game(base, crowd)
    return out
