"""The Avatar Duel's configuration, its state in `state.extra["duel"]` and the questions every other
part asks of it (R-X1, R-X2): the Avatars, their endurance, their techniques, who may be attacked,
and what one player may know (`observe`).
"""

from __future__ import annotations

from typing import Any

from skirmish.data.errors import DataError, Problem
from skirmish.engine.core.actions import Attack
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects import moving
from skirmish.engine.scenarios.duel import exchange
from skirmish.engine.scenarios.duel.pieces import ELEMENTS, Piece, parse_piece
from skirmish.engine.scenarios.specials import ScenarioSpecials, SpecialReader

DEFAULT_PAIRS = ["water:fire", "fire:water", "air:earth", "earth:air"]
ENDURANCE = [1, 2, 3]


class DuelBase(ScenarioSpecials):
    """The duel's settings (read from `special`), its state and the queries on it."""

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
