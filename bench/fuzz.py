"""Hostile input through tengen: SGF files through `show`, `score --benson` and
`influence --model bouzy`, GTP command streams through `tengen gtp` under C.UTF-8 and en_US.UTF-8, and the
issue's nine reproducers as named cases; issue 47's findings are named cases too (the served-folder race,
failed streams of `tengen analysis`, FIFO and /dev/zero models, batch link loops and an output folder inside
the input, a deep journal line, a huge margin, a record at the move cap), and so are issue 61's (solve's goal
in network mode and its hostile problem files, cancelled web jobs' places, a ko region's thermograph, the
playout engine's board sizes and limits in GTP, review's warnings and range, impossible setups, an empty SQ[]
value, rules said as assumed).

    python bench/fuzz.py                          # up to 10,000 SGF inputs, 2,000 GTP sequences per locale
    python bench/fuzz.py --sgf 500 --gtp 100      # a quick run
    python bench/fuzz.py --budget 480             # the run's time bound in seconds (the default)

Inputs come from the hypothesis strategies below (random bytes, SGF-like text, generated games with odd
properties, mutated files of ../shared/data/sgf_corpora, node bombs up to the 16 MiB file limit); the test
suite uses the same strategies (tests/test_fuzz.py). SGF inputs run in-process in two long-lived worker
processes (`tengen.cli.main`, the address space limited to 2 GB, 60 s per input), a sample also through the
real console script; GTP sequences run (`tengen gtp --evaluator classic --visits 16`: the
protocol layer, whatever model this machine has cached) in workers started under each locale, whose
sys.stdin / sys.stdout are rebuilt per sequence with the encoding and error handler the locale gave them, a
sample also through the real console script; where a sequence sets a GTP clock, the moves of searches are
compared by status and id only (a clocked search stops on the wall clock). Each outcome is counted: success, clean error (one `tengen: error:` line / a `?`
answer), traceback (or `? internal error`), hang (> 60 s), over 2 GB, crash (a worker killed by a signal),
and for GTP broken framing (responses that are not one per command with the command's id). The last line
is `failures: N`, the sum of all but successes and clean errors.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from hypothesis import HealthCheck, Phase, given, seed, settings

from fuzzing.inputs import GTP_ARGS, HANG_SECONDS, LOCALES, MEMORY_LIMIT, QUEUED_SLACK, REPO, SGF_COMMANDS, bundled_sgf_files, comparable, corpus_files, expected_ids, gtp_paths, gtp_sessions, sgf_inputs
from fuzzing.outcomes import FAILURES, Tally, classify_gtp
from fuzzing.workers import Pool, Worker, locale_available, worker_main
from fuzzing.cases import named_cases

# ================================================================ locales and memory per move
MEMORY_PROBE = """
import gc, sys
from tengen.go.board import Board
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS"))
board = Board(int(sys.argv[1])); gc.collect(); before = rss()
for _ in range(5000):
    board.play(board.to_play, None)
