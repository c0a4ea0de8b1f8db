"""`skirmish troupe cost FILE`: a troupe's points, model by model, and whether it keeps the building rules.

Kept apart from `validate` because a player building a troupe wants the arithmetic in front of
them (which model costs what, how many heroes the limit allows), not only a pass or a fail.
"""

from __future__ import annotations

import json

from skirmish.cli.errors import UsageProblem, nonempty


def cost(
    file: str, points_limit: int | None = None, scenario: str | None = None, json_out: bool = False
) -> None:
    """Print the points breakdown of the troupe `file` (a shipped name or a path).

    The limit is `points_limit` if given, else the `scenario`'s, else none. Building problems
    are listed after the total (they do not change the exit code: `validate` is the gate).
    """
    from skirmish.data.building import building_problems, cost_breakdown, hero_allowance
    from skirmish.data.catalogue import find_scenario, resolve
    from skirmish.data.loader import load_troupe

    if points_limit is not None and points_limit < 0:
        raise UsageProblem(f"--points-limit: must be 0 or more, not {points_limit}")
    path = resolve("troupes", nonempty(file, "FILE", "troupe name or file"))
    if scenario is not None:
        nonempty(scenario, "--scenario", "scenario name or file")
    troupe = load_troupe(path)
    # The scenario is read even when --points-limit overrides its limit: `--scenario nope` was
    # silently ignored then (exit 0).
    scenario_limit = find_scenario(scenario).points_limit if scenario is not None else 0
    limit = points_limit if points_limit is not None else scenario_limit
    lines = cost_breakdown(troupe)
    total = troupe.total_points()
    heroes = sum(line.count for line in lines if line.hero)
    problems = building_problems(troupe, str(path), limit)

    if json_out:
        print(
            json.dumps(
                {
                    "troupe": troupe.name,
                    "heroic": troupe.heroic,
                    "models": [
                        {
                            "name": ln.name,
                            "title": ln.title,
                            "count": ln.count,
                            "each": ln.each,
                            "total": ln.total,
                            "hero": ln.hero,
                            "unique": ln.unique,
                            "kingdom": ln.kingdom,
                        }
                        for ln in lines
                    ],
                    "model_count": troupe.model_count(),
                    "heroes": heroes,
                    "total": total,
                    "declared": troupe.points,
                    "points_limit": limit,
                    "problems": [p.to_json() for p in problems],
                },
                sort_keys=True,
            )
        )
        return

    kind = "Heroic Troupe" if troupe.heroic else "custom troupe"
    print(f"{troupe.title} ({troupe.name}) — {kind}, {troupe.kingdom.value}, {troupe.allegiance.value}")
    width = max(len(line.title) for line in lines)
    for line in lines:
        tags = ", ".join(t for t, on in (("hero", line.hero), ("unique", line.unique)) if on)
        tag_text = f"  [{tags}]" if tags else ""
        print(f"  {line.count:>2} x {line.title:<{width}}  {line.each:>4} = {line.total:>4}{tag_text}")
    declared = "" if troupe.points is None else f" (declared {troupe.points})"
    print(f"  total: {total} points, {troupe.model_count()} models, {heroes} heroes{declared}")
    if troupe.heroic:
        print("  a Heroic Troupe: the points, kingdom and hero limits do not apply")
    elif limit > 0:
        left = limit - total
        state = f"{left} to spare" if left >= 0 else f"over by {-left}"
        print(f"  limit: {limit} points ({state}); heroes allowed: {hero_allowance(limit)}")
    for p in problems:
        print(f"  problem: {p}")
