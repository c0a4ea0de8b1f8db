"""Build templates for the Avatar Duel: a small set of whole builds (all twelve pieces) in the roles
players reach for — assault, balance, fortress, hammers, mirror — each in four rotations of the
elements. The game lists them as the build step's candidate actions (any other legal build is
accepted too) and the duel bot mixes over them (regret matching, `bots/duel_bot.py`).
"""

from __future__ import annotations

from functools import lru_cache

from skirmish.engine.scenarios.duel.pieces import ELEMENTS, BuildError, Piece, check_build, format_build

TEMPLATES: dict[str, str] = {
    "assault": "A3p+B2p+C1p / B3p+C2p+D1p / C3p+D2p+A1p / D3s+A2d+B1s",
    "balanced": "A3p+B2p+C1p / B3p+C2p+D1p / C3s+D2d+A1s / D3s+A2d+B1s",
    "fortress": "A3p+B3p+C3p+D3p / A2s+B2d / C2s+D2d / A1s+B1d+C1s+D1d",
    "hammers": "A3p+B3p+C2p+D1p / C3p+D3p+A2p+B1p / D2s+A1d / B2s+C1d",
    "mirror": "A3p+B2s+C1d / B3p+C2s+D1d / C3p+D2s+A1d / D3p+A2s+B1d",
}
ORIENT = {"p": "point", "s": "stand", "d": "deflect"}
VARIANTS = ("ground", "high_attack", "high")
"""How a template stands on the table: all grounded (second standing pieces stacked); attacking
pieces ungrounded where the Avatar may; or every piece ungrounded where it may. Each level of the
table stops only its own attacks (R-X2), so none of the three is always best."""


def arms() -> list[tuple[str, int, str]]:
    """Every (template, rotation, variant) the bot mixes over, in a fixed order."""
    return [(name, k, v) for name in TEMPLATES for k in range(len(ELEMENTS)) for v in VARIANTS]


def realise(
    name: str,
    rotation: int,
    variant: str = "ground",
    *,
    may_unground: bool,
    native: str | None = None,
    banned: str | None = None,
    airborne: bool = False,
) -> list[tuple[Piece, ...]]:
    """The template's build for an Avatar (see `_realise`); a fresh list of the memoised build."""
    return list(_realise(name, rotation, variant, may_unground, native, banned, airborne))


@lru_cache(maxsize=4096)
def _realise(
    name: str,
    rotation: int,
    variant: str,
    may_unground: bool,
    native: str | None,
    banned: str | None,
    airborne: bool,
) -> tuple[tuple[Piece, ...], ...]:
    return tuple(
        _build_template(
            name,
            rotation,
            variant,
            may_unground=may_unground,
            native=native,
            banned=banned,
            airborne=airborne,
        )
    )


def _build_template(
    name: str,
    rotation: int,
    variant: str = "ground",
    *,
    may_unground: bool,
    native: str | None = None,
    banned: str | None = None,
    airborne: bool = False,
) -> list[tuple[Piece, ...]]:
    """The template's build for an Avatar: elements rotated, raised as `variant` says (a piece may be
    ungrounded when the Avatar is airborne or on higher ground, or the piece is of its native
    element). Pieces of a `banned` element (an eclipse) are left out, and techniques left with one
    piece too."""
    if airborne:
        variant, may_unground = "high", True  # in the air every piece is ungrounded
    el = ELEMENTS[rotation:] + ELEMENTS[:rotation]
    letters = dict(zip("ABCD", el, strict=True))
    techniques: list[tuple[Piece, ...]] = []
    for chunk in TEMPLATES[name].split("/"):
        pieces = []
        for tok in chunk.strip().split("+"):
            element = letters[tok[0]]
            if element == banned:
                continue
            orient = ORIENT[tok[2]]
            can_up = may_unground or element == native
            up = can_up and (variant == "high" or (variant == "high_attack" and orient == "point"))
            pieces.append(Piece(element, int(tok[1]), orient, up))
        if len(pieces) >= 2:
            techniques.append(tuple(pieces))
    if variant == "ground":
        techniques = [_stack(t) for t in techniques]
    try:
        check_build(techniques, may_unground=may_unground, specials=False, native=native, airborne=airborne)
    except BuildError:  # pragma: no cover - every template is checked by the tests
        return []
    return techniques


def _stack(tech: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """The second-largest grounded standing piece stacked on the largest: an ungrounded standing
    piece anyone may build."""
    standing = sorted(
        (i for i, p in enumerate(tech) if p.orient == "stand" and not p.up), key=lambda i: -tech[i].size
    )
    new = list(tech)
    if len(standing) >= 2:
        p = tech[standing[1]]
        new[standing[1]] = Piece(p.element, p.size, "stack")
    return tuple(new)


def candidate_texts(
    *, may_unground: bool, native: str | None = None, banned: str | None = None, airborne: bool = False
) -> list[str]:
    """The text form of every template build, without repeats, in a fixed order."""
    seen: list[str] = []
    for name, k, v in arms():
        built = realise(
            name, k, v, may_unground=may_unground, native=native, banned=banned, airborne=airborne
        )
        text = format_build(built)
        if text not in seen:
            seen.append(text)
    return seen
