"""`tengen analyze --evaluator classic` on the bundled example: it finishes with no network loaded."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tengen.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "src" / "tengen" / "data" / "example.sgf"


def test_analyze_with_the_classic_evaluator_needs_no_network(tmp_path, monkeypatch, capsys):
    import tengen.api
    import tengen.endgame.analysis
    from tengen.eval.katago import weights

    def no_network(*args, **kwargs):
        raise AssertionError("--evaluator classic must not load a network")

    monkeypatch.setenv(weights.ENV_VAR, str(tmp_path / "empty-cache"))
    monkeypatch.setattr(tengen.api, "default_evaluator", no_network)
    monkeypatch.setattr(tengen.endgame.analysis, "value_net_for", no_network)
    real = tengen.api.classic_evaluator
    monkeypatch.setattr(tengen.api, "classic_evaluator", lambda: real(life_nodes=60))  # a small budget: seconds
    out = tmp_path / "analysis.json"
    rc = main(["analyze", str(EXAMPLE), "--move", "170", "--evaluator", "classic", "--max-nodes", "4",
               "--max-total-nodes", "4", "--no-progress", "--json", str(out)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "recommended for Black" in text and "predictor kata" in text
    # the report names the evaluator that stood in for the network
    assert "classic evaluator evaluations;" in text and "the classic evaluator's own count" in text
    assert "network evaluations" not in text and "the network's own count" not in text
    report = json.loads(out.read_text())
    assert report["regions"] and not (tmp_path / "empty-cache").exists()


@pytest.mark.parametrize("flags", [["--predictor", "net"], ["--leaves", "valuenet"], ["--model", "x.bin.gz"]])
def test_flags_that_need_a_network_are_refused_in_one_line(flags, capsys):
    rc = main(["analyze", str(EXAMPLE), "--move", "170", "--evaluator", "classic", *flags])
    assert rc != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "classic" in err


def test_gtp_genmove_with_the_classic_evaluator_needs_no_network(tmp_path):
    import os
    import subprocess
    import sys

    env = dict(os.environ, TENGEN_MODEL_DIR=str(tmp_path / "empty-cache"))
    commands = "boardsize 9\nclear_board\nplay b E5\ngenmove w\nquit\n"
    done = subprocess.run([sys.executable, "-m", "tengen", "gtp", "--evaluator", "classic", "--visits", "4"],
                          input=commands, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    answers = [line for line in done.stdout.splitlines() if line.startswith("=")]
    assert len(answers) == 5 and answers[3][2:].strip() not in ("", "E5", "resign")
    assert not (tmp_path / "empty-cache").exists()
