"""The Move Phase: the AP bonus roll (R-M1), standard movement (R-M2, R-M3) and Taking Cover (R-M4)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from skirmish.battlefield.measure import path_length, path_length_py
from skirmish.battlefield.memo import remember
from skirmish.battlefield.paths import Mover, move_toward, move_toward_record
from skirmish.battlefield.paths.check import STRAIGHT_SMALL
from skirmish.battlefield.paths.kernel import near_flat
from skirmish.battlefield.paths.plan import _TowardRecord
from skirmish.battlefield.reach import straight_moves
from skirmish.engine.core.actions import Action, Move, TakeCover
from skirmish.engine.core.actions import Path as MovePath
from skirmish.engine.core.errors import REFUSED, IllegalAction, Refusal, refuse
from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.damage import remove_casualties
from skirmish.engine.effects.moving import (
    DIRECTIONS,
    end_glides,
    flies,
    goals_among,
    move_budget,
    mover_of,
    place,
    validate_path,
    validate_start,
)

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def begin_ap_roll(game: Ctx) -> None:
    """Start of the Move Phase: clear last turn's flags, then each player rolls a D3 for AP (R-M1)."""
    s = game.state
    remove_casualties(game)  # a model KO'd outside the removal steps (an End Phase effect) leaves now
    limp_until = s.extra.get("limp_until", {})
    for m in s.models:
        m.taking_cover = False  # lasts only until the start of the next Move Phase (R-M4)
        if m.limping and m.id in limp_until and s.turn > int(limp_until[m.id]):
            m.limping = False
            del limp_until[m.id]
        m.charged = m.charged_from_cover = m.charged_into_cover = False
        m.fired = m.moved = m.charge_declared = m.lost_hp_turn = False
        m.can_advance = m.advanced = m.fought = m.glide = False
        m.buffs.clear()
    game.moved()
    for m in s.models:
        m.start_cover = game.cover(m) if m.active else 0
    for p in s.order:
        start = len(game.dice.history)
        roll = game.dice.d3(f"AP bonus {s.players[p].name}")
        s.players[p].ap_roll = roll
        for m in game.player_models(p):
            if not m.active:
                continue
            if m.chi_blocked > 0:
                m.ap = 0
                m.chi_blocked -= 1
            else:
                m.ap = m.profile.ap + roll
        if game.logging:
            game.emit(
                "ap_roll", f"{s.players[p].name} rolls {roll} for bonus AP", rolls_from=start, roll=roll
            )


def move_refusal(game: Ctx, m: ModelState, *, words: bool = True) -> Refusal | None:
    """Why `m` may not make its standard move now (R-M2, R-M3, R-M4), or None; with
    `words=False`, `REFUSED` instead of the sentence (the option check asks only whether)."""
    if not m.active:
        return REFUSED if not words else Refusal("R-P5", f"{m.name} is KO'd")
    if m.moved:
        return REFUSED if not words else Refusal("R-M2", f"{m.name} has already moved this phase")
    if m.taking_cover:
        return REFUSED if not words else Refusal("R-M4", f"{m.name} is Taking Cover and cannot move")
    if game.in_melee(m):
        return (
            REFUSED
            if not words
            else Refusal("R-M3", f"{m.name} is in melee and cannot move in the Move Phase")
        )
    return None


def can_move(game: Ctx, m: ModelState) -> bool:
    return move_refusal(game, m, words=False) is None and move_budget(game, m) > 0


def has_move_options(game: Ctx, player: int) -> bool:
    return any(can_move(game, m) for m in game.player_models(player))


def _own(game: Ctx, model_id: str, rule: str) -> ModelState:
    m = game.model(model_id, rule=rule)
    if m.player != game.state.active_player:
        raise IllegalAction(
            "R-M2", f"{m.name} belongs to {game.state.players[m.player].name}, not the player to act"
        )
    if not m.active:
        raise IllegalAction("R-P5", f"{m.name} is KO'd")
    return m


