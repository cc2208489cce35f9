"""The web API (tengen.web.app) through FastAPI's TestClient, on the stand-in network: records in (paste,
upload, a path under the folder), stepping, evaluation, influence, analysis jobs with SSE progress,
cancellation, time limits and the queue bound, and every bad input answered by a JSON error with a 4xx."""
from __future__ import annotations

import json
import os
import threading
import time

import pytest
from conftest import OFFLINE_REASON, ONE_DAME_SGF, CurveStandIn, offline_network, wait_final

from fastapi.testclient import TestClient  # noqa: E402  (conftest skips the module without fastapi)

from tengen.web.app import create_app
from tengen.web.files import MAX_RECORD_BYTES


class GatedStandIn(CurveStandIn):
    """The stand-in that waits at each evaluation until `gate` opens: a slow analysis to cancel or time out."""

    def __init__(self):
        super().__init__()
        self.gate = threading.Event()
        self.waiting = threading.Event()

    def evaluate(self, boards, **kwargs):
        self.waiting.set()
        self.gate.wait()
        return super().evaluate(boards, **kwargs)


@pytest.fixture
def client(standin, tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "one_dame.sgf").write_text(ONE_DAME_SGF)
    with TestClient(create_app(folder=str(tmp_path / "games"), evaluator=standin)) as c:
        yield c


def open_record(client) -> dict:
    r = client.post("/api/records/paste", json={"sgf": ONE_DAME_SGF})
    assert r.status_code == 200, r.text
    return r.json()


