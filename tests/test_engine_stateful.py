"""Hypothesis state machine: random legal and illegal actions thrown at a real game.

Legal actions (picked from `legal_actions()`) must always apply; arbitrary actions (random models,
targets, weapons, abilities and paths, on and off the table) either apply or raise `IllegalAction`
leaving the state hash, history and log untouched — never another exception. Undo must return to
the hash before the last action. The invariants of the conformance test hold after every step.
"""

from __future__ import annotations

from helpers_engine import check_invariants, position, scenario, troupe
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from skirmish.engine.core.actions import (
    Advance,
    Charge,
    CounterCharge,
    Decline,
    Deploy,
    Disengage,
    EndStep,
    Move,
    React,
    Shoot,
    TakeCover,
    UseAbility,
)
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.game import Game

MODELS = [
    "p0.aang", "p0.katara", "p0.sokka", "p0.toph", "p0.appa", "p1.zuko", "p1.iroh",
    "p1.fire_soldier_1", "p1.fire_soldier_2", "p1.fire_soldier_3", "p2.nobody", "",
]  # fmt: skip
WEAPONS = [
    "boomerang", "fire_jab", "water_lash", "rock_fist", "air_swipe", "sword", "bow", "fire_blast",
    "water_whip", "lightning", "nothing",
]  # fmt: skip
ABILITIES = [
    "air_blast", "air_glide", "air_shield", "earth_wall", "earth_shove", "healing_waters", "water_deflect",
    "flame_reflect", "calm_counsel", "flush_them_out", "combat_distraction", "seismic_sense", "bogus",
]  # fmt: skip

coord = st.floats(min_value=-5, max_value=53, allow_nan=False, allow_infinity=False)
point = st.tuples(coord, coord)
model = st.sampled_from(MODELS)


@st.composite
def paths(
    draw: st.DrawFn, game_xy: dict[str, tuple[float, float]], who: str
) -> tuple[tuple[float, float], ...]:
    start = game_xy.get(who, (24.0, 24.0))
    if draw(st.booleans()):
        dx = draw(st.floats(min_value=-8, max_value=8, allow_nan=False))
        dy = draw(st.floats(min_value=-8, max_value=8, allow_nan=False))
        return (start, (start[0] + dx, start[1] + dy))
    return (start, *draw(st.lists(point, min_size=1, max_size=3)))


class GameMachine(RuleBasedStateMachine):
    game: Game

    @initialize(
        seed=st.integers(min_value=0, max_value=2**32), priority=st.booleans(), premeasure=st.booleans()
    )
    def start(self, seed: int, priority: bool, premeasure: bool) -> None:
        sc = scenario("open_battle", turns=2)
        opts = sc.options.with_overrides({"priority_roll": priority, "premeasure": premeasure})
        self.game = Game(sc, [troupe("team_avatar"), troupe("zuko_hunting_party")], seed=seed, options=opts)
        self.hashes: list[str] = []

    def _apply(self, action: object) -> bool:
        g = self.game
        before, where = g.hash(), position(g)
        hist, log = len(g.history), len(g.log)
        try:
            g.apply(action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert exc.rule.startswith("R-"), exc
            assert g.hash() == before and len(g.history) == hist and len(g.log) == log
            return False
        assert position(g) >= where
        self.hashes.append(before)
        return True

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal(self, data: st.DataObject) -> None:
        actions = self.game.legal_actions()
        assert actions, "a game in progress always offers an action"
        action = data.draw(st.sampled_from(actions), label="legal action")
        assert self._apply(action), f"listed action {action!r} was refused"

    @precondition(lambda self: not self.game.over)
    @rule(
        data=st.data(),
        kind=st.sampled_from(
            [
                "Move",
                "Shoot",
                "Charge",
                "CounterCharge",
                "TakeCover",
                "Advance",
                "Disengage",
                "Deploy",
                "UseAbility",
                "React",
                "Decline",
                "EndStep",
            ]
        ),
    )
    def arbitrary(self, data: st.DataObject, kind: str) -> None:
        s = self.game.state
        xy = {x.id: (float(s.xy[x.index][0]), float(s.xy[x.index][1])) for x in s.models}
        who = data.draw(model, label="model")
        other = data.draw(model, label="target")
        action = {
            "Move": lambda: Move(who, data.draw(paths(xy, who))),
            "Advance": lambda: Advance(who, data.draw(paths(xy, who))),
            "Disengage": lambda: Disengage(who, data.draw(paths(xy, who))),
            "Shoot": lambda: Shoot(who, other, data.draw(st.sampled_from(WEAPONS))),
            "Charge": lambda: Charge(who, other),
            "CounterCharge": lambda: CounterCharge(who, other),
            "TakeCover": lambda: TakeCover(who),
            "Deploy": lambda: Deploy(who, data.draw(point)),
            "UseAbility": lambda: UseAbility(
                who,
                data.draw(st.sampled_from(ABILITIES)),
                target=data.draw(st.none() | model),
                at=data.draw(st.none() | point),
            ),  # fmt: skip
            "React": lambda: React(who, data.draw(st.sampled_from(ABILITIES))),
            "Decline": Decline,
            "EndStep": EndStep,
        }[kind]()
        self._apply(action)

    @precondition(lambda self: self.game.can_undo)
    @rule()
    def undo(self) -> None:
        assert self.game.undo()
        assert self.game.hash() == self.hashes.pop()

    @precondition(lambda self: self.game.over)
    @rule()
    def over_refuses(self) -> None:
        assert self.game.legal_actions() == []
        assert not self._apply(EndStep())

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "game"):
            check_invariants(self.game, "state machine")


GameMachine.TestCase.settings = settings(
    max_examples=20, stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)  # fmt: skip
test_engine_state_machine = GameMachine.TestCase
