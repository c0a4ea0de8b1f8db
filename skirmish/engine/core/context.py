"""What a rule may see: the `Ctx` protocol that steps, effects and scenario rules are typed against.

A step used to take the whole `Game` and could reach anything in it — the undo stack, the
observers, another step's cache stashed in its `__dict__`. `Ctx` names the part a rule needs: the
state, the dice, the table, the options, the log it writes to, and the per-arrangement geometry
questions (cover, height, distances, melee, sight), each answered from tables the game keeps per
arrangement. `Game` satisfies it structurally; a test double or another runner can too.

`Rules` is the part of a scenario's rules that the steps consult while resolving (elements
blocked, wounds, stuns); the scenario classes satisfy it. Caches a rule keeps between calls go in
`ctx.memo`, one dictionary owned by the game and cleared with it, keyed by the rule's own names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from skirmish.battlefield.table import Table
    from skirmish.data.armoury import Armoury
    from skirmish.data.options import RuleOptions
    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe
    from skirmish.engine.core.log import Event
    from skirmish.engine.core.state import GameState, ModelState
    from skirmish.rules.dice import Dice


class Rules(Protocol):
    """The scenario hooks a rule calls while it resolves (the full class is `ScenarioRules`)."""

    def element_blocked(self, model: ModelState, element: str | None) -> bool: ...

    def on_wound(self, target: ModelState, hp_lost: int, by: ModelState | None) -> None: ...

    def absorbs_hit(self, target: ModelState) -> bool: ...

    def stuns(self, target: ModelState) -> bool: ...

    def ends_when_one_side_left(self) -> bool: ...

    def check_end(self) -> str: ...

    def extra_points(self) -> list[int]: ...

    def technique_duel(self) -> bool: ...

    def on_step(self, step: str) -> None: ...

    def observe(self, player: int) -> Any: ...


class Ctx(Protocol):
    """The game as a rule sees it: state, dice, table, options, log, and geometry questions."""

    state: GameState
    dice: Dice
    options: RuleOptions
    scenario: Scenario
    troupes: list[Troupe]
    record_log: bool
    log: list[Event]
    memo: dict[str, Any]

    @property
    def table(self) -> Table: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def over(self) -> bool: ...

    # ---- writing
    @property
    def logging(self) -> bool:
        """Whether `emit` would record anything (the log kept, or an observer listening)."""

    def emit(
        self, kind: str, text: str, models: Sequence[str] = (), rolls_from: int | None = None, **data: Any
    ) -> None: ...

    def moved(self) -> None:
        """Positions or terrain changed: the per-arrangement geometry tables are stale."""

    def placed(self, k: int) -> None:
        """Model `k`'s position changed and nothing else did: `moved()`, naming what moved."""

    def add_terrain(self, table: Table) -> None:
        """The table gained a piece (an Earth Wall): the new table replaces the old one."""

    def finish(self, reason: str) -> None: ...

    def step_title(self, name: str) -> str:
        """A step's title for the log ("Standard movement")."""

    def after_player_action(self) -> None: ...

    # ---- who is who
    def model(self, model_id: str, *, rule: str = "R-P1") -> ModelState: ...

    def armoury(self, model: ModelState) -> Armoury: ...

    def team(self, model: ModelState) -> int: ...

    def enemies(self, a: ModelState, b: ModelState) -> bool: ...

    def enemy_mask(self, model: ModelState) -> np.ndarray: ...

    def gone_mask(self) -> np.ndarray: ...

    def player_models(self, player: int) -> list[ModelState]: ...

    def teams_on_table(self) -> list[int]: ...

    # ---- geometry of the current arrangement
    def cover(self, model: ModelState) -> int: ...

    def height(self, model: ModelState) -> float: ...

    def distance(self, a: ModelState, b: ModelState) -> float: ...

    def distances(self) -> np.ndarray: ...

    def in_melee(self, model: ModelState) -> bool: ...

    def melee_flags(self) -> list[bool]:
        """`[in_melee(m) for m in models]`, read only."""
        ...

    def active_flags(self) -> list[bool]:
        """`[m.active for m in models]`, read only."""
        ...

    def enemy_rows(self) -> list[list[bool]]:
        """`enemies(a, b)` by index, read only."""
        ...

    def melee_enemies(self, model: ModelState) -> list[ModelState]: ...

    def sees(self, a: ModelState, b: ModelState) -> bool: ...

    def sees_any(self, pairs: Sequence[tuple[ModelState, ModelState]]) -> bool: ...

    def sees_any_of(self, askers: Sequence[ModelState], targets: Sequence[Sequence[ModelState]]) -> bool: ...

    def sees_each(self, pairs: Sequence[tuple[ModelState, ModelState]]) -> list[bool]: ...

    def friend_within(self, model: ModelState, inches: float) -> bool: ...
