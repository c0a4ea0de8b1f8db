"""Setting up a position by hand: the public way for tests, notebooks and puzzles to stand models,
give them statuses and walk the turn to a step, instead of writing `game.state` directly.

Every function checks what it is given against the rules it would otherwise break and raises a
`SetupError` (an `IllegalAction`) naming the rule ID and the field, leaving the game unchanged.
A base is checked with the geometry the movement rules use (`battlefield.paths.check_path`, a
path that stands still), so "where may a model stand" is decided in one place. Setting up a
position is not a move of the game: it leaves no action in the history (a replay of the game will
not reproduce it) and it empties the undo stack (an undo would otherwise take the set-up back too).

    game = Game.from_scenario("open_battle", seed=1)
    setup.only(game, ["p0.sokka", "p0.katara", "p1.zuko"])
    setup.place(game, "p0.sokka", (14.5, 20.0))
    setup.advance_to(game, "shooting", player=0)
    setup.set_status(game, "p1.zuko", limping=True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from skirmish.battlefield.paths import Mover, check_path
from skirmish.engine.core.actions import Decline, EndStep
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.engine.rulebook import SPECS

__all__ = [
    "STATUSES",
    "SetupError",
    "advance_to",
    "only",
    "place",
    "place_all",
    "remove",
    "set_ap",
    "set_hp",
    "set_status",
]

STATUSES = ("limping", "taking_cover", "ko")
"""The statuses of R-P5 that `set_status` sets (being in melee follows from positions)."""


class SetupError(IllegalAction):
    """A set-up the rules do not allow: `rule` is the rule ID, `field` the argument at fault."""

    def __init__(self, rule: str, field: str, message: str) -> None:
        self.field = field
        self.detail = message
        super().__init__(rule, f"{field}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.rule, self.field, self.detail), self.__dict__)


def _model(game: Game, model: str | ModelState, field: str = "model") -> ModelState:
    model_id = model.id if isinstance(model, ModelState) else model
    found = game.state.model(model_id) if isinstance(model_id, str) else None
    if found is None:
        known = ", ".join(m.id for m in game.state.models)
        raise SetupError("R-P1", field, f"there is no model {model_id!r} (models: {known})")
    return found


def _changed(game: Game) -> None:
    game.moved()
    game.forget_undo()


def _point(at: Any, field: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in at)
    except (TypeError, ValueError):
        raise SetupError("R-M2", field, f"a position is two numbers (x, y) in inches, not {at!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise SetupError("R-M2", field, f"a position is two finite numbers, not {at!r}")
    return x, y


def place(game: Game, model: str | ModelState, at: tuple[float, float]) -> None:
    """Stand `model` with its base centre at `at` (inches): wholly on the table, not on impassable
    terrain (a flyer may be, R-B4), not overlapping another base. Base contact with an enemy is
    allowed: that is how a melee is set up."""
    _stand(game, [(_model(game, model), _point(at, "at"), "at")])


def place_all(game: Game, positions: Mapping[str, tuple[float, float]]) -> None:
    """Stand several models at once (so two may swap places); checked together, applied together."""
    moves = []
    for mid, at in positions.items():
        field = f"positions[{mid!r}]"
        moves.append((_model(game, mid, field), _point(at, field), field))
    _stand(game, moves)


def _stand(game: Game, moves: list[tuple[ModelState, tuple[float, float], str]]) -> None:
    s = game.state
    xy = s.xy.copy()
    for m, p, field in moves:
        if not m.on_table:
            raise SetupError("R-C2", field, f"{m.name} has been removed from the table")
        xy[m.index] = p
    no_enemies = np.zeros(len(s.models), dtype=bool)
    gone = game.gone_mask()
    for m, p, field in moves:
        spot = np.array([p, p], dtype=float)
        flying = m.profile.flying or m.glide
        problem = check_path(
            Mover(game.table, m.index, xy, s.radii, no_enemies, flying=flying, ignore=gone),
            spot,
            max_length=0.0,
        )
        if problem is not None:
            text = problem.message.replace("the path leaves the table", "the base is not wholly on the table")
            text = text.replace("passes through the base of", "overlaps").replace("crosses", "stands on")
            raise SetupError(problem.rule or "R-M2", field, _named(game, text))
    s.xy[:] = xy
    _changed(game)


def _named(game: Game, text: str) -> str:
    models = game.state.models
    for i in range(len(models) - 1, -1, -1):
        text = text.replace(f"model {i}", f"{models[i].name} ({models[i].id})")
    return text


def remove(game: Game, models: Iterable[str | ModelState]) -> None:
    """Take models off the table, as casualties are (R-C2): they no longer block, see or score."""
    found = [_model(game, m, "models") for m in models]
    for m in found:
        m.removed = True
    _changed(game)


def only(game: Game, keep: Iterable[str | ModelState]) -> None:
    """Take every model except `keep` off the table, so only the situation plays."""
    kept = {_model(game, m, "keep").id for m in keep}
    remove(game, [m.id for m in game.state.models if m.id not in kept and m.on_table])


def set_status(
    game: Game,
    model: str | ModelState,
    *,
    limping: bool | None = None,
    taking_cover: bool | None = None,
    ko: bool | None = None,
    limping_until_turn: int | None = None,
) -> None:
    """Give `model` the statuses of R-P5 (None leaves one as it is).

    Limping lasts until the Move Phase after `limping_until_turn` when given, else until cleared
    by hand. KO'd takes the model's last HP (it stays on the table until the next removal step,
    R-C2); clearing KO'd gives it 1 HP back. Taking Cover needs a model able to act."""
    m = _model(game, model)
    if m.removed:
        raise SetupError("R-C2", "model", f"{m.name} has been removed from the table")
    if taking_cover and (ko or (ko is None and m.ko)):
        raise SetupError("R-M4", "taking_cover", f"{m.name} is KO'd and cannot Take Cover")
    if limping_until_turn is not None and limping is not True:
        raise SetupError("R-P5", "limping_until_turn", "give limping=True with it")
    s = game.state
    if ko is not None and ko != m.ko:
        m.ko = ko
        if ko:
            m.hp, m.ko_turn, m.ko_step = 0, s.turn, f"{s.turn}:{s.step}"
            m.taking_cover = False
        else:
            m.hp, m.ko_turn, m.ko_step = max(m.hp, 1), 0, ""
    if limping is not None:
        m.limping = limping
        until = s.extra.setdefault("limp_until", {})
        if limping and limping_until_turn is not None:
            until[m.id] = int(limping_until_turn)
        else:
            until.pop(m.id, None)
            if not until:
                del s.extra["limp_until"]
    if taking_cover is not None:
        m.taking_cover = taking_cover
    _changed(game)


