"""Snapshots of a game: what `apply` restores after a refusal and `undo` takes back (design
principle 8).

A snapshot copies only what an action can change — models, players, positions, order, the pending
decision, the scenario's `extra` state, added terrain, the dice, and the lengths of the log and
history — with plain shallow copies (no `copy.deepcopy` of the whole game, which cost more than the
action itself). Restoring copies the values back into the live objects, so a model held by a
caller stays the game's own.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from skirmish.battlefield.table import Table
from skirmish.engine.core.log import Event
from skirmish.engine.core.state import GameState
from skirmish.rules.dice import Dice, DiceSnapshot


@dataclass
class _Snapshot:
    state: GameState
    dice: DiceSnapshot
    log_len: int
    history_len: int
    table: Table


class Snapshots:
    """Taking and restoring snapshots of a game (mixed into `Game`)."""

    state: GameState
    dice: Dice
    table: Table
    log: list[Event]
    history: list[Any]
    _outbox: list[Event]
    _version: int

    def _snapshot(self) -> _Snapshot:
        s = self.state
        models = [_shallow(m) for m in s.models]
        for m in models:
            m.buffs = dict(m.buffs)
        players = [_shallow(p) for p in s.players]
        for p in players:
            p.battle_points = list(p.battle_points)
        new = _shallow(s)
        new.models = models
        new.players = players
        new.xy = s.xy.copy()
        new.order = list(s.order)
        new.pending = None if s.pending is None else copy.deepcopy(s.pending)
        new.extra = _json_copy(s.extra) if s.extra else {}
        new.terrain_added = list(s.terrain_added)
        return _Snapshot(
            new,
            self.dice.snapshot(),
            len(self.log),
            len(self.history),
            self.table,
        )

    def _restore(self, snap: _Snapshot) -> None:
        live, saved = self.state, snap.state
        if len(live.models) == len(saved.models) and len(live.players) == len(saved.players):
            # Copy the values back into the live objects, so a model or player held by a caller
            # (the UI's selection, a test) stays the one in the game after a refusal or an undo.
            for obj, old in zip(live.models, saved.models, strict=True):
                obj.__dict__.update(old.__dict__)
            for pobj, pold in zip(live.players, saved.players, strict=True):
                pobj.__dict__.update(pold.__dict__)
            models, players = live.models, live.players
            live.__dict__.update(saved.__dict__)
            live.models, live.players = models, players
        else:
            self.state = saved
        self.dice.restore(snap.dice)
        del self.log[snap.log_len :]
        del self.history[snap.history_len :]
        self.table = snap.table
        self._outbox.clear()
        self._undo_stale()

    def _undo_stale(self) -> None:
        # Snapshots are copies, so cached geometry may describe another arrangement.
        self._version += 1


def _shallow(obj: Any) -> Any:
    """A shallow copy of a plain dataclass instance, without `copy.copy`'s generic machinery."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars): what `state.extra` holds."""
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_json_copy(v) for v in value)
    return value
