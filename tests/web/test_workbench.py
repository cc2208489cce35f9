"""The teacher's workbench (issue 59): set up a diagram on an empty board, mark its region with the brush,
or detect it from the network's ownership, solve it exactly, read the table's count and temperature, step a principal line, download the SGF and read
it back with `tengen analyze`: the same count and temperature; an illegal setup is refused. In a real
browser as tests/web/test_browser.py drives it (its server, Chromium and markers: slow, skipped with its
message where Playwright or Chromium is absent), and the new route by the API (the default suite)."""
from __future__ import annotations

import json
import re
import time

import pytest
from conftest import OFFLINE_REASON, ONE_DAME_SGF, CurveStandIn, offline_network, wait_final
from fastapi.testclient import TestClient  # noqa: E402  (conftest skips the module without fastapi)

from tengen.web.app import create_app

# a second-line hane-and-connect between two walls on a 9x9 board: Black A3-D3, A2-C2; White E3-J3, F2-J2;
# the region D2 E2 and C1-F1 (6 points: 303 positions, solved in milliseconds): count 0, temperature 2, gote
BLACK = ["A3", "B3", "C3", "D3", "A2", "B2", "C2"]
WHITE = ["E3", "F3", "G3", "H3", "J3", "F2", "G2", "H2", "J2"]
REGION = ["D2", "E2", "C1", "D1", "E1", "F1"]
HANE_SGF = ("(;GM[1]FF[4]SZ[9]KM[0]RU[Chinese]AB[ag][bg][cg][dg][ah][bh][ch]AW[eg][fg][gg][hg][ig][fh][gh][hh][ih]"
            "PL[B]SQ[dh][eh][ci][di][ei][fi])")
LETTERS = "ABCDEFGHJ"


def solver_first_moves() -> dict:
    """The first moves of the exact solver's principal lines on the hane-and-connect, by `tengen.analyze`
    directly (the region has more than one best move: the page must show the solver's)."""
    from tengen.api import analyze
    from tengen.go.coords import from_gtp, to_gtp
    from tengen.go.sgf import load_game_bytes

    board = load_game_bytes(HANE_SGF.encode()).board_at(0)
    (r,) = analyze(board, region=[from_gtp(v, 9, 9) for v in REGION], evaluator=None, predictor="exhaustive").regions
    return {"B": to_gtp(r.principal_black[0][1], 9), "W": to_gtp(r.principal_white[0][1], 9)}


def xy(vertex: str) -> tuple[int, int]:
    """A GTP vertex on the 9x9 board as Shudan's (x, y), y from the top."""
    return LETTERS.index(vertex[0]), 9 - int(vertex[1:])


def cli_count_and_temperature(path, tmp_path) -> tuple[float, float]:
    """`tengen analyze FILE --json OUT` on the file, the default predictor: its one region's count and temperature."""
    from tengen.cli import main

    out = tmp_path / "reanalysis.json"
    assert main(["analyze", str(path), "--json", str(out), "--quiet"]) == 0
    (region,) = json.loads(out.read_text())["regions"]
    return region["count"], region["temperature"]


# ------------------------------------------------------------------ the API: the diagram SGF of an analysis


def _solve(client, sgf: str) -> str:
    rid = client.post("/api/records/paste", json={"sgf": sgf}).json()["id"]
    job = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "exhaustive"}).json()
    assert wait_final(client, job["id"])["status"] == "done"
    return job["id"]


def test_an_analysis_downloads_as_a_diagram_sgf_that_reads_back_the_same(tmp_path):
    def no_network():
        raise AssertionError("the exact solver loaded a network")

    with TestClient(create_app(evaluator_factory=no_network)) as client:  # an exact solve needs no network
        job_id = _solve(client, HANE_SGF)
        (region,) = client.get(f"/api/analyses/{job_id}/result").json()["regions"]
        r = client.get(f"/api/analyses/{job_id}/sgf")
    assert (region["count"], region["temperature"], region["type"]) == (0.0, 2.0, "gote")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-go-sgf")
    assert "attachment" in r.headers["content-disposition"]
    text = r.text
    assert "PL[B]" in text and "SQ[" in text and "tengen endgame analysis" in text  # the values in the comment
    path = tmp_path / "diagram.sgf"
    path.write_bytes(r.content)
    assert cli_count_and_temperature(path, tmp_path) == (0.0, 2.0)


