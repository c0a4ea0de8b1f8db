"""`skirmish odds shoot` and `skirmish odds melee`: exact odds on the command line (cli.md).

Only the pure rules layer is imported, so the command starts fast and never loads pygame,
shapely, matplotlib or dask. Argument checks live in `skirmish.rules.odds` (one definition for the
CLI, the UI and the bots); their `ValueError`s already name the flag and become exit 2 here.
"""

from __future__ import annotations

import json

from skirmish.cli.errors import UsageProblem


def _print_table(title: str, rows: list[tuple[str, str]]) -> None:
    width = max(len(label) for label, _ in rows)
    print(title)
    for label, value in rows:
        print(f"  {label.ljust(width)}  {value}")


def _pct(p: float) -> str:
    return f"{p * 100:6.2f}%"


def shoot(
    attack: int,
    dodge: int,
    armour: int | None,
    shield: int | None,
    taking_cover: bool,
    shield_breaker: bool,
    damage: int,
    hp: int,
    json_out: bool,
) -> None:
    """Print the exact odds of one shot; bad values raise `UsageProblem` (exit 2)."""
    from skirmish.rules.odds import shot_odds

    try:
        odds = shot_odds(attack, dodge, armour, shield, taking_cover, shield_breaker, damage, hp)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    if json_out:
        print(json.dumps(odds.as_dict()))
        return
    saves = []
    if armour is not None:
        saves.append(f"armour {armour}+")
    if shield is not None:
        saves.append(f"shield {shield}+")
    if taking_cover:
        saves.append("taking cover 3+")
    title = f"Shot: attack {attack} vs dodge {dodge}"
    title += f"; saves: {', '.join(saves) if saves else 'none'}"
    if shield_breaker:
        title += " (shield breaker)"
    title += f"; damage {damage} vs {hp} HP"
    if odds.impossible:
        print(title)
        print("  Impossible Shot (R-C1): attack is 0 or less before the die; it cannot be declared.")
        return
    _print_table(title, [("hit", _pct(odds.hit)), ("wound", _pct(odds.wound)), ("KO", _pct(odds.ko))])


def melee(
    attack: int,
    defend: int,
    attacker_armour: int | None,
    attacker_shield: int | None,
    defender_armour: int | None,
    defender_shield: int | None,
    attacker_shield_breaker: bool,
    defender_shield_breaker: bool,
    attacker_damage: int,
    defender_damage: int,
    attacker_hp: int,
    defender_hp: int,
    json_out: bool,
) -> None:
    """Print the exact odds of one 1-v-1 melee exchange; bad values raise `UsageProblem` (exit 2)."""
    from skirmish.rules.odds import melee_odds

    try:
        odds = melee_odds(
            attack,
            defend,
            attacker_armour,
            attacker_shield,
            defender_armour,
            defender_shield,
            attacker_shield_breaker,
            defender_shield_breaker,
            attacker_damage,
            defender_damage,
            attacker_hp,
            defender_hp,
        )
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    if json_out:
        print(json.dumps(odds.as_dict()))
        return
    _print_table(
        f"Melee: attacker {attack} vs defender {defend}",
        [
            ("attacker hits", _pct(odds.attacker_hits)),
            ("defender hits", _pct(odds.defender_hits)),
            ("tie (no hit)", _pct(odds.tie)),
            ("defender wounded", _pct(odds.defender_wounded)),
            ("attacker wounded", _pct(odds.attacker_wounded)),
            ("defender KO", _pct(odds.defender_ko)),
            ("attacker KO", _pct(odds.attacker_ko)),
        ],
    )