def do_move(game: Ctx, action: Move) -> None:
    m = _own(game, action.model, "R-M2")
    refuse(move_refusal(game, m))
    path = np.asarray(action.path, dtype=float)
    budget = move_budget(game, m)
    if listed_here(game, m, action.path, budget):
        # Listed as legal on exactly these inputs: `check_path` would answer None (see `listed_here`).
        validate_start(game, m, path, "R-M2")
    else:
        validate_path(game, m, path, budget, "R-M2", kept=False)  # a Move's check is asked once
    place(game, m, path)
    m.moved = True
    if game.logging:
        game.emit(
            "move",
            f'{m.name} moves {path_length(path):.1f}" (of {budget:g}")',
            (m.id,),
            path=[list(map(float, p)) for p in path],
        )


def move_candidates(game: Ctx, player: int) -> list[Action]:
    """Useful moves for each model: toward the nearest enemy and the nearest cover, and 8 straight lines."""
    out: list[Action] = []
    for m in game.player_models(player):
        if can_move(game, m):
            out.extend(model_moves(game, m))
    return out


_DIRS = np.array(DIRECTIONS)
_DIRS.flags.writeable = False


MIN_LISTED = 0.25
"""A candidate move shorter than this (inches) is not listed."""


def end_key(point: list[float]) -> tuple[float, float]:
    """Where a listed move ends, to 0.001": two entries ending at one key are one entry.

    `round(v, 3)` of each coordinate (`end_key_reference`), worked out without `round`'s decimal
    conversion where the answer is certain (`_round3`, written out here for both coordinates):
    the same floats bit for bit (a test)."""
    x, y = point[0], point[1]
    t = x * 1000.0
    u = y * 1000.0
    if -1e9 < t < 1e9 and -1e9 < u < 1e9:
        k = round(t)
        m = round(u)
        d = t - k
        e = u - m
        if k and m and -0.499999 < d < 0.499999 and -0.499999 < e < 0.499999:
            return (k / 1000.0, m / 1000.0)
    return (_round3(x), _round3(y))


def end_key_reference(point: list[float]) -> tuple[float, float]:
    """`end_key` as Python's `round(v, 3)` gives it: the reference `_round3` is held to."""
    return (round(point[0], 3), round(point[1], 3))


def _round3(v: float) -> float:
    """`round(v, 3)`, bit for bit. `round` rounds the exact value of v x 1000 to the nearest
    integer k (half to even) and returns the double nearest k / 1000, which is what the IEEE
    division `k / 1000.0` gives (k and 1000 exact). t = v * 1000.0 is within 2^-53 |t| of the exact
    product, so where t lies more than 1e-6 from a half-integer (and |t| < 1e9) the exact product
    rounds to the same k as t; elsewhere (near or at a tie, k = 0 with its sign, huge, NaN,
    infinite) `round` answers itself."""
    t = v * 1000.0
    if -1e9 < t < 1e9:
        k = round(t)
        d = t - k
        if k and -0.499999 < d < 0.499999:
            return k / 1000.0
    return round(v, 3)


def listed_move(
    model_id: str, path: np.ndarray | list[list[float]] | None, seen: set[tuple[float, float]]
) -> Move | None:
    """The move `model_moves` lists for `path`, or None where the list drops it: fewer than two
    points, shorter than 0.25", or ending (to 0.001") where an earlier entry ends; a kept end is
    added to `seen`. One filter for the list and for the bots' queries that shorten it."""
    kept = _listed_path(path, seen)
    return None if kept is None else _move(model_id, kept)


def _listed_path(
    path: np.ndarray | list[list[float]] | None, seen: set[tuple[float, float]]
) -> MovePath | None:
    """`listed_move`'s filter: the path as the move's (x, y) pairs, or None where it is dropped."""
    if path is None or len(path) < 2:
        return None
    pts = path if isinstance(path, list) else path.tolist()
    end = end_key(pts[-1])
    if end in seen or _listed_length(pts) < MIN_LISTED:
        return None
    seen.add(end)
    return tuple(map(tuple, pts))  # type: ignore[arg-type]  # (x, y) pairs


PLAIN_LENGTH = 200
"""Paths of up to this many points are measured in plain floats by the list's filter
(`measure.path_length_py`, held to `path_length` bit for bit for every length to 200 points)."""