def test_a_solved_region_downloads_as_a_png_of_its_diagram_and_thermograph():
    import io

    from PIL import Image
    from test_api import assert_error

    with TestClient(create_app(evaluator_factory=no_network)) as client:
        job_id = _solve(client, HANE_SGF)
        r = client.get(f"/api/analyses/{job_id}/png")
        missing = client.get(f"/api/analyses/{job_id}/png?region=B")
        unknown = client.get("/api/analyses/nope/png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png" and "region_A.png" in r.headers["content-disposition"]
    image = Image.open(io.BytesIO(r.content)).convert("RGB")
    assert image.width > 1.8 * image.height  # the thermograph beside the diagram (8.5 x 4 inches)
    colours = image.getcolors(1 << 20)
    board = sum(n for n, (red, green, blue) in colours if abs(red - 0xe8) < 8 and abs(green - 0xc0) < 8 and abs(blue - 0x7d) < 8)
    assert board > 0.02 * image.width * image.height  # the board's wood is drawn
    assert "no region 'B'" in assert_error(missing, 404)
    assert_error(unknown, 404)


def no_network():
    raise AssertionError("the exact solver loaded a network")


class SlowStandIn(CurveStandIn):
    def evaluate(self, boards, komi_sweep=None, opponent_policy=False):
        time.sleep(0.3)
        return super().evaluate(boards, komi_sweep=komi_sweep)


def test_the_diagram_sgf_route_answers_json_errors():
    from test_api import assert_error

    with TestClient(create_app(evaluator=SlowStandIn())) as client:
        assert_error(client.get("/api/analyses/nope/sgf"), 404)
        rid = client.post("/api/records/paste", json={"sgf": ONE_DAME_SGF}).json()["id"]
        job = client.post("/api/analyses", json={"record": rid}).json()  # the network's regions: slow
        client.delete(f"/api/analyses/{job['id']}")
        assert wait_final(client, job["id"])["status"] == "cancelled"
        assert "cancelled" in assert_error(client.get(f"/api/analyses/{job['id']}/sgf"), 409)
        # an impossible setup is refused by the record loader, with the chain named
        bad = "(;GM[1]FF[4]SZ[9]AB[ba][ab]AW[aa]PL[B]SQ[ca])"
        refused = assert_error(client.post("/api/records/paste", json={"sgf": bad}), 400)
    assert "White chain at A9 has no liberties" in refused


# ------------------------------------------------------------------ the page, in Chromium


@pytest.fixture(scope="module")
def web():
    """tests/web/test_browser.py as a module: its server and Chromium (importing it skips this test, with its
    message, where Playwright or Chromium is absent)."""
    import test_browser

    return test_browser


@pytest.fixture(scope="module")
def server(web, tmp_path_factory):
    yield from web.serve(tmp_path_factory.mktemp("workbench"), CurveStandIn())


@pytest.fixture(scope="module")
def browser(web):
    with web.playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=web.CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def open_workbench(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 820}, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.get_by_test_id("mode-workbench").click()
    page.wait_for_selector("[data-testid=wb-board] .shudan-goban")
    return page, errors


def vertex(page, name: str):
    x, y = xy(name)
    return page.locator(f"[data-testid=wb-board] .shudan-vertex[data-x='{x}'][data-y='{y}']")


def drag(page, start: str, end: str) -> None:
    """A brush stroke from one point to another."""
    a, b = vertex(page, start).bounding_box(), vertex(page, end).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=10)
    page.mouse.up()


def stones(page, sign: int) -> int:
    return page.locator(f"[data-testid=wb-board] .shudan-vertex.shudan-sign_{sign}").count()


def set_up_hane(page, expect) -> None:
    """The hane-and-connect diagram set up in the page (clicks, undo and redo on the way), its region brushed."""
    page.keyboard.press("b")
    for v in BLACK:
        vertex(page, v).click()
    page.keyboard.press("w")
    for v in WHITE:
        vertex(page, v).click()
    assert (stones(page, 1), stones(page, -1)) == (7, 9)
    # undo and redo: a stray stone taken back and put again, then taken back for good
    vertex(page, "E5").click()
    page.keyboard.press("z")
    assert stones(page, -1) == 9
    page.get_by_test_id("wb-redo").click()
    assert stones(page, -1) == 10
    page.get_by_test_id("wb-undo").click()
    assert stones(page, -1) == 9
    # the region: a click on D2 and E2, a stroke over C1-F1
    page.keyboard.press("r")
    vertex(page, "D2").click()
    vertex(page, "E2").click()
    drag(page, "C1", "F1")
    expect(page.locator("[data-testid=wb-board] .shudan-vertex.shudan-selected")).to_have_count(6)


