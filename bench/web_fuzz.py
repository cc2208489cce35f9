"""The web API under fuzzing and load: starts `tengen serve --model tiny --workers 1 --queue-limit 2 --folder
<temp folder with two small records>` on a free localhost port, runs schemathesis (4.x, Python API) against
its /openapi.json (every operation, positive and negative generation, bounded per operation, at least 2,000
requests in all; checks `not_a_server_error` plus the schema-conformance checks, the latter reported apart),
then a load run: 3x (workers + queue limit) analyses at once, checking that the extra ones get 429 JSON
errors, the accepted ones finish or are cancelled, and the server still answers afterwards. Every 5xx seen
(responses, hangs, tracebacks in the server's stderr) is counted; the last line is `server_errors: N`.
Needs schemathesis (pip install -e '.[web,fuzz]' or pip install schemathesis).
Usage: python bench/web_fuzz.py [--requests 2000] [--seed N]"""
from __future__ import annotations

import argparse
import collections
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from web_smoke import free_port, wait_up  # noqa: E402  (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent
REQUEST_TIMEOUT_S = 30.0  # a request taking longer counts as a hang (a server error)
WORKERS, QUEUE_LIMIT = 1, 2

# the tests' 5x5 one-dame position (one undecided point) with a side line, and a 7x7 record of a few moves
ONE_DAME_SGF = ("(;GM[1]FF[4]SZ[5]KM[0]RU[Chinese]PB[Black]PW[White]"
                "AB[aa][ba][ab][bb][ac][bc][cc][bd][cd][ae][be][ce]AW[ca][da][db][eb][dc][ec][dd][ed][de]PL[B]"
                "(;B[cb];W[])(;W[cb]))")
SMALL_7_SGF = "(;GM[1]FF[4]SZ[7]KM[7.5]RU[Japanese];B[cc];W[ee];B[ce];W[ec];B[dd];W[de];B[ed];W[fd];B[dc])"
# hand-made near-miss records: odd sizes, komi, properties; each must get a 200 or a JSON 4xx
EDGE_RECORDS = [
    "(;SZ[0])", "(;SZ[1])", "(;SZ[2];B[aa];W[bb])", "(;SZ[19:5])", "(;SZ[52])", "(;SZ[53])", "(;SZ[-3])",
    "(;SZ[abc])", "(;KM[nan])", "(;KM[inf])", "(;KM[1e400])", "(;KM[-inf])", "(;SZ[5]HA[99])",
    "(;SZ[5];B[zz])", "(;SZ[5];B[aa];B[aa])", "(;SZ[5]AB[aa]AW[aa])", "(;SZ[5];B[tt])", "(;SZ[5];W[ee];B[])",
    "(;SZ[5]RU[nonsense];B[cc])", "(;SZ[5]PL[X])", "(;SZ[5]AB[aa:ee])", "(;SZ[5]AE[aa]AB[ab])",
    "(;SZ[5](;B[aa])(;W[aa](;B[bb])(;B[cc])))", "(;FF[99]GM[2]SZ[5])", "(;CA[nonsense-charset]SZ[5];B[aa])",
    "()", "(;)", "(;SZ[5]", ";SZ[5])", "(;SZ[5]" + ";B[aa];W[ab]" * 300 + ")", "\x00(;SZ[5])",
    "(;SZ[3];B[aa];W[ba];B[ca];W[ab];B[bb];W[cb];B[ac];W[bc];B[cc])",
]


class Tally:
    """What was observed: requests and status classes per phase, 5xx responses and hangs."""

    def __init__(self) -> None:
        self.requests: collections.Counter = collections.Counter()
        self.classes: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.server_errors: list[str] = []  # one line per 5xx response or hang
        self.lock = threading.Lock()

    def saw(self, phase: str, label: str, status: int | None, body: str = "") -> None:
        with self.lock:
            self.requests[phase] += 1
            self.classes[phase]["hang/conn" if status is None else f"{status // 100}xx"] += 1
            if status is None or status >= 500:
                self.server_errors.append(f"{phase}: {label} -> {status or 'no answer'} {body[:200]!r}")


