"""One position through every front end with its defaults: the CLI (`tengen analyze --json`), the library
(`tengen.analyze`), a batch job (`tengen batch --what endgame`), GTP (`tengen gtp`, `tengen-endgame json`),
KataGo's JSON protocol (`tengen analysis --endgame`, the `tengenEndgame` extras) and the web API (a job of
`/api/analyses`). Each answer (per region: points, count, temperature, type, best moves; the recommended
move: `tengen.io.report.report_answer`) is compared with the library's.

The defaults live in `AnalysisOptions()` alone, so no front end is given a setting here. Each one loads
the default network itself (the cached katrain network), as a user's would.
Usage: python bench/front_ends.py [--sgf FILE] [--move N]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "src" / "tengen" / "data" / "example.sgf"


def tengen(*args: str, stdin: str = "") -> str:
    """Run `python -m tengen ARGS` (the installed CLI), its stdout; a failure stops the bench with stderr."""
    done = subprocess.run([sys.executable, "-m", "tengen", *args], input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"tengen {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return done.stdout


def cli(sgf: Path, move: int, work: Path) -> dict:
    out = work / "cli.json"
    tengen("analyze", str(sgf), "--move", str(move), "--json", str(out), "--no-progress")
    return json.loads(out.read_text())


def library(sgf: Path, move: int, work: Path) -> dict:
    from tengen.api import analyze
    from tengen.io.report import strict_json_report

    return strict_json_report(analyze(sgf, move=move))


def batch(sgf: Path, move: int, work: Path) -> dict:
    out = work / "batch"
    tengen("batch", str(sgf), "--what", "endgame", "--turns", str(move), "--out", str(out), "--workers", "1",
           "--threads", str(os.cpu_count() or 1), "--no-progress")
    [results] = (out / "games").glob("*.jsonl")  # the record's name with a hash of its path
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    line = next(line for line in lines if line.get("turn") == move)
    if "error" in line:
        raise SystemExit(f"batch: turn {move} failed: {line['error']}")
    return line["result"]


def gtp(sgf: Path, move: int, work: Path) -> dict:
    reply = tengen("gtp", stdin=f"loadsgf {sgf} {move + 1}\ntengen-endgame json\nquit\n")
    answers = [block for block in reply.split("\n\n") if block.startswith("= {")]
    return json.loads(answers[0][2:])


def json_protocol(sgf: Path, move: int, work: Path) -> dict:
    from tengen.go.coords import to_gtp
    from tengen.go.sgf import load_game

    game = load_game(sgf)
    moves = [["B" if color > 0 else "W", "pass" if point is None else to_gtp(point, game.height)]
             for color, point in game.moves[:move]]
    query = {"id": "front-ends", "moves": moves, "rules": game.rules.name, "komi": game.rules.komi,
             "boardXSize": game.width, "boardYSize": game.height, "analyzeTurns": [move], "maxVisits": 1,
             "tengenEndgame": True}
    reply = tengen("analysis", stdin=json.dumps(query) + "\n")
    final = [json.loads(line) for line in reply.splitlines() if '"tengenEndgame"' in line]
    return final[-1]["tengenEndgame"]


def web(sgf: Path, move: int, work: Path) -> dict:
    import warnings

    warnings.filterwarnings("ignore", message=".*httpx.*")  # starlette's note on its test client's transport
    from fastapi.testclient import TestClient

    from tengen.web.app import create_app

    with TestClient(create_app()) as client:
        record = client.post("/api/records/paste", json={"sgf": sgf.read_text()}).json()["id"]
        job = client.post("/api/analyses", json={"record": record, "move": move}).json()
        while job["status"] in ("queued", "running"):
            time.sleep(0.5)
            job = client.get(f"/api/analyses/{job['id']}").json()
        if job["status"] != "done":
            raise SystemExit(f"web: the analysis job ended {job['status']}: {job.get('error')}")
        return client.get(f"/api/analyses/{job['id']}/result").json()


FRONT_ENDS = {"CLI": cli, "library": library, "batch": batch, "GTP": gtp, "JSON protocol": json_protocol,
              "web API": web}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgf", type=Path, default=EXAMPLE)
    parser.add_argument("--move", type=int, default=170, help="the position after this many moves (the demo's)")
    args = parser.parse_args()
    from tengen.endgame.options import AnalysisOptions
    from tengen.io.report import report_answer

    settings = AnalysisOptions().resolved().summary()
    print(f"{args.sgf.name} after {args.move} moves; every front end's defaults (AnalysisOptions(), resolved: "
          f"{', '.join(f'{k} {v}' for k, v in settings.items())})")
    answers = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, run in FRONT_ENDS.items():
            started = time.perf_counter()
            answers[name] = report_answer(run(args.sgf.resolve(), args.move, Path(tmp)))
            answer = answers[name]
            print(f"{name}: {len(answer['regions'])} regions, recommended {answer['recommended']} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
    anchor = answers["library"]
    agree = 0
    for name, answer in answers.items():
        if answer == anchor:
            agree += 1
            continue
        mine, theirs = set(answer["regions"]), set(anchor["regions"])
        print(f"{name} differs from the library: recommended {answer['recommended']} vs {anchor['recommended']}; "
              f"regions only here {sorted(mine - theirs)}; only in the library's {sorted(theirs - mine)}")
    print(f"front_ends_agree: {agree}/{len(answers)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
