"""Shared builders for the engine tests: real boards, real troupes, forced dice, chosen positions.

A test builds a `Game` on a shipped scenario with shipped troupes, parks the models it does not
need off the table (`keep_only`), stands the others where the situation needs them (`place`),
forces the dice it expects (`game.dice.force(...)`) and walks the phase machine with `EndStep`
(`advance_to`) to the step under test. Nothing is mocked: every outcome comes from `Game.apply`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely

from skirmish.battlefield.measure import edge_distances
from skirmish.battlefield.paths import Mover
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.data.catalogue import content_root
from skirmish.data.loader import load_scenario, load_troupe
from skirmish.data.options import RuleOptions
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine import setup
from skirmish.engine.core.actions import Action, EndStep
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState, ranged_weapons
from skirmish.engine.game import Game
from skirmish.engine.rulebook import SPECS

OVERLAP_TOLERANCE = 1e-3
"""Inches two bases may interpenetrate before it counts as overlap (float noise of contact)."""

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()
SCENARIOS = CONTENT / "scenarios"
TROUPES = CONTENT / "troupes"

Point = tuple[float, float]


def scenario(name: str = "open_battle", **update: Any) -> Scenario:
    """A shipped scenario, optionally with fields replaced (e.g. `turns=2`)."""
    sc = load_scenario(SCENARIOS / f"{name}.toml")
    return sc.model_copy(update=update) if update else sc


def troupe(name: str) -> Troupe:
    return load_troupe(TROUPES / f"{name}.toml")


def with_profile(tr: Troupe, profile_name: str, **changes: Any) -> Troupe:
    """A copy of `tr` where one profile has some stats changed (e.g. another weapon), all else as shipped."""
    models = []
    found = False
    for entry in tr.models:
        if entry.profile.name == profile_name:
            found = True
            entry = entry.model_copy(update={"profile": entry.profile.model_copy(update=changes)})
        models.append(entry)
    assert found, f"{tr.name} has no profile {profile_name}"
    return tr.model_copy(update={"models": models})


def with_count(tr: Troupe, profile_name: str, count: int) -> Troupe:
    models = [
        e.model_copy(update={"count": count}) if e.profile.name == profile_name else e for e in tr.models
    ]
    return tr.model_copy(update={"models": models})


def new_game(
    scenario_name: str = "open_battle",
    troupes: Iterable[Troupe] | None = None,
    *,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    **scenario_update: Any,
) -> Game:
    """A game on a shipped scenario with its default troupes (or `troupes`), waiting at deployment."""
    sc = scenario(scenario_name, **scenario_update)
    trs = list(troupes) if troupes is not None else [troupe(side.troupe) for side in sc.sides]
    opts = sc.options.with_overrides(dict(options)) if options else sc.options
    return Game(sc, trs, seed=seed, options=opts)


def options(**kw: Any) -> RuleOptions:
    return RuleOptions.model_validate(kw)


def m(game: Game, model_id: str) -> ModelState:
    found = game.state.model(model_id)
    assert found is not None, f"no model {model_id}: {[x.id for x in game.state.models]}"
    return found


def place(game: Game, positions: Mapping[str, Point]) -> None:
    """Stand models at the given centres (inches) and tell the game its geometry changed."""
    for model_id, (x, y) in positions.items():
        game.state.xy[m(game, model_id).index] = (float(x), float(y))
    game.moved()


def keep_only(game: Game, model_ids: Iterable[str], *, sentinels: Iterable[str] | None = None) -> list[str]:
    """Take every other model off the table (removed, as a casualty is), so only the situation plays.

    One *sentinel* per player (a shooter when the troupe has one) stays on the table, parked on
    the north edge far from everything: sentinels see each other, so every player always has a
    shot and a charge to declare and the phase machine waits for input instead of running on
    through the steps after the test's action. Pass `sentinels=[]` for none, or name them.
    Returns the sentinels' ids.
    """
    keep = set(model_ids)
    if sentinels is None:
        chosen = []
        for p in range(len(game.state.players)):
            spare = [x for x in game.player_models(p) if x.id not in keep]
            shooters = [x for x in spare if ranged_weapons(x, game.armoury(x)) and not x.profile.flying]
            if shooters or spare:
                chosen.append((shooters or spare)[-1].id)
    else:
        chosen = list(sentinels)
    for x in game.state.models:
        if x.id not in keep and x.id not in chosen:
            x.removed = True
    width = game.scenario.board.width
    top = game.scenario.board.height
    for k, model_id in enumerate(chosen):
        r = float(game.state.radii[m(game, model_id).index])
        x = 1.5 + k * (width - 3.0) / max(1, len(chosen) - 1) if len(chosen) > 1 else 1.5
        game.state.xy[m(game, model_id).index] = (min(max(x, r + 0.1), width - r - 0.1), top - r - 0.2)
    game.moved()
    return chosen


def advance_until(game: Game, done: Any, *, limit: int = 400) -> None:
    """Pass (`EndStep`, or `Decline` an offer) until `done(game)` holds."""
    from skirmish.engine.core.actions import Decline

    for _ in range(limit):
        if done(game):
            return
        if game.over:
            raise AssertionError("the game ended first")
        game.apply(Decline() if game.state.pending is not None else EndStep())
    raise AssertionError(f"condition never met; at {game.state.step}")


def advance_past(game: Game, step: str) -> None:
    """Pass until the turn has moved beyond `step` (a later step of this turn, or the next turn)."""
    from skirmish.engine.rulebook import STANDARD

    STEP_INDEX = {sp.name: i for i, sp in enumerate(STANDARD.turn)}  # noqa: N806
    turn, idx = game.state.turn, STEP_INDEX[step]
    advance_until(
        game,
        lambda g: (
            g.over or g.state.turn > turn or (g.state.step in STEP_INDEX and STEP_INDEX[g.state.step] > idx)
        ),
    )


def advance_to(
    game: Game, step: str, player: int | None = None, *, turn: int | None = None, limit: int = 400
) -> None:
    """Pass until the game waits in `step` for `player` (and `turn`, when given): the public
    setup API's `advance_to`, kept under its old name for the tests."""
    setup.advance_to(game, step, player, turn=turn, limit=limit)


