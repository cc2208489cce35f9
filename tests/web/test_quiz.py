"""The endgame quiz (issue 59, item 5). By the API on the stand-in network (the default suite): a round drawn
from a finished review with no new evaluation, the answers' losses by the regions' values, the same review
asked again answered by the one already done, and every bad request a JSON error; the position rules of
`tengen.web.quiz` on made-up analyses. In a real browser (slow, and network_model: the bundled example's
review needs the default network; skipped with its reason where Playwright, Chromium or the network is
absent): a quiz round on the bundled example, each answer checked against the review's analysis (the loss
shown is the regions' temperature difference the server gave, the best move the analysis's)."""
from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
from conftest import REVIEW_SGF, CurveStandIn
from fastapi.testclient import TestClient  # noqa: E402  (conftest skips the module without fastapi)
from test_api import GatedStandIn, assert_error

from datapaths import REPO
from tengen.go.colors import BLACK, WHITE
from tengen.web.app import create_app
from tengen.web.quiz import QUIZ_LEAD, quiz_position, quiz_round

EXAMPLE = REPO / "src" / "tengen" / "data" / "example.sgf"


def reviewed(client, sgf: str, **fields) -> tuple[str, str]:
    """Paste `sgf`, review it to the end (from move 1 unless `fields` say), wait: (record id, review id)."""
    rid = client.post("/api/records/paste", json={"sgf": sgf}).json()["id"]
    job = client.post("/api/reviews", json={"record_id": rid, "from": 1, **fields}).json()
    while client.get(f"/api/reviews/{job['id']}").json()["status"] not in ("done", "failed", "cancelled"):
        time.sleep(0.05)  # no deadline: pytest-timeout ends a review that never finishes
    assert client.get(f"/api/reviews/{job['id']}").json()["status"] == "done"
    return rid, job["id"]


def test_a_reviewed_games_quiz_needs_no_new_evaluation_and_answers_by_the_regions_values():
    standin = CurveStandIn()
    with TestClient(create_app(evaluator=standin)) as client:
        rid, review_id = reviewed(client, REVIEW_SGF)
        review = client.get(f"/api/reviews/{review_id}/result").json()
        rows = standin.rows
        again = client.post("/api/reviews", json={"record_id": rid, "from": 1}).json()
        assert again["id"] == review_id and again["status"] == "done"  # the review done already
        quiz = client.get(f"/api/quiz?reviews={review_id}").json()
        # the 6x6 game (tests/web/conftest.py): one region B3-C3 (temperature 2) before moves 1-3, none after
        assert [p["move"] for p in quiz["positions"]] == [0, 1, 2] and quiz["available"] == 3
        assert quiz["note"].startswith("a round of 3, not 10: only 3 position(s)")
        assert {p["record"] for p in quiz["positions"]} == {rid} and quiz["positions"][1]["to_play"] == "B"
        assert set(quiz["positions"][0]) == {"review", "record", "move", "to_play"}  # no numbers before the answer

        def ask(move: int, play: str) -> dict:
            r = client.post("/api/quiz/answer", json={"review": review_id, "move": move, "play": play})
            assert r.status_code == 200, r.text
            return r.json()

        before_move_2 = review["moves"][1]  # White E5 while the 2-point gote stood at B3
        best = ask(1, before_move_2["orthodox"])
        assert best["correct"] and best["loss"] == 0.0 and best["best"] == [before_move_2["orthodox"]]
        assert best["regions"][0]["temperature"] == before_move_2["hottest_temperature"] == 2.0
        assert best["reason"].startswith(f"Right: {before_move_2['orthodox']} is the best move")
        for play in ("E5", "pass"):  # in no region: the hottest temperature is lost
            a = ask(1, play)
            assert not a["correct"] and a["region"] is None and a["loss"] == a["regions"][0]["temperature"] == 2.0
        played = ask(1, "E5")
        assert "It is the game's move" in played["reason"] and played["game_move"]["loss"] == before_move_2["loss"]
        other = ask(1, "C3")  # the hottest region, but not its best move: the values cannot say its loss
        assert other["loss"] is None and not other["correct"] and "its best move is B3" in other["reason"]
        assert standin.rows == rows  # no evaluation for the quiz: it is the review's


