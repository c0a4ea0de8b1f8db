"""`skirmish validate`, `skirmish list` and `skirmish schema`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skirmish.cli.errors import UsageProblem, clip, fail, printable
from skirmish.data.errors import DataError, Problem

if TYPE_CHECKING:
    from skirmish.data.loader import Sniffed


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
        UNKNOWN_KEY,
        add_new,
        check_size,
        detect_kind,
        parse_toml,
        read_text,
        scenario_problems,
        sniff_json,
        troupe_problems,
    )
    from skirmish.engine.replay import MAX_REPLAY_BYTES

    text = read_text(Path(path), MAX_REPLAY_BYTES, what="replays and data files")
    sniffed = sniff_json(text)
    # JSON other than an object (`[]`, `3`) is a damaged replay, to be named as one, not as TOML
    # that does not parse; so is text that opens like an object but does not parse.
    if sniffed.is_json or text.lstrip().startswith("{"):
        return _check_json(text, sniffed, path)
    check_size(text, path)
    data = parse_toml(text, path)
    if "chapters" in data and "models" not in data:
        return _check_campaign(path)
    kind = detect_kind(data)
    # Each stage runs on what the one before could build, so a file with problems in several
    # stages (a misspelt key, an unknown weapon, a wrong points total) shows them all in one run.
    if kind == "troupe":
        from skirmish.data.building import building_problems

        troupe, problems = troupe_problems(data, path)
        if troupe is None:
            return problems
        return add_new(problems, building_problems(troupe, path, points_limit))
    if kind == "scenario":
        from skirmish.engine.scenarios import file_problems

        scenario, problems = scenario_problems(data, path)
        if scenario is None:
            return problems
        # A game is only set up on a file whose fields and outlines are sound (an unknown key set
        # aside hides nothing a game reads).
        playable = all(p.message == UNKNOWN_KEY for p in problems)
        problems = add_new(problems, file_problems(scenario, path))
        return add_new(problems, _scenario_troupes(scenario, path, play=playable))
    return [
        Problem(
            path,
            "",
            "is neither a troupe (no `models`), a scenario (no `deployment`), a campaign (no `chapters`) "
            "nor a replay (not a JSON object)",
        )
    ]


def _check_json(text: str, sniffed: Sniffed, path: str) -> list[Problem]:
    """A replay, re-simulated; a campaign save, checked field by field."""
    from skirmish.engine.replay import FORMAT, load_replay_text, verify_problems

    if sniffed.format == "skirmish-campaign":
        return _check_save(text, path)
    if sniffed.obj is not None and sniffed.format not in (FORMAT, None):
        return [
            Problem(
                path,
                "format",
                f"{sniffed.format!r} is not a format this command checks ({FORMAT!r} or 'skirmish-campaign')",
            )
        ]
    # The replay reader says what is wrong with JSON that is no object or does not parse.
    return verify_problems(load_replay_text(text, path))


def _check_save(text: str, path: str) -> list[Problem]:
    """A campaign save (its text, read once), checked as `skirmish campaign --file` checks it:
    strictly, then against the campaign it names (its chapter and the heroes and abilities of its
    rewards, against the heroes' troupes that loading the campaign built)."""
    from skirmish.engine.campaign import check_save, load_campaign_heroes, parse_save

    save = parse_save(text, path)
    try:
        camp, heroes = load_campaign_heroes(save.campaign)
    except DataError as exc:
        # A save names its campaign, not the file: one of the user's own is checked by `campaign`.
        hint = (
            f" (a save of your own campaign file: `skirmish campaign status --campaign FILE --file {path}`)"
        )
        return [
            Problem(path, "campaign", f"`{save.campaign}`: {p.message}" + (hint if p.field == "" else ""))
            for p in exc.problems
        ]
    check_save(save, camp, path, heroes)
    return []


def _scenario_troupes(scenario, path: str, play: bool = True) -> list[Problem]:
    """A scenario's default troupes (`sides[i].troupe`) must be shipped troupe names that exist, and
    when every side has one (and `play`: the file has no other problem), they must fit their
    deployment zones (as `skirmish play` would deploy)."""
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
    if play and not problems and len(troupes) == len(scenario.sides):
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


def validate(files: list[str], points_limit: int = 0, json_out: bool = False) -> None:
    """Each file `ok`, or one line per problem (exit 2); `--json` prints the verdicts as one object
    on stdout as well (docs/json.md), the problem lines still going to stderr."""
    problems: list[Problem] = []
    verdicts = []
    for f in files:
        found = _validate_one(f, points_limit)
        problems.extend(found)
        verdicts.append({"file": f, "ok": not found, "problems": [p.to_json() for p in found]})
        if not found and not json_out:
            print(f"{printable(f)}: ok")
    if json_out:
        print(json.dumps({"ok": not problems, "files": verdicts}, indent=2, ensure_ascii=False))
    if problems:
        raise DataError(problems)


def list_items(kind: str) -> list[dict[str, str]]:
    """The shipped files of `kind`, then the user's own, each as the name other commands take, its
    title and description, the file and where it came from (`shipped` or `user`).

    A shipped file that does not load is a broken install (exit 1); a user file that does not load
    is skipped with one line on stderr naming its problem, so one bad file does not hide the rest.

    The name is the file's name without `.toml`, never the `name` inside it: `resolve` finds a file
    by its file name, so a user's `mine.toml` holding `name = "other"` is listed as `mine`, which
    `--troupe mine` takes (`other` would be refused). A user file whose name has white space is
    skipped, said on stderr: the list is one name a line, first, with no spaces (cli.md). So is a
    user file with a shipped file's name, which the shipped file always wins (`catalogue.shadowed`).
    """
    import sys

    from skirmish.data.catalogue import searched, shadowed, shipped, unlisted, unnamed_message, user_files
    from skirmish.data.loader import load_toml_file

    sources = [("shipped", p) for p in shipped(kind)] + [("user", p) for p in user_files(kind)]
    if not sources:
        where = " and ".join(str(f) for f in searched(kind))
        fail(f"list: no {kind} found (looked in {where}); the installation is missing its content", code=1)
    for path in shadowed(kind):
        print(
            clip(
                f"skirmish: skipped {path}: a shipped {kind.rstrip('s')} has that name, which always means "
                f"the shipped file (rename yours, e.g. my_{path.stem}.toml)"
            ),
            file=sys.stderr,
        )
    for path in unlisted(kind):
        print(clip(f"skirmish: skipped {unnamed_message(path, kind)}"), file=sys.stderr)
    items = []
    for source, path in sources:
        try:
            item = load_toml_file(path)
        except DataError as exc:
            if source == "shipped":
                fail(f"list: shipped file {path} does not load: {exc.problems[0]}", code=1)
            for problem in exc.problems[:1]:
                print(clip(f"skirmish: skipped {problem}"), file=sys.stderr)
            continue
        desc = " ".join(item.description.split())
        items.append(
            {
                "name": path.stem,
                "title": " ".join(item.title.split()),
                "description": desc,
                "file": str(path),
                "source": source,
            }
        )
    return items


def folder_items() -> list[dict[str, str]]:
    """Where content is read from and where files are written by default (`skirmish list folders`)."""
    from skirmish.data.catalogue import content_root
    from skirmish.data.userdirs import data_dir, user_content

    root = content_root()
    data = data_dir()
    rows = [
        ("shipped_troupes", root / "troupes", "troupes shipped with the program"),
        ("shipped_scenarios", root / "scenarios", "scenarios shipped with the program"),
        ("user_troupes", user_content("troupes"), "your own troupes, listed after the shipped ones"),
        ("user_scenarios", user_content("scenarios"), "your own scenarios, listed after the shipped ones"),
        ("saves", data / "saves", "quick-saves of the window (Ctrl+S, leaving a battle)"),
        ("replays", data / "replays", "end-of-game replays saved without a --replay path"),
        ("screenshots", data / "screenshots", "board pictures taken with F12"),
        ("campaign_save", data / "campaign.json", "the campaign save without --file"),
    ]
    return [{"name": n, "path": str(p), "description": d} for n, p, d in rows]


def list_kind(kind: str, json_out: bool = False) -> None:
    if kind == "folders":
        folders = folder_items()
        if json_out:
            print(json.dumps({"kind": kind, "items": folders}, indent=2, ensure_ascii=False))
        for f in [] if json_out else folders:
            print(f"{f['name']}\t{printable(f['path'])}\t{f['description']}")
        return
    if kind not in ("troupes", "scenarios"):
        raise UsageProblem(f"KIND {kind}: unknown kind (choose troupes, scenarios, folders)")
    items = list_items(kind)
    if json_out:
        print(json.dumps({"kind": kind, "items": items}, indent=2, ensure_ascii=False))
        return
    for it in items:
        print(f"{it['name']}\t{printable(it['title'])} — {printable(it['description'])}")


SCHEMA_KINDS = ("troupe", "scenario", "replay", "campaign")


def schema_of(kind: str) -> dict[str, Any]:
    """The JSON Schema of one file kind, as `skirmish schema` prints it and as shipped in the package
    (`skirmish/data/schemas/KIND.schema.json`, which a test keeps equal to this)."""
    from pydantic import BaseModel

    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe

    models: dict[str, type[BaseModel]] = {"troupe": Troupe, "scenario": Scenario}
    if kind == "replay":
        from skirmish.engine.replay import ReplayFile

        models["replay"] = ReplayFile
    if kind == "campaign":
        from skirmish.engine.campaign import CampaignSave

        models["campaign"] = CampaignSave
    if kind not in models:
        raise UsageProblem(f"KIND {kind}: unknown kind (choose {', '.join(SCHEMA_KINDS)})")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **models[kind].model_json_schema()}


def schema_text(kind: str) -> str:
    return json.dumps(schema_of(kind), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema(kind: str) -> None:
    print(schema_text(kind), end="")