def _listed_length(pts: list[list[float]]) -> float:
    """`path_length(np.asarray(pts))` of a listed path given as plain floats: the same number
    (`segment_length` for two points, `path_length_py` up to PLAIN_LENGTH points) without making an
    array of the list again (a searched goal path around a wall has a few dozen points)."""
    if len(pts) == 2:
        return segment_length(pts)
    if len(pts) <= PLAIN_LENGTH:
        return path_length_py(pts)
    return path_length(np.asarray(pts))


_NEW = object.__new__
_SET_MODEL = vars(Move)["model"].__set__
_SET_PATH = vars(Move)["path"].__set__


def _move(model_id: str, path: MovePath) -> Move:
    """`Move(model_id, path)`, the same value (equal, the same hash and text) made without the
    frozen dataclass's `__init__` (two `object.__setattr__` calls): the list makes a dozen moves
    for each model it lists, afresh each time, rather than keeping them for the game (every object
    a game keeps is walked by each full collection). `Move` has no `__post_init__`, which a test
    holds; the slots are set as `__init__` sets them."""
    move: Move = _NEW(Move)
    _SET_MODEL(move, model_id)
    _SET_PATH(move, path)
    return move


def model_moves(game: Ctx, m: ModelState, goals: list[np.ndarray] | None = None) -> list[Move]:
    """The model's candidate moves: toward each goal (default: `default_goals`), the straight line
    when it is clear, else the truncated shortest path; then eight straight lines at full and at
    half Move; each kept as `listed_move` keeps it.

    With the default goals the list is remembered with what it asked of the other bases
    (`_relisted`): after another model's move the same list is given again, without asking
    anything afresh, when the moved model stayed clear of everything this list looked at."""
    return [_move(m.id, p) for p in model_paths(game, m, goals)]


def model_paths(game: Ctx, m: ModelState, goals: list[np.ndarray] | None = None) -> tuple[MovePath, ...]:
    """The paths of `model_moves`' entries, in its order: the very tuples its Moves hold, so
    `Move(m.id, paths[k])` is its k-th entry, and applied on the same position it is the listed
    move (`listed_here`: its path is checked once, by the listing). A caller that picks one entry
    (a bot) makes one Move instead of a dozen."""
    s = game.state
    budget = move_budget(game, m)
    enemy, gone = game.enemy_mask(m), game.gone_mask()
    fly = flies(m)
    xy, radii = s.xy, s.radii
    if goals is None:
        kept = _relisted(game, m.index, budget, fly, xy, radii, enemy, gone)
        if kept is not None:
            return kept
    start = xy[m.index].copy()
    mover = Mover(game.table, m.index, xy, radii, enemy, flying=fly, ignore=gone)
    aims = goals if goals is not None else goals_among(game, m, enemy & ~gone)
    sx, sy = start.tolist()
    heads = [_head_xy(sx, sy, goal, budget) for goal in aims]
    # Straight lines in eight directions at full and half Move; the straight line toward each
    # goal is asked in the same batch (one kernel call instead of one per goal) while the batch
    # stays small enough for the plain-float check that a single line would get.
    # Flat (x, y, x, y, ...): one array of floats is cheaper to make than one of pairs.
    ends = _ends_flat(sx, sy, budget)
    firsts = [h for h in heads if h is not None]
    flat = [v for h in firsts for v in h] + ends
    batch = np.array(flat, dtype=float).reshape(-1, 2)
    if len(batch) <= STRAIGHT_SMALL:
        legal = straight_moves(mover, start[None, :], batch, max_length=budget)
        clear = legal[: len(firsts)].tolist()
        legal = legal[len(firsts) :]
    else:
        clear = [
            bool(straight_moves(mover, start[None, :], np.array([h]), max_length=budget)[0]) for h in firsts
        ]
        legal = straight_moves(mover, start[None, :], batch[len(firsts) :], max_length=budget)
    # A legal move toward each goal: the straight line when it is clear (the common case, no
    # search), else the truncated shortest path around obstacles.
    toward: list[tuple[np.ndarray, bool] | None] = []
    goals_xy: list[float] = []
    asked: list[_TowardRecord] = []
    k = 0
    for goal, head in zip(aims, heads, strict=True):
        if head is None:
            toward.append(None)
            continue
        if clear[k]:
            toward.append((np.array(head), True))
        else:
            path, rec = move_toward_record(mover, goal, budget)
            toward.append(None if path is None else (path, False))
            goals_xy.extend(goal.tolist())
            asked.append(rec)
        k += 1
    found = _listed_paths(game, m.id, start, budget, toward, ends, legal)
    if goals is not None:
        note_listed(game, m, budget, enemy, gone, found)
    else:
        record = _Relisting(
            xy.tobytes(),
            budget,
            fly,
            radii.tobytes(),
            enemy.tobytes(),
            gone.tobytes(),
            float(radii[m.index]),
            sx,
            sy,
            tuple(flat),
            found,
        )
        if asked:
            record.goals, record.asked = tuple(goals_xy), tuple(asked)
        _relistings(game)[m.index] = record
    return found