def test_the_quiz_routes_answer_json_errors():
    gated = GatedStandIn()
    gated.gate.set()
    with TestClient(create_app(evaluator=gated, workers=1)) as client:
        rid, review_id = reviewed(client, REVIEW_SGF)
        assert "no review" in assert_error(client.get("/api/quiz?reviews=nope"), 404)
        analysis = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "kata"}).json()["id"]
        assert "no review" in assert_error(client.get(f"/api/quiz?reviews={analysis}"), 404)
        assert_error(client.get("/api/quiz"), 422)
        assert "different" in assert_error(client.get(f"/api/quiz?reviews={review_id},{review_id}"), 400)
        assert "different" in assert_error(client.get("/api/quiz?reviews=" + ",".join(f"r{i}" for i in range(17))), 400)
        assert_error(client.get(f"/api/quiz?reviews={review_id}&round=-1"), 422)

        def answer(**fields):
            return client.post("/api/quiz/answer", json={"review": review_id, "move": 1, "play": "B3", **fields})

        assert "not a quiz position" in assert_error(answer(move=4), 404)
        assert "not a legal move" in assert_error(answer(play="A1"), 400)  # a stone stands there
        assert "off the" in assert_error(answer(play="Z99"), 400)
        assert_error(answer(play="Q"), 400)
        assert_error(answer(extra=1), 422)
        assert_error(answer(move=-1), 422)
        assert_error(answer(play=""), 422)
        gated.gate.clear()
        gated.waiting.clear()
        running = client.post("/api/reviews", json={"record_id": rid, "from": 2}).json()["id"]
        gated.waiting.wait()
        assert "finished review" in assert_error(client.get(f"/api/quiz?reviews={running}"), 409)
        assert "finished review" in assert_error(answer(review=running), 409)
        gated.gate.set()


# ------------------------------------------------------------------ which positions are quiz positions


def _analysis(temperatures, to_play=BLACK, recommended_best=True, critical=(), kinds=None):
    """A made-up analysis on a 9x9 board: region i at point (i, 0) with temperature temperatures[i], its best
    move for both colours at that point; the recommended move the hottest's (or a point elsewhere)."""
    regions = [SimpleNamespace(temperature=t, count=0.0, kind=(kinds or {}).get(i, "gote"),
                               region=SimpleNamespace(points=frozenset({(i, 0)})), best_black=[(i, 0)], best_white=[(i, 0)])
               for i, t in enumerate(temperatures)]
    known = [i for i, t in enumerate(temperatures) if t is not None]
    hottest = max(known, key=lambda i: temperatures[i]) if known else 0
    return SimpleNamespace(regions=regions, critical_groups=list(critical), board=SimpleNamespace(to_play=to_play, height=9),
                           recommended=(to_play, (hottest, 0) if recommended_best else (8, 8)), recommended_reason="r")


@pytest.mark.parametrize("temperatures,clear", [
    ([3.0, 3.0 - QUIZ_LEAD], True), ([3.0, 2.5], False), ([2.5], True), ([0.5], False), ([1.0, -1.0], True),
    ([4.0, None], False), ([0.0, 0.0], False),
])
def test_a_quiz_position_has_a_hottest_region_a_point_ahead_and_every_region_valued(temperatures, clear):
    position = quiz_position(_analysis(temperatures), 7)
    assert (position is not None) == clear
    if clear:
        assert position.move == 7 and position.hottest.temperature == max(temperatures)
        assert position.hottest.best == (("A", "B", "C")[0] + str(9 - temperatures.index(max(temperatures))),)


def test_no_quiz_position_where_a_group_is_at_stake_the_move_check_overruled_or_the_hottest_is_a_ko():
    assert quiz_position(_analysis([3.0, 1.0], to_play=WHITE), 0) is not None
    assert quiz_position(_analysis([3.0, 1.0], critical=["a group"]), 0) is None
    assert quiz_position(_analysis([3.0, 1.0], recommended_best=False), 0) is None
    assert quiz_position(_analysis([3.0, 1.0], kinds={0: "ko"}), 0) is None


def test_a_round_is_ten_positions_spread_over_the_game_or_drawn_by_its_number():
    positions = list(range(25))
    first = quiz_round(positions)
    assert len(first) == 10 and first[0] == 0 and first[-1] == 24 and first == sorted(first)
    assert quiz_round(positions, round_number=3) == quiz_round(positions, round_number=3) != first
    assert len(set(quiz_round(positions, round_number=3))) == 10
    assert quiz_round(positions[:4]) == [0, 1, 2, 3]


# ------------------------------------------------------------------ a round in a real browser


