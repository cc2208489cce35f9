"""The layer map of docs/ARCHITECTURE.md, enforced: import-linter checks the contracts in pyproject.toml
(function-local imports included) on every run of the default suite."""
from __future__ import annotations

from importlinter.cli import lint_imports

from datapaths import REPO


def test_every_import_keeps_to_the_layer_map(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    status = lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert "Contracts: 2 kept, 0 broken." in report
    assert status == 0, report
