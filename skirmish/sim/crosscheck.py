"""Cross-check: the engine's dice against the exact odds, one shot at a time.

Thousands of simulated games are only worth something if a single shot in the engine is as likely
to hit and wound as the rules say. This plays one shot many times on a real board, each from its
own seed, and counts hits, wounds and KOs next to the exact `shot_odds` of the same Shooting and
Dodge scores (taken from the engine's own `matchup`, so the modifiers are the engine's).
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine import setup
from skirmish.engine.core.actions import EndStep, Shoot
from skirmish.engine.game import Game
from skirmish.engine.queries import matchup
from skirmish.rules.dice import derive_seed
from skirmish.rules.odds import ShotOdds


@dataclass(frozen=True)
class OneShotResult:
    trials: int
    hits: int
    wounds: int
    kos: int
    exact: ShotOdds


def _single(troupe: Troupe, model: str) -> Troupe:
    entry = next(e for e in troupe.models if e.profile.name == model)
    return troupe.model_copy(update={"models": [entry.model_copy(update={"count": 1})]})


def one_shot(
    scenario: Scenario,
    shooter: tuple[Troupe, str],
    target: tuple[Troupe, str],
    weapon: str,
    at: tuple[tuple[float, float], tuple[float, float]],
    trials: int,
    seed: int,
) -> OneShotResult:
    """Fire `weapon` from `shooter` at `target` once per trial (seed `derive_seed(seed, trial)`).

    Each side fields only the named model, placed at `at` before the first Move Phase; everyone
    passes until the shooter's player may shoot. Raises `ValueError` if the situation changes
    between trials (it must be the same shot every time) or the shot cannot be declared.
    """
    troupes = [_single(shooter[0], shooter[1]), _single(target[0], target[1])]
    hits = wounds = kos = 0
    exact: ShotOdds | None = None
    for trial in range(trials):
        game = Game(scenario, troupes, seed=derive_seed(seed, trial), record_log=True)
        s = game.state
        me, foe = s.models[0], s.models[1]
        placed = False
        while not (s.step == "shooting" and s.active_player == 0):
            if s.step == "movement" and not placed:
                setup.place_all(game, {me.id: at[0], foe.id: at[1]})
                placed = True
            if s.over or s.turn > 1:
                raise ValueError("the shooter never got to shoot in turn 1")
            game.apply(EndStep())
            s = game.state
        odds = matchup(game, me, foe, weapon=weapon).odds
        if exact is None:
            exact = odds
        elif odds != exact:
            raise ValueError(f"trial {trial}: the shot changed ({odds} instead of {exact})")
        hp = foe.hp
        start = len(game.log)
        game.apply(Shoot(me.id, foe.id, weapon))
        events = game.log[start:]
        if not any(e.kind == "shot" for e in events):
            raise ValueError(f"trial {trial}: the shot was not rolled ({[e.text for e in events]})")
        hits += any(e.kind in ("save", "wound", "ko") for e in events)
        foe_now = game.state.models[1]
        wounds += foe_now.hp < hp
        kos += foe_now.ko
    if exact is None:
        raise ValueError("no trials")
    return OneShotResult(trials, hits, wounds, kos, exact)
