"""`skirmish validate`, `troupe cost`, `list` and `schema`: the commands about files and content."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer


class ListKind(StrEnum):
    troupes = "troupes"
    scenarios = "scenarios"
    folders = "folders"


class SchemaKind(StrEnum):
    troupe = "troupe"
    scenario = "scenario"
    replay = "replay"
    campaign = "campaign"


def validate_cmd(
    files: Annotated[list[str], typer.Argument(help="Troupe, scenario (TOML) or replay (JSON) files.")],
    points_limit: Annotated[
        int, typer.Option("--points-limit", min=0, help="Points limit custom troupes must keep (0: none).")
    ] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object (docs/json.md).")] = False,
) -> None:
    """Check troupes, scenarios and replays; exit 0 when all are valid, 2 with one line per problem."""
    from skirmish.cli.data_cmds import validate

    validate(files, points_limit, json_out)


def troupe_cost_cmd(
    file: Annotated[str, typer.Argument(help="A troupe name from `skirmish list troupes` or a file.")],
    points_limit: Annotated[int | None, typer.Option("--points-limit", help="Points limit to check.")] = None,
    scenario: Annotated[str | None, typer.Option("--scenario", help="Take the points limit from it.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print a troupe's points breakdown per model, the total and any building-rule problems."""
    from skirmish.cli.troupe_cmd import cost

    cost(file, points_limit, scenario, json_out)


def list_cmd(
    kind: Annotated[ListKind, typer.Argument(help="What to list.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object (docs/json.md).")] = False,
) -> None:
    """List shipped troupes or scenarios (then the user's own): the name other commands take, then a
    description. No content found at all is an error (exit 1), never an empty list."""
    from skirmish.cli.data_cmds import list_kind

    list_kind(kind.value, json_out)


def schema_cmd(
    kind: Annotated[SchemaKind, typer.Argument(help="Which file's schema.")],
) -> None:
    """Print the JSON Schema of a troupe, scenario, replay or campaign save file (for editors)."""
    from skirmish.cli.data_cmds import schema

    schema(kind.value)