MARGIN = 1e-6
"""A moved model counts as near what a listing asked within its clearance plus this (the kernels
flag only within the clearance minus OVERLAP_TOL): a conservative test, never a missed hit."""


class _Relisting:
    """A model's last listing with the default goals (`_relisted`): what it was a function of
    (every centre's bytes, its budget and flying, the radii's, the enemy and out-of-play masks'),
    the mover's radius and start, the straight batch's ends (x, y flat), each searched goal (x,
    y flat) with the record that answered its move (`plan._TowardRecord`: its goal disc, probes
    and the bases it went around), and the list's paths.

    One tracked object a model (its slots hold bytes, numbers, flat tuples of numbers and the
    toward records the table keeps anyway), renewed in place: every object a game keeps is
    walked by each later full collection of the collector."""

    __slots__ = (
        "asked",
        "budget",
        "ends",
        "enemy",
        "fly",
        "gone",
        "goals",
        "paths",
        "r",
        "radii",
        "sx",
        "sy",
        "xy",
    )

    def __init__(
        self,
        xy: bytes,
        budget: float,
        fly: bool,
        radii: bytes,
        enemy: bytes,
        gone: bytes,
        r: float,
        sx: float,
        sy: float,
        ends: tuple[float, ...],
        paths: tuple[MovePath, ...],
    ) -> None:
        self.xy = xy
        self.budget = budget
        self.fly = fly
        self.radii = radii
        self.enemy = enemy
        self.gone = gone
        self.r = r
        self.sx = sx
        self.sy = sy
        self.ends = ends
        self.paths = paths
        self.goals: tuple[float, ...] = ()
        self.asked: tuple[_TowardRecord, ...] = ()


def _relisted(
    game: Ctx,
    index: int,
    budget: float,
    fly: bool,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    gone: np.ndarray,
) -> tuple[MovePath, ...] | None:
    """The paths of this model's list with the default goals when its last listing (on this
    table) is this one, else None.

    A model's list is a function of its place, budget and flying, the radii, the enemy and
    out-of-play masks, where the models in neither stand (all compared, with the table, whose
    memo this is: its goals are those of `goals_among`, which asks nothing else) and where the
    other models stand. Those others, friends still in play, reach the list only through point
    and segment questions: each straight line of the batch (toward the goals and the sixteen
    ends) is legal unless a base comes within its clearance of it (`jit.straight_moves`), and each
    searched goal move is its record's answer unless a moved friend is one its search went
    around or comes near its goal disc or probes (`plan._still_true`). So when every model that
    moved since (its centre's 16 bytes differ), before and after, is such a friend, at finite
    places farther than its clearance + MARGIN from all of those, a fresh listing asks the same
    questions, gets the same answers and lists the same moves, bit for bit (a property test holds
    it to the full recomputation). The record is then renewed at the new places, which is sound
    by the same argument from there."""
    rec = _relistings(game).get(index)
    if (
        rec is None
        or rec.budget != budget
        or rec.fly != fly
        or rec.radii != radii.tobytes()
        or rec.enemy != enemy.tobytes()
        or rec.gone != gone.tobytes()
    ):
        return None
    now = xy.tobytes()
    was = rec.xy
    if now == was:
        return rec.paths
    if len(now) != len(was):
        return None
    foe, out = enemy.tolist(), gone.tolist()
    r, sx, sy, far, ends, goals = rec.r, rec.sx, rec.sy, rec.budget, rec.ends, rec.goals
    old = np.frombuffer(was).tolist()
    new = xy.ravel().tolist()
    rl = radii.tolist()
    for j in range(len(rl)):
        if now[16 * j : 16 * j + 16] == was[16 * j : 16 * j + 16]:
            continue
        if j == index or foe[j] or out[j]:
            return None
        c = rl[j] + r + MARGIN
        lim2 = c * c
        for px, py in ((old[2 * j], old[2 * j + 1]), (new[2 * j], new[2 * j + 1])):
            if not (math.isfinite(px) and math.isfinite(py)):
                return None
            # Every straight line lies within `far` (the budget) of the start.
            near = math.hypot(px - sx, py - sy) <= far + c + MARGIN
            if near and _near_lines(px, py, lim2, sx, sy, ends):
                return None
            for i, got in enumerate(rec.asked):
                if (
                    j in got.included
                    or math.hypot(px - goals[2 * i], py - goals[2 * i + 1]) <= got.reach + c
                    or near_flat(px, py, lim2, got.probes)
                ):
                    return None
    rec.xy = now
    return rec.paths


