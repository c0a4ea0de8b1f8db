"""Display names that tell identical models apart ("Fire Nation Soldier 2"), for the log and the UI.

Three soldiers that share a profile all used to be "Fire Nation Soldier" in the log and the toasts,
so a reader could not tell which one fell. The name is presentation, not state: it is computed once
when the game is built, kept on the model outside `ModelState.public()` (so the state hash and the
golden replays do not change), and read through `ModelState.name` by every sentence the engine
writes and every label the UI draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skirmish.engine.core.state import ModelState


def _title(m: ModelState) -> str:
    return m.profile.title


def model_number(model_id: str, fallback: int) -> str:
    """The number a model of a repeated profile carries: its id's suffix (`p1.soldier_2` -> "2")."""
    tail = model_id.rsplit("_", 1)[-1] if "_" in model_id else ""
    return tail if tail.isdigit() else str(fallback)


def display_names(models: Sequence[ModelState], players: Sequence[str] = ()) -> list[str]:
    """One name per model: the profile's title, numbered where a player fields it more than once,
    and followed by the player's name where another player fields a model of the same name."""
    per_player: dict[tuple[int, str], int] = {}
    for m in models:
        key = (m.player, _title(m))
        per_player[key] = per_player.get(key, 0) + 1
    names: list[str] = []
    seen: dict[tuple[int, str], int] = {}
    for m in models:
        key = (m.player, _title(m))
        seen[key] = seen.get(key, 0) + 1
        name = _title(m)
        if per_player[key] > 1:
            name = f"{name} {model_number(m.id, seen[key])}"
        names.append(name)
    owners: dict[str, set[int]] = {}
    for m, name in zip(models, names, strict=True):
        owners.setdefault(name, set()).add(m.player)
    out: list[str] = []
    for m, name in zip(models, names, strict=True):
        if len(owners[name]) > 1 and m.player < len(players):
            name = f"{name} ({players[m.player]})"
        out.append(name)
    return out
