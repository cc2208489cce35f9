"""The layer map of docs/ARCHITECTURE.md, enforced: import-linter checks the contracts in pyproject.toml
(function-local imports included) on every run of the default suite."""
from __future__ import annotations

from importlinter.cli import lint_imports

from datapaths import REPO


def test_every_import_keeps_to_the_layer_map(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    status = lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert "Contracts: 6 kept, 0 broken." in report
    assert status == 0, report


def _structure():
    import importlib.util

    spec = importlib.util.spec_from_file_location("structure", REPO / "tools" / "structure.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_import_circle_even_through_function_local_imports(capsys):
    assert _structure().main([]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "circles: 0"


def test_the_structure_check_finds_a_circle_hidden_in_a_function(tmp_path, capsys):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import g\n\ndef f():\n    return g()\n")
    (package / "b.py").write_text("def g():\n    from pkg import a  # local: no ImportError, still a circle\n    return a\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import d\n")
    (package / "d.py").write_text("from pkg import c\n")
    _structure().main(["--root", str(package)])
    out = capsys.readouterr().out.splitlines()
    assert "  2 modules: pkg.a, pkg.b" in out and out[-1] == "circles: 1"  # c -> d for annotations only: no circle
