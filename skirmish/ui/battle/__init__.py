"""The battle screen: the scene (`scene.py`) around the headless controller (`skirmish.ui.control`),
its input modes (`modes.py`), its key table (`keys.py`) and its views (`banner.py`, `overlays.py`,
`sight.py`, `toast_view.py`)."""

from skirmish.ui.battle.scene import BattleScene, DeployScene
from skirmish.ui.control.battle import SPEEDS
from skirmish.ui.control.saves import SAVE_NAME, save_path

__all__ = ["SAVE_NAME", "SPEEDS", "BattleScene", "DeployScene", "save_path"]
