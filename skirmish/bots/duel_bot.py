"""The duel bot: plays the Avatar Duel's hidden choices without peeking (R-X2).

It decides only from `game.observation(player)` (its own techniques, the others' revealed ones,
endurance, positions) and the public table (sight and distances). Builds are a **mixed strategy**:
regret matching over the build templates (`engine.scenarios.duel.templates`: five shapes in four element
rotations). After every round the opponents' techniques that were revealed are public; the bot
scores every template against them (what it would have dealt and saved) and accumulates regrets,
then samples a template in proportion to the positive regrets — so always building the counter to
its last build does not work against it. The sampling uses the bot's own stream, seeded from the
game's seed, the seat and the round, and the regrets are recomputed from the public history each
time: the bot is a pure function of what it may see, reproducible, and never disturbs the game's
dice. Attacks, defences and counter-attacks are exact: each candidate is resolved with
`engine.scenarios.duel.exchange` against what is known.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from skirmish.engine import queries
from skirmish.engine.core.actions import Action, Attack, Build, Decline, Defend, EndStep, Move, UseAbility
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.engine.scenarios.duel import exchange
from skirmish.engine.scenarios.duel.pieces import Piece, format_build, parse_piece
from skirmish.engine.scenarios.duel.templates import arms, realise
from skirmish.rules.dice import Dice, derive_seed

GENERIC_DEFENCE = ("earth.L.stand", "water.M.deflect", "air.S.stand")
"""What the bot assumes an opponent's unrevealed technique might be when valuing an attack."""


def _pieces(tokens: list[str]) -> tuple[Piece, ...]:
    return tuple(parse_piece(t) for t in tokens)


FULL = frozenset((1, 2, 3))
"""Every endurance piece: what a template is valued against when the other side's is not known."""


def _damage(
    attack: tuple[Piece, ...],
    defence: tuple[Piece, ...] | None,
    setting: exchange.Setting,
    target: frozenset[int],
) -> int:
    """How many endurance pieces `attack` takes off a target with `target` endurance, in the open,
    against `defence` (None: undefended), both sides without a native element and the attacker
    at full endurance: the exchange a template is valued by."""
    return len(
        exchange.resolve(
            attack,
            defence,
            setting,
            cover=0,
            target_endurance=target,
            target_native=None,
            attacker_endurance=FULL,
            attacker_native=None,
        ).damage
    )


def _points(tech: tuple[Piece, ...]) -> bool:
    return any(p.orient == "point" for p in tech)


def round_payoffs(
    realised: list[list[tuple[Piece, ...]]],
    seen: list[tuple[Piece, ...]],
    setting: exchange.Setting,
    mine: frozenset[int],
) -> list[float]:
    """`DuelBot._template_payoff` of every template against one round's revealed techniques, the
    same floats, with each distinct technique valued once: the templates share most of their
    techniques (one shape in four rotations and three variants), and one exchange asked per
    template and piece pairing was most of a duel game's time. Dealt by a technique is the least it
    takes off any revealed defence (or none); taken from the build is, per revealed attack, the
    least any of its techniques (or none) lets through, so both are tables over distinct
    techniques, summed per template in the reference's order (whole numbers: exact either way)."""
    index: dict[tuple[Piece, ...], int] = {}
    techs: list[tuple[Piece, ...]] = []
    rows: list[list[int]] = []
    for build in realised:
        row = []
        for tech in build:
            k = index.get(tech)
            if k is None:
                k = index[tech] = len(techs)
                techs.append(tech)
            row.append(k)
        rows.append(row)
    defences: list[tuple[Piece, ...] | None] = [*seen, None]
    dealt_by = [min(_damage(t, d, setting, FULL) for d in defences) if _points(t) else -1 for t in techs]
    target = mine or FULL
    attacks = [att for att in seen if _points(att)]
    stopped = [[_damage(att, t, setting, target) for t in techs] for att in attacks]
    open_ = [_damage(att, None, setting, target) for att in attacks]
    out: list[float] = []
    for row in rows:
        dealt = 0.0
        for k in row:
            if dealt_by[k] >= 0:
                dealt += dealt_by[k]
        taken = 0.0
        for by, none in zip(stopped, open_, strict=True):
            taken += min(min((by[k] for k in row), default=none), none)
        out.append(dealt - taken)
    return out


