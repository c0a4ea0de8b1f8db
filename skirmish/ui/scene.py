"""Scenes (a stack: menu, deployment, battle, end screen, replay viewer) and small widgets.

Each scene handles events, updates with the frame's time step and draws itself; the app only
keeps the stack (design principle 12: no global session). Buttons carry a hotkey, so everything
a mouse can do a key can do, and the help overlay lists them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pygame

from skirmish.ui import theme
from skirmish.ui.theme import TextCache

if TYPE_CHECKING:
    from skirmish.data.options import RuleOptions
    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe
    from skirmish.engine import Game, Replay


class Host(Protocol):
    """What a scene may ask of the window that shows it (the app implements it): the stack, the
    text cache and size, and the other screens by what they show. Scenes navigate through this and
    never import one another (an import-linter contract keeps the scene modules independent)."""

    size: tuple[int, int]
    text: TextCache
    seats: int
    """People sharing a co-operative side (the Pursuit's heroes), hotseat."""
    auto_end: bool
    """Show the end screen as soon as a game ends."""

    def top(self) -> Scene: ...
    def push(self, scene: Scene) -> None: ...
    def pop(self) -> None: ...
    def replace(self, scene: Scene) -> None: ...
    def quit(self) -> None: ...

    def tell(self, words: str, bad: bool = False) -> None:
        """Show `words` on the scene now on top, if it shows messages."""
        ...

    def open_battle(
        self,
        game: Game,
        policies: list[str | None],
        *,
        replay_out: str | None = None,
        deploy: bool = False,
        speed: int = 1,
        replace: bool = False,
    ) -> None:
        """Show a battle (from deployment when `deploy`), over this scene or `replace`-ing it."""
        ...

    def open_replay(self, replay: Replay) -> None: ...
    def open_end(self, game: Game, *, replay_out: str | None = None) -> None: ...

    def open_menu(
        self,
        scenario: Scenario,
        troupes: list[Troupe],
        options: RuleOptions,
        *,
        seed: int,
        fresh: bool = False,
    ) -> None:
        """Show the start menu; `fresh` clears the stack first (a new game)."""
        ...


class Scene:
    """One screen. `app` (the host) gives the stack, the text cache, the window size and the way
    to the other screens."""

    name = "scene"

    def __init__(self, app: Host) -> None:
        self.app = app

    @property
    def text(self) -> TextCache:
        return self.app.text

    def layout(self, size: tuple[int, int]) -> None:
        """Called when the window opens or is resized."""

    def handle(self, event: pygame.event.Event) -> None:
        """One input event."""

    def update(self, dt: float) -> None:
        """Advance by `dt` seconds of wall time (animations, bots)."""

    def draw(self, surf: pygame.Surface) -> None:
        raise NotImplementedError

    def help_lines(self) -> list[tuple[str, str]]:
        """(key, what it does) for the help overlay."""
        return []


@dataclass
class Button:
    """A clickable label with a hotkey; disabled buttons are drawn grey with the reason beside them."""

    label: str
    hotkey: str
    action: Callable[[], None] | None
    enabled: bool = True
    reason: str = ""
    rect: pygame.Rect | None = None

    def caption(self) -> str:
        return f"[{self.hotkey}] {self.label}" if self.hotkey else self.label


def draw_button(
    surf: pygame.Surface, text: TextCache, b: Button, x: int, y: int, size: int = 16, hover: bool = False
) -> pygame.Rect:
    cap = text.render(b.caption(), size, theme.TEXT if b.enabled else theme.TEXT_DIM, bold=b.enabled)
    pad = 6
    rect = pygame.Rect(x, y, cap.get_width() + 2 * pad, cap.get_height() + 6)
    bg = (70, 78, 98) if b.enabled else (48, 50, 58)
    if hover and b.enabled:
        bg = (96, 106, 132)
    pygame.draw.rect(surf, bg, rect, border_radius=4)
    pygame.draw.rect(surf, theme.PANEL_EDGE, rect, 1, border_radius=4)
    surf.blit(cap, (x + pad, y + 3))
    b.rect = rect
    return rect


def click_buttons(buttons: list[Button], pos: tuple[int, int]) -> bool:
    """Run the enabled button under `pos`; True when a button (enabled or not) was hit."""
    for b in buttons:
        if b.rect is not None and b.rect.collidepoint(pos):
            if b.enabled and b.action is not None:
                b.action()
            return True
    return False


def draw_panel(surf: pygame.Surface, rect: pygame.Rect | tuple[int, int, int, int]) -> None:
    pygame.draw.rect(surf, theme.PANEL, rect)
    pygame.draw.rect(surf, theme.PANEL_EDGE, rect, 1)


def draw_help(surf: pygame.Surface, text: TextCache, title: str, lines: list[tuple[str, str]]) -> None:
    """The keyboard help overlay: every shortcut of the current scene."""
    w, h = surf.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surf.blit(shade, (0, 0))
    lh = text.line_height(17) + 2
    cols = 2 if len(lines) > 18 else 1
    per = (len(lines) + cols - 1) // cols
    # the key column is as wide as its widest key, so long keys never run into the words
    key_w = max((text.size(k, 17, True)[0] for k, _ in lines), default=100) + 16
    words_w = max((text.size(v, 17)[0] for _, v in lines), default=200)
    col_w = min(key_w + words_w + 24, (w - 80) // cols)
    box = pygame.Rect(0, 0, col_w * cols + 40, per * lh + 80)
    box.center = (w // 2, h // 2)
    draw_panel(surf, box)
    surf.blit(
        text.render(title + " — keys (F1 or ? closes)", 20, theme.ACCENT, bold=True), (box.x + 20, box.y + 14)
    )
    for k, (key, words) in enumerate(lines):
        c, r = divmod(k, per)
        x = box.x + 20 + c * col_w
        y = box.y + 50 + r * lh
        surf.blit(text.render(key, 17, theme.ACCENT, bold=True), (x, y))
        surf.blit(text.render(words, 17, theme.TEXT), (x + key_w, y))


class TextPrompt:
    """A one-line text entry (a file path, a seed, a turn number) drawn over the scene."""

    def __init__(self, label: str, initial: str, on_done: Callable[[str], None]) -> None:
        self.label = label
        self.value = initial
        self.on_done = on_done
        self.active = True
        self.swallow = ""
        """The hotkey that opened the box: SDL sends its TEXTINPUT right after the KEYDOWN that
        opened it, and that letter must not land in the box (UX review 1)."""

    def opened_by(self, event: pygame.event.Event) -> None:
        """Note the KEYDOWN that opened the box, so its own TEXTINPUT is dropped."""
        char = getattr(event, "unicode", "") or pygame.key.name(event.key)
        self.swallow = char if len(char) == 1 else ""

    def handle(self, event: pygame.event.Event) -> bool:
        """True when the event was consumed."""
        if event.type == pygame.TEXTINPUT:
            swallow, self.swallow = self.swallow, ""
            if swallow and event.text.lower() == swallow.lower():
                return True
            self.value += event.text
            return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.active = False
                self.on_done(self.value)
            elif event.key == pygame.K_ESCAPE:
                self.active = False
            elif event.key == pygame.K_BACKSPACE:
                self.value = self.value[:-1]
            return True
        return event.type in (pygame.KEYUP,)

    def draw(self, surf: pygame.Surface, text: TextCache) -> None:
        w, h = surf.get_size()
        box = pygame.Rect(0, 0, min(900, w - 40), 90)
        box.center = (w // 2, h // 2)
        draw_panel(surf, box)
        surf.blit(
            text.render(self.label + "  (Enter to accept, Esc to cancel)", 17, theme.TEXT_DIM),
            (box.x + 14, box.y + 12),
        )
        field = pygame.Rect(box.x + 14, box.y + 42, box.w - 28, 32)
        pygame.draw.rect(surf, (20, 22, 28), field)
        surf.blit(text.render(self.value + "_", 20, theme.TEXT), (field.x + 6, field.y + 6))
