"""Does `tengen analysis` speak KataGo's JSON analysis protocol as its documentation (and KaTrain) expect?

A conformance run against `tengen analysis` started as a subprocess, as a client starts KataGo: every query
field (id, moves, initialStones, initialPlayer, rules as a name and as an object, komi, boardXSize /
boardYSize, analyzeTurns, maxVisits, includeOwnership, includePolicy, includeMovesOwnership, avoidMoves,
allowMoves, overrideSettings.reportAnalysisWinratesAs, priority, priorities, reportDuringSearchEvery, and
tengen's tengenEndgame), the response fields, the actions (query_version, clear_cache, terminate,
terminate_all), KataGo's error and warning shapes, tengen's bounds, and that stdout carries nothing but JSON
lines. Where KaTrain is importable (`pip install -e .[client]`), KaTrain's own engine class
(`katrain.core.engine.KataGoEngine`, with tengen as its custom command) analyzes nodes of a game read by
KaTrain's own SGF reader, and the fields its code reads are checked through its own properties
(candidate_moves, score, winrate, policy_ranking, ownership), with avoidMoves from its "find alternatives"
and its region of interest.

The network is a tiny random one (`tengen analysis --model tiny`): the protocol, not the play, is under
test, and it runs on CPU in about a minute. `--real` uses the default KataGo network when it is cached.

    python bench/analysis_protocol.py [--real]

Each case prints PASS or FAIL with a reason; the last line is `conformance: N/M`.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

TIMEOUT = 120.0
RESULTS: list[tuple[str, bool, str]] = []


def engine_command(real: bool) -> list[str]:
    """`tengen analysis` as a client would start it (this interpreter, this checkout)."""
    cmd = [sys.executable, "-c", "import sys; from tengen.cli import main; sys.exit(main())", "analysis",
           "--threads", "2", "--visits", "16", "--max-visits-cap", "1000"]
    return cmd if real else cmd + ["--model", "tiny"]


class Client:
    """A line client over a pipe: every stdout line is kept (parsed, or noted as not JSON)."""

    def __init__(self, cmd: list[str]):
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, cwd=REPO)
        self.seen: list[dict] = []
        self.not_json: list[str] = []
        self.stderr: list[str] = []
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        for raw in self.proc.stdout:
            text = raw.decode("utf-8", "replace").rstrip("\n")
            with self._cond:
                try:
                    obj = json.loads(text)
                    if not isinstance(obj, dict):
                        raise ValueError
                    self.seen.append(obj)
                except ValueError:
                    self.not_json.append(text)
                self._cond.notify_all()

    def _read_err(self) -> None:
        for raw in self.proc.stderr:
            self.stderr.append(raw.decode("utf-8", "replace"))

    def send(self, item) -> None:
        line = item if isinstance(item, str) else json.dumps(item)
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def wait(self, pred: Callable[[list[dict]], bool], timeout: float = TIMEOUT) -> list[dict]:
        end = time.monotonic() + timeout
        with self._cond:
            while not pred(self.seen):
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no answer in time")
                self._cond.wait(left)
            return list(self.seen)

    def of(self, qid: str) -> list[dict]:
        with self._cond:
            return [o for o in self.seen if o.get("id") == qid]

    def finals(self, qid: str, n: int = 1) -> list[dict]:
        """Wait for n final answers (isDuringSearch false, or an error) of query `qid`."""
        def done(seen):
            return sum(1 for o in seen if o.get("id") == qid
                       and ("error" in o or o.get("isDuringSearch") is False)) >= n
        self.wait(done)
        return [o for o in self.of(qid) if "error" in o or o.get("isDuringSearch") is False]

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(timeout=TIMEOUT)


def case(name: str):
    """Run a check: it returns a reason string on success or raises AssertionError with why."""
    def wrap(fn):
        try:
            fn()
            RESULTS.append((name, True, ""))
            print(f"PASS {name}", flush=True)
        except Exception as exc:  # a failed check, a timeout: the case fails, the run goes on
            reason = " ".join(str(exc).split()) or type(exc).__name__
            RESULTS.append((name, False, reason))
            print(f"FAIL {name}: {reason[:300]}", flush=True)
        return fn
    return wrap


def q(qid: str, **fields) -> dict:
    base = {"id": qid, "moves": [["B", "E5"], ["W", "C3"]], "rules": "chinese", "komi": 7.5,
            "boardXSize": 9, "boardYSize": 9, "maxVisits": 8}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


def check(cond: bool, why: str) -> None:
    if not cond:
        raise AssertionError(why)


def protocol_cases(c: Client) -> None:
    """Every query field, response field, action, error, warning and bound against the subprocess."""
    c.send(q("f-moves"))

    @case("query: id, moves, turnNumber of the last turn by default")
    def _():
        (r,) = c.finals("f-moves")
        check(r["turnNumber"] == 2 and r["id"] == "f-moves", f"got {r.get('turnNumber')}")

    c.send(q("f-turns", analyzeTurns=[0, 1, 2]))

    @case("query: analyzeTurns gives one final response per turn")
    def _():
        rs = c.finals("f-turns", 3)
        check(sorted(r["turnNumber"] for r in rs) == [0, 1, 2], str([r.get("turnNumber") for r in rs]))
        check([r["rootInfo"]["currentPlayer"] for r in sorted(rs, key=lambda r: r["turnNumber"])] == ["B", "W", "B"],
              "currentPlayer does not alternate")

    c.send(q("f-setup", moves=[], initialStones=[["B", "D4"], ["W", "F6"]], initialPlayer="W", includePolicy=True))

    @case("query: initialStones and initialPlayer")
    def _():
        (r,) = c.finals("f-setup")
        check(r["rootInfo"]["currentPlayer"] == "W", "initialPlayer W not to move")
        pol = r["policy"]
        check(pol[(9 - 4) * 9 + 3] == -1 and pol[(9 - 6) * 9 + 5] == -1, "stones' points not -1 in policy")

    for name in ("japanese", "chinese", "korean", "aga", "tromp-taylor", "new zealand", "stone_scoring"):
        c.send(q(f"f-rules-{name}", rules=name))

    @case("query: rules by every name KaTrain sends")
    def _():
        for name in ("japanese", "chinese", "korean", "aga", "tromp-taylor", "new zealand", "stone_scoring"):
            (r,) = c.finals(f"f-rules-{name}")
            check("moveInfos" in r, f"{name}: {r}")

    c.send(q("f-rules-obj", rules={"ko": "SITUATIONAL", "scoring": "TERRITORY", "tax": "SEKI", "suicide": False,
                                   "whiteHandicapBonus": "N"}))

    @case("query: rules as a JSON object")
    def _():
        (r,) = c.finals("f-rules-obj")
        check("moveInfos" in r, str(r))

    c.send(q("f-komi-a", komi=-50, maxVisits=1))
    c.send(q("f-komi-b", komi=50, maxVisits=1))

    @case("query: komi reaches the network")
    def _():
        (a,), (b,) = c.finals("f-komi-a"), c.finals("f-komi-b")
        check(a["rootInfo"]["rawLead"] != b["rootInfo"]["rawLead"], "same lead at komi -50 and 50")

    c.send(q("f-rect", boardXSize=9, boardYSize=7, moves=[["B", "J7"], ["W", "A1"]], includeOwnership=True,
             includePolicy=True))

    @case("query: boardXSize / boardYSize (9x7): ownership 63, policy 64 values, J7 occupied")
    def _():
        (r,) = c.finals("f-rect")
        check(len(r["ownership"]) == 63 and len(r["policy"]) == 64, f"{len(r['ownership'])} {len(r['policy'])}")
        check(r["policy"][8] == -1 and r["policy"][6 * 9] == -1, "J7 (top right) or A1 (bottom left) not -1")

    c.send(q("f-visits", maxVisits=37))

    @case("query: maxVisits is the root's visits")
    def _():
        (r,) = c.finals("f-visits")
        check(r["rootInfo"]["visits"] == 37, f"visits {r['rootInfo']['visits']}")
        check(sum(m["visits"] for m in r["moveInfos"]) == 36, "children's visits do not add up")

    c.send(q("f-own", includeOwnership=True, includePolicy=True, includeMovesOwnership=True))

    @case("query: includeOwnership, includePolicy, includeMovesOwnership")
    def _():
        (r,) = c.finals("f-own")
        check(len(r["ownership"]) == 81 and all(-1 <= v <= 1 for v in r["ownership"]), "ownership")
        pos = [p for p in r["policy"] if p >= 0]
        check(len(r["policy"]) == 82 and abs(sum(pos) - 1) < 1e-4, f"policy sums to {sum(pos)}")
        check(all(len(m.get("ownership", [])) == 81 for m in r["moveInfos"]), "a move without ownership")

    c.send(q("f-noown"))

    @case("query: without include flags no ownership / policy")
    def _():
        (r,) = c.finals("f-noown")
        check("ownership" not in r and "policy" not in r
              and all("ownership" not in m for m in r["moveInfos"]), str(list(r)))

    avoid = ["D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"]
    c.send(q("f-avoid", maxVisits=40, avoidMoves=[{"player": "B", "moves": avoid, "untilDepth": 1}]))
    c.send(q("f-allow", maxVisits=40, allowMoves=[{"player": "B", "moves": ["A1", "J9", "pass"], "untilDepth": 1}]))

    @case("query: avoidMoves keeps the root off those points")
    def _():
        (r,) = c.finals("f-avoid")
        check(r["moveInfos"] and not {m["move"] for m in r["moveInfos"]} & set(avoid), "an avoided move searched")

    @case("query: allowMoves keeps the root to those points")
    def _():
        (r,) = c.finals("f-allow")
        check(r["moveInfos"] and {m["move"] for m in r["moveInfos"]} <= {"A1", "J9", "pass"},
              str([m["move"] for m in r["moveInfos"]]))

    for side in ("BLACK", "WHITE", "SIDETOMOVE"):
        c.send(q(f"f-persp-{side}", moves=[["B", "E5"]], includeOwnership=True,
                 overrideSettings={"reportAnalysisWinratesAs": side}))

    @case("query: overrideSettings.reportAnalysisWinratesAs flips win rates, leads and ownership")
    def _():
        (b,), (w,), (s,) = (c.finals(f"f-persp-{x}") for x in ("BLACK", "WHITE", "SIDETOMOVE"))
        check(s["rootInfo"] == w["rootInfo"] and s["ownership"] == w["ownership"], "SIDETOMOVE is not White's view")
        check(abs(b["rootInfo"]["winrate"] + w["rootInfo"]["winrate"] - 1) < 1e-6, "win rates do not complement")
        check(abs(b["rootInfo"]["scoreLead"] + w["rootInfo"]["scoreLead"]) < 1e-6, "leads do not negate")
        check(all(abs(x + y) < 1e-6 for x, y in zip(b["ownership"], w["ownership"])), "ownership not negated")

    c.send(q("f-block", maxVisits=800))
    c.send(q("f-low", priority=-5))
    c.send(q("f-mid", analyzeTurns=[0, 1], priorities=[1, 2]))
    c.send(q("f-high", priority=5))

    @case("query: priority and priorities order the queue (results out of order, several in flight)")
    def _():
        c.finals("f-low")
        order = [(o["id"], o["turnNumber"]) for o in c.seen if o.get("id") in ("f-low", "f-mid", "f-high")
                 and o.get("isDuringSearch") is False]
        check(order == [("f-high", 2), ("f-mid", 1), ("f-mid", 0), ("f-low", 2)], str(order))

    c.send(q("f-during", maxVisits=800, reportDuringSearchEvery=0.02))

    @case("query: reportDuringSearchEvery gives partial reports, then exactly one final")
    def _():
        c.finals("f-during")
        time.sleep(0.3)
        rs = c.of("f-during")
        partial = [r for r in rs if r.get("isDuringSearch") is True]
        check(len(partial) >= 1 and sum(r.get("isDuringSearch") is False for r in rs) == 1, f"{len(partial)} partial")
        check(rs[-1].get("isDuringSearch") is False, "the final report is not last")

    from tengen.go.coords import to_gtp
    from tengen.go.diagram import board_from_diagram

    dame = board_from_diagram("X X O O .\nX X . O O\nX X X O O\n. X X O O\nX X X O .")
    stones = [["B" if dame.get((r, x)) == 1 else "W", to_gtp((r, x), 5)] for r in range(5) for x in range(5)
              if dame.get((r, x))]
    c.send({"id": "f-endgame", "initialStones": stones, "moves": [], "rules": "chinese", "komi": 0.5,
            "boardXSize": 5, "boardYSize": 5, "maxVisits": 30, "tengenEndgame": True})

    @case("query: tengenEndgame adds regions (points, count, temperature, type, best moves) and move values")
    def _():
        (r,) = c.finals("f-endgame")
        eg = r.get("tengenEndgame")
        check(eg is not None, "no tengenEndgame: " + str([o for o in c.of("f-endgame") if "warning" in o]))
        for reg in eg["regions"]:
            check({"points", "count", "temperature", "type", "bestBlack", "bestWhite"} <= set(reg), str(reg))
        inside = {p for reg in eg["regions"] for p in reg["points"]}
        for m in r["moveInfos"]:
            check(("tengenMoveValue" in m) == (m["move"] in inside), f"{m['move']}: move value where not in a region")

    @case("response: moveInfos fields and types (move, visits, winrate, scoreLead, scoreMean, scoreStdev, prior, "
          "lcb, utility, order, pv)")
    def _():
        (r,) = c.finals("f-visits")
        types = {"move": str, "visits": int, "winrate": float, "scoreLead": float, "scoreMean": float,
                 "scoreStdev": float, "prior": float, "lcb": float, "utility": float, "order": int, "pv": list}
        for k, m in enumerate(r["moveInfos"]):
            for key, t in types.items():
                check(isinstance(m.get(key), t), f"{key} is {type(m.get(key)).__name__}")
            check(m["order"] == k and m["pv"][0] == m["move"] and 0 <= m["winrate"] <= 1 and 0 <= m["prior"] <= 1,
                  f"bad values in {m}")

    @case("response: rootInfo (visits, winrate, scoreLead, currentPlayer), id, turnNumber, isDuringSearch")
    def _():
        (r,) = c.finals("f-visits")
        ri = r["rootInfo"]
        check(isinstance(ri["visits"], int) and 0 <= ri["winrate"] <= 1 and isinstance(ri["scoreLead"], float)
              and ri["currentPlayer"] in ("B", "W"), str(ri))
        check(r["isDuringSearch"] is False and isinstance(r["turnNumber"], int), str(r.keys()))

    # actions
    c.send({"id": "a-version", "action": "query_version"})

    @case("action: query_version echoes the query with version and git_hash")
    def _():
        c.wait(lambda s: any(o.get("id") == "a-version" for o in s))
        (r,) = c.of("a-version")
        check(r["action"] == "query_version" and isinstance(r["version"], str)
              and isinstance(r["git_hash"], str), str(r))

    c.send({"id": "a-clear", "action": "clear_cache"})

    @case("action: clear_cache echoes the query")
    def _():
        c.wait(lambda s: any(o.get("id") == "a-clear" for o in s))
        check(c.of("a-clear") == [{"id": "a-clear", "action": "clear_cache"}], str(c.of("a-clear")))

    c.send(q("a-long", maxVisits=1000, reportDuringSearchEvery=0.02))
    c.wait(lambda s: any(o.get("id") == "a-long" for o in s))  # it has started
    c.send(q("a-queued", maxVisits=8))
    c.send({"id": "a-term", "action": "terminate", "terminateId": "a-queued"})
    c.send({"id": "a-term2", "action": "terminate", "terminateId": "a-long"})

    @case("action: terminate a queued query: noResults, then the echo")
    def _():
        (r,) = c.finals("a-queued")
        check(r == {"id": "a-queued", "isDuringSearch": False, "noResults": True, "turnNumber": 2}, str(r))
        c.wait(lambda s: any(o.get("id") == "a-term" for o in s))
        check(c.of("a-term") == [{"id": "a-term", "action": "terminate", "terminateId": "a-queued"}], "no echo")

    @case("action: terminate a running search: it reports what it has, isDuringSearch false")
    def _():
        (r,) = c.finals("a-long")
        check("moveInfos" in r and r["rootInfo"]["visits"] < 1000, f"visits {r.get('rootInfo', {}).get('visits')}")

    c.send(q("a-t1", maxVisits=800, analyzeTurns=[0, 1, 2]))
    c.send(q("a-t2", maxVisits=8))
    c.send({"id": "a-all", "action": "terminate_all", "turnNumbers": [0, 2]})

    @case("action: terminate_all with turnNumbers stops those turns of every query, others run")
    def _():
        c.finals("a-t1", 3)
        c.finals("a-t2")
        got = {(o["id"], o["turnNumber"]): o for o in c.of("a-t1") + c.of("a-t2") if o.get("isDuringSearch") is False}
        check("moveInfos" in got[("a-t1", 1)], "turn 1 was stopped")
        check(got[("a-t2", 2)].get("noResults") or got[("a-t2", 2)]["rootInfo"]["visits"] < 8, "a-t2 turn 2 ran")
        check(any(o.get("action") == "terminate_all" for o in c.of("a-all")), "no echo")

    # errors: KataGo's exact shapes
    errors = [
        ("not json", "general", "could not parse input line as json request"),
        ("[1,2]", "general", "Request line was valid json but was not an object, ignoring: [1,2]"),
        ('{"moves":[]}', "general", 'Request must have a string "id" field'),
        ({"id": "e-action", "action": "dance"}, "general", "'action' field must be"),
        ({"id": "e-term", "action": "terminate"}, "terminateId", 'must have a string "terminateId" field'),
        (q("e-size", boardXSize=26), "boardXSize", "Must provide an integer from 2 to 25"),
        (q("e-nomoves", moves=None), "moves", "Must specify an array of [player,location] pairs"),
        (q("e-illegal", moves=[["B", "E5"], ["W", "E5"]]), "moves", "Illegal move 1: E5"),
        (q("e-vertex", moves=[["B", "Z1"]]), "moves", "Could not parse board location: Z1"),
        (q("e-player", initialPlayer="X"), "initialPlayer", 'Must be "b" or "w"'),
        (q("e-turns", analyzeTurns=[5]), "analyzeTurns", "Invalid turn number: 5"),
        (q("e-rules", rules="nonsense"), "rules", "Could not parse rules: nonsense"),
        (q("e-komi", komi=7.3), "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
        (q("e-visits", maxVisits=0), "maxVisits", "Must be an integer from 1 to 2^50"),
        (q("e-bool", includeOwnership="yes"), "includeOwnership", "Must be a boolean"),
        (q("e-override", overrideSettings=5), "overrideSettings", "Must be an object"),
        (q("e-both", avoidMoves=[], allowMoves=[]), "allowMoves", "Cannot specify both allowMoves and avoidMoves"),
        (q("e-priority", priority="high"), "priority", "Must be a number between -2^62 and 2^62"),
        (q("e-manymoves", moves=[["B", "pass"]] * 10001), "moves", "Must have at most 10000 entries"),
    ]
    for item, field, message in errors:
        before = len(c.seen)
        c.send(item)
        qid = item.get("id") if isinstance(item, dict) else None

        @case(f"error: {field}: {message}")
        def _():
            c.wait(lambda s: any("error" in o for o in s[before:]))
            err = [o for o in c.seen[before:] if "error" in o][0]
            check(message in err["error"], err["error"])
            if field == "general":
                check(set(err) == {"error"}, f"general error with keys {sorted(err)}")
            else:
                check(set(err) == {"error", "field", "id"} and err["field"] == field and err["id"] == qid, str(err))

    before = len(c.seen)
    c.send("x" * (1024 * 1024 + 100))

    @case("bound: a line over 1 MiB is one general error")
    def _():
        c.wait(lambda s: any("error" in o for o in s[before:]))
        err = [o for o in c.seen[before:] if "error" in o][0]
        check(set(err) == {"error"} and "longer than" in err["error"], str(err)[:200])

    c.send(q("w-1", maxVisits=10 ** 9, colour="black", overrideSettings={"nonsenseParam": 1}))

    @case("warning: capped maxVisits, unknown field, unknown overrideSettings; the query still runs")
    def _():
        c.finals("w-1")
        ws = {o["field"]: o for o in c.of("w-1") if "warning" in o}
        for field in ("maxVisits", "colour", "overrideSettings"):
            check(field in ws and set(ws[field]) == {"warning", "field", "id"}, f"no {field} warning")
        warning = ws["overrideSettings"]["warning"]
        check(warning == "Unknown config params: nonsenseParam", warning)
        (r,) = [o for o in c.of("w-1") if "moveInfos" in o]
        check(r["rootInfo"]["visits"] == 1000, f"not capped: {r['rootInfo']['visits']}")

    c.send(q("w-rules", rules="stone_scoring"))

    @case("warning: rules tengen lacks are replaced by the nearest, with a warning")
    def _():
        c.finals("w-rules")
        check(any(o.get("field") == "rules" and "warning" in o for o in c.of("w-rules")), "no warning")

    c.send(q("s-after"))

    @case("the engine keeps serving after every error")
    def _():
        (r,) = c.finals("s-after")
        check("moveInfos" in r, str(r))


def katrain_cases(cmd: list[str]) -> bool:
    """KaTrain's own engine class and game nodes against `tengen analysis`; False when KaTrain is absent."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    try:
        from katrain.core.constants import OUTPUT_ERROR, VERSION
        from katrain.core.engine import KataGoEngine
        from katrain.core.game import KaTrainSGF
    except Exception as exc:  # not installed, or its imports need a display here
        print(f"KaTrain: not importable ({type(exc).__name__}: {' '.join(str(exc).split())[:200]}); "
              "install with pip install -e .[client]", flush=True)
        return False
    print(f"KaTrain {VERSION}: driving katrain.core.engine.KataGoEngine", flush=True)

    class HeadlessKaTrain:
        """What KataGoEngine calls on the app: log, popups (recorded), update_state."""

        def __init__(self):
            self.errors: list[str] = []
            self.messages: list[str] = []

        def log(self, message, level=0):
            self.messages.append(str(message))
            if level <= OUTPUT_ERROR:
                self.errors.append(str(message))

        def __call__(self, *args, **kwargs):
            self.errors.append("popup: " + " ".join(map(str, args)))

        def update_state(self):
            pass

    app = HeadlessKaTrain()
    config = {"backend": "custom", "altcommand": shlex.join(cmd), "max_visits": 24, "fast_visits": 8,
              "max_time": 30.0, "wide_root_noise": 0.04, "_enable_ownership": True, "allow_recovery": False}
    engine = KataGoEngine(app, config)
    root = KaTrainSGF.parse_sgf("(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]AB[cc][gg];W[ee];B[ce];W[ge])")
    line = [root]
    while line[-1].children:
        line.append(line[-1].children[0])

    def wait_complete(node, attr="analysis_complete"):
        end = time.monotonic() + TIMEOUT
        while not getattr(node, attr):
            if time.monotonic() > end:
                raise TimeoutError(f"node {node} not analyzed; KaTrain errors: {app.errors[-3:]}")
            time.sleep(0.05)

    try:
        @case("KaTrain: GameNode.analyze through KataGoEngine completes every node of a game (handicap setup, moves)")
        def _():
            for node in line:
                node.analyze(engine, report_every=0.2)
            for node in line:
                wait_complete(node)
            check(not app.errors, str(app.errors[:3]))

        @case("KaTrain: candidate_moves (pointsLost, winrateLost, order, pv), score, winrate from its own code")
        def _():
            for node in line:
                cands = node.candidate_moves
                check(cands and all({"pointsLost", "winrateLost", "order", "pv", "move", "visits"} <= set(d)
                                    for d in cands), f"candidates {cands[:1]}")
                check(isinstance(node.score, float) and 0 <= node.winrate <= 1, f"{node.score} {node.winrate}")
                check(node.root_visits >= 24, f"root visits {node.root_visits}")

        @case("KaTrain: policy_ranking and ownership grids read from tengen's policy / ownership")
        def _():
            node = line[1]
            ranking = node.policy_ranking
            check(ranking is not None and len(ranking) == 82, "policy_ranking")
            check(len(node.ownership) == 81, "ownership")
            occupied = {m.gtp() for p, m in ranking if p < 0}
            check({"C7", "G3", "E5"} <= occupied, f"occupied points not -1: {sorted(occupied)[:6]}")

        @case("KaTrain: find alternatives sends avoidMoves; new candidates avoid the old ones")
        def _():
            node = line[2]
            old = set(node.analysis["moves"])
            node.analysis["completed"] = False
            node.analyze(engine, find_alternatives=True, visits=40)
            end = time.monotonic() + TIMEOUT
            while set(node.analysis["moves"]) == old and time.monotonic() < end:
                time.sleep(0.05)
            check(set(node.analysis["moves"]) - old, "no new moves")
            time.sleep(0.5)
            check(not app.errors, str(app.errors[:3]))

        @case("KaTrain: a region of interest (avoidMoves for both colours) keeps candidates inside it")
        def _():
            node = line[3]
            node.clear_analysis() if hasattr(node, "clear_analysis") else None
            node.analyze(engine, region_of_interest=[0, 3, 0, 3], visits=40)  # KaTrain's x, y: A1 = (0, 0)
            end = time.monotonic() + TIMEOUT
            while not node.analysis["moves"] and time.monotonic() < end:
                time.sleep(0.05)
            time.sleep(1.0)
            moves = [m for m in node.analysis["moves"] if m != "pass"]
            check(moves and all(m[0] in "ABCD" and int(m[1:]) <= 4 for m in moves), str(moves))

        @case("KaTrain: pondering (maxVisits 10M, capped with a warning) then terminate_queries")
        def _():
            node = line[0]
            node.analyze(engine, ponder=True)
            time.sleep(1.0)
            engine.stop_pondering()
            engine.terminate_queries()
            end = time.monotonic() + TIMEOUT
            while engine.queries and time.monotonic() < end:
                time.sleep(0.05)
            check(engine.check_alive(), "the engine died")
            check(any("'warning': 'Capped at 1000 visits" in m for m in app.messages), "no cap warning logged")
            check(not app.errors, str(app.errors[:3]))
    finally:
        engine.shutdown(finish=False)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", action="store_true", help="the default KataGo network (cached) instead of a tiny one")
    args = parser.parse_args()
    if args.real:
        from tengen.eval.katago.weights import default_model_path

        default_model_path(download=False)  # fails now, clearly, when it is not cached
    cmd = engine_command(args.real)
    print("engine: " + " ".join(cmd[3:]), flush=True)
    t0 = time.monotonic()
    client = Client(cmd)
    try:
        protocol_cases(client)
    finally:
        status = client.close()

    @case("stream: stdout held JSON objects only, stderr no traceback, exit status 0 at end of input")
    def _():
        check(not client.not_json, f"not JSON: {client.not_json[:2]}")
        check(not any("Traceback" in s for s in client.stderr), "a traceback on stderr")
        check(status == 0, f"exit status {status}")

    katrain_used = katrain_cases(cmd)
    print(f"KaTrain's own engine code exercised: {'yes' if katrain_used else 'no (not importable)'}")
    print(f"seconds: {time.monotonic() - t0:.0f}")
    passed = sum(ok for _, ok, _ in RESULTS)
    print(f"conformance: {passed}/{len(RESULTS)}")
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
