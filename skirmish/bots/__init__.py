"""Players that choose actions: `heuristic`, `random`, and any bot named by import path or plugin.

The policies are listed in one place, `skirmish.bots.registry` (light to import: the CLI reads the
names from it without loading the engine); this module keeps the short names.
"""

from __future__ import annotations

from skirmish.bots.registry import DEFAULT, NAMED, UnknownPolicy, make_bot, names

POLICIES: tuple[str, ...] = tuple(NAMED)
"""The shipped policy names (plugins and `module:Class` paths are accepted too: `registry.names`)."""

__all__ = ["DEFAULT", "POLICIES", "UnknownPolicy", "make_bot", "names"]