class DuelBot:
    """Plays one seat of the Avatar Duel from that seat's observation only."""

    name = "duel"

    def __init__(self, seed: int, player: int) -> None:
        self.seed = seed
        self.player = player
        self._memo: dict[Any, Any] = {}
        """Payoffs of the templates against one public round: a cache of a pure function."""

    # ------------------------------------------------------------- dispatch
    def choose(self, game: Game) -> Action:
        obs = game.observation(self.player)
        step, pending = obs["step"], obs["pending"]
        if pending is not None and pending["kind"] == "duel_defend":
            return self._defend(game, obs)
        if pending is not None and pending["kind"] == "duel_call":
            return self._attack(game, obs)
        if pending is not None:
            return Decline()
        if step == "build":
            return self._build(game, obs)
        if step == "movement":
            return self._move(game, obs) or EndStep()
        return EndStep()

    # ------------------------------------------------------------- helpers
    def _me(self, game: Game) -> ModelState | None:
        ms = [m for m in game.player_models(self.player) if m.active]
        return ms[0] if ms else None

    def _foes(self, game: Game, me: ModelState) -> list[ModelState]:
        return [m for m in game.state.models if m.active and game.enemies(me, m)]

    @staticmethod
    def _setting(obs: dict[str, Any]) -> exchange.Setting:
        sw = obs["scenario"]["switches"]
        return exchange.Setting(
            weakness=sw["weakness_cycle"],
            weak_to=tuple((a, b) for a, b in sw["weak_to"]),
            airborne_rule=sw["airborne_only_blocked_by_airborne"],
            reactions=sw["reactions"],
            specials=sw["specials"],
            native=sw["native_element"],
        )

    def _resolve(
        self,
        game: Game,
        obs: dict[str, Any],
        att: ModelState,
        attack: tuple[Piece, ...],
        foe: ModelState,
        defence: tuple[Piece, ...] | None,
    ) -> exchange.Outcome:
        duel = obs["scenario"]
        return exchange.resolve(
            attack,
            defence,
            self._setting(obs),
            cover=game.cover(foe),
            target_endurance=frozenset(duel["endurance"][foe.id]),
            target_native=duel["natives"][foe.id],
            attacker_endurance=frozenset(duel["endurance"][att.id]),
            attacker_native=duel["natives"][att.id],
        )

    # ------------------------------------------------------------- building: regret matching
    def _can_glide(self, game: Game, me: ModelState) -> bool:
        return me.profile.flying or any(
            a.effect == "glide"
            for a in game.armoury(me).ability_by_name().values()
            if a.name in me.profile.abilities
        )

    def _arm(self, game: Game, obs: dict[str, Any], me: ModelState) -> tuple[str, int, str]:
        """This turn's template, sampled by regret matching: the same draw at the movement step (to
        decide whether to take to the air) and at the build step."""
        duel = obs["scenario"]
        memo_key = ("arm", me.id, obs["turn"], repr(duel["history"]), repr(duel["endurance"]))
        hit = self._memo.get(memo_key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        native = duel["natives"].get(me.id)
        glider = self._can_glide(game, me)
        choices = arms()
        realised = [
            realise(n, k, v, may_unground=glider, native=native, airborne=glider and v == "high")
            for n, k, v in choices
        ]
        regrets = self._regrets(game, obs, me, realised)
        positive = np.maximum(regrets, 0.0)
        total = float(positive.sum())
        weights = positive / total if total > 0 else np.full(len(choices), 1.0 / len(choices))
        dice = Dice(derive_seed(self.seed, 0xD7E1, self.player, int(obs["turn"])))
        r = dice.roll(1_000_000, "duel bot build") / 1_000_000.0
        k = min(int(np.searchsorted(np.cumsum(weights), r - 1e-12)), len(choices) - 1)
        self._memo[memo_key] = choices[k]
        return choices[k]

    def _build(self, game: Game, obs: dict[str, Any]) -> Action:
        me = self._me(game)
        if me is None:
            return EndStep()
        duel = obs["scenario"]
        name, k, v = self._arm(game, obs, me)
        build = realise(
            name,
            k,
            v,
            may_unground=bool(duel["may_unground"].get(me.id)),
            native=duel["natives"].get(me.id),
            airborne=bool(duel["airborne"].get(me.id)),
        )
        return Build(me.id, format_build(build)) if build else EndStep()

    def _regrets(
        self, game: Game, obs: dict[str, Any], me: ModelState, realised: list[list[tuple[Piece, ...]]]
    ) -> np.ndarray:
        """Cumulative regrets of every template over the rounds so far, against what the opponents
        revealed in each (public), relative to the template the bot would have sampled (uniform)."""
        regrets = np.zeros(len(realised))
        foes = self._foes(game, me)
        if not foes:
            return regrets
        setting = self._setting(obs)
        duel = obs["scenario"]
        mine = frozenset(duel["endurance"][me.id])
        for rnd in duel["history"]:
            seen = [
                _pieces(tokens)
                for mid, techs in rnd["revealed"].items()
                if mid != me.id
                for tokens in techs.values()
            ]
            if not seen:
                continue
            key = (repr(rnd), mine, tuple(format_build(b) for b in realised))
            pay = self._memo.get(key)
            if pay is None:
                pay = np.array(round_payoffs(realised, seen, setting, mine))
                self._memo[key] = pay
            regrets += pay - pay.mean()
        return regrets

    @staticmethod
    def _template_payoff(
        build: list[tuple[Piece, ...]],
        seen: list[tuple[Piece, ...]],
        setting: exchange.Setting,
        mine: frozenset[int],
    ) -> float:
        """Pieces of endurance the build would have taken minus those it would have lost, against the
        opponent's revealed techniques of one round (each side defending as well as it can): the
        reference, template by template, that `round_payoffs` (what the bot asks) is held to."""
        dealt = 0.0
        for tech in build:
            if _points(tech):
                dealt += min(_damage(tech, d, setting, FULL) for d in [*seen, None])
        taken = 0.0
        for att in seen:
            if _points(att):
                taken += min(_damage(att, d, setting, mine or FULL) for d in [*build, None])
        return dealt - taken

    # ------------------------------------------------------------- attack and counter-attack
    def _attack(self, game: Game, obs: dict[str, Any]) -> Action:
        options = [a for a in game.legal_actions() if isinstance(a, Attack)]
        if not options:
            return Decline()
        me = game.model(obs["pending"]["model"])
        duel = obs["scenario"]
        reach = float(duel["attack_range"])
        best: tuple[float, ...] | None = None
        choice: Action = Decline()
        mine = {t["name"]: t for t in duel["techniques"][me.id]}
        for a in options:
            foe = game.model(a.target)
            if game.distance(me, foe) > reach:
                continue  # the bot measures exactly; a short attack would only reveal the technique
            attack = _pieces(mine[a.technique]["pieces"])
            defences: list[tuple[Piece, ...] | None] = [None]
            for t in duel["techniques"][foe.id]:
                if t.get("hidden"):
                    defences.append(_pieces(list(GENERIC_DEFENCE)))
                elif t["pieces"]:
                    defences.append(_pieces(t["pieces"]))
            if len(defences) > 1:
                defences = defences[1:]
            worst = min(len(self._resolve(game, obs, me, attack, foe, d).damage) for d in defences)
            pointing = sum(1 for p in attack if p.orient == "point")
            left = len(duel["endurance"][foe.id])
            key = (float(worst), -float(left), float(sum(p.ungrounded for p in attack)), float(pointing))
            if best is None or key > best:
                best, choice = key, a
        return choice

    # ------------------------------------------------------------- defence
    def _defend(self, game: Game, obs: dict[str, Any]) -> Action:
        duel = obs["scenario"]
        pend = obs["pending"]
        me, att = game.model(pend["model"]), game.model(pend["target"])
        tech = next(t for t in duel["techniques"][att.id] if t["name"] == pend["data"]["technique"])
        attack = _pieces(tech["pieces"])
        best: tuple[float, ...] | None = None
        choice: Action = Decline()
        for t in duel["techniques"][me.id]:
            if not t.get("pieces"):
                continue
            defence = _pieces(t["pieces"])
            out = self._resolve(game, obs, att, attack, me, defence)
            spent_attackers = sum(
                1 for i in out.lost_defence if defence[i].orient == "point" and not t["attacked"]
            )
            key = (
                float(len(out.damage)),
                float(sum(out.damage)),
                -float(len(out.reflected_damage)),
                float(spent_attackers),
                float(len(out.lost_defence)),
            )
            if best is None or key < best:
                best, choice = key, Defend(me.id, t["name"])
        none = self._resolve(game, obs, att, attack, me, None)
        if best is None or (float(len(none.damage)), float(sum(none.damage))) < best[:2]:
            return Decline()
        return choice

    # ------------------------------------------------------------- movement
    def _move(self, game: Game, obs: dict[str, Any]) -> Action | None:
        me = self._me(game)
        if me is None or not queries.can_move(game, me):
            return None
        foes = self._foes(game, me)
        if not foes:
            return None
        if self._arm(game, obs, me)[2] == "high":
            for a in game.legal_actions():
                if isinstance(a, UseAbility) and a.model == me.id:
                    ab = game.armoury(me).ability_by_name().get(a.ability)
                    if ab is not None and ab.effect == "glide":
                        return a  # this round is fought from the air: every piece ungrounded
        foe = min(foes, key=lambda f: game.distance(me, f))
        reach = float(obs["scenario"]["attack_range"])
        goal = self._goal(game, me, foe, reach)
        here = game.state.xy[me.index]
        now = float(np.hypot(*(goal - here)))
        if now < 0.5:
            return None
        moves = queries.move_options(game, me, [goal])
        if not moves:
            return None
        dist = [float(np.hypot(*(goal - np.asarray(c.path[-1])))) for c in moves]
        k = int(np.argmin(dist))
        return moves[k] if dist[k] < now - 0.25 else None

    def _goal(self, game: Game, me: ModelState, foe: ModelState, reach: float) -> np.ndarray:
        """Where to stand: already in sight and reach of an enemy on higher ground (or flying), stay;
        else higher ground from which the foe is within reach, if there is any near; else a point a
        little inside the attack range on the line to the foe."""
        s = game.state
        here, there = s.xy[me.index], s.xy[foe.index]
        high = queries.flies(me) or me.glide or game.height(me) > 0
        in_reach = any(game.sees(me, f) and game.distance(me, f) <= reach - 1.0 for f in self._foes(game, me))
        if in_reach and high:
            return here.copy()  # type: ignore[no-any-return]
        if not queries.flies(me) and not me.glide:
            best = None
            table = game.table
            for i, piece in enumerate(table.pieces):
                if piece.height <= 0 or piece.impassable:
                    continue
                c = np.asarray(table.polygons[i].centroid.coords[0], dtype=float)
                d_me = float(np.hypot(*(c - here)))
                d_foe = float(np.hypot(*(c - there)))
                if d_me <= 2 * me.profile.move + 1 and d_foe <= reach + 1.0:
                    key = (d_me, d_foe)
                    if best is None or key < best[0]:
                        best = (key, c)
            if best is not None:
                return best[1]  # type: ignore[no-any-return]
        if in_reach:
            return here.copy()  # type: ignore[no-any-return]
        d = there - here
        n = float(np.hypot(*d))
        if n < 1e-9:
            return here.copy()  # type: ignore[no-any-return]
        want = max(2.0, reach - 3.0) if game.sees(me, foe) else 2.0  # out of sight: go round
        return here + d / n * max(0.0, n - want)  # type: ignore[no-any-return]


__all__ = ["DuelBot", "Move"]
