"""The web UI's smoke run: starts `tengen serve` on the bundled example with the default network, drives
Debian's Chromium (Playwright) through open -> step -> overlays -> analysis (the quick budget) -> table ->
thermograph -> tree click, saves docs/screenshots/*.png, and times the page load and the full analysis.
Last line `flow: ok`. Usage: python bench/web_smoke.py [--port N] [--budget 40] [--chromium PATH]"""
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--budget", default="40", choices=["40", "300", "800"], help="nodes per local tree")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--model", default=None, help="PATH or tiny (default: the cached default network)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed for the analysis")
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
            print(f"full analysis (budget {args.budget} nodes per tree): {time.monotonic() - t0:.1f} s")
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
            browser.close()
        if errors:
            raise SystemExit(f"page errors: {errors}")
        for png in sorted(SHOTS.glob("*.png")):
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
