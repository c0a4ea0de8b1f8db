"""Moving a model: its budget, flying, the whole-path check every move, charge and advance passes
(R-M2, R-M3, R-B4; design principle 10), and the goals bots and candidates path toward.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import numpy as np
import shapely

from skirmish.battlefield.memo import remember
from skirmish.battlefield.paths import Mover, PathProblem, check_path
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


DIRECTIONS = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))


def move_budget(game: Ctx, m: ModelState) -> float:
    """Inches a model may move this phase: its Move, halved when Limping (R-P5), plus any glide bonus."""
    budget = m.profile.move / 2 if m.limping else m.profile.move
    return budget + float(m.buffs.get("move", 0))


def flies(m: ModelState) -> bool:
    return m.profile.flying or m.glide


def mover_of(game: Ctx, m: ModelState) -> Mover:
    """`m` as the paths functions see it now: its enemies, whether it flies, who is out of play.

    A mover holds the game's position arrays (not copies), so the one built last for a model is
    the one that would be built now while the table, the arrays, the out-of-play mask (replaced
    whenever a model leaves or comes back) and flying are the same objects and value: it is
    kept per model (every move's check and the steps' option checks ask it). Its enemy row is
    read-only, as it is shared."""
    s = game.state
    fly = flies(m)
    gone = game.gone_mask()
    kept: dict[int, Mover] = game.memo.setdefault("movers", {})
    hit = kept.get(m.index)
    if (
        hit is not None
        and hit.table is game.table
        and hit.xy is s.xy
        and hit.radii is s.radii
        and hit.ignore is gone
        and hit.flying == fly
    ):
        return hit
    enemy = game.enemy_mask(m)
    enemy.setflags(write=False)
    mover = kept[m.index] = Mover(game.table, m.index, s.xy, s.radii, enemy, flying=fly, ignore=gone)
    return mover


def airborne(m: ModelState) -> bool:
    """Ungrounded for R-X2: a flyer, or a model that glided this turn."""
    return flies(m) or bool(m.buffs.get("airborne"))


def validate_path(
    game: Ctx,
    m: ModelState,
    path: np.ndarray,
    budget: float,
    rule: str,
    contact_target: int | None = None,
    *,
    kept: bool = True,
) -> None:
    """Raise `IllegalAction` unless the whole path is legal (design principle 10).

    `kept=False` asks `check_path` itself instead of the game's memo of checks (`path_problem`):
    the same answer (the check is a function of what the memo's key holds), for a path nobody
    checked on this position before and nobody will (a Move: its listing judges straight lines
    with the compiled batch and never asks the memo, and the position changes as it is applied),
    where the key's bytes and the kept entry are all the memo would add."""
    validate_start(game, m, path, rule)
    mover = mover_of(game, m)
    problem = (
        path_problem(game, mover, path, budget, contact_target)
        if kept
        else check_path(
            mover, np.asarray(path, dtype=float), max_length=budget, contact_target=contact_target
        )
    )
    if problem is not None:
        raise IllegalAction(problem.rule if problem.rule else rule, name_models(game, problem.message))


def validate_start(game: Ctx, m: ModelState, path: np.ndarray, rule: str) -> None:
    """`validate_path`'s first tests, which every path gets (a listed one too, `do_move`): raise
    `IllegalAction` unless it is two or more finite points starting at the model."""
    if path.ndim != 2 or path.shape[1] != 2 or len(path) < 2 or not _finite(path):
        raise IllegalAction(rule, "a path is two or more finite points")
    (x0, y0), (mx, my) = path[0].tolist(), game.state.xy[m.index].tolist()
    # A recorded path starts exactly at the model (distance 0 whatever the formula); otherwise hypot.
    if (x0 != mx or y0 != my) and np.hypot(x0 - mx, y0 - my) > 1e-6:
        raise IllegalAction(rule, f"the path must start at {m.name}'s position")


def _finite(path: np.ndarray) -> bool:
    """`np.isfinite(path).all()` for a (k, 2) path; plain floats for the usual few points."""
    if len(path) > 16:
        return bool(np.isfinite(path).all())
    isfinite = math.isfinite
    return all(isfinite(x) and isfinite(y) for x, y in path.tolist())


PATH_CHECKS = 512
"""Whole-path checks a game keeps (`path_problem`; oldest forgotten first)."""


def path_problem(
    game: Ctx, mover: Mover, path: np.ndarray, max_length: float, contact_target: int | None = None
) -> PathProblem | None:
    """`check_path(mover, path, max_length=..., contact_target=...)`, kept on exact inputs.

    The same path is often checked twice on the same position: an Advance listed by the step's
    candidates (which check each one) is checked again when it is applied. The game keeps each
    answer keyed on every input the check reads (the mover's index, positions, radii, enemy and
    out-of-play masks, flying, the path's points, the allowance, the charge target) and on the
    table itself (held in the entry and compared by identity, so a freed table's id cannot match)."""
    pts = np.asarray(path, dtype=float)
    key = (
        mover.index,
        mover.xy.tobytes(),
        mover.radii.tobytes(),
        None if mover.enemy is None else np.asarray(mover.enemy, dtype=bool).tobytes(),
        None if mover.ignore is None else np.asarray(mover.ignore, dtype=bool).tobytes(),
        mover.flying,
        pts.tobytes(),
        float(max_length),
        contact_target,
    )
    memo: dict[tuple[object, ...], tuple[object, PathProblem | None]] = game.memo.setdefault(
        "path_checks", {}
    )
    hit = memo.get(key)
    if hit is not None and hit[0] is mover.table:
        return hit[1]
    problem = check_path(mover, pts, max_length=max_length, contact_target=contact_target)
    remember(memo, key, (mover.table, problem), PATH_CHECKS)
    return problem


def name_models(game: Ctx, text: str) -> str:
    """The geometry layer names bases by index; players want names."""
    models = game.state.models

    def title(match: re.Match[str]) -> str:
        i = int(match.group(2))
        return f"{match.group(1) or ''}{models[i].name}" if 0 <= i < len(models) else match.group(0)

    return re.sub(r"(enemy )?model (\d+)", title, text)


def place(game: Ctx, m: ModelState, path: np.ndarray) -> None:
    game.state.xy[m.index] = path[-1]
    game.placed(m.index)


def beside(game: Ctx, m: ModelState, f: ModelState, gap: float = 0.3) -> np.ndarray:
    """The point just short of base contact with `f`, on the side facing `m` (a free goal to path to)."""
    s = game.state
    # Plain floats, the same operations numpy does on the 2-vectors (the differences, numpy's
    # hypot, the quotients, then `f + unit * (r_m + r_f + gap)` element by element; a test holds
    # the two equal bit for bit): a dozen small arrays cost more than the sums.
    mx, my = s.xy[m.index].tolist()
    fx, fy = s.xy[f.index].tolist()
    dx, dy = mx - fx, my - fy
    n = float(np.hypot(dx, dy))
    ux, uy = (dx / n, dy / n) if n > 1e-9 else (0.0, -1.0)
    reach = float(s.radii[m.index]) + float(s.radii[f.index]) + gap
    return np.array([fx + ux * reach, fy + uy * reach])


def default_goals(game: Ctx, m: ModelState) -> list[np.ndarray]:
    """A free point beside the nearest active enemy, and the nearest medium/dense cover piece."""
    return goals_among(game, m, game.enemy_mask(m) & ~game.gone_mask())


def goals_among(game: Ctx, m: ModelState, foes: np.ndarray) -> list[np.ndarray]:
    """`default_goals` with the active enemies given as a mask over the models (the caller has the
    enemy and out-of-play masks already): beside the nearest of them, and the nearest cover."""
    s = game.state
    here = s.xy[m.index]
    foes = np.asarray(foes, dtype=bool)
    # Kept on every input read below (the mover's place and radius, the foes (the mask's bytes
    # determine which they are), their places (the mask's rows, in model order: the bytes of
    # `s.xy[flatnonzero(foes)]`) and radii; the cover points are the table's, held in the entry and
    # compared by identity): one step lists each model again after every action, and the enemies
    # stand still in its own phase. Which foes they are is worked out only when not kept.
    key = (m.index, here.tobytes(), foes.tobytes(), s.xy[foes].tobytes(), s.radii.tobytes())
    memo: dict[tuple[object, ...], tuple[object, tuple[np.ndarray, ...]]] = game.memo.setdefault("goals", {})
    hit = memo.get(key)
    if hit is not None and hit[0] is game.table:
        return list(hit[1])
    idx = np.flatnonzero(foes)
    goals: list[np.ndarray] = []
    # The nearest of each (the first of equals): the same hypot per element as one at a time.
    if len(idx):
        d = s.xy[idx] - here
        goals.append(beside(game, m, s.models[int(idx[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))])]))
    covers = cover_points(game)
    if covers:
        d = game.memo["cover_points"][2] - here
        goals.append(covers[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))])
    for g in goals:
        g.flags.writeable = False
    remember(memo, key, (game.table, tuple(goals)), GOALS_MEMO)
    return goals


GOALS_MEMO = 512
"""Goal lists a game keeps (`goals_among`; oldest forgotten first). Shared, like the cover points:
nobody modifies a goal."""


def cover_points(game: Ctx) -> list[np.ndarray]:
    """A standing point inside each medium/dense, passable cover piece (its representative point)."""
    # Keyed by the table object itself (held in the memo, so it cannot be freed and its id reused).
    found = game.memo.get("cover_points")
    if found is not None and found[0] is game.table:
        return list(found[1])
    pts = []
    for t in game.table.pieces:
        if t.cover.rank >= 2 and not t.impassable:
            p = shapely.Polygon(t.polygon).point_on_surface()
            pts.append(np.array([p.x, p.y]))
    game.memo["cover_points"] = (game.table, pts, np.array(pts, dtype=float).reshape(-1, 2))
    return list(pts)


def end_glides(game: Ctx) -> None:
    """Standard movement is over: gliders land ("flies for this move", R-B4), so cover counts again."""
    landed = False
    for m in game.state.models:
        if m.glide:
            m.glide = False
            m.buffs.pop("move", None)
            m.buffs["airborne"] = 1  # its attacks this turn still come from the air (R-X2)
            landed = True
    if landed:
        game.moved()
