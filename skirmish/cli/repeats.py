"""A one-value flag given twice with different values is refused (exit 2), never silently overridden.

The parser keeps the last of `--replay a.json --replay b.json`: the game wrote only `b.json` and
said so, and `a.json`, which the user asked for, was never written. `--seed 1 --seed 2`,
`--games 10 --games 1000` and the like were just as quiet. Flags that may repeat (`--troupe`,
`--option`: one per side, one per rule) and on/off switches (`--json` twice means `--json`) are
left alone, and so is a flag repeated with the same value. `--option` has its own check
(`given twice with different values`), which this one words like.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from skirmish.cli.errors import UsageProblem


def _leaf(root: Any, argv: list[str]) -> tuple[Any, list[str]] | None:
    """The sub-command `argv` runs and the arguments after its name, or None when it names none."""
    cmd, rest = root, list(argv)
    while hasattr(cmd, "commands"):
        i = next((k for k, a in enumerate(rest) if not a.startswith("-")), None)
        if i is None:
            return None
        sub = cmd.commands.get(rest[i])
        if sub is None:
            return None  # an unknown command: the parser says so
        cmd, rest = sub, rest[i + 1 :]
    return cmd, rest


def _one_value_options(cmd: Any) -> dict[str, Any]:
    """Each spelling of the command's options that take exactly one value and may not repeat."""
    found: dict[str, Any] = {}
    for param in getattr(cmd, "params", []):
        if getattr(param, "param_type_name", "") != "option":
            continue
        if getattr(param, "multiple", False) or getattr(param, "is_flag", False) or param.nargs != 1:
            continue
        if getattr(param, "count", False):
            continue
        for name in [*param.opts, *getattr(param, "secondary_opts", [])]:
            found[name] = param
    return found


def option_values(cmd: Any, args: list[str]) -> Iterator[tuple[str, str]]:
    """Each (spelling, value) an option of `cmd` is given in `args` (a leaf command's arguments),
    in order, as the parser reads them: `--flag=value` or `--flag value` for an option that takes
    a value, nothing after `--`. The one walk the repeated-flag and number checks both read."""
    takes_value = {
        name
        for p in getattr(cmd, "params", [])
        if getattr(p, "param_type_name", "") == "option" and not getattr(p, "is_flag", False)
        for name in p.opts
    }
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return
        name, value = arg, None
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
        if name in takes_value and value is None:
            value = args[i + 1] if i + 1 < len(args) else None
            i += 1
        i += 1
        if value is not None:
            yield name, value


def repeated_values(cmd: Any, args: list[str]) -> list[str]:
    """The problems of `args` (a leaf command's arguments): one line per flag given two values."""
    options = _one_value_options(cmd)
    seen: dict[str, str] = {}  # param name -> its first value
    told: set[str] = set()
    problems: list[str] = []
    for name, value in option_values(cmd, args):
        param = options.get(name)
        if param is None:
            continue
        first = seen.setdefault(param.name, value)
        if first != value and param.name not in told:
            told.add(param.name)
            problems.append(f"{name}: given twice with different values ({first}, {value}); give it once")
    return problems


def refuse_repeated(root: Any, argv: list[str]) -> None:
    """Raise `UsageProblem` when a one-value flag of the command `argv` runs has two values, or a
    numeric flag a value that is not a number in ASCII digits (`cli.numbers`)."""
    found = _leaf(root, argv)
    if found is None:
        return
    from skirmish.cli.numbers import number_problems

    problems = number_problems(*found) + repeated_values(*found)
    if problems:
        raise UsageProblem(*problems)
