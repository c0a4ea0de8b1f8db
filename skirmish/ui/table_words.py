"""Words for the busy moments of the table (issue 16): what a weapon or an ability does, the active
buffs, one melee line per pair, why points were scored, and a turn's summary.

Pure text from the game and its log (no pygame), so the profile card, the ability menu, the Shoot
button, the log panel and the hand-over card all say the same thing, and tests read it directly.
The engine stays the authority: these words only describe its data and its log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.engine import STEPS as SPECS

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability, Weapon
    from skirmish.engine import Game
    from skirmish.engine.core.log import Event
    from skirmish.engine.queries import ModelState, ShotSpec

ARROW = "=>"
"""The default UI font (pygame's freesansbold) has no → glyph: an ASCII arrow reads everywhere."""

STAT_WORDS = {"ranged": "Ranged", "combat": "Combat", "dodge": "Dodge", "move": 'Move (")'}


def weapon_words(w: Weapon) -> str:
    """`Bow: range 12", damage 1` / `Sword: melee, damage 1, shield breaker`."""
    where = f'range {w.range:g}"' if w.range else "melee"
    extra = [f"damage {w.damage}"]
    if w.shield_breaker:
        extra.append("shield breaker (no armour or shield save)")
    if w.two_hand:
        extra.append("two hand weapons: +1 in melee")
    if w.element:
        extra.append(f"{w.element} element")
    return f"{w.title}: {where}, " + ", ".join(extra)


def spec_words(sp: ShotSpec) -> str:
    """A shot's reach and effect, for the Shoot button: `Boomerang, 10" range, damage 1`."""
    words = [f'{sp.range:g}" range', f"damage {sp.damage}"]
    if sp.shield_breaker:
        words.append("shield breaker")
    if sp.bonus:
        words.append(f"+{sp.bonus} to hit")
    if sp.ap_cost:
        words.append(f"{sp.ap_cost} AP")
    return f"{sp.title}, " + ", ".join(words)


def effect_words(a: Ability) -> str:
    """What an ability does, in a few words, from its effect and parameters."""
    p = a.params
    e = a.effect
    if e == "buff":
        stat = STAT_WORDS.get(str(p.get("stat", "combat")), str(p.get("stat")))
        who = "itself" if not a.range else f'itself and friends within {a.range:g}"'
        return f"+{p.get('amount', 1)} {stat} this turn for {who}"
    if e == "ranged_attack":
        words = f"a ranged attack, damage {p.get('damage', 1)}"
        if p.get("bonus"):
            words += f", +{p['bonus']} to hit"
        if p.get("shield_breaker"):
            words += ", shield breaker"
        return words
    if e == "heal":
        return f"heals {p.get('amount', 1)} HP of a friend" + (f' within {a.range:g}"' if a.range else "")
    if e == "push":
        hurt = f", {p['damage']} damage" if p.get("damage") else ""
        return f'pushes the target {p.get("distance", 3)}" away{hurt}'
    if e == "glide":
        return f'flies this move, +{p.get("bonus_move", 0)}" Move'
    if e == "limp":
        return "the target is Limping (half Move, −2 Dodge)"
    if e == "chi_block":
        return "the target can spend no AP next turn"
    if e == "nullify_cover":
        return "the target's cover counts for nothing against this model's shot"
    if e == "wall":
        return f'raises a wall {p.get("length", 4)}" long (blocks sight, impassable)'
    if e == "sense":
        return f'sees through sight blockers within {p.get("range", a.range or 0)}"'
    if e == "distraction":
        return "slips out of a melee in the Advances step"
    if e.startswith("reaction") or e == "redirect":
        power = f" (power {p['power']})" if p.get("power") else ""
        return {
            "reaction_block": f"blocks a shot at this model{power}",
            "reaction_deflect": "deflects a shot at this model",
            "reaction_reflect": "sends a shot back at the shooter",
            "redirect": "redirects a shot to another target",
        }.get(e, "a reaction to a shot")
    return e.replace("_", " ")


def ability_words(a: Ability) -> str:
    """`Avatar State (3 AP, move step): +2 Ranged this turn for itself`, range included when it has one."""
    reach = f', range {a.range:g}"' if a.range else ""
    return f"{a.title} ({a.ap_cost} AP, {a.timing.value}{reach}): {effect_words(a)}"


def buff_words(m: ModelState) -> list[str]:
    """The model's active bonuses in words (`+2 Ranged (ability)`, `flying this move`)."""
    out: list[str] = []
    for key in sorted(m.buffs):
        v = m.buffs[key]
        if key in STAT_WORDS and v:
            out.append(f"{'+' if v > 0 else '−'}{abs(v)} {STAT_WORDS[key]} this turn")
        elif key == "airborne" and v:
            out.append("attacks from the air this turn")
        elif key.startswith("exposed:") and v:
            out.append("cover nullified for one shooter")
    if m.glide:
        out.append("flying this move")
    if m.chi_blocked:
        out.append("chi blocked: no AP next turn")
    return out


def _exchange_line(ex: dict[str, Any], name: dict[str, str]) -> str:
    a, b = name.get(ex["a"], ex["a"]), name.get(ex["b"], ex["b"])
    head = f"{a} {ex['a_score']} v {b} {ex['b_score']}"
    if ex.get("winner") is None:
        return f"{head} {ARROW} tie, no hit"
    won = name.get(ex["winner"], ex["winner"])
    res = ex.get("result", "")
    tail = {"saved": "hit, saved", "KO": "hit, KO", "no effect": "hit, no effect"}.get(res, f"hit, {res}")
    if ex["winner"] != ex["a"]:
        tail = f"{won} hits" + tail.removeprefix("hit")
    return f"{head} {ARROW} {tail}"


def melee_lines(names: dict[str, str], e: Event) -> list[str]:
    """One line per pair of a melee event: `Katara 5 v Fire Nation Soldier 1 4 => hit, saved`.

    `names` maps model ids to display names (`names_of(game)`)."""
    exchanges = e.data.get("exchanges") if e.data else None
    if not exchanges:
        return []
    return [_exchange_line(ex, names) for ex in exchanges]


def names_of(game: Game) -> dict[str, str]:
    return {m.id: m.name for m in game.state.models}


def score_reasons(e: Event) -> dict[str, list[str]]:
    """Why each player scored in a `score` event: `{"avatar": ["shrine held alone: +1"]}`."""
    why = e.data.get("why") if e.data else None
    return dict(why) if isinstance(why, dict) else {}


def turn_summary(game: Game, turn: int) -> list[str]:
    """What a turn came to, for the hand-over card: KOs, points and why, who holds what, who is left."""
    s = game.state
    lines: list[str] = []
    kos = [e for e in game.log if e.turn == turn and e.kind == "ko"]
    if kos:
        name = {m.id: m.name for m in s.models}
        lines.append("KO'd: " + ", ".join(name.get(e.models[0], "?") for e in kos if e.models))
    else:
        lines.append("No model was KO'd")
    score = next((e for e in reversed(game.log) if e.turn == turn and e.kind == "score"), None)
    why = score_reasons(score) if score is not None else {}
    for p in s.players:
        got = p.battle_points[turn - 1] if 0 < turn <= len(p.battle_points) else 0
        reasons = why.get(p.name) or []
        lines.append(
            f"{p.name}: {got:+d} Battle Points this turn"
            + (f" ({'; '.join(reasons)})" if reasons else "")
            + f", {sum(p.battle_points[:turn])} in all"
        )
    zones = [z for z in game.scenario.scoring.zones if z.points]
    if zones:
        holders = {r.split(" held")[0]: p for p, rs in why.items() for r in rs if "held" in r}
        for z in zones:
            zname = z.name.replace("_", " ")
            lines.append(
                f"{zname}: " + (f"held by {holders[zname]}" if zname in holders else "held by no one")
            )
    left = ", ".join(
        f"{p.name} {sum(1 for m in game.player_models(p.index) if m.active)} models" for p in s.players
    )
    lines.append(f"On the table: {left}")
    return lines


# ----------------------------------------------------------------------------- the banner's words
def turn_words(game: Game) -> str:
    s = game.state
    phase = {"deploy": "Deployment", "move": "Move Phase", "combat": "Combat Phase", "end": "End Phase"}.get(
        s.phase, s.phase
    )
    if s.step == "deploy":
        return "Deployment"
    return f"Turn {s.turn}/{game.scenario.turns} · {phase} · {SPECS[s.step].title}"


def result_words(game: Game) -> str:
    s = game.state
    if not s.over:
        p = s.players[s.active_player]
        who = f"{p.name} to act" + (f" ({p.bot} bot)" if p.bot else "")
        if s.pending is not None:
            who += f" — answer the {s.pending.kind.replace('_', '-')}"
        return who
    if s.winning_team is None:
        w = "Draw"
    else:
        w = "Winner: " + ", ".join(p.name for p in s.players if p.team == s.winning_team)
    return f"Game over — {w} ({s.result_reason})"


def score_words(game: Game) -> str:
    parts = [f"{p.name} {p.total_points} BP" for p in game.state.players]
    out = " · ".join(parts)
    return out


def status_words(game: Game) -> str:
    """The scenario's own track or goal (the Pursuit's Tracking and objective, the escort)."""
    return game.rules.status()
