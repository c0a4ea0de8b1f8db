"""Where a model can go this step, asked again and again without measuring twice (issue 15).

`legal_actions()` and the bots list each movable model's straight candidate moves after every
action, and one action moves one model: the other models' candidates seldom change. The straight
moves' check (`paths.check_straight_moves`) judges every other base only through one question,
"does this segment come too close to its centre" (closer than both radii; enemies also by the
contact rules), so `straight_moves` remembers each batch's answer together with the positions it
was asked at, and when the same batch comes back after some friendly bases moved it reuses the
answer if none of them comes near any of the segments, before or after its move. "Near" is judged
with a margin (`MARGIN`) the exact kernel's own tolerance cannot reach, so a reused answer is the
one a fresh check would give, bit for bit; enemies, KO'd models, radii, the mover and the table
are part of the key, so any change there asks afresh. When a moved friend does come near, only
the moves it came near are checked again (a small batch from one start is judged move by move,
so each move's answer is the one it gets alone) and the others keep theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from skirmish.battlefield.memo import remember
from skirmish.battlefield.paths import Mover, check_straight_moves, jit
from skirmish.battlefield.paths.check import STRAIGHT_SMALL

MARGIN = 1e-6
"""A moved base counts as near a segment within its clearance plus this (the exact kernel flags
only within the clearance minus OVERLAP_TOL): a conservative test, never a missed hit."""

STRAIGHT_MEMO = 2048
"""Batches remembered per table (oldest forgotten first)."""


@dataclass(frozen=True)
class _Straight:
    xy: np.ndarray  # every centre when the batch was checked
    segs: tuple[tuple[float, float, float, float], ...]  # (x0, y0, x1, y1) of each move
    answer: np.ndarray  # (m,) bool


def straight_moves(mover: Mover, starts: np.ndarray, ends: np.ndarray, *, max_length: float) -> np.ndarray:
    """`check_straight_moves`, remembered on the table (see the module docstring): (m,) bool.

    Where the compiled finder is loaded, a small batch is checked afresh in one compiled call
    (`jit.straight_moves`): cheaper than reading a record back, and the same answer."""
    fast = jit.straight_moves(mover, starts, ends, max_length)
    if fast is not None:
        return fast
    table, index = mover.table, mover.index
    xy, radii = mover.xy, mover.radii
    s = np.asarray(starts, dtype=float).reshape(-1, 2)
    e = np.asarray(ends, dtype=float).reshape(-1, 2)
    en = mover.enemies
    gone = np.zeros(len(xy), dtype=bool) if mover.ignore is None else np.asarray(mover.ignore, dtype=bool)
    # Bases the answer may be reused across: friends still on the table, other than the mover.
    free = ~en & ~gone
    free[index] = False
    key = (
        "straight_moves",
        index,
        s.tobytes(),
        e.tobytes(),
        radii.tobytes(),
        en.tobytes(),
        gone.tobytes(),
        xy[~free].tobytes(),
        float(max_length),
        bool(mover.flying),
    )
    memo = table.memo.setdefault("straight_moves", {})
    assert isinstance(memo, dict)
    rec = memo.get(key)
    answer: np.ndarray | None = None
    if isinstance(rec, _Straight) and rec.xy.shape == xy.shape:
        moved = np.flatnonzero((rec.xy != xy).any(axis=1))
        r = float(radii[index])
        near = _near_segments(
            [
                (float(p[0]), float(p[1]), (float(radii[j]) + r + MARGIN) ** 2)
                for j in moved.tolist()
                for p in (rec.xy[j], xy[j])
            ],
            rec.segs,
        )
        if not any(near):
            return rec.answer.copy()
        if len(s) == 1 and len(e) <= STRAIGHT_SMALL:
            # Each move's answer is its own (the plain-float check asks move by move, the kernel
            # segment by segment): only the moves a moved friend came near are asked again.
            again = [k for k, hit in enumerate(near) if hit]
            part = check_straight_moves(mover, s, e[again], max_length=max_length)
            answer = rec.answer.copy()
            answer[again] = np.asarray(part, dtype=bool)
    if answer is None:
        answer = np.asarray(check_straight_moves(mover, s, e, max_length=max_length), dtype=bool)
    sl = s.tolist() * len(e) if len(s) == 1 else s.tolist()
    segs = tuple((x0, y0, x1, y1) for (x0, y0), (x1, y1) in zip(sl, e.tolist(), strict=True))
    remember(memo, key, _Straight(xy.copy(), segs, answer.copy()), STRAIGHT_MEMO)
    return answer


def _near_segments(
    bases: list[tuple[float, float, float]], segs: tuple[tuple[float, float, float, float], ...]
) -> list[bool]:
    """Per segment: whether some base (centre, squared limit) comes closer than its limit, by
    `near_segment`'s formula term for term (inlined: this asks segments x bases pairs)."""
    out = [False] * len(segs)
    if not bases:
        return out
    for k, (x0, y0, x1, y1) in enumerate(segs):
        abx = x1 - x0
        aby = y1 - y0
        inv = 1.0 / max(abx * abx + aby * aby, 1e-300)
        for cx, cy, lim2 in bases:
            apx = cx - x0
            apy = cy - y0
            t = (apx * abx + apy * aby) * inv
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = apx - t * abx
            dy = apy - t * aby
            if dx * dx + dy * dy < lim2:
                out[k] = True
                break
    return out
