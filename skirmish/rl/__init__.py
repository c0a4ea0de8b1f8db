"""Adapters for reinforcement learning on the engine's public face (the `rl` extra).

`skirmish.rl.env.SkirmishAEC` is a PettingZoo AEC environment; install its dependencies with
`pip install 'skirmish-four-kingdoms[rl]'` (pettingzoo, gymnasium). They are not part of the
default install, so this package loads them only when the environment is asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["SkirmishAEC", "env"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'skirmish.rl' has no attribute {name!r}")
    try:
        # import_module, not `from skirmish.rl import env`: when the import fails, the `from` form
        # falls back to this very __getattr__ for `env` and recurses until RecursionError.
        module = importlib.import_module("skirmish.rl.env")
    except ImportError as exc:
        from skirmish import install_hint

        raise ImportError(f"skirmish.rl needs the rl extra: {install_hint('rl')} ({exc})") from exc
    return module.SkirmishAEC if name == "SkirmishAEC" else module.env