def set_hp(game: Game, model: str | ModelState, hp: int) -> None:
    """Set `model`'s HP, 1 to its profile's (R-P1); 0 HP is `set_status(ko=True)`."""
    m = _model(game, model)
    if isinstance(hp, bool) or not isinstance(hp, int):
        raise SetupError("R-P1", "hp", f"HP is a whole number, not {hp!r}")
    if not 1 <= hp <= m.profile.hp:
        raise SetupError(
            "R-P1", "hp", f"{m.name} has 1 to {m.profile.hp} HP (0 is KO'd: use ko=True), not {hp}"
        )
    if m.ko:
        raise SetupError("R-C2", "hp", f"{m.name} is KO'd: clear it with set_status(ko=False) first")
    m.hp = hp
    _changed(game)


def set_ap(game: Game, model: str | ModelState, ap: int) -> None:
    """Set the Ability Points `model` has left this turn (R-M1, R-P4)."""
    m = _model(game, model)
    if isinstance(ap, bool) or not isinstance(ap, int) or ap < 0:
        raise SetupError("R-P4", "ap", f"AP is a whole number of 0 or more, not {ap!r}")
    m.ap = ap
    _changed(game)


def advance_to(
    game: Game, step: str, player: int | None = None, *, turn: int | None = None, limit: int = 2000
) -> None:
    """Play on, passing (`EndStep`, or `Decline` an offer), until the game waits in `step` for
    `player` (any player when None) in `turn` (any turn when None).

    These are real actions of the game (the steps between run as in play, dice and all), so a
    replay of the game reaches the same place. A step where nobody can act is passed through
    (players with nothing to do there are skipped), so ask for a step someone can act in."""
    if step not in SPECS:
        raise SetupError("R-T1", "step", f"no step {step!r} (steps: {', '.join(SPECS)})")
    if player is not None and not 0 <= player < len(game.state.players):
        raise SetupError("R-T3", "player", f"no player {player} (0 to {len(game.state.players) - 1})")
    for _ in range(limit):
        s = game.state
        if (
            s.step == step
            and s.pending is None
            and (player is None or s.active_player == player)
            and (turn is None or s.turn == turn)
        ):
            return
        if s.over:
            raise SetupError("R-T4", "step", f"the game ended before reaching {step!r}")
        if turn is not None and s.turn > turn:
            raise SetupError("R-T1", "turn", f"turn {turn} is past; the game is in turn {s.turn}")
        game.apply(Decline() if s.pending is not None else EndStep())
    raise SetupError("R-T1", "step", f"never reached {step!r} within {limit} passes")