def end_steps(game: Game, n: int = 1) -> None:
    for _ in range(n):
        game.apply(EndStep())


def assert_illegal(game: Game, action: Action, rule: str, fragment: str = "") -> IllegalAction:
    """`action` is refused naming `rule`, and the game is exactly as before (hash, history, log)."""
    before = game.hash()
    hist, log, rolls = len(game.history), len(game.log), len(game.dice.history)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.rule == rule, f"{action!r}: expected {rule}, got {info.value}"
    assert str(info.value).startswith(rule + ":")
    if fragment:
        assert fragment.lower() in str(info.value).lower(), str(info.value)
    assert game.hash() == before, f"{action!r} changed the state although refused"
    assert (len(game.history), len(game.log), len(game.dice.history)) == (hist, log, rolls)
    return info.value


def events(game: Game, kind: str) -> list[Any]:
    return [e for e in game.log if e.kind == kind]


def last_event(game: Game, kind: str) -> Any:
    found = events(game, kind)
    assert found, f"no {kind} event in the log: {[e.kind for e in game.log]}"
    return found[-1]


def rolls_since(game: Game, start: int) -> list[int]:
    return [r.value for r in game.dice.history[start:]]


def position(game: Game) -> tuple[int, int]:
    s = game.state
    steps = [sp.name for sp in game.book.turn]  # the Duel plays its own turn
    return (s.turn, -1 if s.step == "deploy" else steps.index(s.step))


