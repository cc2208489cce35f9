"""The web UI's smoke run: starts `tengen serve` on the bundled example with the default network, drives
Debian's Chromium (Playwright) through open -> step -> overlays -> analysis (the quick budget) -> table ->
thermograph -> tree click, then the workbench (issue 59): a 10-point diagram set up on an empty 9x9 board,
its region brushed, solved exactly; saves docs/screenshots/*.png, and times the page load, the full
analysis and the workbench's solve (from Solve to the answer's row, no network). Last line
`workbench_solve_seconds: X`. Usage: python bench/web_smoke.py [--port N] [--budget quick] [--chromium PATH]
[--workbench-only]"""
from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "tengen" / "data"
SHOTS = ROOT / "docs" / "screenshots"


def free_port() -> int:
    """A localhost port nobody listens on now (the web benches' server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(url: str, server: subprocess.Popen, seconds: float = 60) -> None:
    """Until the app answers at `url`; SystemExit when `server` exits first or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode} before answering")
        try:
            urllib.request.urlopen(url + "/api/files", timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def shrink(png: Path) -> None:
    """Keep committed screenshots small: 256 colours (the board, stones and panel need no more)."""
    from PIL import Image

    with Image.open(png) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(png, optimize=True)


def record_flow(page, url: str, args, expect) -> None:
    """Open the bundled example, step, overlays, the analysis at `args.budget`, the table, a thermograph, a tree
    click; prints the page load and analysis times, saves ownership.png, analysis.png and region.png."""
    t0 = time.monotonic()
    page.goto(url + "/")
    page.wait_for_selector("[data-testid=file-select]")
    print(f"page load: {time.monotonic() - t0:.2f} s")
    t0 = time.monotonic()
    page.select_option("[data-testid=file-select]", "example.sgf")
    page.wait_for_selector("[data-testid=board] .shudan-goban")
    expect(page.get_by_test_id("evaluation")).to_contain_text("win rate", timeout=120_000)
    print(f"record open + first evaluation: {time.monotonic() - t0:.2f} s")
    page.get_by_test_id("prev").click()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("evaluation")).to_contain_text("win rate", timeout=120_000)
    page.screenshot(path=str(SHOTS / "ownership.png"))
    page.get_by_test_id("budget").select_option(args.budget)
    t0 = time.monotonic()
    page.get_by_test_id("analyze").click()
    expect(page.get_by_test_id("job-status")).to_contain_text("done", timeout=args.timeout * 1000)
    expect(page.get_by_test_id("recommended")).to_be_visible()
    print(f"full analysis (the page's {args.budget} budget): {time.monotonic() - t0:.1f} s")
    rows = page.locator("[data-testid=region-table] tr.region")
    print(f"regions: {rows.count()}; {page.get_by_test_id('recommended').inner_text()}")
    page.screenshot(path=str(SHOTS / "analysis.png"))
    if rows.count():
        rows.first.hover()
        rows.first.click()
        page.wait_for_selector("[data-testid=region-detail]")
        nodes = page.locator("[data-testid=tree] .node")
        if nodes.count() > 1:
            nodes.nth(1).click()
            expect(page.get_by_test_id("back-to-game")).to_be_visible()
        page.screenshot(path=str(SHOTS / "region.png"), full_page=True)


# the workbench's 10-point diagram on a 9x9 board: Black A4-D4, A3-C3; White E4-J4, F3-J3; the region
# D3 E3, A2-F2, D1 E1 (26,689 positions for the exact solver): count 0, temperature 3, Black sente
WORKBENCH_STONES = {"b": "A4 B4 C4 D4 A3 B3 C3", "w": "E4 F4 G4 H4 J4 F3 G3 H3 J3"}
WORKBENCH_REGION = {"clicks": ["D3", "E3"], "strokes": [("A2", "F2"), ("D1", "E1")]}


def solve_seconds(page, expect) -> float:
    """Click Solve; the seconds until the answer's row is shown (printed, with the job's time on the server)."""
    t0 = time.monotonic()
    page.get_by_test_id("wb-solve").click()
    row = page.locator("[data-testid=wb-answer] [data-testid=region-table] tr.region")
    expect(row).to_have_count(1, timeout=120_000)
    seconds = time.monotonic() - t0
    print(f"workbench: {row.first.inner_text().split(chr(9))[:6]} (region, count, temperature, miai, deiri, type); "
          f"job {page.get_by_test_id('wb-job-status').inner_text()} on the server")
    return seconds


def workbench_flow(page, url: str, expect) -> float:
    """Set up the 10-point diagram in the workbench (clicks, brush strokes), solve it exactly (workbench.png),
    then once more with a stone added far away (the server warm); returns the second solve's seconds from
    Solve to the answer's row."""
    page.goto(url + "/")
    page.get_by_test_id("mode-workbench").click()
    page.wait_for_selector("[data-testid=wb-board] .shudan-goban")

    def vertex(name: str):
        x, y = "ABCDEFGHJ".index(name[0]), 9 - int(name[1:])
        return page.locator(f"[data-testid=wb-board] .shudan-vertex[data-x='{x}'][data-y='{y}']")

    def centre(name: str) -> tuple[float, float]:
        box = vertex(name).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    for key, stones in WORKBENCH_STONES.items():
        page.keyboard.press(key)
        for name in stones.split():
            vertex(name).click()
    page.keyboard.press("r")
    for name in WORKBENCH_REGION["clicks"]:
        vertex(name).click()
    for a, b in WORKBENCH_REGION["strokes"]:
        page.mouse.move(*centre(a))
        page.mouse.down()
        page.mouse.move(*centre(b), steps=10)
        page.mouse.up()
    first = solve_seconds(page, expect)
    print(f"workbench, first solve (the server's first import of the solver included): {first:.2f} s")
    expect(page.locator("[data-testid=wb-answer] [data-testid=thermograph]")).to_be_visible()
    page.wait_for_timeout(400)  # the progress bar's transition ends
    page.screenshot(path=str(SHOTS / "workbench.png"))
    page.keyboard.press("b")
    vertex("J9").click()  # a stone far from the region: a new diagram of the same value, solved again
    return solve_seconds(page, expect)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--budget", default="quick", choices=["quick", "default", "deep"],
                        help="the page's tree budget (quick: 100 nodes per tree, 300 per position)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--model", default=None, help="PATH or tiny (default: the cached default network)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed for the analysis")
    parser.add_argument("--workbench-only", action="store_true",
                        help="only the workbench's exact solve (no record, no network)")
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    port = args.port or free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "tengen", "serve", "--port", str(port), "--folder", str(DATA), "--workers", "1"]
    if args.model:
        cmd += ["--model", args.model]
    server = subprocess.Popen(cmd, cwd=ROOT)
    try:
        wait_up(url, server)
        SHOTS.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            if not args.workbench_only:
                record_flow(page, url, args, expect)
            solve_seconds = workbench_flow(page, url, expect)
            browser.close()
        if errors:
            raise SystemExit(f"page errors: {errors}")
        for png in [SHOTS / "workbench.png"] if args.workbench_only else sorted(SHOTS.glob("*.png")):
            shrink(png)
            print(f"{png.relative_to(ROOT)}: {png.stat().st_size // 1024} kB")
    finally:
        server.terminate()  # uvicorn lets an evaluation in flight finish first (seconds on a CPU)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    print("flow: ok")
    print(f"workbench_solve_seconds: {solve_seconds:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
