"""What the battle screen's parts see of the scene: the `Table` protocol, with the pointer's `Drag`
and the input `Mode` base. The modes, tools, pointer and views type against `Table`, never against
`scene.BattleScene` (which implements it), so the parts import nothing that imports them and the
package has no import cycle (the `acyclic_siblings` contract over `skirmish.ui`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pygame
    import shapely

    from skirmish.engine import Game
    from skirmish.engine.core.actions import Action
    from skirmish.engine.queries import ModelState
    from skirmish.ui.control.battle import BattleControl
    from skirmish.ui.control.turns import HandOver
    from skirmish.ui.duel_view import DuelPanel
    from skirmish.ui.panels import LogPanel
    from skirmish.ui.scene import Button
    from skirmish.ui.theme import TextCache
    from skirmish.ui.view import BoardView

Point = tuple[float, float]


class Drag:
    """The pointer's drag in progress: a path leg, a deployment, the ruler or a pan."""

    def __init__(self) -> None:
        self.kind = ""
        self.start_px: tuple[int, int] = (0, 0)
        self.live: Point | None = None

    @property
    def active(self) -> bool:
        return bool(self.kind)

    def start(self, kind: str, pos: tuple[int, int], live: Point | None) -> None:
        self.kind, self.start_px, self.live = kind, pos, live

    def moved(self, pos: tuple[int, int]) -> float:
        return math.hypot(pos[0] - self.start_px[0], pos[1] - self.start_px[1])


class Mode:
    """An input mode (`modes.py`): its `name` (what tests and the banner cache read) and what it
    does with a press on the board and draws."""

    name = "idle"
    targeting = False
    """Shoot and charge: enemies in sight are ringed, the target line and the odds are drawn."""

    def press(self, scene: Table, pos: tuple[int, int], at: Point, m: ModelState | None) -> None:
        """A left press on the board at screen `pos` (board inches `at`), over model `m` if any."""

    def draw_board(self, scene: Table, surf: pygame.Surface) -> None:
        """Drawn on the board, under the banner and panels."""

    def draw_panel(self, scene: Table, surf: pygame.Surface) -> None:
        """Drawn over the panels (menus, the odds box)."""


class Table(Protocol):
    """The battle scene as its parts see it (implemented by `scene.BattleScene`)."""

    control: BattleControl
    view: BoardView
    board_rect: pygame.Rect
    banner_h: int
    drag: Drag
    tool: Mode
    hovered: str | None
    ruler: tuple[Point, Point] | None
    los_model: str | None
    show_odds: bool
    show_help: bool
    show_legend: bool
    buttons: list[Button]
    label_rects: dict[str, pygame.Rect]
    log_panel: LogPanel
    duel: DuelPanel | None
    selected: str | None
    path: list[Point]
    esc_at: float

    @property
    def text(self) -> TextCache: ...
    @property
    def game(self) -> Game: ...
    @property
    def mode(self) -> str: ...
    @property
    def seats(self) -> int: ...
    @property
    def handover(self) -> HandOver | None: ...
    @property
    def menu_items(self) -> list[tuple[str, Action | None, str]]: ...

    def say(self, text: str, bad: bool = False, seconds: float = 6.0) -> None: ...
    def select(self, model_id: str | None) -> None: ...
    def apply(self, action: Action) -> bool: ...
    def dismiss_card(self) -> None: ...
    def duel_building(self) -> bool: ...
    def leave(self) -> None: ...
    def los_changed(self) -> None: ...
    def model_at(self, px: float, py: float) -> ModelState | None: ...
    def near_path_end(self, pos: tuple[int, int]) -> bool: ...
    def model_positions(self) -> dict[str, Point]: ...
    def path_corridor(
        self, m: ModelState, pts: list[Point], problem: bool
    ) -> tuple[list[shapely.Polygon], list[shapely.Polygon]]: ...
