"""The engine layer (see docs/design.md) and its public face (docs/engine.md).

Bots, the UI, the sim and notebooks need only what is named here:

    from skirmish.engine import Game, Shoot, setup, why_not, matchup
    game = Game.from_scenario("open_battle", seed=1)
    game.legal_actions(); game.apply(action); game.undo(); game.subscribe(print)

The names load on first use (PEP 562), so importing one engine module does not pull in the
whole phase machine, and no step module's import order depends on this file.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, tuple[str, str | None]] = {
    "Game": ("skirmish.engine.game", "Game"),
    "IllegalAction": ("skirmish.engine.core.errors", "IllegalAction"),
    "Event": ("skirmish.engine.core.log", "Event"),
    "Refusal": ("skirmish.engine.queries", "Refusal"),
    "why_not": ("skirmish.engine.queries", "why_not"),
    "matchup": ("skirmish.engine.queries", "matchup"),
    "ShotMatchup": ("skirmish.engine.queries", "ShotMatchup"),
    "MeleeMatchup": ("skirmish.engine.queries", "MeleeMatchup"),
    "SetupError": ("skirmish.engine.setup", "SetupError"),
    "setup": ("skirmish.engine.setup", None),
    "Replay": ("skirmish.engine.replay", "Replay"),
    "load_replay": ("skirmish.engine.replay", "load_replay"),
    "Action": ("skirmish.engine.core.actions", "Action"),
    "EndStep": ("skirmish.engine.core.actions", "EndStep"),
    "Deploy": ("skirmish.engine.core.actions", "Deploy"),
    "Move": ("skirmish.engine.core.actions", "Move"),
    "TakeCover": ("skirmish.engine.core.actions", "TakeCover"),
    "Shoot": ("skirmish.engine.core.actions", "Shoot"),
    "Charge": ("skirmish.engine.core.actions", "Charge"),
    "CounterCharge": ("skirmish.engine.core.actions", "CounterCharge"),
    "Decline": ("skirmish.engine.core.actions", "Decline"),
    "UseAbility": ("skirmish.engine.core.actions", "UseAbility"),
    "React": ("skirmish.engine.core.actions", "React"),
    "Advance": ("skirmish.engine.core.actions", "Advance"),
    "Disengage": ("skirmish.engine.core.actions", "Disengage"),
    "parse_action": ("skirmish.engine.core.actions", "parse_action"),
    "STEPS": ("skirmish.engine.rulebook", "SPECS"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module_name, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'skirmish.engine' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:  # the same names, for type checkers and editors
    from skirmish.engine import setup as setup
    from skirmish.engine.core.actions import Action as Action
    from skirmish.engine.core.actions import Advance as Advance
    from skirmish.engine.core.actions import Charge as Charge
    from skirmish.engine.core.actions import CounterCharge as CounterCharge
    from skirmish.engine.core.actions import Decline as Decline
    from skirmish.engine.core.actions import Deploy as Deploy
    from skirmish.engine.core.actions import Disengage as Disengage
    from skirmish.engine.core.actions import EndStep as EndStep
    from skirmish.engine.core.actions import Move as Move
    from skirmish.engine.core.actions import React as React
    from skirmish.engine.core.actions import Shoot as Shoot
    from skirmish.engine.core.actions import TakeCover as TakeCover
    from skirmish.engine.core.actions import UseAbility as UseAbility
    from skirmish.engine.core.actions import parse_action as parse_action
    from skirmish.engine.core.errors import IllegalAction as IllegalAction
    from skirmish.engine.core.log import Event as Event
    from skirmish.engine.game import Game as Game
    from skirmish.engine.rulebook import SPECS

    STEPS = SPECS
    from skirmish.engine.queries import MeleeMatchup as MeleeMatchup
    from skirmish.engine.queries import Refusal as Refusal
    from skirmish.engine.queries import ShotMatchup as ShotMatchup
    from skirmish.engine.queries import matchup as matchup
    from skirmish.engine.queries import why_not as why_not
    from skirmish.engine.replay import Replay as Replay
    from skirmish.engine.replay import load_replay as load_replay
    from skirmish.engine.setup import SetupError as SetupError
