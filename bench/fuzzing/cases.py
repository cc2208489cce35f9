"""The named hostile-input cases: the reproducers of earlier findings, each a function of a work folder that
returns (outcome, detail)."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from fuzzing.inputs import HANG_SECONDS, HUGE, REPO, SGF_COMMANDS, expected_ids, parse_responses
from fuzzing.outcomes import classify_cli
from fuzzing.workers import _limit_memory, locale_available, run_tengen, tengen_argv


# ================================================================ the nine reproducers
@dataclass
class Case:
    name: str
    check: Callable[[Path], tuple[str, str]]  # workdir -> (outcome, what happened); outcome per OUTCOMES


def _expect_cli_error(args: list[str], problem: str, **kwargs) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        result = run_tengen([a.format(workdir=workdir) for a in args], **kwargs)
        last = result["err"].strip().splitlines()[-1:] or [""]
        if result["outcome"] == "clean error" and problem not in last[0]:
            return "traceback", f"unexpected message: {last[0]}"
        return result["outcome"], last[0]
    return check


def _expect_gtp(stream: bytes, answers: Callable[[list], Optional[str]], args: Iterable[str] = (),
                env: Optional[dict] = None, **kwargs) -> Callable[[Path], tuple[str, str]]:
    """A `tengen gtp` run whose responses must be framed one per command; `answers(responses)` returns what
    is wrong with them (None: as expected)."""
    def check(workdir: Path) -> tuple[str, str]:
        data = stream.replace(b"{workdir}", str(workdir).encode())
        result = run_tengen(["gtp", *args], stdin=data, env=env, **kwargs)
        if result["outcome"] not in ("success", "clean error"):
            return result["outcome"], result["err"].strip()[-160:]
        responses = parse_responses(result["out"])
        if responses is None or [r[1] for r in responses] != expected_ids(data):
            return "broken framing", repr(result["out"][:160])
        if any(r[0] == "?" and "internal error" in r[2] for r in responses):
            return "traceback", next(r[2] for r in responses if "internal error" in r[2])[:160]
        wrong = answers(responses)
        if wrong:
            return "traceback", wrong
        shown = [r[2].split("\n")[0] for r in responses]
        return "clean error" if any(r[0] == "?" for r in responses) else "success", " | ".join(
            dict.fromkeys(s[:70] for s in shown))
    return check


def _offline_env(workdir: Path, links: Optional[Path] = None, model_dir: Optional[Path] = None) -> dict:
    """pip with no index (no network) and only `links` as a source; an empty model cache of its own."""
    model_dir = model_dir or Path(tempfile.mkdtemp(dir=workdir, prefix="models-"))
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "TENGEN_MODEL_DIR": str(model_dir)}
    env["PIP_FIND_LINKS"] = str(links) if links else ""
    return env


def _stand_in_wheel(workdir: Path) -> tuple[Path, str]:
    """A folder holding a katrain-1.20.0 wheel for pip to 'download' offline, with the real default network
    when the user's cache has it (the full first-use path then runs), else a tiny random one (its checksum
    is then refused, which is also a clean answer)."""
    from tengen.eval.katago import weights

    links = workdir / "links"
    links.mkdir(exist_ok=True)
    cached = Path.home() / ".cache" / "tengen" / "models" / weights.DEFAULT_MODEL
    real = cached.is_file() and weights.sha256_of(cached) == weights.DEFAULT_SHA256
    if real:
        model = cached
    else:
        from tengen.eval.katago.model_writer import write_model
        from tengen.eval.katago.tiny import random_model

        model = write_model(random_model(3, 15), workdir / "tiny.bin.gz")
    wheel = links / "katrain-1.20.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.write(model, f"katrain/models/{weights.DEFAULT_MODEL}")
        zf.writestr("katrain-1.20.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: katrain\nVersion: 1.20.0\n")
        zf.writestr("katrain-1.20.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: tengen-fuzz\n"
                    "Root-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr("katrain-1.20.0.dist-info/RECORD", "")
    return links, "the real default network" if real else "a tiny random network (the default one is not cached)"


def _case_first_download(workdir: Path) -> tuple[str, str]:
    links, what = _stand_in_wheel(workdir)
    env = _offline_env(workdir, links)
    # with the real network final_score must answer; a tiny one is refused by its checksum: a clean '?'
    check = _expect_gtp(b"boardsize 9\n1 final_score\nquit\n",
                        lambda r: None if (r[1][2].startswith("=1 ") or "tiny" in what) else f"final_score: {r[1][2][:120]}",
                        args=["--dead-stones", "network"], env=env, timeout=600)
    outcome, detail = check(workdir)
    models = Path(env["TENGEN_MODEL_DIR"])
    leftovers = [p.name for p in models.iterdir() if p.name.endswith(".part")] if models.is_dir() else []
    if leftovers:
        return "traceback", f"temporary files left: {leftovers}"
    return outcome, f"pip offline from a stand-in wheel with {what}: {detail}"


def _case_two_fetches(workdir: Path) -> tuple[str, str]:
    links, what = _stand_in_wheel(workdir)
    models = workdir / "two-fetches"
    env = _offline_env(workdir, links, models)
    procs = [subprocess.Popen(tengen_argv("models", "--fetch"), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, cwd=REPO, preexec_fn=_limit_memory) for _ in range(2)]
    try:
        results = [(p.wait(timeout=600), p.stderr.read().decode("utf-8", "replace")) for p in procs]
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        return "hang", "two fetches at once"
    outcomes = [classify_cli(rc, err) for rc, err in results]
    names = sorted(p.name for p in models.iterdir()) if models.is_dir() else []
    if any(o not in ("success", "clean error") for o in outcomes):
        return next(o for o in outcomes if o not in ("success", "clean error")), results[0][1][-160:]
    if [n for n in names if n.endswith(".part")]:
        return "traceback", f"temporary files left: {names}"
    return outcomes[0], f"with {what}: exit {[rc for rc, _ in results]}, cache holds {names}"


def _case_fifo_gtp(workdir: Path) -> tuple[str, str]:
    fifo = workdir / "gtp.fifo"
    os.mkfifo(fifo)
    return _expect_gtp(f"1 loadsgf {fifo}\n2 name\n".encode(),
                       lambda r: None if [x[2] for x in r] == ["?1 cannot load file", "=2 tengen"] else str(r))(workdir)


def _case_fifo_cli(command: list[str]) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        fifo = workdir / f"{command[0]}.fifo"
        os.mkfifo(fifo)
        return _expect_cli_error([command[0], str(fifo), *command[1:]], "is not a regular file")(workdir)
    return check


def _write_case(name: str, data: bytes) -> Callable[[Path], str]:
    def path(workdir: Path) -> str:
        target = workdir / name
        target.write_bytes(data)
        return str(target)
    return path


def _cli_on_file(args: list[str], name: str, data: bytes, problem: str) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        path = _write_case(name, data)(workdir)
        return _expect_cli_error([args[0], path, *args[1:]], problem)(workdir)
    return check


def _strict_locale_env() -> tuple[dict, str]:
    if locale_available("en_US.UTF-8"):
        return {**os.environ, "LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"}, "LANG=en_US.UTF-8"
    return {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}, "PYTHONIOENCODING=utf-8:strict (en_US.UTF-8 not installed)"


def _case_closed_stdin(workdir: Path) -> tuple[str, str]:
    result = run_tengen(["gtp"], close_stdin=True)
    if result["outcome"] != "success" or result["out"] or result["err"]:
        return result["outcome"] if result["outcome"] != "success" else "traceback", (result["err"] or repr(result["out"]))[-160:]
    return "success", "exit 0, nothing on stdout or stderr"


def _case_strict_locale(workdir: Path) -> tuple[str, str]:
    env, how = _strict_locale_env()
    outcome, detail = _expect_gtp(b"name\nplay b \xff\nquit\n", lambda r: None if [x[0] for x in r] == ["=", "?", "="]
                                  else str(r), env=env)(workdir)
    return outcome, f"{how}: {detail}"


def _case_long_game(workdir: Path) -> tuple[str, str]:
    from tengen.go.board import MAX_RECORD_MOVES

    stream = b"play b pass\n" * (MAX_RECORD_MOVES + 1) + b"undo\nplay w pass\nquit\n"

    def answers(r):
        texts = [x[2] for x in r]
        ok = texts[:MAX_RECORD_MOVES] == ["="] * MAX_RECORD_MOVES and texts[MAX_RECORD_MOVES].startswith("? the game is too long")
        return None if ok and texts[MAX_RECORD_MOVES + 1:] == ["=", "=", "="] else str(texts[MAX_RECORD_MOVES - 1:])[:160]
    outcome, detail = _expect_gtp(stream, answers)(workdir)
    return outcome, f"{MAX_RECORD_MOVES + 1} x play b pass on 19x19: {detail}"


def named_cases() -> list[Case]:
    """The issue's nine reproducers (each through the real console script under the 2 GB limit), then issue
    47's and issue 61's findings."""
    huge = HUGE.encode()
    return [
        Case("1 memory per move: show p.sgf (150,000 passes)",
             _cli_on_file(["show"], "p.sgf", b"(;SZ[19]" + b";B[]" * 150000 + b")", "the main line is too long")),
        Case("2 node bomb: 10 MB of empty nodes",
             _cli_on_file(["show"], "nodes.sgf", b"(;SZ[19]" + b";" * 10_000_000 + b")", "too many nodes")),
        Case("2 node bomb: 5 million nested variations",
             _cli_on_file(["show"], "nested.sgf", b"(;SZ[19]" + b"(;" * 5_000_000 + b")" * 5_000_001, "nested too deep")),
        Case("2 node bomb: an 873,000-move game",
             _cli_on_file(["show"], "moves.sgf", b"(;SZ[19]" + b";B[aa];W[bb]" * 436_500 + b")", "too many nodes")),
        *[Case(f"3 FIFO with no writer: {' '.join(c)}", _case_fifo_cli(c)) for c in SGF_COMMANDS],
        Case("3 FIFO with no writer: GTP loadsgf", _case_fifo_gtp),
        Case("4 GTP integers over 4,300 digits", _expect_gtp(
            b"play b A" + huge + b"\nset_free_handicap A1 B" + huge + b"\nboardsize " + huge
            + b"\nloadsgf src/tengen/data/example.sgf " + huge + b"\nquit\n",
            lambda r: None if [x[2] for x in r][:3] == ["? invalid vertex", "? bad vertex list", "? unacceptable size"]
            and r[3][2].startswith("= ") else str(r)[:160])),
        Case("5 an invalid byte under a strict UTF-8 locale", _case_strict_locale),
        Case("6 closed stdin: tengen gtp <&-", _case_closed_stdin),
        Case("7 first model download in tengen gtp --dead-stones network", _case_first_download),
        Case("8 a very long GTP game", _case_long_game),
        Case("9 offline, no model: tengen models --fetch", lambda w: _expect_cli_error(
            ["models", "--fetch"], "--model FILE", env=_offline_env(w))(w)),
        Case("9 offline, no model: tengen eval", lambda w: _expect_cli_error(
            ["eval", "src/tengen/data/example.sgf"], "--model FILE", env=_offline_env(w))(w)),
        Case("9 offline, corrupt cached model: tengen eval", _case_corrupt_model),
        Case("9 two fetches at once", _case_two_fetches),
        *issue47_cases(),
        *issue61_cases(),
    ]


# ================================================================ issue 47: servers and batch
EXAMPLE = "src/tengen/data/example.sgf"
ANALYSIS_QUERY = '{"id":"q","moves":[],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":2}'


def issue47_cases() -> list[Case]:
    """Issue 47's findings, each a named case: the served-folder race, failed streams of `tengen analysis`,
    FIFO and /dev/zero models, batch link loops and an output folder inside the input, a deep journal line,
    a huge margin."""
    cases = [Case("47.1 served folder: a record swapped for a link to an outside file mid-read", _case_served_race)]
    engine = " ".join(shlex.quote(a) for a in tengen_argv("analysis", "--model", "tiny"))
    for name, script, problem in (
            ("closed stdin", f"{engine} <&-", "stdin is closed"),
            ("closed stdout", f"echo '{ANALYSIS_QUERY}' | {engine} >&-", "stdout is closed"),
            ("stdout on /dev/full", f"echo '{ANALYSIS_QUERY}' | {engine} > /dev/full", "No space left on device"),
            ("a reader that closes the pipe",
             f"(for i in 1 2 3 4 5 6; do echo '{ANALYSIS_QUERY}'; done; sleep 1) | {engine} 2>&3 | head -c 1 >/dev/null",
             "Broken pipe")):
        cases.append(Case(f"47.3 tengen analysis, {name}", _shell_one_line_error(script, problem)))
    for command in (["eval", EXAMPLE], ["analyze", EXAMPLE, "--predictor", "kata"], ["gtp"], ["analysis"]):
        for model in ("FIFO", "/dev/zero"):
            cases.append(Case(f"47.4 --model {model}: tengen {command[0]}", _case_bad_model(command, model)))
    cases += [
        Case("47.5 batch: link loops, a link to a parent, a rerun with --out inside the input", _case_batch_links),
        Case("47.6 batch: a journal line of 100,000 nested brackets", _case_deep_journal),
        Case("47.7 analyze --evaluator classic --margin 1000000000", lambda w: _expect_cli_error(
            ["analyze", EXAMPLE, "--evaluator", "classic", "--margin", "1000000000"], "--margin from 0 to")(w)),
        Case("47.8 analyze a record at the move cap (9,999 passes), then one past it", _case_record_at_cap),
    ]
    return cases


def _case_record_at_cap(workdir: Path) -> tuple[str, str]:
    """A record one move under the cap is analyzed (its reading plays past the record's last move); one
    move over it is refused in one line."""
    from tengen.go.board import MAX_RECORD_MOVES

    def record(moves: int) -> bytes:
        passes = "".join(";%s[]" % "BW"[i % 2] for i in range(moves))
        return f"(;GM[1]FF[4]SZ[7]KM[7.5]AB[cc][dc][ec]AW[cd][dd][ed]{passes})".encode()

    budget = ["--evaluator", "classic", "--max-nodes", "10", "--max-total-nodes", "20", "--no-progress"]
    under = run_tengen(["analyze", _write_case("under.sgf", record(MAX_RECORD_MOVES - 1))(workdir), *budget])
    if under["outcome"] != "success":
        return under["outcome"], (under["err"].strip().splitlines() or [""])[-1]
    over = _expect_cli_error(["analyze", _write_case("over.sgf", record(MAX_RECORD_MOVES + 1))(workdir), *budget],
                             "the main line is too long")(workdir)
    return ("success" if over[0] == "clean error" else over[0]), f"{MAX_RECORD_MOVES - 1} moves analyzed; {over[1]}"


def _shell_one_line_error(script: str, problem: str) -> Callable[[Path], tuple[str, str]]:
    """A shell pipeline around the engine (fd 3: its stderr): one line naming `problem`, a non-zero exit."""
    def check(workdir: Path) -> tuple[str, str]:
        try:
            done = subprocess.run(["bash", "-c", f"exec 3>&2; {script}; exit ${{PIPESTATUS[1]:-$?}}"],
                                  capture_output=True, text=True, timeout=HANG_SECONDS, cwd=REPO,
                                  preexec_fn=_limit_memory)
        except subprocess.TimeoutExpired:
            return "hang", ""
        lines = [x for x in done.stderr.strip().splitlines() if "ready to begin" not in x]
        if "Traceback" in done.stderr or done.returncode == 0 or len(lines) != 1 or problem not in lines[0]:
            return "traceback", f"exit {done.returncode}: {done.stderr.strip()[-160:]}"
        return "clean error", lines[0]
    return check


def _case_served_race(workdir: Path) -> tuple[str, str]:
    """A thread swaps the served record for a link to a file outside the folder and back while 3,000 reads
    run: every read must be the record or a refusal (the old check-then-open leaked the outside file)."""
    from tengen.web.files import FileRefused, read_under

    served = workdir / "served"
    served.mkdir()
    inside, outside = b"(;GM[1]SZ[5]C[inside])", b"(;GM[1]SZ[5]C[outside])"
    (served / "game.sgf").write_bytes(inside)
    (workdir / "secret.sgf").write_bytes(outside)
    stop = threading.Event()

    def swap():
        while not stop.is_set():
            os.symlink(workdir / "secret.sgf", served / "link")
            os.replace(served / "link", served / "game.sgf")
            (served / "spare").write_bytes(inside)
            os.replace(served / "spare", served / "game.sgf")

    swapper = threading.Thread(target=swap)
    swapper.start()
    counts = Counter()
    try:
        for _ in range(3000):
            try:
                counts["read" if read_under(served, "game.sgf") == inside else "LEAKED"] += 1
            except FileRefused:
                counts["refused"] += 1
    finally:
        stop.set()
        swapper.join()
    detail = f"{counts['read']} read, {counts['refused']} refused, {counts['LEAKED']} leaked"
    return ("traceback" if counts["LEAKED"] else "success"), detail


def _case_bad_model(command: list[str], model: str) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        path = model
        if model == "FIFO":
            path = str(workdir / "model.bin.gz")
            os.mkfifo(path)
        args = [*command, "--model", path]
        if command[0] == "gtp":
            return _expect_gtp(b"boardsize 9\ngenmove b\nquit\n",
                               lambda r: None if "not a regular file" in r[1][2] else r[1][2][:160], args=args[1:])(workdir)
        if command[0] == "analysis":
            result = run_tengen(args, stdin=(ANALYSIS_QUERY + "\n").encode())
            if result["outcome"] == "hang":
                return "hang", ""
            text = result["out"].decode("utf-8", "replace")
            if "Traceback" in result["err"] or "not a regular file" not in text:
                return "traceback", (result["err"] + text)[-160:]
            return "clean error", text.strip().splitlines()[0][:160]
        return _expect_cli_error(args, "not a regular file")(workdir)
    return check


def _batch_args(folder: Path, out: Path) -> list[str]:
    """A small `tengen batch` run over `folder` into `out` (the tiny network, the last turn, in-process)."""
    return ["batch", str(folder), "--out", str(out), "--model", "tiny", "--turns", "last", "--workers", "0",
            "--no-progress"]


def _batch_failed(args: list[str]) -> Optional[tuple[str, str]]:
    """Run a batch; (outcome, its last words) when it did not succeed, None when it did."""
    result = run_tengen(args, timeout=300)
    return None if result["outcome"] == "success" else (result["outcome"], result["err"].strip()[-160:])


def _case_batch_links(workdir: Path) -> tuple[str, str]:
    folder = workdir / "records"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(REPO / EXAMPLE, folder / "a.sgf")
    shutil.copy(REPO / EXAMPLE, folder / "sub" / "b.sgf")
    os.symlink(".", folder / "loop1")
    os.symlink(".", folder / "loop2")
    os.symlink("..", folder / "sub" / "up")
    out = folder / "out"
    args = _batch_args(folder, out)
    for _ in range(2):  # the second run finds the first one's outputs inside its input folder
        failed = _batch_failed(args)
        if failed:
            return failed
    summary = json.loads((out / "summary.json").read_text())
    games = sorted(p.name for p in (out / "games").glob("*.sgf"))
    if summary["files"] != 2 or len(games) != 2:
        return "traceback", f"records taken {summary['files']} (2 expected), outputs {games}"
    return "success", f"2 records once each through link loops and a parent link; the rerun read {summary['files']}"


def _case_deep_journal(workdir: Path) -> tuple[str, str]:
    folder = workdir / "records"
    folder.mkdir()
    shutil.copy(REPO / EXAMPLE, folder / "a.sgf")
    out = workdir / "out"
    args = _batch_args(folder, out)
    failed = _batch_failed(args)
    if failed:
        return failed
    with open(out / "journal.jsonl", "ab") as fh:
        fh.write(b"[" * 100_000 + b"]" * 100_000 + b"\n" + b'{"unit": "x"}\n')
    return _expect_cli_error(args, "the journal is damaged")(workdir)


def _case_corrupt_model(workdir: Path) -> tuple[str, str]:
    from tengen.eval.katago.weights import DEFAULT_MODEL

    models = workdir / "corrupt-models"
    models.mkdir()
    (models / DEFAULT_MODEL).write_bytes(b"half a downl")
    return _expect_cli_error(["eval", "src/tengen/data/example.sgf"], "failed its checksum",
                             env=_offline_env(workdir, model_dir=models))(workdir)


# ================================================================ issue 61: solve, the web jobs, GTP playouts, records
DAMES = (b"(;GM[1]FF[4]SZ[5]KM[0]RU[Chinese]AB[ba][bb][ab][cb][bc][bd][ad][cd][be]AW[da][db][eb][dc][dd][ed][de]"
         b";B[aa];W[ca];B[cc];W[];B[ce])")  # tests/endgame/test_review.py's 5x5 record: five moves
PLAYOUTS = ["--evaluator", "playouts", "--playouts-per-move", "50"]


def issue61_cases() -> list[Case]:
    """Issue 61's findings, each a named case: solve's goal in network mode and its problem files, cancelled
    web jobs' places, a ko region's thermograph on the web, the playout engine's sizes and limits in GTP,
    review's warnings and range, impossible setups, empty SQ[] values, rules said as assumed."""
    def solve_file(name: str, data: bytes, problem: str) -> Callable[[Path], tuple[str, str]]:
        return _cli_on_file(["solve"], name, data, problem)

    def fifo_json(workdir: Path) -> tuple[str, str]:
        os.mkfifo(workdir / "problem.json")
        return _expect_cli_error(["solve", str(workdir / "problem.json")], "not a regular file")(workdir)

    def huge_json(workdir: Path) -> tuple[str, str]:
        path = workdir / "huge.json"
        with open(path, "wb") as fh:
            fh.truncate(3 * 1024 ** 3)  # sparse: 3 GB that take no disk
        return _expect_cli_error(["solve", str(path)], "more than a problem file may have")(workdir)

    def gtp_limit(flags: list[str], problem: str) -> Callable[[Path], tuple[str, str]]:
        return lambda w: _expect_cli_error(["gtp", "--evaluator", "playouts", *flags], problem)(w)

    return [
        Case("61.4 solve --model tiny: White to play owns the only group, so the goal is to live", _case_solve_goal),
        Case("61.5 solve: a JSON problem of 100,000 nested brackets",
             solve_file("deep.json", b"[" * 100_000 + b"]" * 100_000, "JSON nested too deep")),
        Case("61.5 solve: a 3 GB problem file", huge_json),
        Case("61.5 solve: a FIFO problem.json", fifo_json),
        Case("61.5 solve: a FIFO problem (SGF)", _case_fifo_cli(["solve"])),
        Case("61.5 solve /dev/zero", lambda w: _expect_cli_error(["solve", "/dev/zero"], "not a regular file")(w)),
        Case("61.7 web: two running and four queued jobs cancelled, then six new ones admitted", _case_cancelled_jobs),
        Case("61.8 web: the thermograph of a ko region", _case_ko_thermograph),
        Case("61.9 gtp --evaluator playouts: boardsize 25, then genmove", _expect_gtp(
            b"boardsize 25\ngenmove b\nquit\n", lambda r: None if r[0][2] == "? unacceptable size"
            and r[1][2].startswith("= ") else str(r)[:160], args=PLAYOUTS)),
        Case("61.9 gtp --evaluator playouts --playouts-per-move 10^20",
             gtp_limit(["--playouts-per-move", str(10 ** 20)], "--playouts-per-move must be 1..")),
        Case("61.9 gtp --evaluator playouts --expand-threshold 99999999999",
             gtp_limit(["--expand-threshold", "99999999999"], "--expand-threshold must be 0..")),
        Case("61.9 gtp --evaluator playouts --threads 1000", gtp_limit(["--threads", "1000"], "--threads must be 1..16")),
        Case("61.10 review of a record with a move on an occupied point", _case_review_warns),
        Case("61.11 show: AB and AW on one point",
             _cli_on_file(["show"], "both.sgf", b"(;GM[1]SZ[9]AB[aa]AW[aa];B[ee])", "set up for both colors")),
        Case("61.11 show: a setup chain without liberties",
             _cli_on_file(["show"], "dead.sgf", b"(;GM[1]SZ[9]AB[aa]AW[ba][ab])",
                          "impossible setup: the Black chain at A9 has no liberties")),
        Case("61.11 review --from auto --to 1 before the endgame start found", _case_review_range),
        Case("61.11 analyze a region marked SQ[][ae] (an empty value beside a point)", _case_empty_markup),
        Case("61.11 show of a record without RU says the rules are assumed", _case_rules_assumed),
        Case("61.1 analyze a marked empty 19x19 board: declined at once", _analyze_says(
            "empty19.sgf", b"(;GM[1]FF[4]SZ[19]SQ[aa:ss])", [], "361 points is no local endgame region")),
        Case("61.1 analyze --predictor exhaustive of a marked empty 9x9 board: declined at once", _analyze_says(
            "empty9.sgf", b"(;GM[1]FF[4]SZ[9]SQ[aa:ii])", ["--predictor", "exhaustive"],
            "81 points (the exact solver takes at most 64")),
        Case("61.3 analyze two independent kos in one marked region: worth their sum (mean -4/3, temperature 4/3)",
             _analyze_says("two_kos.sgf", TWO_KOS_SGF, ["--predictor", "exhaustive"], "mean -4/3, temperature 4/3")),
    ]


# two copies of the textbook first-line ko (tests/endgame/test_unsolved.py), marked as one region
TWO_KOS_SGF = (b"(;GM[1]FF[4]SZ[9]KM[0]RU[Chinese]AB[ca][db][ac][bc][cc][dc][ag][bg][cg][dg][dh][ci]"
               b"AW[da][fa][eb][ec][fc][gc][hc][eg][fg][gg][hg][eh][di][fi]"
               b"SQ[ca][da][ea][fa][ci][di][ei][fi])")


def _analyze_says(name: str, data: bytes, args: list[str], expect: str) -> Callable[[Path], tuple[str, str]]:
    """`tengen analyze` of a written record must succeed and print `expect`."""
    def check(workdir: Path) -> tuple[str, str]:
        path = _write_case(name, data)(workdir)
        result = run_tengen(["analyze", path, *args, "--no-progress"])
        text = result["out"].decode("utf-8", "replace")
        if result["outcome"] == "success" and expect not in text:
            return "traceback", f"the report does not say {expect!r}"
        return result["outcome"], expect if expect in text else (result["err"].strip().splitlines() or [""])[-1]
    return check


def _case_solve_goal(workdir: Path) -> tuple[str, str]:
    path = _write_case("white.sgf", b"(;GM[1]FF[4]SZ[9]AW[da][ab][bb][cb][db]PL[W])")(workdir)
    result = run_tengen(["solve", path, "--model", "tiny", "--json"])
    if result["outcome"] != "success":
        return result["outcome"], (result["err"].strip().splitlines() or [""])[-1]
    answer = json.loads(result["out"])
    goal = (answer["to_play"], answer["target"], answer["goal"])
    return ("success" if answer["goal"] == "live" else "traceback"), f"to play, group at stake, goal: {goal}"


def _case_review_warns(workdir: Path) -> tuple[str, str]:
    path = _write_case("occupied.sgf", DAMES[:-1] + b";W[cc])")(workdir)  # W C3 on Black's stone
    result = run_tengen(["review", path, "--model", "tiny", "--from", "6", "--quiet"])
    warning = "move 6 (W C3) is illegal: occupied; placed as the record says"
    if result["outcome"] == "success" and warning not in result["err"]:
        return "traceback", f"no warning: {result['err'].strip()[-160:]}"
    return result["outcome"], (result["err"].strip().splitlines() or [""])[0]


def _case_review_range(workdir: Path) -> tuple[str, str]:
    path = _write_case("early.sgf", b"(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese];B[pd];W[dp];B[pp])")(workdir)
    return _expect_cli_error(["review", path, "--model", "tiny", "--from", "auto", "--to", "1", "--quiet"],
                             "the endgame start found (move 3) lies after the last move to review (1)")(workdir)


def _case_empty_markup(workdir: Path) -> tuple[str, str]:
    path = _write_case("marked.sgf", b"(;GM[1]SZ[5]KM[0]AB[ad][bd][be]AW[cd][ce][dd]SQ[][ae])")(workdir)
    result = run_tengen(["analyze", path, "--predictor", "exhaustive", "--no-progress"])
    text = result["out"].decode("utf-8", "replace")
    row = next((line for line in text.splitlines() if line.startswith("A ")), "")
    if result["outcome"] == "success" and row.split()[:3] != ["A", "A1", "1"]:
        return "traceback", f"region A is not the point A1: {row!r}"
    return result["outcome"], " ".join(row.split()) or (result["err"].strip().splitlines() or [""])[-1]


def _case_rules_assumed(workdir: Path) -> tuple[str, str]:
    result = run_tengen(["show", _write_case("noru.sgf", b"(;GM[1]SZ[9];B[ee])")(workdir)])
    line = next((x for x in result["out"].decode("utf-8", "replace").splitlines() if x.startswith("rules: ")), "")
    if result["outcome"] == "success" and "(assumed: the record has no RU)" not in line:
        return "traceback", f"not said: {line!r}"
    return result["outcome"], line


def _test_client():
    """FastAPI's TestClient (its import's deprecation warning about httpx kept out of the bench's output)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    return TestClient


class _GatedEvaluator:
    """Native playouts behind a gate: each evaluation waits until `gate` opens (jobs that hold their places)."""

    def __init__(self):
        from tengen.eval.playout_evaluator import PlayoutEvaluator

        self.inner, self.gate, self.waiting = PlayoutEvaluator(4), threading.Event(), threading.Event()

    def evaluate(self, boards, *args, **kwargs):
        self.waiting.set()
        self.gate.wait(60)
        return self.inner.evaluate(boards)


def _case_cancelled_jobs(workdir: Path) -> tuple[str, str]:
    """Two jobs running and four queued (workers 2, queue 4), all cancelled: the queued ones answer
    cancelled at once, and six new jobs are admitted before the running ones reach their next check."""
    import time

    from tengen.web.app import create_app

    TestClient = _test_client()
    gated = _GatedEvaluator()
    try:
        with TestClient(create_app(evaluator=gated, workers=2, queue_limit=4)) as client:
            rid = client.post("/api/records/paste", json={"sgf": DAMES.decode()}).json()["id"]
            body = {"record": rid, "move": 0, "predictor": "kata"}
            ids = [client.post("/api/analyses", json=body).json()["id"] for _ in range(6)]
            deadline = time.monotonic() + 30
            while sum(client.get(f"/api/analyses/{i}").json()["status"] == "running" for i in ids) < 2:
                if time.monotonic() > deadline:
                    return "hang", "two jobs never ran"
                time.sleep(0.02)
            answers = sorted(client.delete(f"/api/analyses/{i}").json()["status"] for i in ids)
            fresh = [client.post("/api/analyses", json=body) for _ in range(6)]
            codes = [r.status_code for r in fresh]
            for r in fresh:
                if r.status_code == 202:
                    client.delete(f"/api/analyses/{r.json()['id']}")
            gated.gate.set()
    finally:
        gated.gate.set()
    detail = f"DELETE answered {answers}; then six submits answered {codes}"
    ok = answers == ["cancelled"] * 4 + ["running"] * 2 and codes == [202] * 6
    return ("success" if ok else "traceback"), detail


def _case_ko_thermograph(workdir: Path) -> tuple[str, str]:
    """The textbook ko (tests/endgame/test_diagram_conventions.py) on an 8x8 board, its region C1-F1 solved
    exactly: the solver gives a thermograph and no game, and the route draws it."""
    import time

    from tengen.eval.playout_evaluator import PlayoutEvaluator
    from tengen.web.app import create_app

    TestClient = _test_client()
    ko = "(;GM[1]FF[4]SZ[8]KM[0]RU[Chinese]AB[af][bf][cf][df][dg][ch]AW[ef][ff][gf][hf][eg][dh][fh]PL[B])"
    with TestClient(create_app(evaluator=PlayoutEvaluator(4)), raise_server_exceptions=False) as client:
        rid = client.post("/api/records/paste", json={"sgf": ko}).json()["id"]
        job = client.post("/api/analyses", json={"record": rid, "move": 0, "predictor": "exhaustive",
                                                 "region": "C1 D1 E1 F1"}).json()["id"]
        deadline = time.monotonic() + HANG_SECONDS
        while client.get(f"/api/analyses/{job}").json()["status"] not in ("done", "failed", "cancelled"):
            if time.monotonic() > deadline:
                return "hang", "the analysis did not finish"
            time.sleep(0.05)
        r = client.get(f"/api/analyses/{job}/regions/A/thermograph")
    if r.status_code != 200:
        return "traceback", f"{r.status_code}: {r.text[:160]}"
    th = r.json()
    return ("success" if th["kind"] == "ko" else "traceback"), (f"kind {th['kind']}, mean {th['mean']:.3f}, "
                                                               f"temperature {th['temperature']:.3f}")
