"""Bounds on every input file, and the cheap scans that enforce them before a parser does any work.

A file-size cap alone does not bound the work of reading a file: `tomllib` is quadratic in the depth
of a dotted key (a 40 KB file of `a.a.a...` costs 1.6 GB) and recursive in nesting (1,200 levels
raise `RecursionError`), and a valid file can still describe a game that takes minutes (200
terrain pieces of 256 vertices). So every limit here is checked as early as it can be: the text
limits by a single regular-expression pass over the raw text, before `tomllib` or `json` sees it;
the content limits by the pydantic models and the loader, naming the field.

The figures are measured, not guessed (one heuristic-bot game on open_battle, median of 3 seeds on
a loaded 2-core machine): shipped files have at most 15 terrain pieces and 60 terrain vertices; 1,024
terrain vertices in 16 to 100 pieces play in 0.1-1.4 s, while 3,200 vertices took 10 s and 7,680
took 20-30 s. A game of 24 v 24 models takes 2.4 s and 30 v 30 about 4 s (shipped troupes have at
most 6 models).
"""

from __future__ import annotations

import re

from skirmish.data.errors import DataError, Problem

MAX_TOML_KEYS = 10_000
"""Keys (assignments and table headers) in one TOML file; shipped files have at most ~110."""

MAX_KEY_DEPTH = 8
"""Parts of one dotted key or table header (`a.b.c` is 3); the formats use at most 3."""

MAX_NESTING = 16
"""Tables, arrays and inline tables nested in one another (TOML or JSON); the formats use at most 6."""

MAX_JSON_NESTING = 64
"""Nesting in a JSON file (replays and saves nest deeper than data files: an action's path)."""

MAX_MODELS_PER_TROUPE = 30
"""Models in one troupe after counts expand (a 30 v 30 game takes about 4 s)."""

MAX_MODELS_PER_GAME = 60
"""Models on the table in one game, all sides together."""

MAX_TERRAIN_PIECES = 64
"""Terrain pieces in one scenario (shipped: at most 15)."""

MAX_TERRAIN_VERTICES = 1024
"""Polygon vertices of all terrain pieces together: the cost of paths, sight and cover grows with it."""

MAX_ZONE_VERTICES = 1024
"""Polygon vertices of all deployment and scoring zones together."""

MAX_REPLAY_ACTIONS = 50_000
"""Actions in one replay: no game a bot plays takes more (`skirmish.bots.runner.MAX_ACTIONS`)."""


# TOML tokens that matter for counting: strings (skipped whole), comments, brackets, `=`, `.`, `,`
# and newlines. Everything else (bare keys, numbers, dates, whitespace) is skipped by `finditer`.
_TOML_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""'
    r"|'''.*?'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[\[\]{}=.,\n]",
    re.DOTALL,
)

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:]')


def _refuse(name: str, message: str) -> DataError:
    return DataError([Problem(name, "", message)])


def check_toml_text(
    text: str,
    name: str,
    *,
    max_keys: int = MAX_TOML_KEYS,
    max_key_depth: int = MAX_KEY_DEPTH,
    max_nesting: int = MAX_NESTING,
) -> None:
    """Refuse a TOML text with too many keys, too deep a dotted key or too deep a nesting.

    One linear pass over the tokens that give TOML its structure, so the refusal costs milliseconds
    however the file is built. The scan may over-count in a file that is not valid TOML (it does
    not parse), never under-count in one that is: it sees every key `tomllib` would see.
    """
    keys = 0
    stack: list[str] = []  # open `[` (array) and `{` (inline table) of the value being read
    header_depth = 0  # parts of the current `[table]` header
    in_key = True  # reading a key: at a line start outside brackets, or after `{` / `,` in `{...}`
    in_header = False
    header_brackets = 0
    dots = 0
    for m in _TOML_TOKENS.finditer(text):
        tok = m.group()
        c = tok[0]
        if c in "\"'#":
            continue
        if c == "\n":
            if not stack:
                in_key, in_header, dots = True, False, 0
            continue
        if in_header:
            if c == ".":
                dots += 1
            elif c == "[":
                header_brackets += 1
                if header_brackets > 2:  # not a header (`[[[`): count it as nesting, as tomllib would
                    in_header, in_key = False, False
                    stack.extend("[" * header_brackets)
            elif c == "]":
                in_header = False
                header_depth = dots + 1
                keys += 1
                if header_depth > max_key_depth:
                    raise _refuse(
                        name, f"a table header has {header_depth} dotted parts (at most {max_key_depth})"
                    )
            continue
        if in_key:
            if c == ".":
                dots += 1
                continue
            if c == "=":
                keys += 1
                if keys > max_keys:
                    raise _refuse(name, f"has more than {max_keys:,} keys; data files are far smaller")
                depth = dots + 1
                if depth > max_key_depth:
                    raise _refuse(name, f"a dotted key has {depth} parts (at most {max_key_depth})")
                if header_depth + depth + len(stack) > max_nesting:
                    raise _refuse(name, f"is nested more than {max_nesting} levels deep")
                in_key, dots = False, 0
                continue
            if c == "[" and not stack:
                in_header, dots, header_brackets = True, 0, 1
                continue
        if c in "[{":
            stack.append(c)
            if header_depth + len(stack) > max_nesting:
                raise _refuse(name, f"is nested more than {max_nesting} levels deep")
            in_key, dots = c == "{", 0
        elif c in "]}":
            if stack:
                stack.pop()
            in_key = False
        elif c == "," and stack and stack[-1] == "{":
            in_key, dots = True, 0
    if keys > max_keys:
        raise _refuse(name, f"has more than {max_keys:,} keys; data files are far smaller")


def check_json_text(
    text: str, name: str, *, max_nesting: int = MAX_JSON_NESTING, max_keys: int | None = None
) -> None:
    """Refuse a JSON text nested deeper than `max_nesting` (or with more than `max_keys` keys).

    For replays, campaign saves and any JSON a command reads: `json.loads` recurses once per level
    and pydantic after it, so a file of 100,000 `[` must be refused before either sees it.
    """
    depth = 0
    keys = 0
    for m in _JSON_TOKENS.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            if depth > max_nesting:
                raise _refuse(name, f"is nested more than {max_nesting} levels deep")
        elif c in "]}":
            depth -= 1
        elif c == ":" and max_keys is not None:
            keys += 1
            if keys > max_keys:
                raise _refuse(name, f"has more than {max_keys:,} keys")
