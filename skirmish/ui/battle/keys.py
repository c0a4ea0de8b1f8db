"""The battle screen's keys: one table that dispatches the keys, writes the help overlay (F1) and
the key list in `docs/ui.md` (a test keeps the docs equal to `markdown()`).

Each row is a help line and, when it has keys, the binding: the command the scene runs (the same
names as the banner's buttons, `control/offers.py`), whether Ctrl or Shift must be held (None: either
way), when it applies (always; while a person is to act; once the game is over) and a guard the scene
checks. Rows with no help words bind a second key of a line above; rows with no keys are help only
(the mouse). The hand-over card and the help overlay take the keyboard first (`CARD_*`, `HELP_*`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from skirmish.ui.control.saves import SAVE_NAME

ALWAYS, TURN, OVER = "always", "turn", "over"
"""When a binding applies: at any time; while a person is to act; once the game is over."""


@dataclass(frozen=True)
class Key:
    """One help line, and the keys that run `command` (see the module docstring)."""

    help: str
    words: str
    command: str | None = None
    keys: tuple[int, ...] = ()
    ctrl: bool | None = None
    shift: bool | None = None
    when: str = ALWAYS
    guard: str = ""

    def matches(self, key: int, ctrl: bool, shift: bool) -> bool:
        return (
            key in self.keys
            and (self.ctrl is None or self.ctrl == ctrl)
            and (self.shift is None or self.shift == shift)
        )


_DIGITS = tuple(range(pygame.K_1, pygame.K_9 + 1))
_ARROWS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)
_ENTER = (pygame.K_RETURN, pygame.K_KP_ENTER)

BATTLE_KEYS: tuple[Key, ...] = (
    Key("click", "select a model (hover: profile card)"),
    Key("drag", "from the model: one leg of a path"),
    Key("drag end", "from the ghost base: the next leg"),
    Key("Enter", "commit the path (Move/Advance)", "commit_path", _ENTER, when=TURN),
    Key("Backspace", "remove the last leg", "drop_leg", (pygame.K_BACKSPACE,), when=TURN),
    Key("Esc", "cancel the tool / path / selection", "cancel", (pygame.K_ESCAPE,), guard="can_cancel"),
    Key(
        "Esc twice, Ctrl+Q",
        f"leave the battle (saved to {SAVE_NAME} first)",
        "esc_leave",
        (pygame.K_ESCAPE,),
        guard="nothing_to_cancel",
    ),
    Key("", "", "leave", (pygame.K_q,), ctrl=True),
    Key(
        "E",
        "end this step (pass); ignored for a moment after the step or seat changes",
        "end_step",
        (pygame.K_e,),
        when=TURN,
    ),
    Key("Enter, click", "dismiss the hand-over / turn summary card"),
    Key("C", "Take Cover", "take_cover", (pygame.K_c,), when=TURN),
    Key("S", "shoot: then click the target", "shoot", (pygame.K_s,), ctrl=False, when=TURN),
    Key("W", "next weapon or ranged ability", "next_weapon", (pygame.K_w,), when=TURN),
    Key("H", "charge: then click the target", "charge", (pygame.K_h,), when=TURN),
    Key("A", "abilities of the selected model", "abilities", (pygame.K_a,), when=TURN),
    Key("1-9", "choose from a menu / pending decision", "choose_key", _DIGITS, when=TURN, guard="menu_open"),
    Key("D", "decline a counter-charge or reaction", "decline", (pygame.K_d,), when=TURN, guard="pending"),
    Key("U, Ctrl+Z", "undo (back to the last dice roll)", "undo", (pygame.K_u,)),
    Key("", "", "undo", (pygame.K_z,), ctrl=True),
    Key("V, right-click", "line of sight of a model", "sight", (pygame.K_v,)),
    Key("O", "learners' odds while targeting", "odds", (pygame.K_o,), ctrl=False),
    Key("R", "ruler (movement; everything with premeasure)", "ruler", (pygame.K_r,)),
    Key("Tab", "next model of yours", "cycle", (pygame.K_TAB,), when=TURN),
    Key("wheel", "zoom toward the cursor; scrolls the log"),
    Key("middle/shift drag", "pan; arrows pan too"),
    Key("", "", "pan", _ARROWS),
    Key("F", "fit the board to the window", "fit", (pygame.K_f,)),
    Key("G", "legend: terrain patterns, sides, status icons", "legend", (pygame.K_g,)),
    Key("P", "pause / resume bots", "toggle_pause", (pygame.K_p,)),
    Key("+ / -", "bot speed", "faster", (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)),
    Key("", "", "slower", (pygame.K_MINUS, pygame.K_KP_MINUS)),
    Key("Ctrl+S", f"save the game ({SAVE_NAME} in the saves folder)", "save", (pygame.K_s,), ctrl=True),
    Key("Ctrl+L", "load the saved game", "load", (pygame.K_l, pygame.K_o), ctrl=True),
    Key("F12", "save a picture of the board", "screenshot", (pygame.K_F12,)),
    Key("F1, ?", "this help", "help", (pygame.K_F1, pygame.K_QUESTION)),
    Key("", "", "help", (pygame.K_SLASH,), shift=True),
    Key("", "", "show_end", _ENTER, when=OVER),  # the banner shows these two as buttons
    Key("", "", "watch_replay", (pygame.K_w,), when=OVER),
)

CARD_PASSES = (pygame.K_F1, pygame.K_F12, pygame.K_g)
"""Keys that work under the hand-over card (with every Ctrl key); the others are swallowed."""
CARD_DISMISS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE)
HELP_CLOSE = (pygame.K_F1, pygame.K_ESCAPE, pygame.K_SLASH, pygame.K_QUESTION)
DUEL_PASSES = (pygame.K_F1, pygame.K_F12, pygame.K_ESCAPE)
"""Keys the Avatar Duel's builder leaves to the table while a person builds (with every Ctrl key)."""


def find(key: int, ctrl: bool, shift: bool, when: str, holds: Callable[[str], bool]) -> Key | None:
    """The binding of a key press now: `when` is TURN (a person to act), OVER, or ALWAYS (a bot's
    turn); `holds(guard)` says whether a row's guard holds. The first row that fits wins."""
    for row in BATTLE_KEYS:
        if (
            row.command
            and row.when in (ALWAYS, when)
            and row.matches(key, ctrl, shift)
            and (not row.guard or holds(row.guard))
        ):
            return row
    return None


def help_lines(table: tuple[Key, ...] = BATTLE_KEYS) -> list[tuple[str, str]]:
    """(key, what it does) for the help overlay, in the table's order."""
    return [(row.help, row.words) for row in table if row.help]


def markdown(table: tuple[Key, ...] = BATTLE_KEYS) -> str:
    """The key list for `docs/ui.md`, written from the same table."""
    rows = [f"| {k} | {words} |" for k, words in help_lines(table)]
    return "\n".join(["| key | what it does |", "|---|---|", *rows]) + "\n"
