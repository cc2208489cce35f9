"""Try your own move (issue 59, item 3): a move inside a solved diagram's region valued against the best by
the exact solver. By the API (the default suite): on the hane-and-connect of tests/web/test_workbench.py,
each figure checked against an independent `tengen.analyze` of the position after the move (its count, and
its wall with the opponent to move at the region's temperature), and the routes' JSON errors. In the page
(slow): the "try a move" tool after a solve shows the loss and why."""
from __future__ import annotations

import time
from fractions import Fraction

import pytest
from conftest import ONE_DAME_SGF, CurveStandIn, wait_final
from fastapi.testclient import TestClient  # noqa: E402  (conftest skips the module without fastapi)
from test_api import assert_error
from test_workbench import (HANE_SGF, REGION, _solve, browser, open_workbench, server, set_up_hane,  # noqa: F401
                            solver_first_moves, vertex, web)

from tengen.go.coords import from_gtp
from tengen.go.sgf import load_game_bytes
from tengen.web.app import create_app


def no_network():
    raise AssertionError("the exact solver loaded a network")


def tried(client, analysis: str, move: str, **fields) -> dict:
    """Start the own-move job, wait for it to finish, return its result."""
    r = client.post(f"/api/analyses/{analysis}/own-move", json={"move": move, **fields})
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    while client.get(f"/api/own-moves/{job_id}").json()["status"] not in ("done", "failed", "cancelled"):
        time.sleep(0.02)  # no deadline: pytest-timeout ends a job that never finishes
    assert client.get(f"/api/own-moves/{job_id}").json()["status"] == "done"
    return client.get(f"/api/own-moves/{job_id}/result").json()


def independent(move: str, color: int) -> tuple[float, float]:
    """The region after `move` by `color`, solved by `tengen.analyze` directly: (count, its value with the
    opponent to move at the region's temperature before the move, 2)."""
    from tengen.api import analyze

    board = load_game_bytes(HANE_SGF.encode()).board_at(0)
    region = [from_gtp(v, 9, 9) for v in REGION]
    board.play(color, from_gtp(move, 9, 9))
    (r,) = analyze(board, region=region, evaluator=None, predictor="exhaustive").regions
    wall = r.thermograph.right if color == 1 else r.thermograph.left
    return r.count, float(wall.at(Fraction(2)))


@pytest.mark.parametrize("move,color", [("C1", "B"), ("D2", "B"), ("E1", "B"), ("E2", "W")])
def test_a_move_of_your_own_is_valued_against_the_best_by_the_exact_solver(move, color):
    with TestClient(create_app(evaluator_factory=no_network)) as client:  # no network for exact answers
        analysis = _solve(client, HANE_SGF)
        got = tried(client, analysis, move, color=color)
    sign = 1 if color == "B" else -1
    best = solver_first_moves()[color]  # the solver's best move (its principal line's first)
    count, due = independent(move, sign)
    best_count, best_due = independent(best, sign)
    assert got["best"] == best and got["temperature"] == 2.0
    assert (got["after"]["count"], got["after"]["due"]) == (count, due)
    assert (got["best_after"]["count"], got["best_after"]["due"]) == (best_count, best_due)
    assert got["loss"] == round(max(0.0, sign * (best_due - due)), 2)
    if move == best:
        assert got["loss"] == 0 and got["reason"].startswith("The best move")
    elif got["loss"] > 0:
        assert got["reason"].startswith(f"{move} loses {got['loss']:.1f} point(s) against {best}")
    else:
        assert got["reason"].startswith(f"As good as the best move, {best}")
    if move == "C1":  # the first-line descent: a point worse when a move here is due
        assert got["loss"] == 1.0


def test_the_own_move_route_answers_json_errors():
    with TestClient(create_app(evaluator_factory=no_network)) as client:
        analysis = _solve(client, HANE_SGF)

        def refused(status: int, **body) -> str:
            return assert_error(client.post(f"/api/analyses/{analysis}/own-move", json=body), status)

        assert "not a point of the marked region" in refused(400, move="A1")
        assert "not a point of the marked region" in refused(400, move="pass")
        assert "off the" in refused(400, move="Z9")
        assert "not a point of the marked region" in refused(400, move="D3")  # a stone, outside the region
        refused(422, move="E1", color="X")
        refused(422, move="E1", extra=1)
        refused(422, move="")
        assert "no analysis" in assert_error(client.post("/api/analyses/nope/own-move", json={"move": "E1"}), 404)
        assert_error(client.get("/api/own-moves/nope"), 404)
        assert_error(client.get(f"/api/own-moves/{analysis}"), 404)  # an analysis is not an own-move job
    with TestClient(create_app(evaluator=CurveStandIn())) as client:  # the network's regions: none marked
        rid = client.post("/api/records/paste", json={"sgf": ONE_DAME_SGF}).json()["id"]
        whole = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata"}).json()["id"]
        assert wait_final(client, whole)["status"] == "done"
        message = assert_error(client.post(f"/api/analyses/{whole}/own-move", json={"move": "C4"}), 400)
    assert "needs the analysis of a marked region" in message


@pytest.mark.slow
def test_the_try_a_move_tool_shows_the_loss_and_why(server, browser, web):  # noqa: F811
    page, errors = open_workbench(server, browser)
    expect = web.playwright_api.expect
    set_up_hane(page, expect)
    page.get_by_test_id("wb-solve").click()
    expect(page.get_by_test_id("wb-job-status")).to_contain_text("done", timeout=30_000)
    page.get_by_test_id("wb-tool-try").click()
    vertex(page, "C1").click()
    best = solver_first_moves()["B"]
    expect(page.get_by_test_id("wb-own-loss")).to_contain_text(f"loss 1.0 point(s) against {best} at the region's "
                                                               "temperature 2.0", timeout=30_000)
    expect(page.get_by_test_id("wb-own-reason")).to_contain_text(f"C1 loses 1.0 point(s) against {best}")
    assert vertex(page, "C1").locator(".shudan-marker").count() == 1  # the move tried, marked
    assert page.locator("[data-testid=wb-board] .shudan-vertex.shudan-sign_1").count() == 7  # no stone placed
    page.keyboard.press("t")
    vertex(page, "A1").click()  # outside the region: the server's message
    expect(page.get_by_test_id("wb-message")).to_contain_text("not a point of the marked region")
    assert not errors, errors
