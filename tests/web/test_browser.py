"""The page in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium; Playwright's own
browser download does not work here) against `tengen serve`'s app on the stand-in network: open a record,
step moves, turn overlays on, run an analysis, read the region table, open a thermograph and click a tree
node; review a game and jump to its mistake. Screenshots go to $TENGEN_SCREENSHOTS (CI artifacts; the
docs' pictures with TENGEN_SCREENSHOTS=docs/screenshots) when it is set."""
from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from conftest import ONE_DAME_SGF, REVIEW_SGF, CurveStandIn

pytestmark = pytest.mark.slow
CHROMIUM = os.environ.get("TENGEN_CHROMIUM", "/usr/bin/chromium")
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed: pip install playwright")
# an assertion waits until it holds, up to this long: 30 s instead of Playwright's 5 s, so that a loaded CI machine
# (the browser, the server and the solver sharing two cores) is not read as a failure; a passing check returns at once
playwright_api.expect.set_options(timeout=30_000)
if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

import uvicorn  # noqa: E402

from tengen.web.app import create_app  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(folder, evaluator, evaluator_factory=None):
    """`tengen serve`'s app on `folder` and `evaluator` (or one `evaluator_factory` makes on first use) in a
    thread; yields its URL, stops it after."""
    port = free_port()
    app = create_app(folder=str(folder), evaluator=evaluator, evaluator_factory=evaluator_factory, workers=1)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started and thread.is_alive():
        time.sleep(0.05)  # no deadline: pytest-timeout ends a server that never starts
    assert srv.started, "the server did not start"
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join()


