"""Which characters a terminal cannot show as they are: one definition for the data files' checks
(`Title`, `Text`) and the command line's escaping (`cli.errors.printable`), so a title the files
accept is never one the command line would have to escape."""

from __future__ import annotations

import re

_BREAKING = r"\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"

UNPRINTABLE = re.compile(rf"[\x00-\x1f{_BREAKING}]")
"""A control character (C0, DEL, C1), a line or paragraph separator, or a bidirectional override
or isolate: characters that break a line or rearrange what a terminal shows."""

UNPRINTABLE_IN_TEXT = re.compile(rf"[\x00-\x08\x0b\x0c\x0e-\x1f{_BREAKING}]")
"""The same, less the tab and line breaks (`\\t`, `\\n`, `\\r`) that rules text may hold."""
