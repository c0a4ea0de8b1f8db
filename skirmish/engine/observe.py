"""Per-player observations: what one player may know now (hidden information stays hidden).

The state hash covers everything, hidden techniques included (so a replay proves it re-simulated
exactly), and so does `repr(game.state)`; neither may be shown to a player. An observation is a
plain JSON-like dict built only from public facts plus that player's own secrets, with its own hash
(`obs_hash`, a digest of the observation itself). The UI draws from it and the duel bot decides from
it; `tests/test_duel.py` changes an opponent's hidden techniques and checks that neither the
observation nor the bot's choice moves.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def observation(game: Ctx, player: int) -> dict[str, Any]:
    s = game.state
    pending = None
    if s.pending is not None:
        pending = {
            "kind": s.pending.kind,
            "player": s.pending.player,
            "model": s.pending.model,
            "target": s.pending.target,
            "data": _jsonable(s.pending.data),
        }
    models = []
    for m in s.models:
        row = m.public()
        row["player"] = m.player
        row["xy"] = [float(v) for v in s.xy[m.index]]
        models.append(row)
    obs: dict[str, Any] = {
        "player": player,
        "turn": s.turn,
        "phase": s.phase,
        "step": s.step,
        "order": list(s.order),
        "active_player": s.active_player,
        "pending": pending,
        "over": s.over,
        "winning_team": s.winning_team,
        "reason": s.result_reason,
        "players": [
            {
                "index": p.index,
                "name": p.name,
                "team": p.team,
                "ap_roll": p.ap_roll,
                "bp": list(p.battle_points),
            }
            for p in s.players
        ],
        "models": models,
        "terrain_added": _jsonable(s.terrain_added),
        "scenario": _jsonable(game.rules.observe(player)),
        "log": [e.to_json() for e in game.log],
    }
    text = json.dumps(obs, sort_keys=True, separators=(",", ":"))
    obs["obs_hash"] = hashlib.sha256(text.encode()).hexdigest()
    return obs
