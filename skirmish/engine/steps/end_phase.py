"""The End Phase: advances (R-E1), Combat Distraction (R-E2), Battle Points (R-E3), turn end (R-E4, R-T4)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np
import shapely

from skirmish.battlefield.measure import CONTACT, path_length
from skirmish.battlefield.paths import check_path, retreat_path
from skirmish.engine.core.actions import Action, Advance, Disengage
from skirmish.engine.core.errors import REFUSED, IllegalAction, Refusal, refuse
from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.core.state import ModelState, abilities_of
from skirmish.engine.effects.moving import (
    DIRECTIONS,
    default_goals,
    mover_of,
    name_models,
    path_problem,
    place,
    validate_path,
)

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx

DISTRACTION_MOVE = 6.0


def advance_refusal(game: Ctx, m: ModelState, *, words: bool = True) -> Refusal | None:
    """Why `m` may not advance now (R-E1; R-M4: a model Taking Cover does not move until the next
    Move Phase), or None; with `words=False`, `REFUSED` instead of the sentence."""
    if not m.active:
        return REFUSED if not words else Refusal("R-P5", f"{m.name} is KO'd")
    if not m.can_advance:
        return REFUSED if not words else Refusal("R-E1", f"{m.name} did not win a melee this turn")
    if m.profile.advance <= 0:
        return REFUSED if not words else Refusal("R-E1", f"{m.name} cannot advance")
    if m.advanced:
        return REFUSED if not words else Refusal("R-E1", f"{m.name} has already advanced")
    if m.taking_cover:
        return (
            REFUSED
            if not words
            else Refusal("R-M4", f"{m.name} is Taking Cover and does not move until the next Move Phase")
        )
    if game.in_melee(m):
        return (
            REFUSED
            if not words
            else Refusal("R-E1", f"{m.name} is in melee: only Combat Distraction takes it out (R-E2)")
        )
    return None


def can_advance(game: Ctx, m: ModelState) -> bool:
    return advance_refusal(game, m, words=False) is None


def distraction_cost(game: Ctx, m: ModelState) -> int | None:
    """AP cost of the model's Combat Distraction ability, or None if it has none (R-E2, R-P4)."""
    costs = [a.ap_cost for a in abilities_of(m, game.armoury(m)) if a.effect == "distraction"]
    return min(costs) if costs else None


def has_distraction(game: Ctx, m: ModelState) -> bool:
    cost = distraction_cost(game, m)
    return cost is not None and cost <= m.ap


def can_disengage(game: Ctx, m: ModelState) -> bool:
    return (
        m.active and not m.advanced and game.in_melee(m) and has_distraction(game, m) and not m.taking_cover
    )


def has_options(game: Ctx, player: int) -> bool:
    return any(can_advance(game, m) or can_disengage(game, m) for m in game.player_models(player))


def candidates(game: Ctx, player: int) -> list[Action]:
    return list(iter_candidates(game, player))


def iter_candidates(game: Ctx, player: int) -> Iterator[Action]:
    """`candidates` one at a time, in the same order: a caller that wants only the first (a bot)
    does not pay for the path searches of the rest."""
    s = game.state
    for m in game.player_models(player):
        if can_advance(game, m):
            from skirmish.battlefield.paths import move_toward

            start = s.xy[m.index].copy()
            budget = m.profile.advance
            mover = mover_of(game, m)
            # Searched only when reached (see `iter_candidates`): toward each goal, then 8 straight lines.
            paths = chain(
                (move_toward(mover, g, budget) for g in default_goals(game, m)),
                (np.array([start, start + budget * np.array([dx, dy])]) for dx, dy in DIRECTIONS),
            )
            for p in paths:
                if (
                    p is not None
                    and len(p) >= 2
                    and path_length(p) > 0.25
                    and path_problem(game, mover, p, budget) is None
                ):
                    yield Advance(m.id, tuple((float(x), float(y)) for x, y in p))
        if can_disengage(game, m):
            p = disengage_path(game, m)
            if p is not None and disengage_problem(game, m, p) is None:
                yield Disengage(m.id, tuple((float(x), float(y)) for x, y in p))


def _own(game: Ctx, model_id: str, rule: str) -> ModelState:
    m = game.model(model_id, rule=rule)
    if m.player != game.state.active_player:
        raise IllegalAction(rule, f"{m.name} belongs to another player")
    if not m.active:
        raise IllegalAction("R-P5", f"{m.name} is KO'd")
    return m