@pytest.mark.slow
@pytest.mark.network_model
def test_a_quiz_round_on_the_bundled_example(tmp_path_factory, real_evaluator):
    from test_browser import CHROMIUM, playwright_api, serve, shot

    folder = tmp_path_factory.mktemp("quiz")
    (folder / "example.sgf").write_bytes(EXAMPLE.read_bytes())
    expect = playwright_api.expect
    server = serve(folder, real_evaluator)
    url = next(server)
    try:
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 950})
            play_a_round(page, url, expect, shot)
            browser.close()
    finally:
        next(server, None)


def play_a_round(page, url: str, expect, shot) -> None:
    """Open the example, start its quiz (the review runs once), answer every position: the even ones with the
    review's orthodox move (right, loss 0), the odd ones elsewhere (the loss shown is the hottest region's
    temperature less the played region's, as the answer's table shows them); the score counts the right ones."""
    page.goto(url + "/")
    page.select_option("[data-testid=file-select]", "example.sgf")
    page.wait_for_selector("[data-testid=board] .shudan-goban")
    page.get_by_test_id("mode-quiz").click()
    page.get_by_test_id("quiz-start").click()
    expect(page.get_by_test_id("quiz-prompt")).to_be_visible(timeout=900_000)
    review_id = page.get_by_test_id("quiz-prompt").get_attribute("data-review")  # the review the page drew from
    positions = page.request.get(f"{url}/api/quiz?reviews={review_id}").json()["positions"]
    review = page.request.get(f"{url}/api/reviews/{review_id}/result").json()
    by_number = {m["move_number"]: m for m in review["moves"]}
    assert 1 <= len(positions) <= 10
    expect(page.get_by_test_id("quiz-note")).to_contain_text(f"a round of {len(positions)}")
    right = 0
    for k, position in enumerate(positions):
        expect(page.get_by_test_id("quiz-prompt")).to_contain_text(f"Position {k + 1} of {len(positions)}")
        analysed = by_number[position["move"] + 1]  # the review's line for the move played there
        stones = page.request.post(url + "/api/position", data={"record": position["record"], "move": position["move"]}).json()
        play = analysed["orthodox"] if k % 2 == 0 else _elsewhere(stones, analysed["hottest_points"])
        _click(page, play, stones["height"])
        verdict = page.get_by_test_id("quiz-verdict")
        expect(verdict).to_be_visible()
        shown_best = page.get_by_test_id("quiz-best").inner_text()
        assert analysed["orthodox"] in shown_best.split(" / ")  # the best move is the analysis's
        temps = {row.get_attribute("data-region"): float(row.locator("td").nth(1).get_attribute("data-temperature"))
                 for row in page.locator("[data-testid=quiz-regions] tr.region").all()}
        hottest = max(temps.values())
        assert abs(hottest - analysed["hottest_temperature"]) <= 0.01  # the review's hottest temperature
        if k % 2 == 0:
            expect(verdict).to_contain_text("Right")
            right += 1
        else:
            played = page.locator("[data-testid=quiz-regions] tr.region.selected")
            region_t = float(played.locator("td").nth(1).get_attribute("data-temperature")) if played.count() else 0.0
            shown = float(re.search(r"Loss: (?:at least )?(-?[\d.]+)", verdict.inner_text()).group(1))
            assert abs(shown - (hottest - region_t)) <= 0.051, (verdict.inner_text(), temps)
        if k == 1 or len(positions) == 1:
            shot(page, "quiz.png")
        if k + 1 < len(positions):
            page.get_by_test_id("quiz-next").click()
    expect(page.get_by_test_id("quiz-score")).to_contain_text(f"{right} of {len(positions)} best moves found")


def _elsewhere(stones: dict, hottest: list[str]) -> str:
    """An empty point outside the hottest region with an empty neighbour (legal for either side)."""
    h, w = stones["height"], stones["width"]
    grid = stones["stones"]
    for y in range(h):
        for x in range(w):
            vertex = "ABCDEFGHJKLMNOPQRST"[x] + str(h - y)
            near = [(y + dy, x + dx) for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)) if 0 <= y + dy < h and 0 <= x + dx < w]
            if not grid[y][x] and vertex not in hottest and any(not grid[a][b] for a, b in near):
                return vertex
    raise AssertionError("no empty point outside the hottest region")


def _click(page, vertex: str, height: int) -> None:
    x, y = "ABCDEFGHJKLMNOPQRST".index(vertex[0]), height - int(vertex[1:])
    page.locator(f"[data-testid=quiz-board] .shudan-vertex[data-x='{x}'][data-y='{y}']").click()
