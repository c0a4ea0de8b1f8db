"""Hits, saves and KOs (R-S1, R-S2), shared by shooting, melee and abilities."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.state import ModelState
from skirmish.rules.combat import HitResult, apply_hit

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def saves_of(game: Ctx, m: ModelState) -> tuple[int | None, int | None]:
    """The target's own armour and shield saves (never the attacker's)."""
    arm = game.armoury(m)
    armour = arm.armour_by_name()[m.profile.armour].save if m.profile.armour else None
    shield = arm.shield_by_name()[m.profile.shield].save if m.profile.shield else None
    return armour, shield


def inflict(
    game: Ctx, target: ModelState, damage: int, *, shield_breaker: bool, by: ModelState | None, source: str
) -> HitResult | None:
    """A hit lands on `target`: it rolls its saves, then loses HP and may be KO'd. None if already KO'd."""
    if target.ko or target.removed or game.rules.absorbs_hit(target):
        return None
    start = len(game.dice.history)
    armour, shield = saves_of(game, target)
    result = apply_hit(
        game.dice,
        target.hp,
        damage,
        armour,
        shield,
        taking_cover=target.taking_cover,
        shield_breaker=shield_breaker,
    )
    logging = game.logging  # the words and the dice of the log only when someone reads them
    saves = _saves_text(result) if logging else ""
    rolled = (
        [{"save": r.name, "need": r.need, "die": r.die, "saved": r.success} for r in result.saves.rolls]
        if logging
        else []
    )
    if result.saves.saved:
        if logging:
            game.emit(
                "save",
                f"{target.name} saves against {source}: {saves}",
                (target.id,),
                rolls_from=start,
                saves=rolled,
                source=source,
            )
        return result
    target.hp = result.hp_after
    if result.hp_lost > 0:
        target.lost_hp_turn = True
    text = (
        f"{target.name} loses {result.hp_lost} HP to {source} ({saves}); {target.hp} left" if logging else ""
    )
    if result.ko and game.rules.stuns(target):  # a scenario may stun instead of KO (the Pursuit)
        result = HitResult(result.saves, result.hp_lost, result.hp_after, False)
    if result.ko:
        target.ko = True
        game.moved()  # who is in melee (and who may be targeted) has changed
        target.ko_turn = game.state.turn
        target.ko_step = f"{game.state.turn}:{game.state.step}"
        if by is not None:
            game.state.extra.setdefault("ko_by", {})[target.id] = by.player
        if logging:
            text += f" — {target.name} is KO'd"
    if logging:
        ids = (target.id,) if by is None else (target.id, by.id)
        game.emit(
            "wound" if not result.ko else "ko",
            text,
            ids,
            rolls_from=start,
            saves=rolled,
            source=source,
            hp_lost=result.hp_lost,
            hp_left=target.hp,
        )
    game.rules.on_wound(target, result.hp_lost, by)
    return result


def _saves_text(result: HitResult) -> str:
    """The log's words for the save dice of one hit."""
    return (
        ", ".join(
            f"{r.name} save rolls {r.die}, needs {r.need}+: {'saved' if r.success else 'failed'}"
            for r in result.saves.rolls
        )
        or "no save allowed"
    )


def heal(game: Ctx, target: ModelState, amount: int) -> int:
    before = target.hp
    target.hp = min(target.profile.hp, target.hp + amount)
    return target.hp - before


def remove_casualties(game: Ctx) -> None:
    """R-C2 / R-C5: models KO'd so far leave the table now."""
    gone = [m for m in game.state.models if m.ko and not m.removed]
    for m in gone:
        m.removed = True
    if gone:
        game.moved()
        game.emit(
            "removed", "Removed as casualties: " + ", ".join(m.name for m in gone), tuple(m.id for m in gone)
        )
