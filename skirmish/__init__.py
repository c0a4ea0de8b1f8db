"""Skirmish: a rules engine for *Avatar: Battles in the Four Kingdoms*.

`__version__` is the one version source: the build reads it (`[tool.setuptools.dynamic]`) and
`skirmish --version` prints it, so the two cannot disagree.
"""

__version__ = "0.2.0"
DISTRIBUTION = "skirmish-four-kingdoms"
"""The name on PyPI (`skirmish` there is another project); the import name and command stay `skirmish`."""


def install_hint(extra: str) -> str:
    """How to install an optional extra: `pip install 'skirmish-four-kingdoms[plot]'` (never
    `skirmish[...]`, which would fetch the other project)."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"
