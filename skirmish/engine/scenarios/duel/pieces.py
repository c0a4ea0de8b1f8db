"""Technique pieces (R-X2): element, size and orientation, the text form of a build and its checks.

A piece is written `element.SIZE.orientation` with an optional `^` for an ungrounded piece:
`fire.L.point`, `air.S.deflect^`, `earth.M.stack`. A technique is its pieces joined by `+`; a build
is its techniques joined by ` / `, named a, b, c, d in that order. Everything here is pure: the
duel's rules pass in what the table says (may this Avatar build ungrounded pieces?).
"""

from __future__ import annotations

from dataclasses import dataclass

ELEMENTS = ("air", "water", "earth", "fire")
SIZES = {"S": 1, "M": 2, "L": 3}
SIZE_LETTER = {1: "S", 2: "M", 3: "L"}
SIZE_WORD = {1: "small", 2: "medium", 3: "large"}
ORIENTATIONS = ("stand", "deflect", "point", "stack")
ORIENT_WORD = {"stand": "standing", "deflect": "deflecting", "point": "pointing", "stack": "stacked"}
NAMES = ("a", "b", "c", "d")
MAX_TECHNIQUES = 4
MIN_PIECES, MAX_PIECES = 2, 4
POOL: tuple[tuple[str, int], ...] = tuple((e, s) for e in ELEMENTS for s in (1, 2, 3))
"""One treehouse set without its black pieces: each element in each size, once."""


class BuildError(ValueError):
    """A build that breaks R-X2's building rules; the message says which piece and why."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One pyramid of a technique. `stack` is a standing piece resting on another standing piece:
    ungrounded standing (the source: stacked pyramids count as ungrounded standing pieces)."""

    element: str
    size: int
    orient: str
    up: bool = False

    @property
    def ungrounded(self) -> bool:
        return self.up or self.orient == "stack"

    @property
    def standing(self) -> bool:
        return self.orient in ("stand", "stack")

    @property
    def token(self) -> str:
        return f"{self.element}.{SIZE_LETTER[self.size]}.{self.orient}{'^' if self.up else ''}"

    @property
    def words(self) -> str:
        up = "ungrounded " if self.up else ""
        return f"{SIZE_WORD[self.size]} {up}{ORIENT_WORD[self.orient]} {self.element}"


def parse_piece(text: str) -> Piece:
    t = text.strip()
    up = t.endswith("^")
    parts = t.rstrip("^").split(".")
    if len(parts) != 3:
        raise BuildError(f"`{text}` is not a piece (write element.SIZE.orientation, e.g. fire.L.point)")
    element, size, orient = parts[0].lower(), parts[1].upper(), parts[2].lower()
    if element not in ELEMENTS:
        raise BuildError(f"`{text}`: the element must be one of {', '.join(ELEMENTS)}")
    if size not in SIZES:
        raise BuildError(f"`{text}`: the size must be S, M or L")
    if orient not in ORIENTATIONS:
        raise BuildError(f"`{text}`: the orientation must be one of {', '.join(ORIENTATIONS)}")
    if up and orient == "stack":
        raise BuildError(f"`{text}`: a stacked piece is already ungrounded (drop the ^)")
    return Piece(element, SIZES[size], orient, up)


def parse_build(text: str) -> list[tuple[Piece, ...]]:
    """The techniques of a build's text form (empty text: no technique)."""
    if not text.strip():
        return []
    out = []
    for k, chunk in enumerate(text.split("/")):
        if not chunk.strip():
            raise BuildError(f"technique {k + 1} is empty")
        out.append(tuple(parse_piece(p) for p in chunk.split("+")))
    return out


def format_technique(pieces: tuple[Piece, ...] | list[Piece]) -> str:
    return "+".join(p.token for p in pieces)


def format_build(techniques: list[tuple[Piece, ...]]) -> str:
    return " / ".join(format_technique(t) for t in techniques)


