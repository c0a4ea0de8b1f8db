"""Every bot policy, named in one place: the CLI, the sim, scenario validation and the UI ask here.

A policy is one of three things:
- a name of `NAMED` (`heuristic`, `guess`, `random`), the bots that ship with Skirmish;
- a name registered by an installed package under the `skirmish.bots` entry-point group
  (`[project.entry-points."skirmish.bots"] mybot = "mypkg.bots:MyBot"` in its pyproject);
- an import path `module:Class` (`mypkg:MyBot`), for a bot not installed as a plugin.

A bot class takes `(seed, player)` and has `choose(game) -> Action` (the `Bot` protocol of
`skirmish.bots.base`). Bots see the game through the engine's public face (`skirmish.engine`);
they must not read hidden state. Policies travel as strings (in replays, scenario files and to
worker processes), so a custom bot plays in a troupe test's workers as long as its module imports
there.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry stays light: the CLI reads its names without loading the engine
    from skirmish.bots.base import Bot

DEFAULT = "heuristic"
"""The policy used when none is named (`--bots` alone, a scenario side without one)."""

NAMED: dict[str, str] = {
    "heuristic": "skirmish.bots.heuristic:HeuristicBot",
    "guess": "skirmish.bots.heuristic:GuessingBot",
    "random": "skirmish.bots.random_bot:RandomBot",
}
"""The shipped policies, each by the import path of its class (loaded only when used)."""

ENTRY_POINT_GROUP = "skirmish.bots"

BotFactory = Callable[[int, int], "Bot"]

_IMPORT_PATH = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*:[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")


class UnknownPolicy(ValueError):
    """A policy that names no bot: the message says why and lists the known names."""


def is_import_path(policy: str) -> bool:
    """Whether `policy` is written `module:Class` (rather than a name)."""
    return bool(_IMPORT_PATH.match(policy))


def _plugins() -> dict[str, Any]:
    """Installed plugins by name (importlib.metadata is loaded only when a plugin may be asked for)."""
    from importlib import metadata

    found: dict[str, Any] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)
    return found


def names() -> list[str]:
    """Every policy name that can be given without an import path: shipped first, then plugins."""
    return [*NAMED, *sorted(n for n in _plugins() if n not in NAMED)]


def describe() -> str:
    """The known choices in words, for help texts and error messages."""
    return ", ".join(names()) + ", or module:Class"


def _load(path: str, policy: str) -> Any:
    module_name, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownPolicy(f"bot policy {policy!r}: cannot import {module_name!r} ({exc})") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the named module failed as it ran
        # A module that raises or calls sys.exit() at import is a bad policy, not the caller's crash
        # (nor the end of a troupe test's worker).
        why = f"SystemExit({exc.code!r})" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        raise UnknownPolicy(f"bot policy {policy!r}: importing it failed ({why})") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UnknownPolicy(f"bot policy {policy!r}: {module_name!r} has no {attr!r}") from None
    return obj


def resolve(policy: str) -> BotFactory:
    """The bot class (or factory) a policy names; `UnknownPolicy` saying why otherwise."""
    if not isinstance(policy, str) or not policy.strip():
        raise UnknownPolicy(f"bot policy {policy!r}: give a name ({describe()})")
    if policy in NAMED:
        factory = _load(NAMED[policy], policy)
    elif is_import_path(policy):
        factory = _load(policy, policy)
    else:
        ep = _plugins().get(policy)
        if ep is None:
            raise UnknownPolicy(f"unknown bot policy {policy!r} (known: {describe()})")
        try:
            factory = ep.load()
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a broken plugin is bad input, not a crash
            problem = f"bot policy {policy!r}: entry point {ep.value!r} fails to load ({exc})"
            raise UnknownPolicy(problem) from None
    if not callable(factory) or not callable(getattr(factory, "choose", None)):
        raise UnknownPolicy(f"bot policy {policy!r}: not a bot class (it needs a choose(game) method)")
    return factory


def check(policy: str) -> str | None:
    """The problem with `policy` in words, or None if it names a bot (for flag and file validation)."""
    try:
        resolve(policy)
    except UnknownPolicy as exc:
        return str(exc)
    return None


def make_bot(policy: str, seed: int, player: int) -> Bot:
    """A bot of `policy` for seat `player`, seeded from the game's seed."""
    return resolve(policy)(seed, player)
