"""`skirmish validate`, `skirmish list` and `skirmish schema`."""

from __future__ import annotations

import json
from pathlib import Path

from skirmish.cli.errors import UsageProblem
from skirmish.data.errors import DataError, Problem


def _validate_one(path: str, points_limit: int = 0) -> list[Problem]:
    """Every problem of one file, whose kind is told by its content, never by its name.

    A JSON object is a replay (re-simulated: it must reach its `final_hash`) or a campaign save;
    anything else is TOML: a troupe, a scenario (whose default troupes must exist) or a campaign.
    """
    if not path.strip():
        return [Problem(repr(path), "", "the file name is empty")]
    try:
        return _check_file(path, points_limit)
    except DataError as exc:
        return list(exc.problems)


def _check_file(path: str, points_limit: int) -> list[Problem]:
    from skirmish.data.loader import (
        detect_kind,
        load_scenario_data,
        load_troupe_data,
        parse_toml,
        read_text,
    )
    from skirmish.engine.replay import MAX_REPLAY_BYTES

    text = read_text(Path(path), MAX_REPLAY_BYTES, what="replays and data files")
    if text.lstrip().startswith("{"):
        return _check_json(text, path)
    from skirmish.data.loader import MAX_FILE_BYTES

    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        return [Problem(path, "", f"is {size:,} bytes; data files are at most {MAX_FILE_BYTES:,} bytes")]
    data = parse_toml(text, path)
    if "chapters" in data and "models" not in data:
        return _check_campaign(path)
    kind = detect_kind(data)
    if kind == "troupe":
        from skirmish.data.building import building_problems

        return building_problems(load_troupe_data(data, path), path, points_limit)
    if kind == "scenario":
        return _scenario_troupes(load_scenario_data(data, path), path)
    return [
        Problem(
            path,
            "",
            "is neither a troupe (no `models`), a scenario (no `deployment`), a campaign (no `chapters`) "
            "nor a replay (not a JSON object)",
        )
    ]


def _check_json(text: str, path: str) -> list[Problem]:
    """A replay, re-simulated; a campaign save, checked field by field."""
    from skirmish.engine.replay import FORMAT, load_replay_text, verify_problems

    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        data = None
    if isinstance(data, dict) and data.get("format") == "skirmish-campaign":
        from skirmish.data.loader import validate_model
        from skirmish.engine.campaign import CampaignSave

        validate_model(CampaignSave, data, path)
        return []
    if isinstance(data, dict) and data.get("format") not in (FORMAT, None):
        return [
            Problem(
                path,
                "format",
                f"{data.get('format')!r} is not a format this command checks "
                f"({FORMAT!r} or 'skirmish-campaign')",
            )
        ]
    return verify_problems(load_replay_text(text, path))


def _scenario_troupes(scenario, path: str) -> list[Problem]:
    """A scenario's default troupes (`sides[i].troupe`) must be shipped troupe names that exist, and
    when every side has one, they must fit their deployment zones (as `skirmish play` would deploy)."""
    from skirmish.data.catalogue import find_troupe, resolve

    problems: list[Problem] = []
    troupes = []
    for i, side in enumerate(scenario.sides):
        if side.troupe is None:
            continue
        try:
            resolve("troupes", side.troupe)
            troupes.append(find_troupe(side.troupe))
        except DataError as exc:
            problems.extend(
                Problem(path, f"sides[{i}].troupe", f"`{side.troupe}`: {p.message}") for p in exc.problems
            )
    if not problems and len(troupes) == len(scenario.sides):
        from skirmish.cli.play_cmds import new_game

        try:
            new_game(scenario, troupes, path, seed=0)
        except DataError as exc:
            problems.extend(exc.problems)
    return problems


def _check_campaign(path: str) -> list[Problem]:
    """A campaign file, through the same loader `skirmish campaign --campaign FILE` uses."""
    import os

    from skirmish.engine.campaign import load_campaign

    # An absolute path (it has a `/`) is always read as a file, never taken for a shipped name.
    full = os.path.abspath(path)
    try:
        load_campaign(full)
    except DataError as exc:
        return [Problem(path if p.file == full else p.file, p.field, p.message) for p in exc.problems]
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
    from skirmish.engine.campaign import CampaignSave

    models = {"troupe": Troupe, "scenario": Scenario, "campaign": CampaignSave}
    if kind not in models:
        raise UsageProblem(f"schema: unknown kind `{kind}` (choose `troupe`, `scenario` or `campaign`)")
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **models[kind].model_json_schema()}
    print(json.dumps(schema, indent=2, sort_keys=True))