def centre(page, name: str) -> dict:
    """The middle of a point of the board, in the page's CSS pixels (the touch events' coordinates)."""
    box = vertex(page, name).bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


@pytest.mark.slow
def test_a_finger_places_stones_and_brushes_the_region(server, browser, web):
    """On a phone's touch screen: a tap places a stone, a finger's stroke over C1-F1 marks all four points (the
    board captures the finger's pointer, whose moves would otherwise stay with a point that re-renders, and
    looks up the point under it), a second stroke from a marked point unmarks, the page does not scroll while
    the brush is down, and a stroke is one undo step."""
    context = browser.new_context(viewport={"width": 820, "height": 1000}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.get_by_test_id("mode-workbench").tap()
    page.wait_for_selector("[data-testid=wb-board] .shudan-goban")
    expect = web.playwright_api.expect
    page.keyboard.press("b")
    for v in ("A2", "B2"):
        p = centre(page, v)
        page.touchscreen.tap(p["x"], p["y"])
    expect(page.locator("[data-testid=wb-board] .shudan-vertex.shudan-sign_1")).to_have_count(2)
    page.keyboard.press("r")
    cdp = context.new_cdp_session(page)

    def stroke(start: str, end: str) -> None:
        a, b = centre(page, start), centre(page, end)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [a]})
        for k in range(1, 11):
            at = {"x": a["x"] + (b["x"] - a["x"]) * k / 10, "y": a["y"] + (b["y"] - a["y"]) * k / 10}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [at]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    marked = page.locator("[data-testid=wb-board] .shudan-vertex.shudan-selected")
    stroke("C1", "F1")
    expect(marked).to_have_count(4)
    for v in ("C1", "D1", "E1", "F1"):
        expect(vertex(page, v)).to_have_class(re.compile(r"\bshudan-selected\b"))
    stroke("E1", "F1")  # a stroke that starts on a marked point unmarks
    expect(marked).to_have_count(2)
    assert page.evaluate("window.scrollY") == 0
    page.keyboard.press("z")  # the stroke is one undo step
    expect(marked).to_have_count(4)
    assert not errors, errors
    context.close()


@pytest.mark.slow
def test_set_up_mark_solve_step_and_download(server, browser, web, tmp_path):
    page, errors = open_workbench(server, browser)
    expect = web.playwright_api.expect
    set_up_hane(page, expect)
    page.get_by_test_id("wb-solve").click()
    expect(page.get_by_test_id("wb-job-status")).to_contain_text("done", timeout=30_000)
    row = page.locator("[data-testid=wb-answer] [data-testid=region-table] tr.region")
    expect(row).to_have_count(1)
    cells = row.first.locator("td")
    count, temperature = float(cells.nth(1).inner_text()), float(cells.nth(2).inner_text())
    assert (count, temperature) == (0.0, 2.0)
    expect(cells.nth(5)).to_have_text("gote")
    first = solver_first_moves()
    expect(page.get_by_test_id("wb-line-black")).to_contain_text(f"1. B {first['B']}")
    expect(page.get_by_test_id("wb-line-white")).to_contain_text(f"1. W {first['W']}")
    expect(page.locator("[data-testid=wb-answer] [data-testid=thermograph] polyline")).to_have_count(2)
    web.shot(page, "workbench.png")
    # stepping Black's line: after its first move the board shows Black's stone there, numbered
    page.locator("[data-testid=wb-line-black] button.move[data-k='1']").click()
    expect(page.get_by_test_id("wb-stepping")).to_contain_text("after move 1")
    expect(vertex(page, first["B"])).to_have_class(re.compile(r"\bshudan-sign_1\b"))
    page.get_by_test_id("wb-back").click()
    expect(vertex(page, first["B"])).to_have_class(re.compile(r"\bshudan-sign_0\b"))
    # the download: read back by `tengen analyze`, the same count and temperature
    with page.expect_download() as download:
        page.get_by_test_id("wb-save").click()
    path = tmp_path / "diagram.sgf"
    download.value.save_as(path)
    assert "SQ[" in path.read_text() and "tengen endgame analysis" in path.read_text()
    assert cli_count_and_temperature(path, tmp_path) == (count, temperature)
    assert not errors, errors


