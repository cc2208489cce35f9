"""One position through every front end with its defaults gets one answer: the CLI, the library, a batch
job's chunk, GTP (`tengen-endgame json`), KataGo's JSON protocol (`tengenEndgame`) and the web API. The
network is the stand-in (one dame-like region on a 5x5 board), handed to each front end the way it takes
an evaluator; nothing else is set, so each runs on `AnalysisOptions()` as a user's would.
(`bench/front_ends.py` does the same with the real network, each front end loading it itself.)"""
from __future__ import annotations

import io
import json
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from standin_networks import ONE_DAME, StandInNetwork  # noqa: E402
from tengen.endgame.options import DEFAULT_MAX_NODES, DEFAULT_MAX_TOTAL_NODES, AnalysisOptions  # noqa: E402
from tengen.io.report import report_answer, strict_json_report  # noqa: E402

SIZE = 5


def one_dame_sgf() -> str:
    """The ONE_DAME diagram as setup stones, Black to play, Chinese rules stated (komi 0.5)."""
    stones = {"X": [], "O": []}
    for r, row in enumerate(ONE_DAME.strip().splitlines()):
        for c, cell in enumerate(row.split()):
            if cell in stones:
                stones[cell].append("abcde"[c] + "abcde"[r])
    ab = "".join(f"[{p}]" for p in stones["X"])
    aw = "".join(f"[{p}]" for p in stones["O"])
    return f"(;GM[1]FF[4]SZ[{SIZE}]KM[0.5]RU[Chinese]PL[B]AB{ab}AW{aw})"


@pytest.fixture
def record(tmp_path) -> Path:
    path = tmp_path / "one_dame.sgf"
    path.write_text(one_dame_sgf())
    return path


def cli(path: Path, network, tmp_path: Path, monkeypatch) -> dict:
    import tengen.api
    from tengen.cli import main

    monkeypatch.setattr(tengen.api, "default_evaluator", lambda model=None, device="cpu": network)
    out = tmp_path / "cli.json"
    assert main(["analyze", str(path), "--json", str(out), "--no-progress"]) == 0
    return json.loads(out.read_text())


def library(path: Path, network, tmp_path: Path, monkeypatch) -> dict:
    from tengen.api import analyze

    return strict_json_report(analyze(path, evaluator=network))


def batch(path: Path, network, tmp_path: Path, monkeypatch) -> dict:
    from tengen.batch.compute import compute_chunk

    task = {"file_id": "f", "source": path.name, "data": path.read_bytes(), "turns": [0],
            "settings": {"what": "endgame", "maps": False, "model": None, "visits": 1}}
    [unit] = compute_chunk(task, network)
    return unit["result"]


def gtp(path: Path, network, tmp_path: Path, monkeypatch) -> dict:
    from tengen.io.engines import gtp_engine

    engine = gtp_engine(size=SIZE, load_evaluator=lambda: network)
    assert engine.handle(f"loadsgf {path}").startswith("=")
    reply = engine.handle("tengen-endgame json")
    assert reply.startswith("= {"), reply
    return json.loads(reply[2:])


def json_protocol(path: Path, network, tmp_path: Path, monkeypatch) -> dict:
    from tengen.io.analysis_engine import AnalysisEngine, EngineSettings

    stones = [["B" if cell == "X" else "W", "ABCDE"[c] + str(SIZE - r)]
              for r, row in enumerate(ONE_DAME.strip().splitlines()) for c, cell in enumerate(row.split())
              if cell in "XO"]
    out = io.StringIO()
    engine = AnalysisEngine(lambda: network, out, EngineSettings(batch_size=4, root_symmetries=1, default_visits=4))
    engine.handle_line(json.dumps({"id": "q", "initialStones": stones, "moves": [], "rules": "chinese", "komi": 0.5,
                                   "boardXSize": SIZE, "boardYSize": SIZE, "initialPlayer": "B",
                                   "tengenEndgame": True}))
    engine.run_pending()
    [final] = [json.loads(line) for line in out.getvalue().splitlines() if "tengenEndgame" in line]
    return final["tengenEndgame"]


def web(path: Path, network, tmp_path: Path, monkeypatch) -> dict:
    from fastapi.testclient import TestClient

    from tengen.web.app import create_app

    with TestClient(create_app(evaluator=network)) as client:
        record = client.post("/api/records/paste", json={"sgf": path.read_text()}).json()["id"]
        job = client.post("/api/analyses", json={"record": record}).json()
        for _ in range(600):
            if job["status"] not in ("queued", "running"):
                break
            time.sleep(0.05)
            job = client.get(f"/api/analyses/{job['id']}").json()
        assert job["status"] == "done", job
        return client.get(f"/api/analyses/{job['id']}/result").json()


FRONT_ENDS = [cli, library, batch, gtp, json_protocol, web]


def test_every_front_end_gives_the_librarys_answer(record, tmp_path, monkeypatch):
    network = StandInNetwork()
    answers = {run.__name__: report_answer(run(record, network, tmp_path, monkeypatch)) for run in FRONT_ENDS}
    anchor = answers["library"]
    assert anchor["regions"] and anchor["recommended"] == "C4"  # the one dame region, valued: a real answer
    assert {name: answer for name, answer in answers.items() if answer != anchor} == {}


def test_reports_state_the_resolved_settings_and_rules(record, tmp_path, monkeypatch):
    network = StandInNetwork()
    report = library(record, network, tmp_path, monkeypatch)
    assert report["settings"] == {**AnalysisOptions().resolved(network).summary(), "device": "cpu"}
    assert report["settings"]["leaves"] in ("valuenet", "network")  # `auto` never reaches a report
    assert report["rules"] == {"name": "chinese", "scoring": "area"}
    assert cli(record, network, tmp_path, monkeypatch)["settings"] == report["settings"]


def test_the_web_pages_default_budget_is_the_clis():
    from tengen.web.schemas import AnalysisIn

    fields = AnalysisIn.model_fields
    assert (fields["max_nodes"].default, fields["max_total_nodes"].default) == (DEFAULT_MAX_NODES,
                                                                                DEFAULT_MAX_TOTAL_NODES)
    script = (Path(__file__).resolve().parents[1] / "src/tengen/web/static/app.js").read_text()
    default = re.search(r"default: \{ max_nodes: (\d+), max_total_nodes: (\d+) \}", script)
    assert default and (int(default[1]), int(default[2])) == (DEFAULT_MAX_NODES, DEFAULT_MAX_TOTAL_NODES)
    assert 'useState("default")' in script  # the page starts on the CLI's budgets