def do_advance(game: Ctx, action: Advance) -> None:

    m = _own(game, action.model, "R-E1")
    refuse(advance_refusal(game, m))
    path = np.asarray(action.path, dtype=float)
    try:
        validate_path(game, m, path, m.profile.advance, "R-E1")
    except IllegalAction as exc:  # an advance's limits are R-E1's, not the Move Phase's R-M2/R-M3
        raise IllegalAction("R-E1", exc.reason) from None
    place(game, m, path)
    m.advanced = True
    if game.logging:
        game.emit(
            "advance",
            f'{m.name} advances {path_length(path):.1f}"',
            (m.id,),
            path=[list(map(float, p)) for p in path],
        )


def _foes(game: Ctx, m: ModelState) -> list[ModelState]:
    return game.melee_enemies(m)


def disengage_path(game: Ctx, m: ModelState) -> np.ndarray | None:
    s = game.state
    foes = _foes(game, m)
    if not foes:
        return None
    away = np.mean([s.xy[f.index] for f in foes], axis=0)
    ignore = game.gone_mask().copy()
    for f in foes:
        ignore[f.index] = True
    return retreat_path(mover_of(game, m).replace(ignore=ignore), away, DISTRACTION_MOVE)


def disengage_problem(game: Ctx, m: ModelState, path: np.ndarray) -> tuple[str, str] | None:
    """Why `path` is not a legal Combat Distraction move (rule, reason), or None (R-E2)."""
    s = game.state
    foes = _foes(game, m)
    if path.ndim != 2 or path.shape[1] != 2 or len(path) < 2 or not np.isfinite(path).all():
        return "R-E2", "a path is two or more finite points"
    if np.hypot(*(path[0] - s.xy[m.index])) > 1e-6:
        return "R-E2", f"the path must start at {m.name}'s position"
    ignore = game.gone_mask().copy()
    for f in foes:
        ignore[f.index] = True
    problem = check_path(mover_of(game, m).replace(ignore=ignore), path, max_length=DISTRACTION_MOVE)
    if problem is not None:
        return "R-E2", name_models(
            game, problem.message
        )  # a Combat Distraction move is limited by R-E2, not R-M2/R-M3
    for f in foes:
        centre = s.xy[f.index]
        reach = float(s.radii[f.index] + s.radii[m.index])
        # The base may never cut into the enemy's base on the way, and must end out of contact.
        seg_d = _min_segment_distance(path, centre)
        if float(np.hypot(*(path[-1] - centre))) - reach <= CONTACT or seg_d < reach - 1e-6:
            return "R-E2", f"{m.name} must move away from {f.name}, not through it"
    return None


def _min_segment_distance(path: np.ndarray, c: np.ndarray) -> float:
    a, b = path[:-1], path[1:]
    ab = b - a
    t = np.clip(((c - a) * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-18), 0.0, 1.0)
    q = a + t[:, None] * ab
    return float(np.hypot(q[:, 0] - c[0], q[:, 1] - c[1]).min())


def do_disengage(game: Ctx, action: Disengage) -> None:
    m = _own(game, action.model, "R-E2")
    cost = distraction_cost(game, m)
    if cost is None:
        raise IllegalAction("R-E2", f"{m.name} does not have Combat Distraction")
    if cost > m.ap:
        raise IllegalAction("R-P4", f"Combat Distraction costs {cost} AP; {m.name} has {m.ap}")
    foes = _foes(game, m)
    if not foes:
        raise IllegalAction("R-E2", f"{m.name} is not in melee")
    if m.advanced:
        raise IllegalAction("R-E2", f"{m.name} has already moved this End Phase")
    if m.taking_cover:
        raise IllegalAction("R-M4", f"{m.name} is Taking Cover and does not move until the next Move Phase")
    path = np.asarray(action.path, dtype=float)
    problem = disengage_problem(game, m, path)
    if problem is not None:
        raise IllegalAction(*problem)
    place(game, m, path)
    m.advanced = True
    m.ap -= cost
    if game.logging:
        game.emit(
            "disengage",
            f'{m.name} slips out of the melee with Combat Distraction, moving {path_length(path):.1f}"',
            (m.id, *(f.id for f in foes)),
        )


_ZONES: dict[int, tuple[object, list[tuple[shapely.Polygon, tuple[float, float, float, float]]]]] = {}
"""Each scenario's scoring zones as polygons with their bounds, by the scenario object's id, with
the scenario held so its id cannot be reused while it is here: scenarios are frozen, and replay
verification and troupe testing build many games from the same one."""


def _zones(game: Ctx) -> list[tuple[shapely.Polygon, tuple[float, float, float, float]]]:
    """The scenario's scoring zones as polygons, each with its bounds (min x, min y, max x, max y),
    built once per scenario."""
    sc = game.scenario
    found = _ZONES.get(id(sc))
    if found is None or found[0] is not sc:
        zones = []
        for zone in sc.scoring.zones:
            poly = shapely.Polygon(zone.polygon)
            x0, y0, x1, y1 = (float(v) for v in poly.bounds)
            zones.append((poly, (x0, y0, x1, y1)))
        if len(_ZONES) >= 64:
            _ZONES.clear()
        found = _ZONES[id(sc)] = (sc, zones)
    return found[1]


