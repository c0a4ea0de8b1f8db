"""Charges (R-C3): declared before measuring, measured along the real path; failed and counter-charges."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from skirmish.battlefield.measure import CONTACT, path_length, truncate_path
from skirmish.battlefield.paths import charge_floor, charge_path, move_toward
from skirmish.engine.core.actions import Action, Charge, CounterCharge, Decline
from skirmish.engine.core.errors import REFUSED, IllegalAction, Refusal, refuse
from skirmish.engine.core.flow import PendingSpec, Step, StepSpec, step
from skirmish.engine.core.state import ModelState, Pending
from skirmish.engine.effects.moving import beside, mover_of, place
from skirmish.engine.effects.senses import finds_hidden

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def charger_refusal(game: Ctx, m: ModelState, *, words: bool = True) -> Refusal | None:
    """Why `m` may not declare a charge now, whatever its target (R-C3, R-M4), or None; with
    `words=False`, `REFUSED` instead of the sentence (the option check asks only whether)."""
    if not m.active:
        return REFUSED if not words else Refusal("R-P5", f"{m.name} is KO'd")
    if m.charge_declared or m.charged:
        return REFUSED if not words else Refusal("R-C3", f"{m.name} has already charged this turn")
    if m.taking_cover:
        return REFUSED if not words else Refusal("R-M4", f"{m.name} is Taking Cover and cannot charge")
    if game.in_melee(m):
        return REFUSED if not words else Refusal("R-C3", f"{m.name} is already in melee")
    if m.profile.charge <= 0:
        return REFUSED if not words else Refusal("R-C3", f"{m.name} cannot charge")
    return None


def can_charge(game: Ctx, m: ModelState) -> bool:
    return charger_refusal(game, m, words=False) is None


def _foe(game: Ctx, m: ModelState, t: ModelState) -> bool:
    """Whom `m` may declare a charge at, but for sight (R-C3): an active enemy."""
    return game.enemies(m, t) and _chargeable(t)


def _chargeable(t: ModelState) -> bool:
    """The target's own part of `_foe`: it is active."""
    return t.active


def foe_pairs(game: Ctx, chargers: list[ModelState]) -> list[tuple[ModelState, ModelState]]:
    """`[(m, t) for m in chargers for t in models if _foe(game, m, t)]`, the target's own part
    asked once per model rather than once per charger and model."""
    # `_chargeable` and `game.enemies`, read from the game's tables.
    targets = [t for t, a in zip(game.state.models, game.active_flags(), strict=True) if a]
    foes = game.enemy_rows()
    pairs: list[tuple[ModelState, ModelState]] = []
    for m in chargers:
        row = foes[m.index]
        pairs += [(m, t) for t in targets if row[t.index]]
    return pairs


def charge_targets(game: Ctx, m: ModelState) -> list[ModelState]:
    """The active enemies `m` sees (R-C3), sight asked for all of them in one batch."""
    pairs = foe_pairs(game, [m])
    return [t for (_, t), seen in zip(pairs, game.sees_each(pairs), strict=True) if seen]


def has_options(game: Ctx, player: int) -> bool:
    """Some model may declare a charge: it can charge and sees an active enemy (one sight batch)."""
    chargers = [m for m in game.player_models(player) if can_charge(game, m)]
    if not chargers:
        return False
    return game.sees_any(foe_pairs(game, chargers))


def measure(game: Ctx, m: ModelState, t: ModelState) -> tuple[np.ndarray, float] | None:
    """The path `m` must move to reach base contact with `t`, and its length (R-C3)."""
    return charge_path(mover_of(game, m), t.index)


def within_reach(game: Ctx, m: ModelState, t: ModelState, reach: float) -> tuple[np.ndarray, float] | None:
    """`measure(game, m, t)` when it is no longer than `reach`, else None (R-C3). The charge path
    is never shorter than the straight distance to contact (`charge_floor`), so when that alone is
    beyond `reach` the answer is None without a search: most of a game's out-of-reach charges."""
    mover = mover_of(game, m)
    if charge_floor(mover, t.index) > reach:
        return None
    found = charge_path(mover, t.index)
    return None if found is None or found[1] > reach else found


def candidates(game: Ctx, player: int) -> list[Action]:
    """Every Charge the player may declare (R-C3), by charger then target.

    Sight for every (charger, enemy) pair is asked in one batch (`sees_each`), not one per
    charger: each pair's answer is its own, and the kernel costs far more per call than per pair
    (in four_kingdoms_melee, after each charge only the charger's pairs are new, one or two a
    row, so asking row by row paid a kernel call for each)."""
    out: list[Action] = []
    chargers = [m for m in game.player_models(player) if can_charge(game, m)]
    pairs = foe_pairs(game, chargers)
    seen = game.sees_each(pairs)
    for (m, t), sees in zip(pairs, seen, strict=True):
        if not sees:
            continue
        if game.options.premeasure and within_reach(game, m, t, m.profile.charge) is None:
            continue
        out.append(Charge(m.id, t.id))
    return out


