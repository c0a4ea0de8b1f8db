"""The ui layer (see docs/design.md and docs/ui.md): pygame-ce scenes, board drawing, snapshots."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