def fuzz_phase(url: str, total: int, seed: int, tally: Tally, session) -> dict:
    """Schemathesis over every operation in /openapi.json, positive and negative, until `total` requests."""
    import hypothesis
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st
    from schemathesis import GenerationMode
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    # the upload's raw body (application/x-go-sgf): bytes, and SGF-looking texts put together from pieces
    pieces = st.sampled_from(["(", ")", ";", "SZ[5]", "SZ[19]", "SZ[0]", "SZ[7:3]", "KM[6.5]", "KM[x]", "B[aa]",
                              "W[bb]", "B[]", "W[tt]", "AB[aa][bb]", "AW[cc]", "AE[aa]", "PL[W]", "HA[2]",
                              "RU[Japanese]", "CA[latin-1]", "C[\\]]", "[", "]", "\\", "é", "\x00"])
    sgf_like = st.lists(pieces, max_size=30).map(lambda xs: "".join(xs).encode("utf-8"))
    schemathesis.openapi.media_type("application/x-go-sgf", st.one_of(st.binary(max_size=2000), sgf_like))
    schema = schemathesis.openapi.from_url(url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    rng = random.Random(seed)

    # a couple of live ids so generated requests also reach past the 404s: records and a finished analysis
    record_ids = [session.post(url + "/api/records/paste", json={"sgf": s}, timeout=REQUEST_TIMEOUT_S).json()["id"]
                  for s in (ONE_DAME_SGF, SMALL_7_SGF)]
    r = session.post(url + "/api/analyses", json={"record": record_ids[0], "max_nodes": 20, "max_total_nodes": 50,
                                                  "time_limit_s": 30}, timeout=REQUEST_TIMEOUT_S)
    job_ids = [r.json()["id"]] if r.status_code == 202 else []
    deadline = time.monotonic() + 60
    while job_ids and time.monotonic() < deadline:
        status = session.get(f"{url}/api/analyses/{job_ids[0]}", timeout=REQUEST_TIMEOUT_S).json()["status"]
        if status not in ("queued", "running"):
            break
        time.sleep(0.2)

    conformance: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    conformance_examples: dict[str, str] = {}
    per_op: collections.Counter = collections.Counter()
    fuzz_jobs: dict[str, str] = {}  # analyses the fuzzing started (and cancelled at once): id -> request
    generated = [0]  # requests schemathesis generated (the hand-made edge records not counted)
    checks = {"status_code_conformance": status_code_conformance,
              "content_type_conformance": content_type_conformance,
              "response_schema_conformance": response_schema_conformance}

    def steer(case) -> None:
        """Half the time, point a generated request at a live record / analysis / region (kept cheap)."""
        if rng.random() < 0.5:
            pp = case.path_parameters or {}
            if "record_id" in pp:
                pp["record_id"] = rng.choice(record_ids)
            if "job_id" in pp and job_ids:
                pp["job_id"] = rng.choice(job_ids)
            if "label" in pp:
                pp["label"] = rng.choice(["A", "B", "Z", pp["label"]])
            if "model" in pp:
                pp["model"] = rng.choice(["zobrist", "bouzy", "cross", pp["model"]])
            if isinstance(case.body, dict) and "record" in case.body:
                case.body["record"] = rng.choice(record_ids)
            if isinstance(case.body, dict) and "path" in case.body:
                case.body["path"] = rng.choice(["one_dame.sgf", "small7.sgf", "../one_dame.sgf", "/etc/passwd",
                                                "sub/../one_dame.sgf", case.body["path"]])
        if isinstance(case.body, dict) and case.operation.path == "/api/analyses":
            # small budgets: the fuzz phase is about input handling, not about running analyses
            for key, cap in (("max_nodes", 20), ("max_total_nodes", 60)):
                if isinstance(case.body.get(key), int) and not isinstance(case.body.get(key), bool) \
                        and case.body[key] > cap:
                    case.body[key] = cap
            if isinstance(case.body.get("time_limit_s"), (int, float)) and case.body["time_limit_s"] > 5:
                case.body["time_limit_s"] = 5.0

    def send(case) -> None:
        label = f"{case.operation.method.upper()} {case.operation.path}"
        steer(case)
        try:
            response = case.call(base_url=url, session=session, timeout=REQUEST_TIMEOUT_S)
        except Exception as exc:  # a timeout or a dropped connection: the server hung or died  # noqa: BLE001
            tally.saw("fuzz", label, None, f"{type(exc).__name__}: {exc}")
            return
        per_op[label] += 1
        generated[0] += 1
        tally.saw("fuzz", label, response.status_code, response.text)
        if response.status_code < 500:
            try:
                case.validate_response(response, checks=[not_a_server_error])
            except (Exception, BaseExceptionGroup) as exc:  # schemathesis raises a FailureGroup  # noqa: BLE001
                tally.server_errors.append(f"fuzz: {label} not_a_server_error: {str(exc)[:200]!r}")
        for name, check in checks.items():
            try:
                case.validate_response(response, checks=[check])
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001
                conformance[name][f"{label} -> {response.status_code}"] += 1
                conformance_examples.setdefault(name, f"{label} -> {response.status_code}: "
                                                      + " ".join(str(exc).split())[:160])
        if case.operation.path == "/api/analyses" and response.status_code == 202:
            job = response.json()["id"]  # cancel at once: keeps the queue (and the CPU) free for the fuzzing
            fuzz_jobs[job] = json.dumps(case.body)[:300]
            session.delete(f"{url}/api/analyses/{job}", timeout=REQUEST_TIMEOUT_S)
        elif case.operation.path == "/api/records/paste" and response.status_code == 200 and len(record_ids) < 8:
            record_ids.append(response.json()["id"])

    # hand-made near-miss records first (paste and upload): generated strings rarely look like SGF
    for text in EDGE_RECORDS:
        for how in ("paste", "upload"):
            try:
                if how == "paste":
                    r = session.post(url + "/api/records/paste", json={"sgf": text}, timeout=REQUEST_TIMEOUT_S)
                else:
                    r = session.post(url + "/api/records/upload", data=text.encode("utf-8", "surrogatepass"),
                                     headers={"content-type": "application/x-go-sgf"}, timeout=REQUEST_TIMEOUT_S)
                tally.saw("fuzz", f"POST /api/records/{how} (edge record)", r.status_code, r.text)
                per_op[f"POST /api/records/{how} (edge)"] += 1
                if r.status_code == 200:  # step through it: positions at every move, and an evaluation
                    rec = r.json()
                    for move in sorted({0, len(rec["moves"]) // 2, len(rec["moves"])}):
                        for path in ("/api/position", "/api/influence/bouzy", "/api/evaluate"):
                            r2 = session.post(url + path, json={"record": rec["id"], "move": move},
                                              timeout=REQUEST_TIMEOUT_S)
                            tally.saw("fuzz", f"POST {path} (edge record)", r2.status_code, r2.text)
            except Exception as exc:  # noqa: BLE001
                tally.saw("fuzz", f"POST /api/records/{how} (edge record)", None, f"{type(exc).__name__}: {exc}")

    modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    rounds = 0
    while generated[0] < total and rounds < 6:
        rounds += 1
        left = total - generated[0]
        per_run = max(10, math.ceil(left * 1.15 / (len(operations) * len(modes))))
        for op in operations:
            for mode in modes:
                try:
                    strategy = op.as_strategy(generation_mode=mode)
                except Exception:  # e.g. no negative form for an operation without inputs  # noqa: BLE001, S112
                    continue

                @settings(max_examples=per_run, deadline=None, database=None, phases=[Phase.generate],
                          suppress_health_check=list(HealthCheck), verbosity=hypothesis.Verbosity.quiet)
                @given(case=strategy)
                def run(case) -> None:
                    send(case)

                try:
                    run()
                except hypothesis.errors.Unsatisfiable:
                    pass
                except Exception as exc:  # noqa: BLE001  (a generation problem of schemathesis, not an answer)
                    print(f"  (generation stopped for {op.method.upper()} {op.path} {mode.value}: "
                          f"{type(exc).__name__})")
    # every analysis the fuzzing started must end (cancelled at once, or at its 5 s limit): a stuck one is a hang
    deadline = time.monotonic() + 60
    stuck: dict[str, dict] = {}
    while time.monotonic() < deadline:
        stuck = {}
        for job, request in fuzz_jobs.items():
            r = session.get(f"{url}/api/analyses/{job}", timeout=REQUEST_TIMEOUT_S)
            if r.status_code == 200 and r.json()["status"] in ("queued", "running"):
                stuck[job] = {**r.json(), "request": request}
        if not stuck:
            break
        time.sleep(1)
    for job, info in stuck.items():
        tally.server_errors.append(f"fuzz: analysis {job} still {info['status']} 60 s after its cancellation "
                                   f"(stage {info['stage']!r}, {info['seconds']} s): {info['request']}")
    return {"operations": len(operations), "rounds": rounds, "jobs": len(fuzz_jobs), "stuck": len(stuck),
            "generated": generated[0], "per_op": per_op, "conformance": conformance,
            "conformance_examples": conformance_examples}


def load_phase(url: str, tally: Tally, session_factory) -> dict:
    """3x (workers + queue limit) analyses at once: the extras get 429 JSON errors, the accepted ones finish or
    are cancelled, and the server answers afterwards."""
    setup = session_factory()
    record = setup.post(url + "/api/records/paste", json={"sgf": SMALL_7_SGF}, timeout=REQUEST_TIMEOUT_S).json()["id"]
    n = 3 * (WORKERS + QUEUE_LIMIT)
    barrier = threading.Barrier(n)
    answers: list = [None] * n

    def one(i: int) -> None:
        s = session_factory()
        body = {"record": record, "move": rng_moves[i], "max_nodes": 40, "max_total_nodes": 120, "time_limit_s": 60}
        barrier.wait()
        try:
            r = s.post(url + "/api/analyses", json=body, timeout=REQUEST_TIMEOUT_S)
            tally.saw("load", "POST /api/analyses", r.status_code, r.text)
            answers[i] = (r.status_code, r.json() if r.headers.get("content-type", "").startswith("application/json")
                          else r.text)
        except Exception as exc:  # noqa: BLE001
            tally.saw("load", "POST /api/analyses", None, f"{type(exc).__name__}: {exc}")

    rng_moves = [random.Random(i).randrange(0, 10) for i in range(n)]
    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = [a[1]["id"] for a in answers if a and a[0] == 202]
    refused = [a for a in answers if a and a[0] == 429]
    bad_429 = [a for a in refused if not (isinstance(a[1], dict) and set(a[1]) == {"error", "status"}
                                          and a[1]["status"] == 429 and "\n" not in a[1]["error"])]
    other = [a for a in answers if a and a[0] not in (202, 429)]
    # a second wave while the first runs: still 429 where full, and status / events answer meanwhile
    cancelled = accepted[len(accepted) // 2:]  # cancel the later half, let the first ones finish
    for job in cancelled:
        r = setup.delete(f"{url}/api/analyses/{job}", timeout=REQUEST_TIMEOUT_S)
        tally.saw("load", "DELETE /api/analyses/{id}", r.status_code, r.text)
    if accepted:
        r = setup.get(f"{url}/api/analyses/{accepted[0]}/events", timeout=REQUEST_TIMEOUT_S * 4, stream=True)
        tally.saw("load", "GET /api/analyses/{id}/events", r.status_code)
        for line in r.iter_lines(decode_unicode=True):
            if line and line.startswith("event: end"):
                break
        r.close()
    finals: dict[str, str] = {}
    deadline = time.monotonic() + 180
    while len(finals) < len(accepted) and time.monotonic() < deadline:
        for job in accepted:
            if job in finals:
                continue
            r = setup.get(f"{url}/api/analyses/{job}", timeout=REQUEST_TIMEOUT_S)
            tally.saw("load", "GET /api/analyses/{id}", r.status_code, r.text)
            if r.status_code == 200 and r.json()["status"] in ("done", "failed", "cancelled"):
                finals[job] = r.json()["status"]
        time.sleep(0.3)
    for job, status in finals.items():
        if status == "done":
            r = setup.get(f"{url}/api/analyses/{job}/result", timeout=REQUEST_TIMEOUT_S)
            tally.saw("load", "GET /api/analyses/{id}/result", r.status_code, r.text)
            r = setup.get(f"{url}/api/analyses/{job}/recommended", timeout=REQUEST_TIMEOUT_S)
            tally.saw("load", "GET /api/analyses/{id}/recommended", r.status_code, r.text)
    # after the load: the server still answers, and a new analysis is accepted again
    try:
        r = setup.get(url + "/api/files", timeout=REQUEST_TIMEOUT_S)
        tally.saw("load", "GET /api/files (after)", r.status_code, r.text)
        responsive = r.status_code == 200
        r = setup.post(url + "/api/analyses", json={"record": record, "max_nodes": 10, "max_total_nodes": 20,
                                                    "time_limit_s": 10}, timeout=REQUEST_TIMEOUT_S)
        tally.saw("load", "POST /api/analyses (after)", r.status_code, r.text)
        accepts_again = r.status_code == 202
        if accepts_again:
            setup.delete(f"{url}/api/analyses/{r.json()['id']}", timeout=REQUEST_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001
        tally.saw("load", "GET /api/files (after)", None, f"{type(exc).__name__}: {exc}")
        responsive = accepts_again = False
    return {"sent": n, "accepted": len(accepted), "refused_429": len(refused), "bad_429_bodies": len(bad_429),
            "other": [a[0] for a in other], "finals": collections.Counter(finals.values()),
            "unfinished": len(accepted) - len(finals), "responsive": responsive, "accepts_again": accepts_again,
            "seconds": time.monotonic() - t0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="generated requests at least (fuzz phase)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    try:
        import requests
        import schemathesis  # noqa: F401
    except ImportError as exc:
        raise SystemExit(f"needs schemathesis: pip install -e '.[web,fuzz]' ({exc})")

    t_start = time.monotonic()
    port = args.port or free_port()
    url = f"http://127.0.0.1:{port}"
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="tengen-web-fuzz-") as tmp:
        folder = Path(tmp) / "records"
        folder.mkdir()
        (folder / "one_dame.sgf").write_text(ONE_DAME_SGF)
        (folder / "small7.sgf").write_text(SMALL_7_SGF)
        (Path(tmp) / "outside.sgf").write_text(ONE_DAME_SGF)  # must never be served
        stderr_path = Path(tmp) / "server.stderr"
        cmd = [sys.executable, "-m", "tengen", "serve", "--model", "tiny", "--folder", str(folder),
               "--port", str(port), "--workers", str(WORKERS), "--queue-limit", str(QUEUE_LIMIT)]
        print("server:", " ".join(cmd[1:]))
        with open(stderr_path, "w") as err:
            server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err,
                                      env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            wait_up(url, server, seconds=90)
            session = requests.Session()
            print(f"fuzz: schemathesis {__import__('schemathesis').__version__} against {url}/openapi.json")
            t0 = time.monotonic()
            fz = fuzz_phase(url, args.requests, args.seed, tally, session)
            print(f"fuzz: {fz['operations']} operations, {fz['rounds']} round(s), {fz['generated']} generated "
                  f"requests ({tally.requests['fuzz']} in all with the hand-made edge records) "
                  f"in {time.monotonic() - t0:.0f} s")
            for label, count in sorted(fz["per_op"].items()):
                print(f"  {count:5d}  {label}")
            print("fuzz status classes: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.classes["fuzz"].items())))
            n_conf = sum(sum(c.values()) for c in fz["conformance"].values())
            print(f"fuzz schema-conformance failures (not server errors): {n_conf}")
            for name, counter in sorted(fz["conformance"].items()):
                print(f"  {name}: {sum(counter.values())} "
                      f"({', '.join(f'{k} x{v}' for k, v in counter.most_common(4))})")
                print(f"    e.g. {fz['conformance_examples'][name]}")
            print(f"fuzz: {fz['jobs']} analyses started (each cancelled at once), {fz['stuck']} never ended")
            fuzz_5xx = len(tally.server_errors)
            print(f"fuzz server errors: {fuzz_5xx}")

            ld = load_phase(url, tally, requests.Session)
            print(f"load: {ld['sent']} analyses at once (workers {WORKERS}, queue limit {QUEUE_LIMIT}): "
                  f"{ld['accepted']} accepted, {ld['refused_429']} refused with 429 "
                  f"({ld['bad_429_bodies']} without a JSON error body), other statuses {ld['other']}")
            print(f"load: accepted ones ended {dict(ld['finals'])}, {ld['unfinished']} unfinished; "
                  f"responsive after: {ld['responsive']}, accepts again: {ld['accepts_again']} "
                  f"({ld['seconds']:.0f} s)")
            print(f"load: {tally.requests['load']} requests; status classes: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(tally.classes["load"].items())))
            load_problems = (ld["refused_429"] == 0) + (ld["bad_429_bodies"] > 0) + bool(ld["unfinished"]) \
                + (not ld["responsive"]) + (not ld["accepts_again"]) + bool(ld["other"])
            print(f"load server errors: {len(tally.server_errors) - fuzz_5xx}; load check problems: {load_problems}")
            load_ok = load_problems == 0
            alive = server.poll() is None
        finally:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        log = stderr_path.read_text(errors="replace")
    tracebacks = log.count("Traceback (most recent call last)")
    logged = log.count("unexpected error on")
    print(f"server stderr: {tracebacks} traceback(s), {logged} 'unexpected error' log line(s); "
          f"server alive at the end: {alive}")
    if tracebacks:
        print("  first: " + " | ".join(log[log.index("Traceback"):].splitlines()[-3:])[:400])
    for line in tally.server_errors[:10]:
        print("  5xx: " + line)
    n5xx = len(tally.server_errors)
    server_errors = n5xx + max(0, tracebacks - n5xx) + (not alive)
    print(f"total: {sum(tally.requests.values())} requests in {time.monotonic() - t_start:.0f} s; "
          f"5xx/hangs {n5xx}, unmatched tracebacks {max(0, tracebacks - n5xx)}, server died {not alive}")
    print(f"server_errors: {server_errors}")
    return 0 if server_errors == 0 and load_ok else 1


if __name__ == "__main__":
    sys.exit(main())
