"""`skirmish validate`, `skirmish list` and `skirmish schema`."""

from __future__ import annotations

import json
from pathlib import Path

from skirmish.cli.errors import UsageProblem
from skirmish.data.errors import DataError, Problem


def _validate_one(path: str, points_limit: int = 0) -> list[Problem]:
    from skirmish.data.loader import load_toml_file

    try:
        if Path(path).suffix.lower() == ".json":
            from skirmish.engine.replay import load_replay

            load_replay(path)
        else:
            item = load_toml_file(path)
            from skirmish.data.troupe import Troupe

            if isinstance(item, Troupe):
                from skirmish.data.building import building_problems

                return building_problems(item, path, points_limit)
    except DataError as exc:
        return exc.problems
    return []


def validate(files: list[str], points_limit: int = 0) -> None:
    problems: list[Problem] = []
    for f in files:
        found = _validate_one(f, points_limit)
        problems.extend(found)
        if not found:
            print(f"{f}: ok")
    if problems:
        raise DataError(problems)


def list_kind(kind: str) -> None:
    from skirmish.data.catalogue import shipped
    from skirmish.data.loader import load_toml_file

    if kind not in ("troupes", "scenarios"):
        raise UsageProblem(f"list: unknown kind `{kind}` (choose `troupes` or `scenarios`)")
    for path in shipped(kind):
        try:
            item = load_toml_file(path)
        except DataError:
            continue
        desc = " ".join((item.title + " — " + item.description).split())
        print(f"{item.name}\t{desc}")


def schema(kind: str) -> None:
    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe

    models = {"troupe": Troupe, "scenario": Scenario}
    if kind not in models:
        raise UsageProblem(f"schema: unknown kind `{kind}` (choose `troupe` or `scenario`)")
    print(json.dumps(models[kind].model_json_schema(), indent=2, sort_keys=True))