def technique_words(pieces: tuple[Piece, ...] | list[Piece]) -> str:
    return ", ".join(p.words for p in pieces) if pieces else "nothing"


def special_of(pieces: tuple[Piece, ...] | list[Piece]) -> str | None:
    """The special technique these pieces form (optional rule), or None: three pieces of one element,
    one of each size, all in one orientation (the source's "3 weird yellows" and its kin)."""
    if len(pieces) != 3 or len({p.element for p in pieces}) != 1 or {p.size for p in pieces} != {1, 2, 3}:
        return None
    orients = {"stand" if p.orient == "stack" else p.orient for p in pieces}
    if len(orients) != 1:
        return None
    key = (pieces[0].element, orients.pop())
    return SPECIALS.get(key)


SPECIALS: dict[tuple[str, str], str] = {
    ("air", "deflect"): "air_shield",
    ("earth", "stand"): "earth_fortress",
    ("fire", "point"): "firestorm",
    ("water", "point"): "tidal_wave",
}
SPECIAL_TEXT = {
    "air_shield": "Air Shield: deflects every attacking piece, of any element, grounded or not",
    "earth_fortress": "Earth Fortress: blocks every grounded attacking piece, whatever its size",
    "firestorm": "Firestorm: its pieces cannot be deflected or reflected",
    "tidal_wave": "Tidal Wave: its pieces ignore cover and cannot be reflected",
}


def check_build(
    techniques: list[tuple[Piece, ...]],
    *,
    may_unground: bool,
    specials: bool,
    native: str | None = None,
    airborne: bool = False,
) -> None:
    """Raise `BuildError` unless the build keeps R-X2's building rules (see docs/rules.md, R-X2):

    up to 4 techniques of 2-4 pieces; each piece of the pool (element and size) once; `^` only for an
    Avatar that is airborne or on higher ground, or on a piece of its `native` element (mastered:
    it may be built ungrounded anywhere); an `airborne` Avatar builds in the air: every piece
    ungrounded; a stacked piece rests on a grounded standing piece
    of its technique at least as large, one stacked piece on each; a technique holds no more
    deflecting pieces than other pieces (a tilted pyramid leans on a piece), except the Air Shield
    special when specials are played.
    """
    if len(techniques) > MAX_TECHNIQUES:
        raise BuildError(f"at most {MAX_TECHNIQUES} techniques, not {len(techniques)}")
    used: set[tuple[str, int]] = set()
    for k, tech in enumerate(techniques):
        name = NAMES[k]
        if not MIN_PIECES <= len(tech) <= MAX_PIECES:
            raise BuildError(f"technique {name} has {len(tech)} pieces (2 to 4)")
        for p in tech:
            key = (p.element, p.size)
            if key in used:
                raise BuildError(f"technique {name}: the {SIZE_WORD[p.size]} {p.element} piece is used twice")
            used.add(key)
            if airborne and not p.ungrounded:
                raise BuildError(
                    f"technique {name}: {p.words} — an airborne Avatar builds in the air: every piece "
                    "is ungrounded (add ^)"
                )
            if p.up and not may_unground and p.element != native:
                raise BuildError(
                    f"technique {name}: {p.words} — only an airborne Avatar or one on higher ground "
                    "builds ungrounded pieces, except of its native element (or stack a standing piece)"
                )
        bases = sorted((p.size for p in tech if p.orient == "stand" and not p.up), reverse=True)
        for p in sorted((p for p in tech if p.orient == "stack"), key=lambda q: -q.size):
            fit = next((b for b in bases if b >= p.size), None)
            if fit is None:
                raise BuildError(
                    f"technique {name}: {p.words} needs a grounded standing piece "
                    "at least as large to rest on"
                )
            bases.remove(fit)
        deflecting = sum(1 for p in tech if p.orient == "deflect")
        if deflecting > len(tech) - deflecting and not (specials and special_of(tech) == "air_shield"):
            raise BuildError(
                f"technique {name}: {deflecting} deflecting pieces need as many other pieces to lean on"
            )
