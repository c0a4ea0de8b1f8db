"""The Avatar Duel's rules (R-X1, R-X2): *Avatar War* played on the table.

Each turn is one round of the source game. Avatars move (standard movement, Air Glide, Earth Wall);
then every Avatar builds up to four techniques **behind its shield** (`Build`, one per player, in
player order but hidden from the others until revealed — the replay keeps them, the observation
of another player does not); then the round of attacks: in player order each Avatar may call
ATTACK (`Attack`: reveal one technique, pick a target in sight and range), the target chooses
which technique defends (`Defend`, or `Decline` to take it), the exchange is resolved by
`exchange.resolve`, and the defender may counter-attack, and so on down the chain; then the next
player may attack. The round ends when an Avatar that built techniques has none left, when
nobody can or will attack, or when only one Avatar stands. Pieces return, the order rotates so no
seat always calls first, and the next turn begins. The last Avatar standing wins; at the turn
limit the most endurance left wins, equal is a draw.

Everything that changes lives in `state.extra["duel"]` (hashed, snapshotted, replayed). What a
player may know of it is `observe(player)`: their own techniques, the revealed ones of the others,
and for the others' hidden ones only that they exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.data.errors import DataError, Problem
from skirmish.engine.core.actions import Action, Attack, Build, Decline, Defend
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.core.state import ModelState, Pending
from skirmish.engine.duel import exchange
from skirmish.engine.duel.pieces import (
    ELEMENTS,
    NAMES,
    SIZE_WORD,
    SPECIAL_TEXT,
    BuildError,
    Piece,
    check_build,
    format_build,
    parse_build,
    parse_piece,
    special_of,
    technique_words,
)
from skirmish.engine.duel.templates import candidate_texts
from skirmish.engine.effects import moving
from skirmish.engine.special_rules import ScenarioSpecials, SpecialReader
from skirmish.engine.steps import end_phase, movement

if TYPE_CHECKING:
    from skirmish.engine.game import Game

DEFAULT_PAIRS = ["water:fire", "fire:water", "air:earth", "earth:air"]
ENDURANCE = [1, 2, 3]


DUEL_STEPS: tuple[StepSpec, ...] = (
    step(Step.BUILD, "move", "Building techniques behind the shield", "R-T1", "Build"),
    step(Step.DUEL, "combat", "ATTACK! and counter-attack", "R-T1"),
    step(Step.ROUND_END, "end", "The round ends: pieces return", "R-T1"),
)
"""The Duel's own steps; their hooks are the rules object's (`DuelRules.extensions`)."""

DUEL_PENDING_ACTIONS = {
    "duel_call": frozenset({"Attack", "Decline"}),
    "duel_defend": frozenset({"Defend", "Decline"}),
}
"""The Duel's pending decisions: call an attack (or not), defend against one (or not)."""

DUEL_TURN: tuple[str | StepSpec, ...] = (Step.AP_ROLL, Step.MOVEMENT, *DUEL_STEPS, Step.TURN_END)
"""The Avatar Duel's turn (R-X2): move, build in secret, the round of attacks, pieces return. Its
attacks are offered one at a time as pending decisions (`duel_call`, `duel_defend`)."""