# the textbook first-line ko (tests/endgame/test_diagram_conventions.py) on an 8x8 board, its region marked
KO_SGF = ("(;GM[1]FF[4]SZ[8]KM[0]RU[Chinese]AB[af][bf][cf][df][dg][ch]AW[ef][ff][gf][hf][eg][dh][fh]PL[B]"
          "SQ[ch][dh][eh][fh])")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    (folder / "one_dame.sgf").write_text(ONE_DAME_SGF)
    (folder / "review.sgf").write_text(REVIEW_SGF)
    (folder / "ko.sgf").write_text(KO_SGF)
    yield from serve(folder, CurveStandIn())


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def shot(page, name: str) -> None:
    folder = os.environ.get("TENGEN_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def open_record(server, browser, name: str, height: int = 800):
    """A new page on the served record `name`, its board drawn; (page, the page errors seen so far)."""
    page = browser.new_page(viewport={"width": 1280, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.select_option("[data-testid=file-select]", name)
    page.wait_for_selector("[data-testid=board] .shudan-goban")
    return page, errors


def test_the_whole_flow(server, browser):
    page, errors = open_record(server, browser, "one_dame.sgf")
    expect = playwright_api.expect
    expect(page.get_by_test_id("move-number")).to_have_text("move 2 / 2")
    # stepping: buttons and arrow keys
    page.get_by_test_id("prev").click()
    expect(page.get_by_test_id("move-number")).to_have_text("move 1 / 2")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("move-number")).to_have_text("move 0 / 2")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("move-number")).to_have_text("move 1 / 2")
    page.keyboard.press("Home")
    expect(page.get_by_test_id("move-number")).to_have_text("move 0 / 2")
    page.wait_for_function("document.querySelectorAll('[data-testid=board] .shudan-vertex.shudan-sign_1').length === 12")
    # ownership is on by default: the paint map and the komi curve
    expect(page.get_by_test_id("evaluation")).to_contain_text("win rate")
    page.wait_for_function("document.querySelectorAll('.shudan-vertex.shudan-paint_1').length > 0")
    expect(page.locator("[data-testid=komi-curve] polyline")).to_have_count(1)
    # influence instead of ownership
    page.get_by_test_id("toggle-ownership").uncheck()
    page.get_by_test_id("toggle-influence").check()
    page.select_option("[data-testid=influence-model]", "zobrist")
    page.wait_for_function("document.querySelectorAll('.shudan-vertex.shudan-paint_-1').length > 0")
    page.get_by_test_id("toggle-influence").uncheck()
    page.get_by_test_id("toggle-ownership").check()
    # the analysis: progress, the table, the recommended move
    page.get_by_test_id("analyze").click()
    expect(page.get_by_test_id("job-status")).to_contain_text("done", timeout=60_000)
    expect(page.get_by_test_id("recommended")).to_contain_text("C4")
    row = page.locator("[data-testid=region-table] tr.region")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text("gote")
    expect(page.locator(".shudan-vertex.shudan-marker_label")).to_have_count(1)  # the region's temperature label
    row.first.hover()
    expect(page.locator(".shudan-vertex.shudan-selected")).to_have_count(1)  # hovering lights the region
    # the region is outlined, not painted over: no glow, a transparent middle; the legend says what marks mean
    heat = page.locator("[data-testid=board].region-marks .shudan-heat").first
    style = heat.evaluate("e => { const s = getComputedStyle(e); return [s.boxShadow, s.backgroundColor, s.borderTopStyle]; }")
    assert style == ["none", "rgba(0, 0, 0, 0)", "solid"], style
    expect(page.get_by_test_id("board-legend")).to_contain_text("the stronger, the hotter")
    expect(page.get_by_test_id("settings")).to_contain_text("--predictor auto")
    expect(page.get_by_test_id("rules-said")).to_contain_text("rules")
    assert page.locator("abbr[data-explain=temperature]").first.get_attribute("title").startswith("Temperature")
    shot(page, "analysis.png")
    # a region's thermograph and tree; a tree node shows its position
    row.first.click()
    expect(page.locator("[data-testid=thermograph] polyline")).to_have_count(2)
    page.locator("[data-testid=tree] .node[data-path='W C4']").click()
    expect(page.get_by_test_id("back-to-game")).to_be_visible()
    page.wait_for_function("document.querySelectorAll('[data-testid=board] .shudan-vertex.shudan-sign_-1').length === 10")
    shot(page, "tree.png")
    page.get_by_test_id("back-to-game").click()
    page.wait_for_function("document.querySelectorAll('[data-testid=board] .shudan-vertex.shudan-sign_-1').length === 9")
    assert not errors, errors


def test_review_a_game_and_jump_to_its_mistake(server, browser):
    page, errors = open_record(server, browser, "review.sgf", height=900)
    expect = playwright_api.expect
    expect(page.get_by_test_id("move-number")).to_have_text("move 4 / 4")
    page.get_by_test_id("tab-review").click()
    page.get_by_test_id("review-start").click()
    expect(page.get_by_test_id("review-job-status")).to_contain_text("done", timeout=120_000)
    # the graph: a dot per move reviewed (2-4), the mistake ringed; the hottest temperature as a step line
    graph = page.get_by_test_id("temperature-graph")
    expect(graph.locator("circle.dot")).to_have_count(4)  # moves 1-4
    expect(graph.locator("circle.dot.mistake")).to_have_count(1)
    expect(graph.locator("circle.dot.mistake")).to_have_attribute("data-move", "2")
    expect(graph.get_by_test_id("graph-hottest")).to_have_count(1)
    # the largest mistake: Black's E5 (a 2-point region stood at B3-C3); a click shows the position after it
    mistakes = page.locator("[data-testid=review-mistakes] tr.mistake")
    expect(mistakes).to_have_count(1)
    expect(mistakes.first).to_contain_text("E5")
    mistakes.first.click()
    expect(page.get_by_test_id("move-number")).to_have_text("move 2 / 4")

    def vertex(x: int, y: int):
        return page.locator(f"[data-testid=board] .shudan-vertex[data-x='{x}'][data-y='{y}']")

    expect(vertex(4, 1)).to_have_class(re.compile(r"\bshudan-marker_circle\b"))  # E5, the last move
    expect(vertex(4, 1)).to_have_class(re.compile(r"\bshudan-sign_1\b"))
    expect(vertex(1, 3)).to_have_class(re.compile(r"\bshudan-marker_triangle\b"))  # B3, the orthodox move
    expect(page.locator("[data-testid=board] .shudan-vertex.shudan-selected")).to_have_count(2)  # the hottest region
    expect(page.get_by_test_id("review-move")).to_contain_text("Move 2: Black E5")
    expect(page.get_by_test_id("graph-current")).to_have_count(1)
    shot(page, "review.png")
    # a click on the graph: White's B3, played in the hottest region, shaded
    graph.locator("circle.dot[data-move='3']").click()
    expect(page.get_by_test_id("move-number")).to_have_text("move 3 / 4")
    expect(page.locator("[data-testid=board].review-marks .shudan-vertex.shudan-heat_5")).to_have_count(2)
    expect(vertex(1, 3)).to_have_class(re.compile(r"\bshudan-marker_circle\b"))
    # the position tab leaves the review's marks off the board
    page.get_by_test_id("tab-position").click()
    expect(page.locator("[data-testid=board] .shudan-vertex.shudan-selected")).to_have_count(0)
    assert not errors, errors


def test_the_folder_list_counts_searches_and_pages(server, browser):
    page = browser.new_page()
    page.goto(server + "/")
    expect = playwright_api.expect
    expect(page.get_by_test_id("file-count")).to_have_text("1–3 of 3")
    page.get_by_test_id("file-search").fill("review")
    expect(page.get_by_test_id("file-count")).to_have_text("1–1 of 1")
    expect(page.locator("[data-testid=file-select] option")).to_have_count(2)  # the prompt and review.sgf
    expect(page.get_by_test_id("file-next")).to_be_disabled()


def test_bad_paste_shows_an_error(server, browser):
    page = browser.new_page()
    page.goto(server + "/")
    page.get_by_test_id("paste").fill("this is not a game record")
    page.get_by_test_id("paste-open").click()
    playwright_api.expect(page.get_by_test_id("error")).to_be_visible()


class MoveCountStandIn(CurveStandIn):
    """The stand-in, slowed to 60 ms a call, whose score lead is the position's move number: a panel showing
    another move's numbers is seen at once."""

    def evaluate(self, boards, komi_sweep=None, opponent_policy=False):
        time.sleep(0.06)
        out = super().evaluate(boards, komi_sweep=komi_sweep)
        for board, ev in zip(boards, out):
            ev.score_lead = float(len(board.moves))
        return out


def forty_moves_sgf() -> str:
    """40 moves that capture nothing: Black along the 3rd and 5th lines, White along the 17th and 15th."""
    cols = "abcdefghijklmnopqrs"
    black = [f"{c}q" for c in cols] + ["ao"]
    white = [f"{c}c" for c in cols] + ["ae"]
    moves = "".join(f";B[{b}];W[{w}]" for b, w in zip(black, white))
    return f"(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]{moves})"


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stepping")
    (folder / "forty.sgf").write_text(forty_moves_sgf())
    yield from serve(folder, MoveCountStandIn())


def test_fast_stepping_shows_the_current_moves_evaluation_and_no_4xx(slow_server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(slow_server + "/")
    page.select_option("[data-testid=file-select]", "forty.sgf")
    page.wait_for_selector("[data-testid=board] .shudan-goban")
    expect = playwright_api.expect
    page.keyboard.press("Home")
    expect(page.get_by_test_id("move-number")).to_have_text("move 0 / 40")
    for _ in range(30):  # 30 steps at 50 ms: faster than the network answers
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
    expect(page.get_by_test_id("move-number")).to_have_text("move 30 / 40")
    expect(page.get_by_test_id("evaluation")).to_contain_text("score lead B+30.0", timeout=20_000)
    page.wait_for_timeout(500)  # any late answer for an earlier move would land now: it must not
    expect(page.get_by_test_id("evaluation")).to_contain_text("score lead B+30.0")
    assert not page.get_by_test_id("error").is_visible()
    assert failed == [] and errors == [], (failed, errors)


def test_the_thermograph_of_a_ko_region_is_drawn(server, browser):
    """A ko's exact value has no game, only a thermograph: the page draws it (the route answered 500)."""
    page, errors = open_record(server, browser, "ko.sgf")
    expect = playwright_api.expect
    page.get_by_test_id("analyze").click()
    expect(page.get_by_test_id("job-status")).to_contain_text("done", timeout=60_000)
    row = page.locator("[data-testid=region-table] tr.region")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text("ko")
    row.first.click()
    expect(page.locator("[data-testid=thermograph] polyline")).to_have_count(2)
    assert not errors, errors
