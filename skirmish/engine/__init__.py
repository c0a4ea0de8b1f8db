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
    "IllegalAction": ("skirmish.engine.errors", "IllegalAction"),
    "Event": ("skirmish.engine.log", "Event"),
    "Refusal": ("skirmish.engine.queries", "Refusal"),
    "why_not": ("skirmish.engine.queries", "why_not"),
    "matchup": ("skirmish.engine.queries", "matchup"),
    "ShotMatchup": ("skirmish.engine.queries", "ShotMatchup"),
    "MeleeMatchup": ("skirmish.engine.queries", "MeleeMatchup"),
    "SetupError": ("skirmish.engine.setup", "SetupError"),
    "setup": ("skirmish.engine.setup", None),
    "Replay": ("skirmish.engine.replay", "Replay"),
    "load_replay": ("skirmish.engine.replay", "load_replay"),
    "Action": ("skirmish.engine.actions", "Action"),
    "EndStep": ("skirmish.engine.actions", "EndStep"),
    "Deploy": ("skirmish.engine.actions", "Deploy"),
    "Move": ("skirmish.engine.actions", "Move"),
    "TakeCover": ("skirmish.engine.actions", "TakeCover"),
    "Shoot": ("skirmish.engine.actions", "Shoot"),
    "Charge": ("skirmish.engine.actions", "Charge"),
    "CounterCharge": ("skirmish.engine.actions", "CounterCharge"),
    "Decline": ("skirmish.engine.actions", "Decline"),
    "UseAbility": ("skirmish.engine.actions", "UseAbility"),
    "React": ("skirmish.engine.actions", "React"),
    "Advance": ("skirmish.engine.actions", "Advance"),
    "Disengage": ("skirmish.engine.actions", "Disengage"),
    "parse_action": ("skirmish.engine.actions", "parse_action"),
    "STEPS": ("skirmish.engine.phases", "SPECS"),
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
    from skirmish.engine.actions import Action as Action
    from skirmish.engine.actions import Advance as Advance
    from skirmish.engine.actions import Charge as Charge
    from skirmish.engine.actions import CounterCharge as CounterCharge
    from skirmish.engine.actions import Decline as Decline
    from skirmish.engine.actions import Deploy as Deploy
    from skirmish.engine.actions import Disengage as Disengage
    from skirmish.engine.actions import EndStep as EndStep
    from skirmish.engine.actions import Move as Move
    from skirmish.engine.actions import React as React
    from skirmish.engine.actions import Shoot as Shoot
    from skirmish.engine.actions import TakeCover as TakeCover
    from skirmish.engine.actions import UseAbility as UseAbility
    from skirmish.engine.actions import parse_action as parse_action
    from skirmish.engine.errors import IllegalAction as IllegalAction
    from skirmish.engine.game import Game as Game
    from skirmish.engine.log import Event as Event
    from skirmish.engine.phases import SPECS

    STEPS = SPECS
    from skirmish.engine.queries import MeleeMatchup as MeleeMatchup
    from skirmish.engine.queries import Refusal as Refusal
    from skirmish.engine.queries import ShotMatchup as ShotMatchup
    from skirmish.engine.queries import matchup as matchup
    from skirmish.engine.queries import why_not as why_not
    from skirmish.engine.replay import Replay as Replay
    from skirmish.engine.replay import load_replay as load_replay
    from skirmish.engine.setup import SetupError as SetupError