def assert_error(r, status: int) -> str:
    """A JSON error object with the status, one line, no traceback."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "status"} and body["status"] == status
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return body["error"]


def test_open_pasted_record_lists_moves_and_variations(client):
    rec = open_record(client)
    assert (rec["width"], rec["height"], rec["komi"]) == (5, 5, 0)
    assert [(m["color"], m["vertex"]) for m in rec["moves"]] == [("B", "C4"), ("W", "pass")]
    assert rec["variations"] == [{"at_move": 0, "moves": ["W C4"]}]
    assert client.get(f"/api/records/{rec['id']}").json()["moves"] == rec["moves"]


def test_upload_and_open_by_path(client):
    r = client.post("/api/records/upload", content=ONE_DAME_SGF.encode(), headers={"X-Filename": "a.sgf"})
    assert r.status_code == 200 and r.json()["source"] == "a.sgf"
    assert client.get("/api/files").json()["files"] == ["one_dame.sgf"]
    r = client.post("/api/records/open", json={"path": "one_dame.sgf"})
    assert r.status_code == 200 and len(r.json()["moves"]) == 2


def test_paths_outside_the_folder_are_refused(client, tmp_path):
    (tmp_path / "secret.sgf").write_text(ONE_DAME_SGF)
    os.symlink(tmp_path / "secret.sgf", tmp_path / "games" / "link.sgf")
    for path in ("../secret.sgf", str(tmp_path / "secret.sgf"), "link.sgf", "~/x.sgf", "a/../../secret.sgf",
                 "missing.sgf", ".", "bad\x00name"):
        message = assert_error(client.post("/api/records/open", json={"path": path}), 400)
        assert "GM[1]" not in message  # refused before anything is read
    with TestClient(create_app(evaluator=CurveStandIn())) as no_folder:
        assert "no folder" in assert_error(no_folder.post("/api/records/open", json={"path": "x.sgf"}), 400)
        assert no_folder.get("/api/files").json() == {"folder": None, "files": [], "total": 0, "offset": 0,
                                                      "search": "", "complete": True}


def test_size_limits(client):
    big = b"(;SZ[19]C[" + b"x" * MAX_RECORD_BYTES + b"])"
    assert_error(client.post("/api/records/upload", content=big), 413)
    assert_error(client.post("/api/records/upload", content=b""), 400)
    assert_error(client.post("/api/records/paste", json={"sgf": big.decode()}), 422)
    assert_error(client.post("/api/position", json={"record": "x", "line": ["B A1"] * 401}), 422)
    assert_error(client.post("/api/analyses", json={"record": "x", "max_nodes": 10**6}), 422)
    assert_error(client.post("/api/analyses", json={"record": "x", "time_limit_s": 10**6}), 422)


def test_step_through_the_record_and_play_a_line(client):
    rid = open_record(client)["id"]
    p0 = client.post("/api/position", json={"record": rid, "move": 0}).json()
    assert p0["to_play"] == "B" and p0["last_move"] is None and p0["stones"][1][2] == 0
    p1 = client.post("/api/position", json={"record": rid, "move": 1}).json()
    assert p1["stones"][1][2] == 1 and p1["last_move"] == "C4" and p1["to_play"] == "W"
    end = client.post("/api/position", json={"record": rid}).json()
    assert end["move"] == 2 and end["last_move"] == "pass"
    line = client.post("/api/position", json={"record": rid, "move": 0, "line": ["W C4"]}).json()
    assert line["stones"][1][2] == -1 and line["last_move"] == "C4"
    assert "out of range" in assert_error(client.post("/api/position", json={"record": rid, "move": 3}), 400)
    assert_error(client.post("/api/position", json={"record": rid, "move": 0, "line": ["B A5"]}), 400)  # occupied
    assert_error(client.post("/api/position", json={"record": rid, "line": ["B Z99"]}), 400)
    assert_error(client.post("/api/position", json={"record": rid, "line": ["nonsense"]}), 400)
    assert_error(client.post("/api/position", json={"record": rid, "move": -1}), 422)


def test_evaluate_and_influence(client):
    rid = open_record(client)["id"]
    ev = client.post("/api/evaluate", json={"record": rid, "move": 0}).json()
    assert len(ev["ownership"]) == 5 and ev["ownership"][0][0] == 1.0 and ev["ownership"][0][4] == -1.0
    assert len(ev["winrate_by_komi"]) == 41 and ev["policy_best"] == "C4"
    assert ev["winrate_by_komi"][0][1] > ev["winrate_by_komi"][-1][1]  # more komi, less for Black
    for model in ("zobrist", "bouzy", "cross"):
        inf = client.post(f"/api/influence/{model}", json={"record": rid, "move": 0}).json()
        assert inf["influence"][0][0] > 0 > inf["influence"][0][3] and len(inf["territory"]) == 5
    assert_error(client.post("/api/influence/nope", json={"record": rid}), 404)


def test_analysis_job_streams_progress_and_matches_the_cli_json(client, standin):
    rid = open_record(client)["id"]
    started = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata"})
    assert started.status_code == 202
    job_id = started.json()["id"]
    events = []
    with client.stream("GET", f"/api/analyses/{job_id}/events") as stream:
        name = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
    assert events[-1][0] == "end" and events[-1][1]["status"] == "done"
    assert any(e[1]["stage"] == "region" and e[1]["total"] == 1 for e in events)
    report = client.get(f"/api/analyses/{job_id}/result").json()
    # the same JSON `tengen analyze --json` writes for the same settings (timings aside)
    from tengen.api import analyze
    from tengen.go.sgf import load_game_bytes
    from tengen.io.report import _strict, json_report

    board = load_game_bytes(ONE_DAME_SGF.encode()).board_at(0)
    expected = _strict(json_report(analyze(board, evaluator=CurveStandIn(), predictor="kata")))
    for data in (report, expected):
        data.pop("seconds")
        data.pop("phases")  # wall-clock seconds by phase, like "seconds"
        for r in data["regions"]:
            r.pop("seconds")
    assert report == expected
    assert report["recommended"] == "C4" and [r["points"] for r in report["regions"]] == [["C4"]]
    th = client.get(f"/api/analyses/{job_id}/regions/A/thermograph").json()
    assert (th["kind"], th["mean"], th["temperature"]) == ("gote", 0.0, 1.0)
    assert th["left"][0] == [0.0, 1.0] and th["right"][0] == [0.0, -1.0]
    tree = client.get(f"/api/analyses/{job_id}/regions/A/tree").json()["tree"]
    assert set(tree["children"]) == {"B C4", "W C4"}
    rec = client.get(f"/api/analyses/{job_id}/recommended").json()
    assert rec == {"color": "B", "move": "C4", "reason": report["recommended_reason"]}
    assert_error(client.get(f"/api/analyses/{job_id}/regions/Z/tree"), 404)


def test_cancel_a_running_analysis(tmp_path):
    gated = GatedStandIn()
    with TestClient(create_app(evaluator=gated, workers=1)) as client:
        rid = open_record(client)["id"]
        job_id = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata"}).json()["id"]
        gated.waiting.wait()
        assert_error(client.get(f"/api/analyses/{job_id}/result"), 409)
        assert client.delete(f"/api/analyses/{job_id}").status_code == 200
        gated.gate.set()
        job = wait_final(client, job_id)
        assert job["status"] == "cancelled" and job["error"] == "cancelled"
        assert "cancelled" in assert_error(client.get(f"/api/analyses/{job_id}/result"), 409)


def test_time_limit_stops_an_analysis():
    gated = GatedStandIn()
    with TestClient(create_app(evaluator=gated, workers=1)) as client:
        rid = open_record(client)["id"]
        job_id = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata",
                                                    "time_limit_s": 0.2}).json()["id"]
        gated.waiting.wait()
        time.sleep(0.3)
        gated.gate.set()
        job = wait_final(client, job_id)
        assert job["status"] == "cancelled" and "time limit" in job["error"]


def test_queue_limit_refuses_with_429_and_recovers():
    gated = GatedStandIn()
    with TestClient(create_app(evaluator=gated, workers=1, queue_limit=1)) as client:
        rid = open_record(client)["id"]
        body = {"record": rid, "move": 0, "predictor": "kata"}
        first = client.post("/api/analyses", json=body).json()["id"]
        second = client.post("/api/analyses", json=body).json()["id"]
        assert "queue is full" in assert_error(client.post("/api/analyses", json=body), 429)
        assert client.delete(f"/api/analyses/{second}").json()["id"] == second  # a queued job never starts
        gated.gate.set()
        assert wait_final(client, first)["status"] == "done"
        assert wait_final(client, second)["status"] == "cancelled"
        third = client.post("/api/analyses", json=body)
        assert third.status_code == 202 and wait_final(client, third.json()["id"])["status"] == "done"


def test_cancelled_jobs_free_their_places_in_the_queue_at_once():
    gated = GatedStandIn()
    with TestClient(create_app(evaluator=gated, workers=2, queue_limit=4)) as client:
        rid = open_record(client)["id"]
        body = {"record": rid, "move": 0, "predictor": "kata"}
        ids = [client.post("/api/analyses", json=body).json()["id"] for _ in range(6)]  # two running, four queued
        gated.waiting.wait()
        while sum(client.get(f"/api/analyses/{i}").json()["status"] == "running" for i in ids) < 2:
            time.sleep(0.01)  # no deadline: on a loaded machine this may take long (pytest-timeout guards a hang)
        assert "queue is full" in assert_error(client.post("/api/analyses", json=body), 429)
        answers = {i: client.delete(f"/api/analyses/{i}").json()["status"] for i in ids}
        assert sorted(answers.values()) == ["cancelled"] * 4 + ["running"] * 2  # the running ones stop at their next check
        queued = [i for i in ids if answers[i] == "cancelled"]
        assert all(client.get(f"/api/analyses/{i}").json()["status"] == "cancelled" for i in queued)
        fresh = [client.post("/api/analyses", json=body) for _ in range(6)]  # every place is free again, still gated
        assert [r.status_code for r in fresh] == [202] * 6, fresh[-1].text
        assert "queue is full" in assert_error(client.post("/api/analyses", json=body), 429)
        gated.gate.set()
        assert all(wait_final(client, i)["status"] == "cancelled" for i in ids)
        assert all(wait_final(client, r.json()["id"])["status"] == "done" for r in fresh)


def test_evaluations_beyond_the_limit_are_refused_with_429():
    gated = GatedStandIn()
    app = create_app(evaluator=gated, workers=1, queue_limit=1)
    with TestClient(app) as client:
        rid = open_record(client)["id"]
        answers: list = []
        threads = [threading.Thread(target=lambda: answers.append(client.post("/api/evaluate", json={"record": rid})))
                   for _ in range(2)]  # queue limit 1: one evaluation running and one waiting are allowed
        for t in threads:
            t.start()
        gated.waiting.wait()
        while app.state.evaluations_in_flight() < 2:
            time.sleep(0.01)  # until the second request holds its slot (waiting for the network)
        assert app.state.evaluations_in_flight() == 2
        assert "too many evaluations" in assert_error(client.post("/api/evaluate", json={"record": rid}), 429)
        gated.gate.set()
        for t in threads:
            t.join()
        assert [a.status_code for a in answers] == [200, 200]
        assert client.post("/api/evaluate", json={"record": rid}).status_code == 200  # slots given back


def test_bad_inputs_are_json_errors(client):
    rid = open_record(client)["id"]
    assert_error(client.post("/api/records/paste", json={"sgf": "(;SZ[99])"}), 400)
    assert_error(client.post("/api/records/paste", json={"sgf": "not sgf at all"}), 400)
    assert_error(client.post("/api/records/paste", content=b"{not json", headers={"Content-Type": "application/json"}), 422)
    assert_error(client.post("/api/records/paste", json={"sgf": 5}), 422)
    assert_error(client.post("/api/records/paste", json={"sgf": "(;)", "extra": 1}), 422)
    assert_error(client.post("/api/records/upload", content=b"\xff\xfe\x00garbage"), 400)
    assert_error(client.post("/api/position", json={"record": "nope"}), 404)
    assert_error(client.post("/api/evaluate", json={"record": rid, "move": "x"}), 422)
    assert_error(client.post("/api/analyses", json={"record": rid, "predictor": "magic"}), 422)
    assert_error(client.post("/api/analyses", json={"record": rid, "predictor": "exhaustive"}), 400)
    assert_error(client.post("/api/analyses", json={"record": rid, "region": "Q99"}), 400)
    for path in ("/api/analyses/nope", "/api/analyses/nope/result", "/api/analyses/nope/events",
                 "/api/analyses/nope/recommended", "/api/analyses/nope/regions/A/thermograph", "/api/nothing"):
        assert_error(client.get(path), 404)
    assert_error(client.delete("/api/analyses/nope"), 404)
    assert_error(client.put("/api/position", json={}), 405)


def test_page_and_vendored_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "importmap" in page.text and "/static/app.js" in page.text
    for path in ("/static/app.js", "/static/style.css", "/static/vendor/shudan/src/main.js",
                 "/static/vendor/preact/preact.module.js", "/static/vendor/preact/hooks/hooks.module.js",
                 "/static/vendor/classnames/esm.js", "/static/vendor/shudan/LICENSE"):
        assert client.get(path).status_code == 200, path
    assert_error(client.get("/static/../app.py"), 404)
    assert client.get("/openapi.json").json()["info"]["title"] == "tengen"


def test_serve_command_checks_its_flags(tmp_path, capsys):
    from tengen.cli import main

    assert main(["serve", "--port", "0"]) == 2
    assert main(["serve", "--folder", str(tmp_path / "missing")]) == 2
    assert main(["serve", "--model", str(tmp_path / "none.bin.gz")]) == 2
    err = capsys.readouterr().err
    assert "--port" in err and "not a directory" in err and "no such model file" in err


def test_a_pages_newer_evaluation_supersedes_its_older_one_waiting_for_the_network():
    from concurrent.futures import ThreadPoolExecutor

    gated = GatedStandIn()
    with TestClient(create_app(evaluator=gated, workers=1)) as client, ThreadPoolExecutor(4) as pool:
        rid = open_record(client)["id"]

        def ask(move: int, page: str = "p1"):
            return pool.submit(lambda: client.post("/api/evaluate", json={"record": rid, "move": move,
                                                                          "client": page}).json())

        running = ask(0)
        gated.waiting.wait()  # move 0 holds the network
        waiting = ask(1)
        time.sleep(0.2)
        other_page = ask(1, "p2")
        time.sleep(0.2)
        newest = ask(2)
        superseded = waiting.result(10)  # answered at once, the network still busy with move 0
        assert superseded["superseded"] is True and superseded["move"] == 1 and superseded["ownership"] == []
        gated.gate.set()
        first, last, theirs = running.result(20), newest.result(20), other_page.result(20)
        assert (first["move"], first["superseded"]) == (0, False)  # it had started: answered, named as move 0
        assert (last["move"], last["superseded"]) == (2, False) and len(last["ownership"]) == 5
        assert (theirs["move"], theirs["superseded"]) == (1, False)  # another page's request is its own


def test_a_critical_group_is_said_in_the_analysis_report(tmp_path):
    from standin_networks import LIBERTY_CRITICAL, LibertyNetwork
    from conftest import sgf_from_diagram

    sgf = sgf_from_diagram(LIBERTY_CRITICAL, ["B A1"])  # Black to play, one move in the record
    with TestClient(create_app(folder=str(tmp_path), evaluator=LibertyNetwork())) as client:
        rid = client.post("/api/records/paste", json={"sgf": sgf}).json()["id"]
        job = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata", "leaves": "network",
                                                 "max_nodes": 50, "max_total_nodes": 60}).json()
        assert wait_final(client, job["id"])["status"] == "done"
        report = client.get(f"/api/analyses/{job['id']}/result").json()
    groups = report["critical_groups"]
    assert [(g["stone"], g["color"], g["attack"]) for g in groups] == [("C4", "B", "B4")]
    assert any(groups[0]["note"] in r["notes"] for r in report["regions"])  # the table's row says it
    assert report["settings"]["life_groups"] == 2


# the textbook ko of tests/endgame/test_diagram_conventions.py at the foot of an 8x8 board (Black's E1 takes,
# White's retake is banned): the exact solver values the marked region C1-F1 by the phantom rule and gives
# no game, only its thermograph
KO_SGF = ("(;GM[1]FF[4]SZ[8]KM[0]RU[Chinese]AB[af][bf][cf][df][dg][ch]AW[ef][ff][gf][hf][eg][dh][fh]PL[B])")


def test_the_thermograph_of_a_ko_region_is_served(client):
    rid = client.post("/api/records/paste", json={"sgf": KO_SGF}).json()["id"]
    job = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "exhaustive",
                                             "region": "C1 D1 E1 F1"}).json()
    assert wait_final(client, job["id"])["status"] == "done"
    r = client.get(f"/api/analyses/{job['id']}/regions/A/thermograph")
    assert r.status_code == 200, r.text
    th = r.json()
    assert (th["kind"], th["mean"], th["temperature"]) == ("ko", pytest.approx(-2 / 3), pytest.approx(4 / 3))
    assert th["right"][0] == [0.0, -2.0] and th["left"] and not th["left_infinite"]
    from tengen.endgame.regions import Region
    from tengen.endgame.results import RegionResult

    no_region = Region(0, frozenset({(0, 0)}))
    assert RegionResult(no_region, game=None).thermograph is None  # the route's 404: no thermograph
    assert RegionResult(no_region, game="{1|0}").thermograph is None


def test_a_server_whose_network_cannot_load_says_why_with_503():
    """Offline and no cached model: the evaluation answers 503 with the loader's reason (not a 500), and an
    analysis job that needs the network fails with the same reason."""
    with TestClient(create_app(evaluator_factory=offline_network)) as client:
        rid = client.post("/api/records/paste", json={"sgf": ONE_DAME_SGF}).json()["id"]
        why = assert_error(client.post("/api/evaluate", json={"record": rid, "move": 0}), 503)
        assert why == f"no network is loaded: {OFFLINE_REASON}"
        job = client.post("/api/analyses", json={"record": rid, "predictor": "kata"}).json()
        final = wait_final(client, job["id"])
        assert final["status"] == "failed" and "no network is loaded: could not download" in final["error"]
