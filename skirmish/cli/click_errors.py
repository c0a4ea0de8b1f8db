"""Typer's (vendored) click errors said the project's way: one line, the right exit code (cli.md)."""

from __future__ import annotations

import re

from skirmish.cli.errors import fail

CHOICE_WORDS = {"--bots": "policy", "--executor": "executor", "KIND": "kind"}
"""How a refused choice is named in its one-line message (`--bots nonsense: unknown policy ...`)."""


def click_error(exc: Exception) -> None:
    """Typer's (vendored) click errors, recognised by class name: usage errors are one line, exit 2."""
    names = {c.__name__ for c in type(exc).__mro__}
    if "NoArgsIsHelpError" in names:
        ctx = getattr(exc, "ctx", None)
        print(ctx.get_help() if ctx is not None else str(exc))
        raise SystemExit(0) from None
    if "BadParameter" in names and _choice_problem(exc):
        return
    if "UsageError" in names or "BadParameter" in names:
        ctx = getattr(exc, "ctx", None)
        path = ctx.command_path.removeprefix("skirmish").strip() if ctx is not None else ""
        where = f"{path}: " if path else ""
        # One line of single spaces: click indents its choice lists with newlines and tabs.
        fail(where + " ".join(exc.format_message().split()), code=2)  # type: ignore[attr-defined]
    if "ClickException" in names:
        fail(exc.format_message(), code=getattr(exc, "exit_code", 1))  # type: ignore[attr-defined]
    if "Abort" in names:
        fail("aborted", code=130)
    raise exc


def _choice_problem(exc: Exception) -> bool:
    """A value outside an Enum's choices, said the project's way: `--bots x: unknown policy (choose
    heuristic, random)`, exit 2. Read from click's message (`'x' is not one of 'a', 'b'`), which
    every supported typer/click version words alike."""
    m = re.search(r"'([^']*)' is not one of (.+?)\.?$", exc.format_message())  # type: ignore[attr-defined]
    param = getattr(exc, "param", None)
    if m is None or param is None:
        return False
    opts = getattr(param, "opts", None) or []
    if getattr(param, "param_type_name", "") == "option" and opts:
        flag = max(opts, key=len)
    else:
        flag = str(getattr(param, "metavar", None) or getattr(param, "name", "") or "").upper() or "KIND"
    names = ", ".join(re.findall(r"'(.*?)'", m.group(2)))
    fail(f"{flag} {m.group(1)}: unknown {CHOICE_WORDS.get(flag, 'value')} (choose {names})", code=2)
    return True
