"""Adapters for reinforcement learning on the engine's public face (the `rl` extra).

`skirmish.rl.env.SkirmishAEC` is a PettingZoo AEC environment; install its dependencies with
`pip install 'skirmish[rl]'` (pettingzoo, gymnasium). They are not part of the default install,
so this package loads them only when the environment is asked for.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SkirmishAEC", "env"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'skirmish.rl' has no attribute {name!r}")
    try:
        from skirmish.rl import env as module
    except ImportError as exc:
        raise ImportError(f"skirmish.rl needs the rl extra: pip install 'skirmish[rl]' ({exc})") from exc
    return module.SkirmishAEC if name == "SkirmishAEC" else module.env