print((rss() - before) / 5000)
"""


def memory_per_move() -> dict[int, float]:
    """Bytes of memory per move (one undo snapshot each): RSS over 5,000 passes, a fresh child per size."""
    return {side: float(subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(side)], capture_output=True, text=True,
                                       timeout=600, cwd=REPO).stdout) for side in (9, 19, 25)}


# ================================================================ main
def run_sgf_fuzz(count: int, corpus: list[bytes], real_every: int, env: dict,
                 deadline: float = float("inf")) -> tuple[Tally, Tally, int, int]:
    """`count` hypothesis-drawn SGF inputs through the three commands in turn (in-process workers), every
    `real_every`-th also through the real console script; no new input after `deadline` (time.monotonic).
    Returns the in-process tally, the real tally, the number of real runs whose outcome differed from the
    in-process one, and how many inputs were run."""
    tally, real = Tally(), Tally()
    outcomes: dict[str, dict[int, str]] = {"inproc": {}, "real": {}}

    def on_result(job, result):
        name = " ".join(job["argv"])
        kind = "real" if job.get("kind") == "real" else "inproc"
        (real if kind == "real" else tally).add(name, result["outcome"], result.get("detail", ""))
        if job["index"] % real_every == 0:
            outcomes[kind][job["index"]] = result["outcome"]

    pool = Pool(env, on_result)
    index = [0]

    @seed(27)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(sgf_inputs(corpus))
    def feed(data: bytes) -> None:
        if index[0] >= count or time.monotonic() > deadline:
            return
        i = index[0]
        index[0] += 1
        argv = SGF_COMMANDS[i % len(SGF_COMMANDS)]
        pool.put({"kind": "sgf", "argv": argv, "data": data, "index": i})
        if i % real_every == 0:
            pool.put({"kind": "real", "of": "sgf", "argv": argv, "data": data, "index": i, "env": env})

    feed()
    pool.close()
    mismatched = sum(1 for i, outcome in outcomes["real"].items() if outcomes["inproc"].get(i) != outcome)
    return tally, real, mismatched, index[0]


def draw_gtp_sessions(count: int, paths: list[str], deadline: float = float("inf")) -> list[bytes]:
    """Up to `count` GTP sessions from the strategy (fewer when `deadline`, time.monotonic, passes)."""
    sessions: list[bytes] = []

    @seed(27)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(gtp_sessions(paths))
    def collect(stream: bytes) -> None:
        if len(sessions) < count and time.monotonic() < deadline:
            sessions.append(stream)

    collect()
    return sessions


def run_gtp_fuzz(sessions: list[bytes], env: dict, real_first: int,
                 deadline: float = float("inf")) -> tuple[Tally, dict, str, int, int]:
    """The sessions through in-process workers under `env` (each command's outcome counted), the first
    `real_first` also through the real `tengen gtp`; no new session after `deadline`. Returns the tally, each
    session's stdout (by index: the sessions run), the worker's stdin encoding, and how many real runs were
    compared and how many of them differed."""
    tally = Tally()
    outputs: dict[int, bytes] = {}
    real_out: dict[int, bytes] = {}

    def on_result(job, result):
        i = job["index"]
        if job.get("kind") == "real":
            if result["outcome"] in FAILURES:
                tally.add("gtp (real process)", result["outcome"], result.get("detail", ""))
            else:
                classify_gtp(job["data"], result["out"], tally, "gtp (real process)")
            real_out[i] = result["out"]
            return
        if result["outcome"] in ("hang", "crash", "over 2 GB") or (result["outcome"] == "traceback" and "out" not in result):
            tally.add("gtp", result["outcome"], result.get("detail", ""))
            return
        if result["outcome"] == "traceback":
            tally.add("gtp", "traceback", result.get("detail", ""))
        classify_gtp(job["data"], result["out"], tally, "gtp")
        outputs[i] = result["out"]

    pool = Pool(env, on_result)
    for i, stream in enumerate(sessions):
        if time.monotonic() > deadline:
            break
        pool.put({"kind": "gtp", "data": stream, "index": i})
        if i < real_first:
            pool.put({"kind": "real", "of": "gtp", "data": stream, "index": i, "env": env, "argv": list(GTP_ARGS)})
    pool.close()
    probe = Worker(env)
    probe._start()
    encoding = "{}/{}".format(*probe.hello["encodings"]["stdin"])
    probe.stop()
    differed = sum(1 for i, out in real_out.items()
                   if comparable(sessions[i], outputs.get(i, b"")) != comparable(sessions[i], out))
    return tally, outputs, encoding, len(real_out), differed


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgf", type=int, default=10_000, help="SGF inputs (default 10,000)")
    ap.add_argument("--gtp", type=int, default=2_000, help="GTP sequences per locale (default 2,000)")
    ap.add_argument("--real-sgf-every", type=int, default=100, help="every N-th SGF input also through the real CLI")
    ap.add_argument("--real-gtp", type=int, default=50, help="the first N GTP sequences also through the real tengen gtp")
    ap.add_argument("--budget", type=float, default=480.0,
                    help=f"seconds for the whole run (default 480; {QUEUED_SLACK} s of it are kept for the jobs still "
                         "queued when a phase's time is up): the named cases always run, then the SGF inputs get "
                         "half of what is left, the GTP sequences' drawing a tenth of the rest and each locale's "
                         "GTP sequences half of what remains; inputs not reached are reported, not run")
    ap.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main(*args.worker)
        return 0
    started = time.monotonic()
    failures = 0
    workdir = Path(tempfile.mkdtemp(prefix="tengen-fuzz-"))
    try:
        corpus_paths = corpus_files()
        corpus = [p.read_bytes() for p in corpus_paths] + [p.read_bytes() for p in bundled_sgf_files()]
        print(f"tengen fuzz: address space limit {MEMORY_LIMIT / 1e9:.0f} GB per child, hang = no "
              f"answer in {HANG_SECONDS} s")
        print(f"corpus: {len(corpus_paths)} files of the shared SGF corpora" if corpus_paths else
              "corpus: the shared SGF corpora are absent (../shared/data/sgf_corpora): mutating bundled files only")
        print(f"corpus + bundled: {len(corpus)} files to mutate")

        per_move = memory_per_move()
        from tengen.go.board import MAX_MOVES

        worst = max(per_move.values()) * MAX_MOVES
        print("memory per move (undo snapshot, RSS over 5,000 passes): "
              + ", ".join(f"{s}x{s} {b / 1024:.1f} KiB" for s, b in per_move.items())
              + f"; cap {MAX_MOVES} moves per board: at most {worst / 1e6:.0f} MB")

        print("\n[the nine reproducers: real console script, 2 GB limit]")
        for case in named_cases():
            t0 = time.monotonic()
            case_dir = workdir / re.sub(r"\W+", "-", case.name)
            case_dir.mkdir()
            try:
                outcome, detail = case.check(case_dir)
            except Exception as exc:  # noqa: BLE001  (a bench bug must show, not stop the run)
                outcome, detail = "traceback", f"bench: {type(exc).__name__}: {exc}"
            failures += outcome in FAILURES
            detail = " ".join(detail.replace(str(case_dir), "<tmp>").split())  # the same text on every run
            print(f"  {case.name}: {outcome} ({time.monotonic() - t0:.1f} s): {detail[:240]}")

        t0 = time.monotonic()
        budget_end = started + args.budget - QUEUED_SLACK  # what each phase has queued then still finishes
        left = max(0.0, budget_end - t0)
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        sgf, real, mismatched, ran = run_sgf_fuzz(args.sgf, corpus, args.real_sgf_every, env, t0 + left / 2)
        print()
        reached = f"{ran} of {args.sgf} SGF inputs" + (" (the budget ran out)" if ran < args.sgf else "")
        for line in sgf.lines(f"[{reached}, in-process workers ({time.monotonic() - t0:.0f} s)]"):
            print(line)
        for line in real.lines(f"[{sum(sum(c.values()) for c in real.counts.values())} of them through the real "
                               f"console script (outcome differing from in-process: {mismatched})]"):
            print(line)
        failures += sgf.failures() + real.failures() + mismatched

        t0 = time.monotonic()
        sessions = draw_gtp_sessions(args.gtp, gtp_paths(workdir, corpus_paths),
                                     t0 + max(0.0, budget_end - t0) / 10)
        commands = sum(len(expected_ids(s)) for s in sessions)
        print(f"\n[{len(sessions)} GTP sequences ({commands} commands owed a response), per locale "
              f"(drawn in {time.monotonic() - t0:.0f} s)]")
        outputs_by_locale = {}
        share = max(0.0, budget_end - time.monotonic()) / len(LOCALES)
        for name in LOCALES:
            t0 = time.monotonic()
            if locale_available(name):
                locale_env, label = {**env, "LANG": name, "LC_ALL": name}, name
            else:
                locale_env = {**env, "LANG": name, "LC_ALL": name, "PYTHONIOENCODING": "utf-8:strict"}
                label = f"{name} NOT INSTALLED (locale -a): ran with PYTHONIOENCODING=utf-8:strict instead"
            tally, outputs, encoding, compared, differed = run_gtp_fuzz(sessions, locale_env, args.real_gtp,
                                                                        t0 + share)
            outputs_by_locale[name] = outputs
            title = (f"{label}: {len(outputs)} of {len(sessions)} sequences run; stdin {encoding}; {compared} "
                     f"sequences also through the real tengen gtp, {differed} with other output "
                     f"({time.monotonic() - t0:.0f} s)")
            for line in tally.lines(title):
                print(line)
            failures += tally.failures() + differed
        first, second = (outputs_by_locale[n] for n in LOCALES)
        both = [i for i in first if i in second]  # the sequences both locales reached within the budget
        same = sum(1 for i in both if comparable(sessions[i], first[i]) == comparable(sessions[i], second[i]))
        print(f"identical responses under {' and '.join(LOCALES)}: {same} of the {len(both)} sequences both ran")
        failures += len(both) - same
        print(f"\nruntime {time.monotonic() - started:.0f} s (budget {args.budget:.0f} s); failures = tracebacks (and '? internal error') + "
              "hangs + over 2 GB + crashes + broken GTP framing, plus real runs or locales that disagree")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
