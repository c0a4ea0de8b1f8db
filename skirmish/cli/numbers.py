"""Numbers on the command line: ASCII digits only, for every integer and decimal flag of every command.

Python's `int()` and `float()` read any Unicode digit (`--workers ２`, `--seed ١٢`), digit groups
(`1_000`) and, for floats, `nan` and `inf`; the option parser of one typer version reads some of
these and another none, so `--games ５` was refused while `--workers ２` played two workers. A
number here is what a user types on any keyboard layout and what a script writes: an optional
sign and the digits 0-9 (a decimal also a point and an exponent), with spaces around it allowed.
Anything else is one line naming the flag (exit 2), whichever typer is installed, because every
flag typed `int` or `float` in `cli.commands` is checked here before the parser reads it
(`number_problems`), and the flags read as text and converted by the command (`--workers`,
`what-if --at`) go through `whole_number`.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from typing import Any

from skirmish.cli.errors import UsageProblem, clip
from skirmish.cli.repeats import option_values

WHOLE = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_DIGITS = 40
"""More digits than any count, seed or score here needs (a 128-bit seed has 39); a longer number is
refused as a typo (Python will not even convert one of more than 4,300 digits)."""

SPACES = " \t"

WHOLE_TEXT = {
    "--at": "a whole number of actions, e.g. 40",
    "--games": "a whole number of games, e.g. 200",
    "--seed": "a whole number >= 0",
    "--workers": "a whole number of worker processes, e.g. 2",
}
"""Options typed `str` that hold a whole number the command converts itself (`test-troupes
--workers`, `what-if --at/--games/--seed/--workers`), with what their refusal says: checked here
too, so every bad number of a command line is said in one run, in the command's own words."""

WHOLE_WORDS = "a whole number in the digits 0-9"


def is_whole(text: str) -> bool:
    """Whether `text` is a whole number in ASCII digits (spaces around it allowed)."""
    digits = text.strip(SPACES)
    return WHOLE.fullmatch(digits) is not None and len(digits.lstrip("+-")) <= MAX_DIGITS


def whole_problem(flag: str, text: str, what: str = WHOLE_WORDS) -> str | None:
    """The one line saying `text` given to `flag` is not a whole number, or None when it is one."""
    if is_whole(text):
        return None
    digits = text.strip(SPACES).lstrip("+-")
    longer = f" (at most {MAX_DIGITS} digits)" if WHOLE.fullmatch(digits) is not None else ""
    return f"{flag} {clip(text, 40)}: {what}{longer}"


def whole_number(text: str, flag: str, what: str = WHOLE_WORDS) -> int:
    """`text` as an int, or `UsageProblem` naming `flag` (what `int()` also takes, such as `２`,
    `١٢` or `1_000`, is refused: `whole_problem`)."""
    problem = whole_problem(flag, text, what)
    if problem is not None:
        raise UsageProblem(problem)
    return int(text.strip(SPACES))


def decimal_problem(flag: str, text: str) -> str | None:
    """The one line saying `text` given to `flag` is not a decimal number, or None when it is one
    (`nan`, `inf` and non-ASCII digits are refused)."""
    if DECIMAL.fullmatch(text.strip(SPACES)) is not None and len(text) <= 4 * MAX_DIGITS:
        return None
    return f"{flag} {clip(text, 40)}: a number, in the digits 0-9 (e.g. 0.1)"


def _kinds(cmd: Any) -> dict[str, str]:
    """Each option spelling of `cmd` whose value is a number: `whole` (typed `int`), `decimal`
    (typed `float`) or `text` (a whole number typed `str`, `WHOLE_TEXT`), read from the
    annotations of the function the command runs."""
    callback = getattr(cmd, "callback", None)
    if callback is None:
        return {}
    try:
        hints = typing.get_type_hints(inspect.unwrap(callback))
    except Exception:  # noqa: BLE001 - an annotation that cannot be resolved: the parser checks it
        return {}
    found: dict[str, str] = {}
    for param in getattr(cmd, "params", []):
        if getattr(param, "param_type_name", "") != "option":
            continue
        hint = hints.get(param.name or "")
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            members = [a for a in typing.get_args(hint) if a is not type(None)]
            hint = members[0] if len(members) == 1 else None
        kind = "whole" if hint is int else "decimal" if hint is float else None
        for name in [*param.opts, *getattr(param, "secondary_opts", [])]:
            if kind is not None:
                found[name] = kind
            elif hint is str and name in WHOLE_TEXT:
                found[name] = "text"
    return found


def number_problems(cmd: Any, args: list[str]) -> list[str]:
    """One line per value given to a numeric flag of `cmd` (a leaf command's arguments `args`) that
    is not a number in ASCII digits."""
    kinds = _kinds(cmd)
    if not kinds:
        return []
    problems: list[str] = []
    for name, value in option_values(cmd, args):
        kind = kinds.get(name)
        if kind is None:
            continue
        if kind == "decimal":
            problem = decimal_problem(name, value)
        else:
            problem = whole_problem(name, value, WHOLE_TEXT[name] if kind == "text" else WHOLE_WORDS)
        if problem is not None and problem not in problems:
            problems.append(problem)
    return problems