def do_charge(game: Ctx, action: Charge) -> None:
    s = game.state
    m = game.model(action.model, rule="R-C3")
    if m.player != s.active_player:
        raise IllegalAction("R-C3", f"{m.name} belongs to another player")
    refuse(charger_refusal(game, m))
    t = game.model(action.target, rule="R-C3")
    if not game.enemies(m, t):
        raise IllegalAction("R-C3", f"{t.name} is not an enemy")
    if not t.active:
        raise IllegalAction("R-C2", f"{t.name} is KO'd")
    if not game.sees(m, t):
        raise IllegalAction("R-B3", f"{m.name} cannot see {t.name}")
    found = measure(game, m, t)
    if game.options.premeasure and (found is None or found[1] > m.profile.charge):
        far = "unreachable" if found is None else f'{found[1]:.1f}" away'
        raise IllegalAction("R-C3", f"{t.name} is {far}, beyond {m.name}'s {m.profile.charge:g}\" charge")
    m.charge_declared = True
    ids = (m.id, t.id)
    if not finds_hidden(game, m, t, f"charge {t.name}", "the charge is lost"):
        return
    if found is not None and found[1] <= m.profile.charge + 1e-9:
        _charge_home(game, m, t, found[0], "charges")
        return
    # A failed charge: the full charge distance toward the target, never into contact.
    s = game.state
    path: np.ndarray | None
    if found is not None:
        # The charge path itself, cut at the charge distance: it stops short of contact by construction.
        path = truncate_path(found[0], min(m.profile.charge, found[1] - 2 * CONTACT))
    else:
        path = move_toward(mover_of(game, m), beside(game, m, t), m.profile.charge)
    if path is not None:
        place(game, m, path)
    if game.logging:
        dist = "unreachable" if found is None else f'{found[1]:.1f}" away'
        moved = path_length(path) if path is not None else 0.0
        game.emit(
            "charge_failed",
            f'{m.name} charges {t.name} but it is {dist} (charge {m.profile.charge:g}"): '
            f'moves {moved:.1f}" and falls short',
            ids,
            path=None if path is None else [list(map(float, p)) for p in path],
        )
    offer_counter_charge(game, t, m)


def _charge_home(game: Ctx, m: ModelState, t: ModelState, path: np.ndarray, verb: str) -> None:
    m.charged_from_cover = game.cover(m) >= 2
    m.charged_into_cover = game.cover(t) >= 2
    place(game, m, path)
    m.charged = True
    if game.logging:
        game.emit(
            "charge",
            f'{m.name} {verb} {t.name}: {path_length(path):.1f}" into base contact',
            (m.id, t.id),
            path=[list(map(float, p)) for p in path],
        )


def counter_path(game: Ctx, t: ModelState, m: ModelState) -> tuple[np.ndarray, float] | None:
    if (
        not t.active
        or t.taking_cover
        or t.charged
        or t.charge_declared  # one charge a turn: a model that already charged cannot counter-charge
        or game.in_melee(t)
        or t.profile.charge <= 0
    ):
        return None
    return within_reach(game, t, m, t.profile.charge + 1e-9)


def offer_counter_charge(game: Ctx, t: ModelState, m: ModelState) -> None:
    """R-C3: the intended target may at once counter-charge the failed charger, if it can reach it."""
    if counter_path(game, t, m) is not None:
        game.state.pending = Pending("counter_charge", t.player, t.id, m.id)
        game.emit("offer", f"{t.name} may counter-charge {m.name}", (t.id, m.id))


def pending_actions(game: Ctx) -> list[Action]:
    p = game.state.pending
    assert p is not None
    return [CounterCharge(p.model, p.target), Decline()]


def do_counter_charge(game: Ctx, action: CounterCharge) -> None:
    p = game.state.pending
    if p is None or p.kind != "counter_charge":
        raise IllegalAction("R-C3", "no counter-charge is on offer")
    if action.model != p.model or action.target != p.target:
        raise IllegalAction("R-C3", f"only {p.model} may counter-charge, and only {p.target}")
    t, m = game.model(p.model), game.model(p.target)
    found = counter_path(game, t, m)
    if found is None:
        raise IllegalAction("R-C3", f"{t.name} cannot reach {m.name}")
    game.state.pending = None
    _charge_home(game, t, m, found[0], "counter-charges")


def do_decline(game: Ctx, action: Decline) -> None:
    p = game.state.pending
    assert p is not None
    game.state.pending = None
    game.emit("decline", f"{game.model(p.model).name} declines to counter-charge", (p.model,))


def _skip_charges(game: Ctx, player: int) -> str:
    if not any(can_charge(game, m) for m in game.player_models(player) if m.active):
        return "no model can charge (charged, in melee or Taking Cover)"
    return "no one in sight to charge"


STEPS: tuple[StepSpec, ...] = (
    step(
        Step.CHARGES,
        "combat",
        "Charges",
        "R-C3",
        "Charge",
        "UseAbility",
        generate=candidates,
        has_options=has_options,
        handlers={"Charge": do_charge},
        skip_words="charges",
        skip_reason=_skip_charges,
    ),
)
"""Charges (R-C3), with the counter-charge a charged model may answer with."""

PENDING: tuple[PendingSpec, ...] = (
    PendingSpec(
        "counter_charge",
        frozenset({"CounterCharge", "Decline"}),
        generate=pending_actions,
        decline=do_decline,
        handlers={"CounterCharge": do_counter_charge},
    ),
)
