"""A bare `--bots` (meaning the default policy) given its value before the command line is parsed."""

from __future__ import annotations

import os

from skirmish.bots.registry import DEFAULT


def bots_flag(argv: list[str]) -> list[str]:
    """`--bots` may stand alone (meaning heuristic): give it its default value before parsing.

    The next argument is the policy unless it starts with `-` or is clearly a positional argument:
    an existing file, a scenario name, and for `test-troupes` a troupe name (shipped or the user's
    own, as `skirmish list` shows them), for `campaign` an action. So `--bots nonsense` is reported
    as an unknown policy, and `--bots open_battle` still means the heuristic bot on that scenario.
    """
    if not argv or argv[0] not in ("play", "test-troupes", "campaign"):
        return argv
    out: list[str] = []
    for i, arg in enumerate(argv):
        out.append(arg)
        if arg == "--bots" and (i + 1 >= len(argv) or _positional(argv[0], argv[i + 1])):
            out.append(DEFAULT)
    return out


def _positional(command: str, arg: str) -> bool:
    """Whether `arg`, just after a bare `--bots`, is not a policy but the command's next argument."""
    from skirmish.cli.play_cmds import POLICIES

    if arg in POLICIES:
        return False
    if arg.startswith("-"):
        return True
    if arg and os.path.exists(arg):
        return True
    if command == "campaign":
        from skirmish.cli.campaign_cmd import ACTIONS

        return arg in ACTIONS
    from skirmish.data.catalogue import shipped, user_files

    kinds = ("scenarios", "troupes") if command == "test-troupes" else ("scenarios",)
    # The user's own files too: `skirmish list` shows them and every command takes their names.
    names = {p.stem for kind in kinds for p in [*shipped(kind), *user_files(kind)]}
    return arg in names
