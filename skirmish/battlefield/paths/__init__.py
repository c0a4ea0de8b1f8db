"""Movement along paths (R-M2, R-M3, R-C3, R-E1, R-E2; design principle 10).

Every move is a polyline whose length is what it costs. One exact kernel decides whether a
set of segments is legal (on the table, clear of impassable terrain and of other bases, no
enemy contact outside a charge); the path finder only proposes paths, and everything it returns
has passed that same kernel, so finder and checker cannot disagree.

The path finder is exact (R-C3 ruling): A* over the tangent graph of circles (other bases grown
by both radii, convex corners of impassable pieces grown by the mover's radius), whose edges are
common tangents and arcs, drawn as polylines within ARC_TOL; two economies keep it near a
millisecond: obstacles are added lazily (search with the obstacles met so far, check
the result against all, add the ones it hits, repeat: the first path that clears everything is
the shortest, since extra obstacles only lengthen paths), and edges are tested only when A*
expands a node.

The modules form a one-way chain (an import-linter `layers` contract keeps it so), each
depending only on those below it:

- `obstacles`: what one mover must keep clear of, with the clearance rules (R-M3, R-C3, R-E2);
- `kernel`: the exact segment kernel, in plain Python and in numpy (tested to agree);
- `check`: legality of a path, a batch of straight moves, a point;
- `tangents` (beside `check`): the circles, common tangents and arcs of the tangent graph;
- `search`: A* over that graph, lazy in its obstacles, memoised on the table;
- `plan`: moves with a purpose (toward a goal, a charge, a retreat).

The names below are the public face; callers import them from `skirmish.battlefield.paths`.
Every question starts from a `Mover` (who moves, on which table, among which bases):

    mover = Mover(table, index, xy, radii, enemy, flying=False, ignore=gone)
    check_path(mover, path, max_length=6.0)          # PathProblem | None
    check_straight_moves(mover, starts, ends, max_length=6.0)
    shortest_path(mover, goal)                       # from the mover's position
    move_toward(mover, goal, budget)
    move_toward_record(mover, goal, budget)          # (path, what it asked of the bases)
    charge_path(mover, target)                       # (path, length) | None
    charge_floor(mover, target)                      # no charge path is shorter
    retreat_path(mover, away_from, distance)
"""

from __future__ import annotations

from skirmish.battlefield.paths.check import (
    LENGTH_TOL,
    STRAIGHT_SMALL,
    PathProblem,
    _off_table,
    check_path,
    check_straight_moves,
)
from skirmish.battlefield.paths.kernel import SMALL, _violations
from skirmish.battlefield.paths.obstacles import BOX_SLACK, Mover, _Obstacles, _obstacles
from skirmish.battlefield.paths.plan import (
    APPROACH,
    PATH_MEMO,
    RING_BATCH,
    charge_floor,
    charge_path,
    move_toward,
    move_toward_record,
    retreat_path,
)
from skirmish.battlefield.paths.search import RING, SEARCH_MEMO, shortest_path
from skirmish.battlefield.paths.tangents import ARC_TOL, NODE_MARGIN

__all__ = [
    "APPROACH",
    "ARC_TOL",
    "BOX_SLACK",
    "LENGTH_TOL",
    "NODE_MARGIN",
    "PATH_MEMO",
    "RING",
    "RING_BATCH",
    "SEARCH_MEMO",
    "SMALL",
    "STRAIGHT_SMALL",
    "Mover",
    "PathProblem",
    "_Obstacles",
    "_obstacles",
    "_off_table",
    "_violations",
    "charge_floor",
    "charge_path",
    "check_path",
    "check_straight_moves",
    "move_toward",
    "move_toward_record",
    "retreat_path",
    "shortest_path",
]