def _relistings(game: Ctx) -> dict[int, _Relisting]:
    """The table's remembered listings (`_relisted`), by model index."""
    memo = game.table.memo.setdefault("relisting", {})
    assert isinstance(memo, dict)
    return memo


def _near_lines(px: float, py: float, lim2: float, sx: float, sy: float, ends: tuple[float, ...]) -> bool:
    """Whether the point comes closer than sqrt(lim2) to a segment from (sx, sy) to one of `ends`
    (x, y flat): `kernel.near_segment`'s formula, for segments sharing their start."""
    apx = px - sx
    apy = py - sy
    for i in range(0, len(ends), 2):
        x1 = ends[i]
        y1 = ends[i + 1]
        abx = x1 - sx
        aby = y1 - sy
        inv = 1.0 / max(abx * abx + aby * aby, 1e-300)
        t = (apx * abx + apy * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = apx - t * abx
        dy = apy - t * aby
        if dx * dx + dy * dy < lim2:
            return True
    return False


class _Listed:
    """Paths listed for one model (other than by its default-goals listing, which `_Relisting`
    holds) and every input `check_path` reads of its move, as they were when they were listed: the
    table (held, compared by identity), every centre's, the radii's and the enemy and out-of-play
    masks' bytes, flying and the budget. One tracked object a model, replaced when the inputs
    differ."""

    __slots__ = ("budget", "enemy", "fly", "gone", "paths", "radii", "table", "xy")

    def __init__(
        self, table: object, xy: bytes, radii: bytes, enemy: bytes, gone: bytes, fly: bool, budget: float
    ) -> None:
        self.table = table
        self.xy = xy
        self.radii = radii
        self.enemy = enemy
        self.gone = gone
        self.fly = fly
        self.budget = budget
        self.paths: list[MovePath] = []


LISTED_PATHS = 64
"""Paths a `_Listed` record holds at most (the same model listed again and again on one position
by a bot's goal queries); past it the record starts afresh."""


def note_listed(
    game: Ctx, m: ModelState, budget: float, enemy: np.ndarray, gone: np.ndarray, paths: Sequence[MovePath]
) -> None:
    """Remember that `paths` (the very tuples the listed moves hold) were listed for `m` as legal
    now, with the inputs the listing judged them on (`enemy` and `gone`, the masks it gave its
    mover, and the game's centres, radii, table and the model's flying): `listed_here` then lets
    `do_move` skip `check_path` for them while those inputs are exactly the same."""
    if not paths:
        return
    s = game.state
    table, xy, radii, fly = game.table, s.xy.tobytes(), s.radii.tobytes(), flies(m)
    en, go = enemy.tobytes(), gone.tobytes()
    kept: dict[int, _Listed] = game.memo.setdefault("listed", {})
    rec = kept.get(m.index)
    if (
        rec is None
        or rec.table is not table
        or not _judged_on(rec, xy, radii, en, go, fly, budget)
        or len(rec.paths) >= LISTED_PATHS
    ):
        rec = kept[m.index] = _Listed(table, xy, radii, en, go, fly, budget)
    rec.paths.extend(paths)


def _judged_on(
    rec: _Listed | _Relisting, xy: bytes, radii: bytes, enemy: bytes, gone: bytes, fly: bool, budget: float
) -> bool:
    """Whether a record of listed paths (either kind) was made on exactly these inputs of
    `check_path` (the table aside, which each kind holds in its own way)."""
    return (
        rec.budget == budget
        and rec.fly == fly
        and rec.xy == xy
        and rec.radii == radii
        and rec.enemy == enemy
        and rec.gone == gone
    )


_BOOL = np.dtype(bool)


def listed_here(game: Ctx, m: ModelState, path: MovePath, budget: float) -> bool:
    """Whether `path` (the object itself, not an equal one) is one the listing gave for `m` as legal
    on exactly the inputs `check_path` would read now: the mover `validate_path` checks with
    (`mover_of`: its table by identity, its centres' and radii's bytes, its enemy and out-of-play
    masks' bytes, flying) and `budget`. Then `check_path` answers None, as it did (every listed
    path passes it, which `tests/test_r9_skip_listed_moves.py` holds over real games): the listing
    judged the path with the same floats (`jit.straight_moves`, or the search's path, which is
    legal by construction).

    Both records are compared on those inputs themselves, not on a counter or an id, so nothing
    that changes the position (a move, undo, a restored snapshot, a copied game) can leave one
    standing for a position it was not made on; a path made by hand is never one of the listed
    objects, so it is always checked."""
    mover = mover_of(game, m)
    enemy, gone = mover.enemy, mover.ignore
    if enemy is None or gone is None or enemy.dtype is not _BOOL or gone.dtype is not _BOOL:
        return False
    table = mover.table
    # The table's own memo (`_relistings`): its records are of this table.
    relisting: dict[int, _Relisting] | None = table.memo.get("relisting")  # type: ignore[assignment]
    listed: dict[int, _Listed] | None = game.memo.get("listed")
    for rec in (
        None if relisting is None else relisting.get(m.index),
        None if listed is None else listed.get(m.index),
    ):
        if (
            rec is not None
            and _holds(rec.paths, path)
            and (isinstance(rec, _Relisting) or rec.table is table)
            and _judged_on(
                rec,
                mover.xy.tobytes(),
                mover.radii.tobytes(),
                enemy.tobytes(),
                gone.tobytes(),
                mover.flying,
                budget,
            )
        ):
            return True
    return False


def _holds(paths: Sequence[MovePath], path: MovePath) -> bool:
    """Whether `path` is one of `paths` by identity (an equal tuple made elsewhere is not). A
    plain loop: `any` over a generator costs a frame more."""
    for p in paths:  # noqa: SIM110
        if p is path:
            return True
    return False


LISTING_MEMO = 1024
"""Candidate lists a game keeps by their exact paths (`_listed_paths`; oldest forgotten first)."""


def _listed_paths(
    game: Ctx,
    model_id: str,
    start: np.ndarray,
    budget: float,
    toward: list[tuple[np.ndarray, bool] | None],
    ends: list[float],
    legal: np.ndarray,
) -> tuple[MovePath, ...]:
    """The paths of the list `model_moves` makes: `listed_move` on each path toward a goal (the
    straight line to `head` when clear, else the searched path), then on each legal straight line.

    The list is a function of those paths alone, and most models' paths are the same as at the
    last ask (another model moved, or a bot asks what the engine listed): the game keeps each list
    keyed on the paths exactly (the start's and the heads' bytes, the searched paths' bytes, the
    legal straight lines, with `ends` a function of the start and `budget`), so the same paths
    give the same moves without filtering them again. It keeps the moves' paths (tuples of floats,
    which the collector untracks) and makes the moves afresh (`_move`)."""
    # One flat tuple (each goal's entry None, or its straight flag and path bytes: None is no
    # bool, so the entries read back one way): the collector untracks it at its first collection,
    # where a tuple of tuples would be promoted first (tuples are untracked one level a pass).
    parts: list[object] = [model_id, start.tobytes(), budget, legal.tobytes()]
    for t in toward:
        if t is None:
            parts.append(None)
        else:
            parts += (t[1], t[0].tobytes())
    key = tuple(parts)
    memo: dict[tuple[object, ...], tuple[MovePath, ...]] = game.memo.setdefault("model_moves", {})
    found = memo.get(key)
    if found is None:
        paths: list[MovePath] = []
        seen: set[tuple[float, float]] = set()
        here = start.tolist()
        for t in toward:
            if t is not None:
                kept = _listed_path([here, t[0].tolist()] if t[1] else t[0], seen)
                if kept is not None:
                    paths.append(kept)
        judged = _straight_listing(game, model_id, start, here, budget, ends)
        origin = (here[0], here[1])
        for i, ok in enumerate(legal.tolist()):
            if ok:
                end, short = judged[i]
                if not short and end not in seen:
                    seen.add(end)
                    paths.append((origin, (ends[2 * i], ends[2 * i + 1])))
        found = remember(memo, key, tuple(paths), LISTING_MEMO)
    return found


_Lines = tuple[tuple[tuple[float, float], bool], ...]
"""The straight lines of one model, start and budget as `listed_move` judges them: per line its
end rounded (`end_key`; the `seen` test is the caller's) and whether it is too short to list.
Plain tuples of floats, not an object per line: the collector untracks them, so the records a
game keeps cost its full collections little."""


def _straight_listing(
    game: Ctx, model_id: str, start: np.ndarray, here: list[float], budget: float, ends: list[float]
) -> _Lines:
    """The list's straight lines (`here`, the start, to each of `ends`, x, y flat, a function of
    the start and `budget`) as `listed_move` judges them, once per model, start and budget: the same model
    is listed again from the same place whenever another model moved, and only which lines are
    legal and which ends the goal moves took change."""
    key = (model_id, start.tobytes(), budget)
    memo: dict[tuple[object, ...], _Lines] = game.memo.setdefault("straight_listing", {})
    found = memo.get(key)
    if found is None:
        # `segment_length([here, to])` written out (its one term added to 0.0), per line.
        x0, y0 = here[0], here[1]
        lines = []
        for k in range(0, len(ends), 2):
            to = ends[k : k + 2]
            dx = to[0] - x0
            dy = to[1] - y0
            lines.append((end_key(to), 0.0 + math.sqrt(dx * dx + dy * dy) < MIN_LISTED))
        found = remember(memo, key, tuple(lines), LISTING_MEMO)
    return found


def segment_length(pts: list[list[float]]) -> float:
    """`path_length` of a two-point path given as plain floats: the one term of its sum
    (`math.sqrt(dx * dx + dy * dy)`, added to 0.0), without building an array (a test holds the two
    equal)."""
    (x0, y0), (x1, y1) = pts
    dx = x1 - x0
    dy = y1 - y0
    return 0.0 + math.sqrt(dx * dx + dy * dy)


def straight_ends(start: np.ndarray, budget: float) -> np.ndarray:
    """Where the list's straight lines end, before they are checked: eight directions at the full
    and at half `budget`, in the list's order."""
    return np.concatenate([start + budget * _DIRS, start + 0.5 * budget * _DIRS])


def _ends_flat(sx: float, sy: float, budget: float) -> list[float]:
    """`_ends_xy` flat (x, y, x, y, ...): the same floats, the same order."""
    half = 0.5 * budget
    out: list[float] = []
    for cx, cy in DIRECTIONS:
        out += (sx + budget * cx, sy + budget * cy)
    for cx, cy in DIRECTIONS:
        out += (sx + half * cx, sy + half * cy)
    return out


def _ends_xy(sx: float, sy: float, budget: float) -> list[list[float]]:
    """`straight_ends` of the start (sx, sy) in plain floats: numpy's element-wise products and
    sums in its order (`0.5 * budget` first), so the same numbers without an array per call (a
    test holds the two equal)."""
    half = 0.5 * budget
    return [[sx + budget * cx, sy + budget * cy] for cx, cy in DIRECTIONS] + [
        [sx + half * cx, sy + half * cy] for cx, cy in DIRECTIONS
    ]


def toward(
    game: Ctx,
    m: ModelState,
    goal: np.ndarray,
    budget: float,
    enemy: np.ndarray,
    gone: np.ndarray,
    search: bool = True,
) -> np.ndarray | None:
    """The move `model_moves` lists toward `goal`, alone: the straight line when it is clear (the
    common case, no search), else the truncated shortest path around obstacles (None instead with
    `search=False`). A bot that wants only this move asks it without the eight straight lines
    (`queries.first_move_option`, `queries.straight_goal_move`)."""
    s = game.state
    start = s.xy[m.index]
    head = _head(start, goal, budget)
    if head is None:
        return None
    mover = Mover(game.table, m.index, s.xy, s.radii, enemy, flying=flies(m), ignore=gone)
    if straight_moves(mover, start[None, :], head[None, :], max_length=budget)[0]:
        return np.array([start.copy(), head])
    return move_toward(mover, goal, budget) if search else None


def _head(start: np.ndarray, goal: np.ndarray, budget: float) -> np.ndarray | None:
    """Where the straight line toward `goal` ends after at most `budget` inches (None: at the goal)."""
    d = goal - start
    n = float(np.hypot(*d))
    if n < 1e-9:
        return None
    end: np.ndarray = start + d * (min(budget, n) / n)
    return end


def _head_xy(sx: float, sy: float, goal: np.ndarray, budget: float) -> list[float] | None:
    """`_head` from the start (sx, sy) in plain floats: numpy's (the C library's) hypot, then
    the same element-wise differences, products and sums (a test holds the two equal)."""
    gx, gy = goal.tolist()
    dx = gx - sx
    dy = gy - sy
    n = float(np.hypot(dx, dy))
    if n < 1e-9:
        return None
    f = min(budget, n) / n
    return [sx + dx * f, sy + dy * f]


def cover_refusal(game: Ctx, m: ModelState, *, words: bool = True) -> Refusal | None:
    """Why `m` may not Take Cover now (R-M4), or None. A flyer is never in cover (R-B4), so it never
    began the phase in medium or dense cover. With `words=False`, `REFUSED` instead of the sentence."""
    if not m.active:
        return REFUSED if not words else Refusal("R-P5", f"{m.name} is KO'd")
    if m.moved:
        return (
            REFUSED
            if not words
            else Refusal("R-M4", f"{m.name} moved this phase; only a model that does not move may Take Cover")
        )
    if m.start_cover < 2:
        return (
            REFUSED
            if not words
            else Refusal("R-M4", f"{m.name} did not begin the Move Phase in medium or dense cover")
        )
    if m.taking_cover:
        return REFUSED if not words else Refusal("R-M4", f"{m.name} is already Taking Cover")
    if game.in_melee(m):
        return REFUSED if not words else Refusal("R-M3", f"{m.name} is in melee")
    return None


def can_take_cover(game: Ctx, m: ModelState) -> bool:
    return cover_refusal(game, m, words=False) is None


def has_cover_options(game: Ctx, player: int) -> bool:
    return any(can_take_cover(game, m) for m in game.player_models(player))


def cover_candidates(game: Ctx, player: int) -> list[Action]:
    return [TakeCover(m.id) for m in game.player_models(player) if can_take_cover(game, m)]


def do_take_cover(game: Ctx, action: TakeCover) -> None:
    m = _own(game, action.model, "R-M4")
    refuse(cover_refusal(game, m))
    m.taking_cover = True
    m.ap = 0
    game.emit("take_cover", f"{m.name} Takes Cover (AP spent; counts a 3+ Wall Shield)", (m.id,))


def _skip_move(game: Ctx, player: int) -> str:
    if all(m.moved for m in game.player_models(player) if m.active):
        return "all models have moved"
    return "no model can move (moved, in melee or Taking Cover)"


def _skip_cover(game: Ctx, player: int) -> str:
    return "no model can Take Cover"


STEPS: tuple[StepSpec, ...] = (
    step(Step.AP_ROLL, "move", "Ability Point bonus roll", "R-M1", begin=begin_ap_roll),
    step(
        Step.MOVEMENT,
        "move",
        "Standard movement",
        "R-M2",
        "Move",
        "UseAbility",
        generate=move_candidates,
        has_options=has_move_options,
        handlers={"Move": do_move},
        skip_words="movement",
        skip_reason=_skip_move,
    ),
    step(
        Step.TAKE_COVER,
        "move",
        "Taking Cover",
        "R-M4",
        "TakeCover",
        "UseAbility",
        begin=end_glides,
        generate=cover_candidates,
        has_options=has_cover_options,
        handlers={"TakeCover": do_take_cover},
        skip_words="Taking Cover",
        skip_reason=_skip_cover,
    ),
)
"""The Move Phase (R-M1 to R-M4)."""