class DuelRules(ScenarioSpecials):
    """Victory `duel`: the Avatar Duel of hidden techniques; the last Avatar standing wins."""

    # ------------------------------------------------------------- configuration
    def read(self, reader: SpecialReader) -> None:
        g = self.game
        weakness = reader.get_bool("weakness_cycle", True)
        pairs = reader.get_strs("weakness_pairs", DEFAULT_PAIRS)
        weak_to: list[tuple[str, str]] = []
        for text in pairs:
            a, _, b = text.partition(":")
            if a not in ELEMENTS or b not in ELEMENTS:
                reader.problem("weakness_pairs", f"`{text}` is not attacker_element:target_element")
                continue
            weak_to.append((b, a))  # `water:fire`: fire is weak to water
        native = reader.get_str("native_element", "first", choices=("first", "none"))
        self.setting = exchange.Setting(
            weakness=weakness,
            weak_to=tuple(weak_to),
            airborne_rule=reader.get_bool("airborne_only_blocked_by_airborne", True),
            reactions=reader.get_bool("reactions", True),
            specials=reader.get_bool("specials", False),
            native=native == "first",
        )
        self.attack_range = float(reader.get_int("attack_range", 12, lo=1, hi=200))
        self.tiebreak = reader.get_str("duel_tiebreak", "endurance", choices=("endurance",))
        self.challengers = reader.get_strs("challengers", [])
        allowed = set(self.challengers) | {s.troupe for s in g.scenario.sides if s.troupe}
        problems: list[Problem] = []
        for p, tr in enumerate(g.troupes):
            if sum(e.count for e in tr.models) != 1:
                problems.append(
                    Problem(tr.name, "models", "the Avatar Duel seats exactly one Avatar per side")
                )
            elif self.challengers and tr.name not in allowed:
                reader.problem(
                    "challengers",
                    f"`{tr.name}` (side {p + 1}) is not one of the duel's Avatars: "
                    + ", ".join(sorted(str(a) for a in allowed)),
                )
        if problems:
            raise DataError(problems)
        g.state.extra["duel"] = {
            "round": 0,
            "endurance": {m.id: list(ENDURANCE) for m in g.state.models},
            "tech": {},
            "built": [],
            "caller": 0,
            "passes": 0,
            "exhausted": False,
            "exchanges": [],
            "history": [],
            "base_order": list(g.state.order),
        }

    def technique_duel(self) -> bool:
        return True

    @property
    def st(self) -> dict[str, Any]:
        return self.game.state.extra["duel"]  # type: ignore[no-any-return]

    def turn_steps(self) -> tuple[str | StepSpec, ...] | None:
        return DUEL_TURN

    def extensions(self) -> dict[str, dict[str, Any]]:
        return {
            "begin": {
                "build": self._begin_build,
                "duel": self._begin_round,
                "round_end": self._round_end,
                "turn_end": end_phase.turn_end,
            },
            "has_options": {"build": self._can_build},
            "generators": {"build": self._build_candidates},
            "handlers": {
                "Build": self._do_build,
                "Attack": self._do_attack,
                "Defend": self._do_defend,
            },
            "decline": {"duel_call": self._do_decline, "duel_defend": self._do_decline},
            "pending_actions": DUEL_PENDING_ACTIONS,
            "pending": {"duel_call": self._call_actions, "duel_defend": self._defend_actions},
        }

    # ------------------------------------------------------------- queries
    def avatar(self, player: int) -> ModelState | None:
        ms = [m for m in self.game.player_models(player) if m.active]
        return ms[0] if ms else None

    def endurance(self, m: ModelState) -> frozenset[int]:
        return frozenset(self.st["endurance"][m.id])

    def native(self, m: ModelState) -> str | None:
        if not self.setting.native or not m.profile.elements:
            return None
        return m.profile.elements[0].value

    def may_unground(self, m: ModelState) -> bool:
        """Ungrounded pieces need an airborne Avatar (a flyer, or one that glided this turn) or one
        standing on higher ground (terrain above the table)."""
        return moving.airborne(m) or self.game.height(m) > 0

    def techniques(self, m: ModelState) -> list[dict[str, Any]]:
        return self.st["tech"].get(m.id, [])  # type: ignore[no-any-return]

    @staticmethod
    def pieces(t: dict[str, Any]) -> tuple[Piece, ...]:
        return tuple(parse_piece(x) for x in t["pieces"])

    def live(self, m: ModelState) -> list[dict[str, Any]]:
        return [t for t in self.techniques(m) if t["pieces"]]

    def can_attack_with(self, t: dict[str, Any]) -> bool:
        return (
            bool(t["pieces"])
            and not t["attacked"]
            and any(p.endswith(("point", "point^")) for p in t["pieces"])
        )

    def targets(self, m: ModelState) -> list[ModelState]:
        """Enemies in sight (R-B3); with `premeasure` also within the attack range."""
        g = self.game
        out = []
        for t in g.state.models:
            if not t.active or not g.enemies(m, t) or not g.sees(m, t):
                continue
            if g.options.premeasure and g.distance(m, t) > self.attack_range:
                continue
            out.append(t)
        return out

    def attack_options(self, m: ModelState) -> list[Attack]:
        if not m.active:
            return []
        techs = [t for t in self.techniques(m) if self.can_attack_with(t)]
        targets = self.targets(m)
        return [Attack(m.id, foe.id, t["name"]) for t in techs for foe in targets]

    def status(self) -> str:
        g = self.game
        parts = []
        for m in g.state.models:
            left = self.st["endurance"][m.id]
            mark = "".join("SML"[s - 1] for s in left) or "-"
            parts.append(f"{m.name} {mark}")
        return "Endurance: " + ", ".join(parts)

    def hints(self, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        return {}, set()

    # ------------------------------------------------------------- observation
    def observe(self, player: int) -> dict[str, Any]:
        """The duel as `player` may know it: own techniques whole, others' only once revealed."""
        st = self.st
        techs: dict[str, list[dict[str, Any]]] = {}
        for m in self.game.state.models:
            rows = []
            for t in st["tech"].get(m.id, []):
                if m.player == player or t["revealed"]:
                    rows.append({k: (list(v) if isinstance(v, list) else v) for k, v in t.items()})
                else:
                    rows.append({"name": t["name"], "hidden": True})
            techs[m.id] = rows
        return {
            "round": st["round"],
            "endurance": {k: list(v) for k, v in st["endurance"].items()},
            "built": list(st["built"]),
            "techniques": techs,
            "exchanges": [dict(x) for x in st["exchanges"]],
            "history": [dict(x) for x in st["history"]],
            "attack_range": self.attack_range,
            "may_unground": {m.id: self.may_unground(m) for m in self.game.state.models if m.active},
            "airborne": {m.id: moving.airborne(m) for m in self.game.state.models if m.active},
            "switches": {
                "weakness_cycle": self.setting.weakness,
                "weak_to": [list(x) for x in self.setting.weak_to],
                "native_element": self.setting.native,
                "reactions": self.setting.reactions,
                "airborne_only_blocked_by_airborne": self.setting.airborne_rule,
                "specials": self.setting.specials,
            },
            "natives": {m.id: self.native(m) for m in self.game.state.models},
        }

    # ------------------------------------------------------------- building
    def _begin_build(self, game: Game) -> None:
        movement.end_glides(game)
        st = self.st
        st["round"] += 1
        st["tech"], st["built"], st["exchanges"] = {}, [], []
        st["exhausted"], st["passes"] = False, 0
        game.emit("duel", f"Round {st['round']}: every Avatar builds its techniques behind the shield")

    def _can_build(self, game: Game, player: int) -> bool:
        m = self.avatar(player)
        return m is not None and m.id not in self.st["built"]

    def _banned(self) -> str | None:
        return self.eclipse_element if self.eclipse() else None

    def _build_candidates(self, game: Game, player: int) -> list[Action]:
        m = self.avatar(player)
        if m is None or m.id in self.st["built"]:
            return []
        texts = candidate_texts(
            may_unground=self.may_unground(m),
            native=self.native(m),
            banned=self._banned(),
            airborne=moving.airborne(m),
        )
        return [Build(m.id, t) for t in texts]

    def check_build_text(self, m: ModelState, text: str) -> list[tuple[Piece, ...]]:
        try:
            techs = parse_build(text)
            check_build(
                techs,
                may_unground=self.may_unground(m),
                specials=self.setting.specials,
                native=self.native(m),
                airborne=moving.airborne(m),
            )
        except BuildError as exc:
            raise IllegalAction("R-X2", f"{m.name}'s build: {exc}") from None
        banned = self._banned()
        for t in techs:
            for p in t:
                if p.element == banned:
                    raise IllegalAction("R-X2", f"no {banned}bending during the eclipse: {p.words}")
        return techs

    def _do_build(self, game: Game, action: Build) -> None:
        s = game.state
        m = game.model(action.model, rule="R-X2")
        if m.player != s.active_player:
            raise IllegalAction("R-X2", f"{m.name} belongs to another player")
        if not m.active:
            raise IllegalAction("R-P5", f"{m.name} is out of the duel")
        if m.id in self.st["built"]:
            raise IllegalAction("R-X2", f"{m.name} has already built this round")
        techs = self.check_build_text(m, action.techniques)
        self.st["tech"][m.id] = [
            {"name": NAMES[k], "pieces": [p.token for p in t], "revealed": False, "attacked": False}
            for k, t in enumerate(techs)
        ]
        self.st["built"].append(m.id)
        n = len(techs)
        game.emit(
            "build",
            f"{m.name} builds {n} technique{'s' if n != 1 else ''} behind the shield",
            (m.id,),
        )
        s.players[m.player].done = True
        game.after_player_action()

    # ------------------------------------------------------------- the round
    def _begin_round(self, game: Game) -> None:
        st = self.st
        st["caller"], st["passes"] = 0, 0
        if self._round_over():
            self._end_round("nobody can attack")
            return
        self._offer_free_call(start=0)

    def _alive_players(self) -> list[int]:
        return [p for p in self.game.state.order if self.avatar(p) is not None]

    def _round_over(self) -> bool:
        if self.st["exhausted"] or len(self.game.teams_on_table()) <= 1:
            return True
        return not any(self.attack_options(m) for p in self._alive_players() if (m := self.avatar(p)))

    def _offer_free_call(self, start: int) -> None:
        """Offer the next free call (after a chain, or a pass) from order index `start` on."""
        g, st = self.game, self.st
        order = g.state.order
        alive = self._alive_players()
        for k in range(len(order)):
            idx = (start + k) % len(order)
            p = order[idx]
            m = self.avatar(p)
            if m is None:
                continue
            if st["passes"] >= len(alive):
                break
            if not self.attack_options(m):
                st["passes"] += 1
                continue
            st["caller"] = idx
            g.state.pending = Pending("duel_call", p, m.id, "", {"counter": False})
            return
        self._end_round("nobody attacks")

    def _end_round(self, why: str) -> None:
        g = self.game
        g.state.pending = None
        for p in g.state.players:
            p.done = True
        if not g.over:
            g.emit("duel", f"The round ends: {why}")

    def _call_actions(self, game: Game) -> list[Action]:
        p = game.state.pending
        assert p is not None
        return [*self.attack_options(game.model(p.model)), Decline()]

    def _defend_actions(self, game: Game) -> list[Action]:
        p = game.state.pending
        assert p is not None
        m = game.model(p.model)
        return [*(Defend(m.id, t["name"]) for t in self.live(m)), Decline()]

    def _tech(self, m: ModelState, name: str, rule: str = "R-X2") -> dict[str, Any]:
        t = next((t for t in self.techniques(m) if t["name"] == name), None)
        if t is None or not t["pieces"]:
            raise IllegalAction(rule, f"{m.name} has no technique `{name}` standing")
        return t

    def _do_attack(self, game: Game, action: Attack) -> None:
        s = game.state
        p = s.pending
        if p is None or p.kind != "duel_call":
            raise IllegalAction("R-X2", "no Avatar may call ATTACK now")
        m = game.model(action.model, rule="R-X2")
        if m.id != p.model:
            raise IllegalAction("R-X2", f"it is {game.model(p.model).name}'s call, not {m.name}'s")
        t = self._tech(m, action.technique)
        if t["attacked"]:
            raise IllegalAction("R-X2", f"technique {t['name']} has already attacked this round")
        if not self.can_attack_with(t):
            raise IllegalAction("R-X2", f"technique {t['name']} has no pointing piece to attack with")
        foe = game.model(action.target, rule="R-X2")
        if not foe.active or not game.enemies(m, foe):
            raise IllegalAction("R-X2", f"{foe.name} is not an Avatar {m.name} can attack")
        if not game.sees(m, foe):
            raise IllegalAction("R-B3", f"{m.name} cannot see {foe.name}")
        dist = game.distance(m, foe)
        if game.options.premeasure and dist > self.attack_range:
            raise IllegalAction(
                "R-X2", f'{foe.name} is {dist:.1f}" away, beyond the {self.attack_range:g}" of an attack'
            )
        counter = bool(p.data.get("counter"))
        s.pending = None
        self.st["passes"] = 0
        t["revealed"], t["attacked"] = True, True
        self._remember(m, t)
        pieces = self.pieces(t)
        verb = "counter-attacks" if counter else "calls ATTACK! on"
        ids = (m.id, foe.id)
        if dist > self.attack_range:
            game.emit(
                "attack",
                f"{m.name} {verb} {foe.name} with technique {t['name']} ({technique_words(pieces)}): "
                f'{dist:.1f}" is beyond the {self.attack_range:g}" of an attack — it falls short',
                ids,
            )
            self._after_exchange(m, foe)
            return
        game.emit(
            "attack",
            f"{m.name} {verb} {foe.name}, revealing technique {t['name']}: {technique_words(pieces)}",
            ids,
        )
        if self.setting.reactions and self.live(foe):
            s.pending = Pending("duel_defend", foe.player, foe.id, m.id, {"technique": t["name"]})
            return
        self._exchange(m, t, foe, None)

    def _do_defend(self, game: Game, action: Defend) -> None:
        p = game.state.pending
        if p is None or p.kind != "duel_defend":
            raise IllegalAction("R-X2", "no attack is waiting for a defence")
        foe = game.model(action.model, rule="R-X2")
        if foe.id != p.model:
            raise IllegalAction("R-X2", f"only {game.model(p.model).name} defends now")
        d = self._tech(foe, action.technique)
        m = game.model(p.target)
        t = self._tech(m, str(p.data["technique"]))
        game.state.pending = None
        d["revealed"] = True
        self._remember(foe, d)
        self._exchange(m, t, foe, d)

    def _do_decline(self, game: Game, action: Decline) -> None:
        p = game.state.pending
        assert p is not None and p.kind in ("duel_call", "duel_defend")
        m = game.model(p.model)
        game.state.pending = None
        if p.kind == "duel_defend":
            att = game.model(p.target)
            game.emit("defend", f"{m.name} does not defend", (m.id,))
            self._exchange(att, self._tech(att, str(p.data["technique"])), m, None)
            return
        if p.data.get("counter"):
            game.emit("pass", f"{m.name} does not counter-attack", (m.id,))
        else:
            self.st["passes"] += 1
            game.emit("pass", f"{m.name} does not attack", (m.id,))
        self._offer_free_call(self.st["caller"] + 1)

    def _remember(self, m: ModelState, t: dict[str, Any]) -> None:
        """Public history of revealed techniques (as first revealed), which the duel bot learns from."""
        hist = self.st["history"]
        rnd = self.st["round"]
        if not hist or hist[-1]["round"] != rnd:
            hist.append({"round": rnd, "revealed": {}})
        seen = hist[-1]["revealed"].setdefault(m.id, {})
        seen.setdefault(t["name"], list(t["pieces"]))

    def _exchange(self, m: ModelState, t: dict[str, Any], foe: ModelState, d: dict[str, Any] | None) -> None:
        g = self.game
        attack = self.pieces(t)
        defence = self.pieces(d) if d is not None else None
        out = exchange.resolve(
            attack,
            defence,
            self.setting,
            cover=g.cover(foe),
            target_endurance=self.endurance(foe),
            target_native=self.native(foe),
            attacker_endurance=self.endurance(m),
            attacker_native=self.native(m),
        )
        words = exchange.describe(attack, defence, out)
        for special, who in ((out.special_attack, m), (out.special_defence, foe)):
            if special:
                words.insert(0, f"{who.name}'s special {SPECIAL_TEXT[special]}")
        shown = f"technique {d['name']} ({technique_words(defence or ())})" if d is not None else "nothing"
        ids = (m.id, foe.id)
        g.emit(
            "exchange",
            f"{foe.name} defends with {shown}: " + ("; ".join(words) if words else "nothing gets through"),
            ids,
        )
        self.st["exchanges"].append(
            {
                "attacker": m.id,
                "target": foe.id,
                "attack": list(t["pieces"]),
                "attack_name": t["name"],
                "defence": list(d["pieces"]) if d is not None else None,
                "defence_name": d["name"] if d is not None else None,
                "stops": [[x.attack, -1 if x.by is None else x.by, x.how] for x in out.stops],
                "landed": list(out.landed),
                "damage": list(out.damage),
                "reflected_damage": list(out.reflected_damage),
            }
        )
        self._lose(foe, out.damage, m)
        self._lose(m, out.reflected_damage, foe)
        self._attrition(m, t, out.lost_attack)
        if d is not None:
            self._attrition(foe, d, out.lost_defence)
        self._after_exchange(m, foe)

    def _lose(self, who: ModelState, sizes: list[int], by: ModelState) -> None:
        if not sizes:
            return
        g = self.game
        left = self.st["endurance"][who.id]
        for sz in sizes:
            if sz in left:
                left.remove(sz)
        if not left and not who.ko:
            who.ko = True
            who.ko_turn = g.state.turn
            who.ko_step = f"{g.state.turn}:duel"
            g.state.extra.setdefault("ko_by", {})[who.id] = by.player
            g.moved()
            g.emit("ko", f"{who.name} has lost every endurance piece and is out of the duel", (who.id,))
        self.on_wound(who, len(sizes), by)

    def _attrition(self, who: ModelState, t: dict[str, Any], lost: set[int]) -> None:
        pieces = [x for i, x in enumerate(t["pieces"]) if i not in lost]
        if 0 < len(pieces) < 2:
            self.game.emit(
                "attrition",
                f"{who.name}'s technique {t['name']} falls below two pieces: its last piece is lost too",
                (who.id,),
            )
            pieces = []
        t["pieces"] = pieces
        if not self.live(who) and who.active:
            self.st["exhausted"] = True

    def _after_exchange(self, m: ModelState, foe: ModelState) -> None:
        g = self.game
        if len(g.teams_on_table()) <= 1:
            g.state.pending = None
            g.finish(
                "one Avatar is left standing" if g.teams_on_table() else "the last Avatars fell together"
            )
            return
        if self.st["exhausted"]:
            self._end_round("an Avatar is out of techniques")
            return
        if foe.active and self.attack_options(foe):
            g.state.pending = Pending("duel_call", foe.player, foe.id, m.id, {"counter": True})
            return
        self._offer_free_call(self.st["caller"] + 1)

    def _round_end(self, game: Game) -> None:
        st = self.st
        st["tech"], st["built"] = {}, []
        base = st["base_order"]
        k = game.state.turn % len(base)
        game.state.order = base[k:] + base[:k]  # the next round's first call passes on
        game.emit("duel", "Every piece returns to its Avatar for the next round")

    # ------------------------------------------------------------- the end
    def on_step(self, step: str) -> None:
        super().on_step(step)

    def winner(self) -> tuple[int | None, str]:
        g = self.game
        left = g.teams_on_table()
        if len(left) == 1:
            return left[0], "the last Avatar standing is the true Avatar"
        if not left:
            return None, "the last Avatars fell together"
        score = {
            t: sum(len(self.st["endurance"][m.id]) for m in g.state.models if g.team(m) == t and m.active)
            for t in left
        }
        best = max(score.values())
        top = [t for t, v in score.items() if v == best]
        text = ", ".join(
            f"{'/'.join(p.name for p in g.state.players if p.team == t)} {v}"
            for t, v in sorted(score.items())
        )
        if len(top) == 1:
            return top[0], f"more endurance left ({text})"
        return None, f"equal endurance left ({text})"


def size_words(sizes: list[int]) -> str:
    return ", ".join(SIZE_WORD[s] for s in sizes)


__all__ = ["DuelRules", "format_build", "special_of"]
