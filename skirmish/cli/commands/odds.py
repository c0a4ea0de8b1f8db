"""`skirmish odds shoot`, `odds melee` and `odds table`: exact odds, computed, never sampled."""

from __future__ import annotations

from typing import Annotated

import typer


def odds_shoot_cmd(
    attack: Annotated[int, typer.Option("--attack", help="Ranged + modifiers, before the die.")],
    dodge: Annotated[int, typer.Option("--dodge", help="Dodge + modifiers, before the die.")],
    armour: Annotated[int | None, typer.Option("--armour", help="Armour save, e.g. 5 for 5+.")] = None,
    shield: Annotated[int | None, typer.Option("--shield", help="Shield save, e.g. 5 for 5+.")] = None,
    taking_cover: Annotated[
        bool, typer.Option("--taking-cover", help="Target is Taking Cover (3+).")
    ] = False,
    shield_breaker: Annotated[
        bool, typer.Option("--shield-breaker", help="Negates armour and shield.")
    ] = False,
    damage: Annotated[int, typer.Option("--damage", help="HP lost per unsaved hit.")] = 1,
    hp: Annotated[int, typer.Option("--hp", help="Target's HP left.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact odds of one shot (R-C1, R-S1, R-S2)."""
    from skirmish.cli.odds_cmds import shoot

    shoot(attack, dodge, armour, shield, taking_cover, shield_breaker, damage, hp, json_out)


def odds_melee_cmd(
    attack: Annotated[int, typer.Option("--attack", help="Attacker's Combat + modifiers.")],
    defend: Annotated[int, typer.Option("--defend", help="Defender's Combat + modifiers.")],
    attacker_armour: Annotated[int | None, typer.Option("--attacker-armour")] = None,
    attacker_shield: Annotated[int | None, typer.Option("--attacker-shield")] = None,
    defender_armour: Annotated[int | None, typer.Option("--defender-armour")] = None,
    defender_shield: Annotated[int | None, typer.Option("--defender-shield")] = None,
    attacker_shield_breaker: Annotated[bool, typer.Option("--attacker-shield-breaker")] = False,
    defender_shield_breaker: Annotated[bool, typer.Option("--defender-shield-breaker")] = False,
    attacker_damage: Annotated[int, typer.Option("--attacker-damage")] = 1,
    defender_damage: Annotated[int, typer.Option("--defender-damage")] = 1,
    attacker_hp: Annotated[int, typer.Option("--attacker-hp")] = 1,
    defender_hp: Annotated[int, typer.Option("--defender-hp")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact odds of one 1-v-1 melee exchange (R-C4, R-S1)."""
    from skirmish.cli.odds_cmds import melee

    melee(
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
        json_out,
    )


def odds_table_cmd(
    a: Annotated[str, typer.Argument(help="Troupe A: a name from `skirmish list troupes` or a file.")],
    b: Annotated[str, typer.Argument(help="Troupe B: a name or a file.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact shooting and melee odds of every model of A against every model of B, in the open and cover."""
    from skirmish.cli.odds_table_cmd import odds_table

    odds_table(a, b, json_out)