def check_invariants(game: Game, where: str) -> None:
    s = game.state
    active = [x for x in s.models if x.active]
    idx = np.array([x.index for x in active], dtype=int)
    if len(idx) > 1:
        d = edge_distances(s.xy[idx], s.radii[idx])
        np.fill_diagonal(d, np.inf)
        i, j = np.unravel_index(int(np.argmin(d)), d.shape)
        assert d[i, j] >= -OVERLAP_TOLERANCE, (
            f'{where}: {active[i].id} overlaps {active[j].id} by {-d[i, j]:.3f}"'
        )
    w, h = game.scenario.board.width, game.scenario.board.height
    blocked = [shapely.Polygon(t.polygon) for t in game.table.pieces if t.impassable]
    for x in s.models:
        assert 0 <= x.hp <= x.profile.hp, f"{where}: {x.id} has {x.hp} HP of {x.profile.hp}"
        assert x.ap >= 0, f"{where}: {x.id} has {x.ap} AP"
        if not x.active:
            continue
        (cx, cy), r = s.xy[x.index], float(s.radii[x.index])
        assert r - 1e-6 <= cx <= w - r + 1e-6 and r - 1e-6 <= cy <= h - r + 1e-6, (
            f"{where}: {x.id} off the table"
        )
        if not (x.profile.flying or x.glide):
            for poly in blocked:
                gap = shapely.distance(poly, shapely.Point(cx, cy)) - r
                assert gap >= -OVERLAP_TOLERANCE, f"{where}: {x.id} stands on impassable terrain"
    assert s.phase == SPECS[s.step].phase
    assert s.turn <= game.scenario.turns


def same_obstacles(a: object, b: object) -> bool:
    """Two obstacle sets equal field by field: arrays in dtype, shape and bytes (object arrays by
    element identity), the edge kernels by their plain-float rows, the kernels' base rows (built
    with the set or on first use) through their accessors."""
    import dataclasses

    from skirmish.battlefield.paths.obstacles import _Obstacles

    assert isinstance(a, _Obstacles) and isinstance(b, _Obstacles)
    if a.bases_py() != b.bases_py() or a.bases_arr().tobytes() != b.bases_arr().tobytes():
        return False
    for f in dataclasses.fields(_Obstacles):
        if f.name in ("_py", "_arr"):
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            if not isinstance(y, np.ndarray) or x.dtype != y.dtype or x.shape != y.shape:
                return False
            if x.dtype == object:
                if any(p is not q for p, q in zip(x.tolist(), y.tolist(), strict=True)):
                    return False
            elif x.tobytes() != y.tobytes():
                return False
        elif f.name == "kern":
            if x.py != y.py:
                return False
        elif x != y:
            return False
    return True


def random_mover(rng: np.random.Generator, *, with_ignore: bool = False, n: int = 8) -> Mover:
    """A mover (base 0) on a random table among n scattered bases of random radii, about half of
    them enemies (never the mover), a fifth of movers flying; with `with_ignore`, in four draws of
    ten some bases are out of play. The path-check tests' board, drawn from `rng` in one order so a
    seed names one board."""
    table = random_table(rng, pieces=int(rng.integers(0, 12)))
    radii = rng.choice([0.5, 0.8, 1.0], n)
    xy = scatter_bases(table, rng, radii)
    enemy = rng.random(n) < 0.5
    enemy[0] = False
    ignore = None
    if with_ignore:
        ignore = rng.random(n) < 0.1 if rng.random() < 0.4 else None
        if ignore is not None:
            ignore[0] = False
    return Mover(table, 0, xy, radii, enemy, flying=bool(rng.random() < 0.2), ignore=ignore)


def play_bot_games(scenario_name: str, plays: Iterable[tuple[int, str]]) -> None:
    """Play each (seed, policy) bot game of a shipped scenario to its end, without a log (what
    `test-troupes` plays); in heuristic games a scenario-fixed bot (the Pursuit's pursuers) keeps
    its own policy. For tests that watch what the engine asks along real games."""
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.data.catalogue import find_scenario, find_troupe

    sc = find_scenario(scenario_name)
    troupes = [find_troupe(s.troupe) for s in sc.sides]
    for seed, pol in plays:
        pols = [s.bot or pol for s in sc.sides] if pol == "heuristic" else [pol] * len(sc.sides)
        g = Game(sc, troupes, seed=seed, bots=pols, record_log=False, transactional=False)
        play_out(g, seat_bots(g, pols))
