"""Troupe-building rules: what makes a custom troupe legal (the seed lets players build their own).

Custom troupes (`heroic = false`) must keep to the rules below; Heroic Troupes are pre-made by the
designers, so they skip the limits but still may not field a named character twice, and any troupe
that declares its `points` must declare the true sum (a stale total misleads an opponent).

| rule        | what it says                                                                   |
|-------------|--------------------------------------------------------------------------------|
| B-POINTS    | the troupe's points do not exceed the points limit (scenario or `--points-limit`) |
| B-KINGDOM   | every model is of the troupe's kingdom, unless its profile has `any_kingdom`   |
| B-HEROES    | at most one hero per 150 points (at least one is always allowed)               |
| B-UNIQUE    | a named character (`unique = true`) appears at most once                       |
| B-DECLARED  | a declared `points` equals the sum of the models' points                       |

Each problem names its rule, the field and by how much the troupe breaks it, so a player can fix
the file without reading the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.data.errors import Problem
from skirmish.data.troupe import Troupe

POINTS_PER_HERO = 150
"""One hero per this many points: 300 points buys two heroes, 299 only one."""


@dataclass(frozen=True)
class CostLine:
    """One line of a troupe's points breakdown."""

    name: str
    title: str
    count: int
    each: int
    hero: bool
    unique: bool
    kingdom: str

    @property
    def total(self) -> int:
        return self.count * self.each


def cost_breakdown(troupe: Troupe) -> list[CostLine]:
    """The points of each entry of `troupe`, in file order (for `skirmish troupe cost`)."""
    return [
        CostLine(
            name=e.profile.name,
            title=e.profile.title,
            count=e.count,
            each=e.profile.points,
            hero=e.profile.hero,
            unique=e.profile.unique,
            kingdom=str(e.profile.kingdom or troupe.kingdom),
        )
        for e in troupe.models
    ]


def hero_allowance(points: int) -> int:
    """How many heroes a troupe of `points` may field (B-HEROES): one per 150, never fewer than one."""
    return max(1, points // POINTS_PER_HERO)


def building_problems(troupe: Troupe, name: str, points_limit: int = 0) -> list[Problem]:
    """Every building rule `troupe` breaks, each naming the rule and by how much.

    `points_limit` comes from the scenario (or the command line); 0 means no limit. The hero
    allowance is reckoned on the limit when there is one (a 300-point game allows two heroes),
    otherwise on the troupe's own total.
    """
    problems: list[Problem] = []
    total = troupe.total_points()

    # B-UNIQUE applies to every troupe: no Heroic Troupe fields two Zukos either.
    first_seen: dict[str, int] = {}
    for i, entry in enumerate(troupe.models):
        p = entry.profile
        if not p.unique:
            continue
        if entry.count > 1:
            problems.append(
                Problem(
                    name,
                    f"models[{i}].count",
                    (
                        f"building rule B-UNIQUE: `{p.name}` ({p.title}) is a named character; "
                        f"at most 1 per troupe, not {entry.count}"
                    ),
                )
            )
        key = p.title.casefold()
        if key in first_seen:
            problems.append(
                Problem(
                    name,
                    f"models[{i}].profile.title",
                    (
                        f"building rule B-UNIQUE: {p.title} is already fielded as models[{first_seen[key]}]; "
                        "a named character appears at most once"
                    ),
                )
            )
        else:
            first_seen[key] = i

    if troupe.points is not None and troupe.points != total:
        diff = troupe.points - total
        problems.append(
            Problem(
                name,
                "points",
                (
                    f"building rule B-DECLARED: declares {troupe.points} points but the models cost {total} "
                    f"({'over' if diff > 0 else 'under'} by {abs(diff)})"
                ),
            )
        )

    if troupe.heroic:
        return problems

    if points_limit > 0 and total > points_limit:
        problems.append(
            Problem(
                name,
                "models",
                (
                    f"building rule B-POINTS: {total} points exceeds the {points_limit}-point limit "
                    f"by {total - points_limit}"
                ),
            )
        )

    for i, entry in enumerate(troupe.models):
        p = entry.profile
        kingdom = p.kingdom or troupe.kingdom
        if kingdom != troupe.kingdom and not p.any_kingdom:
            problems.append(
                Problem(
                    name,
                    f"models[{i}].profile.kingdom",
                    (
                        f"building rule B-KINGDOM: `{p.name}` is from {kingdom.value}, not the troupe's "
                        f"{troupe.kingdom.value} (only models with `any_kingdom = true` may join)"
                    ),
                )
            )

    heroes = sum(e.count for e in troupe.models if e.profile.hero)
    basis = points_limit if points_limit > 0 else total
    allowed = hero_allowance(basis)
    if heroes > allowed:
        what = f"the {points_limit}-point limit" if points_limit > 0 else f"{total} points"
        problems.append(
            Problem(
                name,
                "models",
                (
                    f"building rule B-HEROES: {heroes} heroes but {what} allows {allowed} "
                    f"(one per {POINTS_PER_HERO} points), {heroes - allowed} too many"
                ),
            )
        )
    return problems
