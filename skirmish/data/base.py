"""The strict base every data file model shares.

Frozen so a loaded troupe or scenario can be shared between games without copies, and
`extra="forbid"` so a misspelt key in a hand-written TOML file is an error, not a silent default.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

from skirmish.data.text import UNPRINTABLE, UNPRINTABLE_IN_TEXT

Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$"),
]
"""An identifier other files and commands refer to: letters, digits, `_` and `-`, no spaces."""


def _no_control(pattern: re.Pattern[str]) -> AfterValidator:
    """Refuse control characters: `play`, `list` and the window print titles and rules text as
    they are, so an escape sequence in a file would repaint a player's terminal and a line break
    in a title would split a one-line listing."""

    def check(text: str) -> str:
        found = pattern.search(text)
        if found is not None:
            code, at = ord(found.group()), found.start() + 1
            raise ValueError(f"must not contain control characters (U+{code:04X} at character {at})")
        return text

    return AfterValidator(check)


Title = Annotated[str, StringConstraints(min_length=1, max_length=120), _no_control(UNPRINTABLE)]
"""A name shown to players: one line, no control characters (`UNPRINTABLE`)."""
Text = Annotated[str, StringConstraints(max_length=4000), _no_control(UNPRINTABLE_IN_TEXT)]
"""Rules or flavour text: line breaks and tabs allowed, other control characters not."""


class Strict(BaseModel):
    """Base for every file model: frozen, no unknown keys, no coercion of strings to numbers."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=False, str_strip_whitespace=True)


Save = Annotated[int, Field(ge=2, le=6, description="The D6 score needed to save, e.g. 5 for 5+.")]


FIELD_ERROR = "skirmish_field"
"""The pydantic error type of `field_error`: the loader appends the error's `field` to its location."""


def field_error(field: str, message: str) -> PydanticCustomError:
    """A model-level check's error that names the field it is about (`models[2].profile.name`).

    A `model_validator` error is located at the model itself; raising this instead lets the loader
    report the exact field inside it, so a problem still names the file and the field.
    """
    return PydanticCustomError(FIELD_ERROR, "{message}", {"field": field, "message": message})