class UndecidedStandIn(CurveStandIn):
    """The stand-in with its contested empty points (touching both colours or none) undecided: ownership 0."""

    def evaluate(self, boards, komi_sweep=None, opponent_policy=False):
        from tengen.go.coords import neighbours

        out = super().evaluate(boards, komi_sweep, opponent_policy)
        for board, ev in zip(boards, out):
            grid = board.array()
            h, w = grid.shape
            for r in range(h):
                for c in range(w):
                    if not grid[r, c] and len({int(grid[n]) for n in neighbours((r, c), h, w) if grid[n]}) != 1:
                        ev.ownership[r, c] = 0.0
        return out


@pytest.fixture(scope="module")
def undecided_server(web, tmp_path_factory):
    yield from web.serve(tmp_path_factory.mktemp("workbench-detect"), UndecidedStandIn())


def detect_on(server, browser, web):
    """The workbench with the hane set up and brushed, Detect clicked: (page, errors, expect)."""
    page, errors = open_workbench(server, browser)
    expect = web.playwright_api.expect
    set_up_hane(page, expect)
    page.get_by_test_id("wb-detect").click()
    return page, errors, expect


@pytest.mark.slow
def test_detect_says_so_when_the_network_leaves_nothing_undecided(server, browser, web):
    page, errors, expect = detect_on(server, browser, web)  # CurveStandIn: every point owned, +-1
    expect(page.get_by_test_id("wb-message")).to_contain_text("leaves no point undecided")
    expect(page.locator("[data-testid=wb-board] .shudan-vertex.shudan-selected")).to_have_count(6)  # kept
    assert not errors, errors


@pytest.fixture(scope="module")
def offline_server(web, tmp_path_factory):
    yield from web.serve(tmp_path_factory.mktemp("workbench-offline"), None, evaluator_factory=offline_network)


@pytest.mark.slow
def test_detect_without_a_network_says_why_and_solve_still_answers(offline_server, browser, web):
    page, errors, expect = detect_on(offline_server, browser, web)
    expect(page.get_by_test_id("wb-message")).to_contain_text(
        f"Detect needs the network's ownership: no network is loaded: {OFFLINE_REASON}")
    expect(page.locator("[data-testid=wb-board] .shudan-vertex.shudan-selected")).to_have_count(6)  # kept
    page.get_by_test_id("wb-solve").click()  # the exact solver needs no network
    expect(page.get_by_test_id("wb-job-status")).to_contain_text("done", timeout=30_000)
    cells = page.locator("[data-testid=wb-answer] [data-testid=region-table] tr.region").first.locator("td")
    assert (float(cells.nth(1).inner_text()), float(cells.nth(2).inner_text())) == (0.0, 2.0)
    assert not errors, errors


@pytest.mark.slow
def test_detect_marks_the_points_the_networks_ownership_leaves_undecided(undecided_server, browser, web):
    from tengen.endgame.regions import DEFAULT_THRESHOLD, undecided_mask
    from tengen.go.board import Board
    from tengen.go.coords import from_gtp
    from tengen.go.rules import Rules

    page, errors, expect = detect_on(undecided_server, browser, web)
    board = Board(9, rules=Rules.chinese(komi=0))
    board.setup(black=[from_gtp(v, 9) for v in BLACK], white=[from_gtp(v, 9) for v in WHITE])
    (ev,) = UndecidedStandIn().evaluate([board])  # the server's network on the same diagram
    wanted = {(c, r) for r, c in zip(*undecided_mask(ev.ownership, DEFAULT_THRESHOLD).nonzero())}
    assert wanted and len(wanted) != 6  # not the brushed region: detect replaces it
    selected = page.locator("[data-testid=wb-board] .shudan-vertex.shudan-selected")
    expect(selected).to_have_count(len(wanted))
    got = {(int(v.get_attribute("data-x")), int(v.get_attribute("data-y"))) for v in selected.all()}
    assert got == wanted
    page.get_by_test_id("wb-undo").click()  # one undo step: the brushed region is back
    expect(selected).to_have_count(6)
    assert not errors, errors


@pytest.mark.slow
def test_an_illegal_setup_or_no_region_is_refused(server, browser, web):
    page, errors = open_workbench(server, browser)
    expect = web.playwright_api.expect
    page.get_by_test_id("wb-solve").click()  # nothing marked yet
    expect(page.get_by_test_id("wb-message")).to_contain_text("mark the local region first")
    page.keyboard.press("w")
    vertex(page, "A1").click()
    page.keyboard.press("b")
    vertex(page, "B1").click()
    vertex(page, "A2").click()  # White's A1 would have no liberty
    expect(page.get_by_test_id("wb-message")).to_contain_text("without liberties")
    expect(page.get_by_test_id("wb-message")).to_contain_text("White chain at A1")
    assert (stones(page, 1), stones(page, -1)) == (1, 1)  # A2 stays empty
    assert not errors, errors