def _inside(
    poly: shapely.Polygon, bounds: tuple[float, float, float, float], pts: list[list[float]]
) -> list[bool]:
    """`shapely.contains_xy(poly, x, y)` of each point: a point outside the polygon's bounds is
    not inside it, so only the points within them are asked (none: no call)."""
    x0, y0, x1, y1 = bounds
    near = [i for i, (x, y) in enumerate(pts) if x0 <= x <= x1 and y0 <= y <= y1]
    out = [False] * len(pts)
    if near:
        xs = [pts[i][0] for i in near]
        ys = [pts[i][1] for i in near]
        for i, held in zip(near, shapely.contains_xy(poly, xs, ys).tolist(), strict=True):
            out[i] = held
    return out


def tally(game: Ctx) -> None:
    """R-E3: KOs made this turn and zones held score Battle Points, per player, per turn."""
    s = game.state
    points = [0] * len(s.players)
    why: list[list[str]] = [[] for _ in s.players]
    ko_by = s.extra.get("ko_by", {})
    ko_points = (
        game.options.ko_points if game.options.ko_points is not None else game.scenario.scoring.ko_points
    )
    for m in s.models:
        if m.ko and m.ko_turn == s.turn and m.id in ko_by:
            points[ko_by[m.id]] += ko_points
            if ko_points:
                why[ko_by[m.id]].append(f"KO of {m.name}: +{ko_points}")
    active = [m for m in s.models if m.active]
    every = s.xy.tolist()
    pts = [every[m.index] for m in active]
    for zone, (poly, bounds) in zip(game.scenario.scoring.zones, _zones(game), strict=True):
        inside = _inside(poly, bounds, pts)
        holders = [m for m, held in zip(active, inside, strict=True) if held]
        teams = {game.team(m) for m in holders}
        if len(teams) == 1 and zone.points:
            # One zone scores once for the side holding it: to the allied player with the most
            # models in it (the lowest seat on a tie), so allies do not multiply a zone's worth.
            counts: dict[int, int] = {}
            for m in holders:
                counts[m.player] = counts.get(m.player, 0) + 1
            holder = min(counts, key=lambda p: (-counts[p], p))
            points[holder] += zone.points
            why[holder].append(f"{zone.name.replace('_', ' ')} held alone: +{zone.points}")
    extra = game.rules.extra_points()
    for p, v in enumerate(extra):
        points[p] += v
        if v:
            why[p].append(f"scenario: {v:+d}")
    for p, v in enumerate(points):
        s.players[p].battle_points.append(v)
    if not game.logging:
        return
    game.emit(
        "score",
        f"Turn {s.turn} Battle Points: "
        + ", ".join(
            f"{pl.name} {v} ({'; '.join([*w, f'total {pl.total_points}'])})"
            for pl, v, w in zip(s.players, points, why, strict=True)
        ),
        why={pl.name: w for pl, w in zip(s.players, why, strict=True)},
    )


def turn_end(game: Ctx) -> None:
    """R-E4, R-T4: the turn ends; the game ends at the turn limit, with one side left, or by the scenario."""
    s = game.state
    reason = game.rules.check_end()
    if reason:
        game.finish(reason)
    elif len(game.teams_on_table()) <= 1 and game.rules.ends_when_one_side_left():
        game.finish("only one side has models on the table")
    elif s.turn >= game.scenario.turns:
        game.finish(f"turn limit of {game.scenario.turns} reached")


def _skip_advances(game: Ctx, player: int) -> str:
    mine = [m for m in game.player_models(player) if m.active]
    if not any(can_advance(game, m) or can_disengage(game, m) for m in mine):
        return "no model won a melee"
    return "nothing left to do"


STEPS: tuple[StepSpec, ...] = (
    step(
        Step.ADVANCES,
        "end",
        "Advances",
        "R-E1",
        "Advance",
        "Disengage",
        "UseAbility",
        generate=candidates,
        has_options=has_options,
        handlers={"Advance": do_advance, "Disengage": do_disengage},
        skip_words="advances",
        skip_reason=_skip_advances,
    ),
    step(Step.SCORING, "end", "Tallying of Battle Points", "R-E3", begin=tally),
    step(Step.TURN_END, "end", "Turn ends", "R-E4", begin=turn_end),
)
"""The End Phase (R-E1 to R-E4)."""
