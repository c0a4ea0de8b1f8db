"""Round-8 audit: an extra's install hint names the distribution users install, not another project's.

`pip install 'skirmish[plot]'` asks PyPI for `skirmish`, which is someone else's project (its wheel
also installs a top-level `skirmish` package, README "Install it as a program"): following the hint
would break the install. The hints must name `skirmish-four-kingdoms`.
"""

from __future__ import annotations

import builtins
import re
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

import skirmish
from skirmish import DISTRIBUTION

ROOT = Path(skirmish.__file__).parent


def _block_import(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Make `import NAME` (and its submodules) fail as if the extra were not installed."""
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in names:
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


def test_plot_hint_names_the_distribution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _block_import(monkeypatch, "matplotlib")
    argv = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "1"]
    code, _out, err = run([*argv, "--plot", str(tmp_path / "p.png")], capsys)
    assert code == 2
    assert f"pip install '{DISTRIBUTION}[plot]'" in err
    assert "'skirmish[" not in err


def test_plot_module_hint_names_the_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmish.sim import plots

    _block_import(monkeypatch, "matplotlib")
    with pytest.raises(plots.PlotUnavailable, match=re.escape(f"{DISTRIBUTION}[plot]")):
        plots._pyplot()


def test_dask_hint_names_the_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmish.sim import executors

    _block_import(monkeypatch, "distributed", "dask")
    hint = re.escape(f"{DISTRIBUTION}[dask]")
    with pytest.raises(executors.ExecutorUnavailable, match=hint), executors.make_executor("dask", 1):
        pass


def test_rl_hint_names_the_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import skirmish.rl

    monkeypatch.delitem(sys.modules, "skirmish.rl.env", raising=False)
    for name in ("pettingzoo", "gymnasium"):  # None in sys.modules: `import` fails as if absent
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=re.escape(f"pip install '{DISTRIBUTION}[rl]'")):
        skirmish.rl.__getattr__("env")


def test_no_hint_anywhere_names_the_other_project() -> None:
    """No source file, doc or the README says `pip install 'skirmish[...]'`."""
    docs = ROOT.parent / "docs"
    files = sorted(ROOT.rglob("*.py")) + sorted(docs.glob("*.md")) + [ROOT.parent / "README.md"]
    found = [
        f"{path.name}:{n}"
        for path in files
        if path.exists()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"pip install '?skirmish\[", line)
    ]
    assert found == []
