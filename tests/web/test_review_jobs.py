"""Game reviews through the web API (POST /api/reviews and its job routes) on the stand-in network: the
result is `review_json` of `review_game` with the web's analysis options, progress streams as SSE, a review
can be cancelled, reviews and analyses share the job queue but not their routes, and every bad request gets
a JSON error with a 4xx."""
from __future__ import annotations

import json

import pytest
from conftest import ONE_DAME_SGF, REVIEW_SGF, CurveStandIn

from fastapi.testclient import TestClient  # noqa: E402  (conftest skips the module without fastapi)
from test_api import GatedStandIn, assert_error

from tengen.web.app import create_app

ONE_DAME_SETUP = ONE_DAME_SGF.split("(;B[cb]")[0] + ")"  # the one-dame position without its moves


@pytest.fixture
def client(standin):
    with TestClient(create_app(evaluator=standin)) as c:
        yield c


def open_sgf(client, sgf: str) -> str:
    r = client.post("/api/records/paste", json={"sgf": sgf})
    assert r.status_code == 200, r.text
    return r.json()["id"]


def follow(client, job_id: str) -> list[tuple[str, dict]]:
    """The review's SSE stream, read to its end: (event name, job state) pairs."""
    events, name = [], None
    with client.stream("GET", f"/api/reviews/{job_id}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
    return events


def without_timings(review: dict) -> dict:
    """The review JSON less its wall-clock seconds (the only figures two runs may differ in)."""
    out = {k: v for k, v in review.items() if k != "seconds"}
    out["moves"] = [{k: v for k, v in m.items() if k != "seconds"} for m in review["moves"]]
    return out


def test_review_from_the_endgame_start_streams_progress_and_finds_the_mistake(client):
    rid = open_sgf(client, REVIEW_SGF)
    started = client.post("/api/reviews", json={"record_id": rid})  # from "auto", to the end
    assert started.status_code == 202 and started.json()["status"] in ("queued", "running")
    events = follow(client, started.json()["id"])
    assert events[-1][0] == "end" and events[-1][1]["status"] == "done", events[-1]
    assert [e["done"] for _, e in events if e["stage"] == "move"][-1] == 4
    assert {e["total"] for _, e in events if e["stage"] == "move"} == {4}  # moves 1-4
    review = client.get(f"/api/reviews/{started.json()['id']}/result").json()
    # the same JSON review_game gives with the options of the web's analyses
    from tengen.api import review_options, search_look
    from tengen.endgame.options import DEFAULT_MISTAKE_CHECK_VISITS, AnalysisOptions
    from tengen.endgame.review import review_game
    from tengen.go.sgf import load_game_bytes
    from tengen.io.review_report import review_json

    options = review_options(AnalysisOptions())  # `tengen review`'s defaults: the web's review asks for no other
    assert options.move_check_visits == DEFAULT_MISTAKE_CHECK_VISITS < AnalysisOptions().move_check_visits
    expected = review_json(review_game(load_game_bytes(REVIEW_SGF.encode()), CurveStandIn(), options,
                                       mistake_look=search_look(options)))
    assert without_timings(review) == without_timings(expected)
    assert review["start"] == 1 and review["start_reason"].startswith("from move 1:")
    assert [m["move_number"] for m in review["moves"]] == [1, 2, 3, 4]
    assert review["mistakes"] == [2]
    mistake = review["moves"][1]
    assert {k: mistake[k] for k in ("color", "move", "region", "region_points", "hottest", "hottest_temperature",
                                    "hottest_points", "orthodox", "loss", "network_loss")} == {
        "color": "B", "move": "E5", "region": None, "region_points": [], "hottest": "A", "hottest_temperature": 2.0,
        "hottest_points": ["B3", "C3"], "orthodox": "B3", "loss": 2.0, "network_loss": 4.0}
    assert review["moves"][2]["move"] == "B3" and review["moves"][2]["loss"] == 0.0  # White's orthodox answer
    assert (review["totals"]["B"]["mistakes"], review["totals"]["W"]["mistakes"]) == (1, 0)


def test_review_of_a_range_and_the_kinds_kept_apart(client):
    rid = open_sgf(client, ONE_DAME_SGF)
    job_id = client.post("/api/reviews", json={"record_id": rid, "from": 1, "to": 1}).json()["id"]
    assert follow(client, job_id)[-1][1]["status"] == "done"
    assert client.get(f"/api/reviews/{job_id}").json()["status"] == "done"
    review = client.get(f"/api/reviews/{job_id}/result").json()
    assert (review["start"], review["start_reason"], review["mistakes"]) == (1, "from move 1 (asked)", [])
    (move,) = review["moves"]
    assert (move["move_number"], move["color"], move["move"], move["orthodox"], move["loss"]) == \
        (1, "B", "C4", "C4", 0.0)
    assert (move["region"], move["region_points"], move["region_temperature"]) == ("A", ["C4"], 1.0)
    # a review is not an analysis, nor the other way round
    for path in (f"/api/analyses/{job_id}", f"/api/analyses/{job_id}/result", f"/api/analyses/{job_id}/recommended"):
        assert_error(client.get(path), 404)
    analysis = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata"}).json()["id"]
    assert_error(client.get(f"/api/reviews/{analysis}"), 404)
    assert_error(client.delete(f"/api/reviews/{analysis}"), 404)


def test_cancel_a_running_review_and_the_shared_queue():
    gated = GatedStandIn()
    with TestClient(create_app(evaluator=gated, workers=1, queue_limit=1)) as client:
        rid = open_sgf(client, ONE_DAME_SGF)
        review = client.post("/api/reviews", json={"record_id": rid, "from": 1}).json()["id"]
        gated.waiting.wait()
        waiting = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata"})
        assert waiting.status_code == 202  # behind the review: one worker, one place in the queue
        assert "queue is full" in assert_error(client.post("/api/reviews", json={"record_id": rid, "from": 1}), 429)
        assert_error(client.get(f"/api/reviews/{review}/result"), 409)
        assert client.delete(f"/api/reviews/{review}").status_code == 200
        gated.gate.set()
        events = follow(client, review)
        assert events[-1][1]["status"] == "cancelled" and events[-1][1]["error"] == "cancelled"
        assert "cancelled" in assert_error(client.get(f"/api/reviews/{review}/result"), 409)


def test_bad_review_requests_are_json_errors(client):
    rid = open_sgf(client, ONE_DAME_SGF)  # two moves
    assert "no record" in assert_error(client.post("/api/reviews", json={"record_id": "nope"}), 404)
    for fields in ({"from": 0}, {"from": "first"}, {"from": True}, {"from": "1"}, {"from": 1.5}, {"to": 0},
                   {"to": "auto"}, {"start": 1}, {"time_limit_s": 0}, {"time_limit_s": 10**6}, {"record_id": ""}):
        assert_error(client.post("/api/reviews", json={"record_id": rid, **fields}), 422)
    assert_error(client.post("/api/reviews", json={"from": 1}), 422)  # no record
    assert "out of range" in assert_error(client.post("/api/reviews", json={"record_id": rid, "from": 3}), 400)
    assert "out of range" in assert_error(client.post("/api/reviews", json={"record_id": rid, "to": 3}), 400)
    assert "after" in assert_error(client.post("/api/reviews", json={"record_id": rid, "from": 2, "to": 1}), 400)
    no_moves = open_sgf(client, ONE_DAME_SETUP)
    assert "no moves" in assert_error(client.post("/api/reviews", json={"record_id": no_moves}), 400)
    long_game = open_sgf(client, ONE_DAME_SETUP[:-1] + ";B[];W[]" * 201 + ")")  # 402 passes
    message = assert_error(client.post("/api/reviews", json={"record_id": long_game, "from": 1}), 400)
    assert "at most 400" in message
    assert_error(client.post("/api/reviews", json={"record_id": long_game, "from": 3, "to": 403}), 400)
    for path in ("/api/reviews/nope", "/api/reviews/nope/result", "/api/reviews/nope/events"):
        assert_error(client.get(path), 404)
    assert_error(client.delete("/api/reviews/nope"), 404)


def test_an_automatic_start_outside_the_bounds_fails_the_job(client):
    # every position of this record splits into small regions, so the endgame starts at move 1: 402 moves
    long_game = open_sgf(client, ONE_DAME_SETUP[:-1] + ";B[];W[]" * 201 + ")")
    job_id = client.post("/api/reviews", json={"record_id": long_game}).json()["id"]
    final = follow(client, job_id)[-1][1]
    assert final["status"] == "failed" and "moves 1-402 are more than 400" in final["error"]
    # no position of an open 19x19 opening splits into small regions: the automatic start is the last move
    opening = open_sgf(client, "(;GM[1]FF[4]SZ[19];B[dd];W[pp];B[dp])")
    short = client.post("/api/reviews", json={"record_id": opening, "to": 1}).json()["id"]
    final = follow(client, short)[-1][1]
    assert final["status"] == "failed" and "starts at move 3, after to move 1" in final["error"]