@pytest.fixture(scope="module")
def slow_server(web, tmp_path_factory):
    """The server on the slowed stand-in (0.3 s an evaluation): a tree grown with it runs long enough to cancel."""
    yield from web.serve(tmp_path_factory.mktemp("workbench_slow"), SlowStandIn())


@pytest.mark.slow
def test_a_region_too_large_is_declined_and_the_tree_method_offered(slow_server, browser, web):
    page, errors = open_workbench(slow_server, browser)
    expect = web.playwright_api.expect
    page.keyboard.press("r")
    for row in range(2, 10):  # 8 strokes of 9 points: 72, beyond the exact solver's 64
        drag(page, f"A{row}", f"J{row}")
    expect(page.locator("[data-testid=wb-board] .shudan-vertex.shudan-selected")).to_have_count(72)
    page.get_by_test_id("wb-solve").click()
    expect(page.get_by_test_id("wb-declined")).to_contain_text("too large: 72 points", timeout=30_000)
    page.get_by_test_id("wb-try-auto").click()  # the tree method with the network, labelled so; then cancelled
    expect(page.get_by_test_id("wb-answer")).to_contain_text("the tree method with the network: judged, not exact")
    page.get_by_test_id("wb-cancel").click()
    expect(page.get_by_test_id("wb-job-status")).to_contain_text("cancelled", timeout=30_000)
    assert not errors, errors


@pytest.mark.slow
def test_a_new_diagram_from_a_records_position_and_its_unsolved_download(server, browser, web):
    page, errors = open_workbench(server, browser)
    expect = web.playwright_api.expect
    page.get_by_test_id("mode-records").click()
    page.get_by_test_id("paste").fill(ONE_DAME_SGF)
    page.get_by_test_id("paste-open").click()
    expect(page.get_by_test_id("move-number")).to_have_text("move 2 / 2")
    page.get_by_test_id("mode-workbench").click()
    page.select_option("[data-testid=wb-new-size]", "position")
    page.get_by_test_id("wb-new").click()
    expect(page.locator("[data-testid=wb-board] .shudan-vertex.shudan-sign_1")).to_have_count(13)  # B C4 played
    page.select_option("[data-testid=wb-to-play]", "W")
    with page.expect_download() as download:
        page.get_by_test_id("wb-save").click()  # not solved: the diagram alone
    text = open(download.value.path()).read()
    assert text.startswith("(;GM[1]FF[4]CA[UTF-8]SZ[5]KM[0]") and "PL[W]" in text and "SQ" not in text
    from tengen.go.colors import WHITE
    from tengen.go.sgf import load_game_bytes

    board = load_game_bytes(text.encode()).board_at(0)  # read back: the same stones, White to play
    assert (int((board.array() == 1).sum()), int((board.array() == -1).sum()), board.to_play) == (13, 9, WHITE)
    page.get_by_test_id("wb-undo").click()  # the side to move back, then the empty 9x9 board again
    page.get_by_test_id("wb-undo").click()
    expect(page.locator("[data-testid=wb-board] .shudan-vertex")).to_have_count(81)
    assert not errors, errors


@pytest.mark.slow
def test_the_tree_method_answers_with_its_tree_and_a_node_is_shown(server, browser, web):
    page, errors = open_workbench(server, browser)
    expect = web.playwright_api.expect
    page.keyboard.press("r")
    for row in range(2, 10):
        drag(page, f"A{row}", f"J{row}")
    page.get_by_test_id("wb-solve").click()
    page.get_by_test_id("wb-try-auto").click()
    expect(page.get_by_test_id("wb-answer")).to_contain_text("the tree method with the network: judged, not exact")
    expect(page.get_by_test_id("wb-by-tree")).to_contain_text("judged by the network, not proved", timeout=60_000)
    node = page.locator("[data-testid=wb-tree] .node[data-path]").nth(1)  # the root's first child
    path = node.get_attribute("data-path")
    node.click()
    expect(page.get_by_test_id("wb-stepping")).to_contain_text(f"the tree node {path}")
    x, y = xy(path.split()[1])
    expect(page.locator(f"[data-testid=wb-board] .shudan-vertex[data-x='{x}'][data-y='{y}']")).to_have_class(
        re.compile(r"\bshudan-sign_(1|-1)\b"))
    assert not errors, errors
