"""What a game is made of, from the names and files people type: `Game.from_scenario`'s loader.

Kept apart from `game.py` so the phase machine does not grow a second job, and below it so
`Game.from_scenario` can use it without an import cycle. Names resolve as on the command line
(`skirmish list scenarios`, `skirmish list troupes`); problems are `DataError`s naming the file
and the field, like every other bad input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.data.errors import DataError, Problem
from skirmish.data.options import RuleOptions
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe


def resolve_game_inputs(
    scenario: str | Path | Scenario,
    troupes: Sequence[str | Path | Troupe | None] | None = None,
    options: RuleOptions | Mapping[str, Any] | None = None,
) -> tuple[Scenario, list[Troupe], RuleOptions]:
    """The scenario, one troupe per side (the scenario's default where none is given) and the options."""
    sc = scenario if isinstance(scenario, Scenario) else find_scenario(str(scenario))
    given = list(troupes) if troupes is not None else []
    if len(given) > len(sc.sides):
        raise DataError(
            [
                Problem(
                    "troupes", "", f"scenario `{sc.name}` has {len(sc.sides)} sides; got {len(given)} troupes"
                )
            ]
        )
    out: list[Troupe] = []
    problems: list[Problem] = []
    for i, side in enumerate(sc.sides):
        arg = given[i] if i < len(given) else None
        if isinstance(arg, Troupe):
            out.append(arg)
            continue
        name = str(arg) if arg is not None else side.troupe
        if name is None:
            problems.append(
                Problem(f"troupes[{i}]", "", f"side `{side.name}` has no default troupe; give one")
            )
            continue
        try:
            out.append(find_troupe(name))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return sc, out, _options(sc, options)


def _options(sc: Scenario, options: RuleOptions | Mapping[str, Any] | None) -> RuleOptions:
    if options is None:
        return sc.options
    if isinstance(options, RuleOptions):
        return options
    unknown = sorted(k for k in options if k not in RuleOptions.model_fields)
    if unknown:
        known = ", ".join(RuleOptions.model_fields)
        raise DataError([Problem("options", k, f"unknown rule option (known: {known})") for k in unknown])
    try:
        return sc.options.with_overrides(dict(options))
    except ValidationError as exc:
        raise DataError(
            [Problem("options", ".".join(str(x) for x in e["loc"]), e["msg"]) for e in exc.errors()]
        ) from None
