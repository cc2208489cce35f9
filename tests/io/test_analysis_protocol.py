"""`tengen analysis`, KataGo's JSON analysis protocol: round trips against golden JSON, every error and
warning shape, actions, priorities and termination, bounds. A stand-in evaluator and fixed visits: nothing
here depends on the machine's speed (the queue is run in the test's thread, `run_pending`, except where
`serve` is the subject, and then only what is written is checked, never when)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin_networks import ONE_DAME, StandInNetwork  # noqa: E402

from tengen.go.coords import to_gtp  # noqa: E402
from tengen.go.diagram import board_from_diagram  # noqa: E402
from tengen.io.analysis_engine import AnalysisEngine, EngineSettings  # noqa: E402
from tengen.io.analysis_query import MAX_LINE_BYTES, MAX_RECORD_MOVES  # noqa: E402

GOLDEN = Path(__file__).with_name("analysis_golden.jsonl")
ROOT = Path(__file__).resolve().parents[2]


class Leaning(StandInNetwork):
    """The stand-in, with Black's win rate following its score lead (so win rates differ by move)."""

    def _one(self, board):
        e = super()._one(board)
        e.win = 0.5 + 0.4 * float(np.tanh((e.score_lead - board.rules.komi) / 6.0))
        e.loss = 1.0 - e.win
        return e


def engine(evaluator=None, **settings) -> tuple[AnalysisEngine, io.StringIO]:
    out = io.StringIO()
    opts = {"batch_size": 4, "root_symmetries": 1, "default_visits": 12, "max_visits_cap": 200, **settings}
    return AnalysisEngine(lambda: evaluator or Leaning("anywhere"), out, EngineSettings(**opts)), out


def lines(out: io.StringIO) -> list[dict]:
    return [json.loads(s) for s in out.getvalue().splitlines()]


def ask(*queries, **settings) -> list[dict]:
    """Send queries (dicts or raw lines), run the queue, return every output object."""
    eng, out = engine(**settings)
    for q in queries:
        eng.handle_line(q if isinstance(q, str) else json.dumps(q))
    eng.run_pending()
    return lines(out)


def query(**fields) -> dict:
    base = {"id": "q", "moves": [["B", "C3"], ["W", "D4"]], "rules": "chinese", "komi": 7.5,
            "boardXSize": 7, "boardYSize": 7, "maxVisits": 16}
    base.update(fields)
    return base



def one_dame_stones() -> list[list[str]]:
    board = board_from_diagram(ONE_DAME)
    return [["B" if board.get((r, c)) == 1 else "W", to_gtp((r, c), 5)]
            for r in range(5) for c in range(5) if board.get((r, c))]


GOLDEN_QUERIES = [
    query(id="turns", analyzeTurns=[0, 1, 2], includeOwnership=True, includePolicy=True),
    query(id="black", moves=[["B", "C3"]], overrideSettings={"reportAnalysisWinratesAs": "BLACK"},
          includeMovesOwnership=True, analysisPVLen=3),
    query(id="setup", moves=[], initialStones=[["B", "D4"], ["W", "C5"]], initialPlayer="W", komi=0.5,
          rules={"ko": "POSITIONAL", "scoring": "AREA", "tax": "NONE", "suicide": True}),
    query(id="avoid", avoidMoves=[{"player": "B", "moves": ["C4", "D3", "E4", "D5"], "untilDepth": 1}]),
    query(id="allow", allowMoves=[{"player": "B", "moves": ["A1", "G7", "pass"], "untilDepth": 1}]),
    {"id": "endgame", "initialStones": one_dame_stones(), "moves": [], "rules": "chinese", "komi": 0.5,
     "boardXSize": 5, "boardYSize": 5, "maxVisits": 12, "tengenEndgame": True},
]


def test_round_trips_match_the_golden_json():
    got = ask(*GOLDEN_QUERIES)
    text = "".join(json.dumps(o, sort_keys=True, separators=(",", ":")) + "\n" for o in got)
    if os.environ.get("TENGEN_REGOLD"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
    finals = [o for o in got if "moveInfos" in o]
    assert [(o["id"], o["turnNumber"]) for o in finals] == [
        ("turns", 0), ("turns", 1), ("turns", 2), ("black", 1), ("setup", 0), ("avoid", 2), ("allow", 2),
        ("endgame", 0)]
    for o in finals:
        assert o["isDuringSearch"] is False and o["rootInfo"]["visits"] == (12 if o["id"] == "endgame" else 16)
        for key in ("move", "visits", "winrate", "scoreLead", "scoreMean", "scoreStdev", "prior", "lcb", "utility",
                    "order", "pv"):
            assert all(key in m for m in o["moveInfos"]), key
        assert {"visits", "winrate", "scoreLead", "currentPlayer"} <= set(o["rootInfo"])


def test_fields_mean_what_katago_documents():
    turns, black, setup, avoid, allow, eg = (
        [o for o in ask(q) if "moveInfos" in o] for q in GOLDEN_QUERIES)
    t0 = turns[0]
    assert len(t0["ownership"]) == 49 and len(t0["policy"]) == 50
    assert abs(sum(p for p in t0["policy"] if p > 0) - 1.0) < 1e-6
    assert turns[1]["policy"][7 * 4 + 2] == -1.0  # C3 is occupied after B C3
    assert [o["rootInfo"]["currentPlayer"] for o in turns] == ["B", "W", "B"]
    assert setup[0]["rootInfo"]["currentPlayer"] == "W"
    assert [m["order"] for m in t0["moveInfos"]] == list(range(len(t0["moveInfos"])))
    assert all(len(m["pv"]) <= 3 and len(m["ownership"]) == 49 for m in black[0]["moveInfos"])
    assert not {m["move"] for m in avoid[0]["moveInfos"]} & {"C4", "D3", "E4", "D5"}
    assert {m["move"] for m in allow[0]["moveInfos"]} <= {"A1", "G7", "pass"}
    region = eg[0]["tengenEndgame"]["regions"][0]
    assert region["points"] == ["C4"] and region["type"] == "gote"
    assert [m["tengenMoveValue"]["region"] for m in eg[0]["moveInfos"] if m["move"] == "C4"] == ["A"]


def test_report_winrates_as_flips_every_value_together():
    by = {}
    for side in ("BLACK", "WHITE", "SIDETOMOVE"):
        (final,) = [o for o in ask(query(overrideSettings={"reportAnalysisWinratesAs": side}, includeOwnership=True))
                    if "moveInfos" in o]
        by[side] = final
    b, w, s = by["BLACK"], by["WHITE"], by["SIDETOMOVE"]  # Black to move: SIDETOMOVE is Black's view
    assert s == b
    assert w["rootInfo"]["winrate"] == pytest.approx(1 - b["rootInfo"]["winrate"])
    assert w["rootInfo"]["scoreLead"] == pytest.approx(-b["rootInfo"]["scoreLead"])
    assert w["ownership"] == [-x for x in b["ownership"]]
    for mb, mw in zip(b["moveInfos"], w["moveInfos"]):
        assert mb["move"] == mw["move"] and mw["winrate"] == pytest.approx(1 - mb["winrate"])
        assert mw["lcb"] == pytest.approx(1 - mb["lcb"]) and mw["utility"] == pytest.approx(-mb["utility"])


ERRORS = [
    ("not json", None, "could not parse input line as json request: not json"),
    ("[1, 2]", None, "Request line was valid json but was not an object, ignoring: [1,2]"),
    ('{"moves": []}', None, 'Request must have a string "id" field'),
    ('{"id": 5, "moves": []}', None, 'Request must have a string "id" field'),
    ('{"id": "x", "moves": [], "komi": NaN}', None, "could not parse input line as json request"),
    ('{"id": "x", "action": "fly"}', "action", "'action' field must be 'query_version' or 'clear_cache' or "
                                               "'terminate' or 'terminate_all'"),  # with its id (issue 47)
    ({"id": "x", "action": "terminate"}, "terminateId",
     'Requests for a terminate action must have a string "terminateId" field'),
    ({"id": "x", "action": "terminate_all", "turnNumbers": [1, "2"]}, "turnNumbers",
     "If provided, must be an array of integers indicating turns to terminate"),
    (query(boardXSize=None), "boardXSize", "Must provide an integer from 2 to 25"),
    (query(boardYSize=26), "boardYSize", "Must provide an integer from 2 to 25"),
    (query(boardXSize=1), "boardXSize", "Must provide an integer from 2 to 25"),
    (query(moves=None), "moves", "Must specify an array of [player,location] pairs"),
    (query(moves="C3"), "moves", 'Must be an array of pairs of the form: ["b" or "w", GTP board vertex]'),
    (query(moves=[["X", "C3"]]), "moves", "Could not parse player: X"),
    (query(moves=[["B", "Z9"]]), "moves", "Could not parse board location: Z9"),
    (query(moves=[["B", "C3"], ["W", "C3"]]), "moves", "Illegal move 1: C3"),
    (query(initialStones=[["B", "pass"]]), "initialStones", "Could not parse board location: pass"),
    (query(initialPlayer="red"), "initialPlayer", 'Must be "b" or "w"'),
    (query(analyzeTurns=[0, 3]), "analyzeTurns", "Invalid turn number: 3"),
    (query(analyzeTurns="all"), "analyzeTurns", "Must specify an array of integers indicating turns to analyze"),
    (query(analyzeTurns=[]), "analyzeTurns", "Must specify at least one turn to analyze"),  # was no answer at all
    (query(priorities=[1]), "priorities", "Can only specify when also specifying analyzeTurns"),
    (query(analyzeTurns=[0, 1], priorities=[1]), "priorities", "Must be of matching length to analyzeTurns"),
    (query(rules=None), "rules", 'Must specify rules string, such as "chinese" or "tromp-taylor", or a JSON '
                                 'object with detailed rules parameters.'),
    (query(rules="martian"), "rules", "Could not parse rules: martian"),
    (query(rules={"ko": "NEVER"}), "rules", 'Could not parse rules: {"ko":"NEVER"}'),
    (query(komi=7.3), "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
    (query(komi=1000), "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
    (query(komi="7.5"), "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
    (query(maxVisits=0), "maxVisits", "Must be an integer from 1 to 2^50"),
    (query(maxVisits=2.5), "maxVisits", "Must be an integer from 1 to 2^50"),
    (query(includeOwnership="yes"), "includeOwnership", "Must be a boolean"),
    (query(includePolicy=1), "includePolicy", "Must be a boolean"),
    (query(includeMovesOwnership=0), "includeMovesOwnership", "Must be a boolean"),
    (query(tengenEndgame="on"), "tengenEndgame", "Must be a boolean"),
    (query(reportDuringSearchEvery=0), "reportDuringSearchEvery",
     "Must be number of seconds from 0.001 to 1000000.0"),
    (query(priority=1.5), "priority", "Must be a number between -2^62 and 2^62"),
    (query(analyzeTurns=[0], priorities=[1], priority=2), "priority", "Cannot specify both priority and priorities"),
    (query(overrideSettings=[]), "overrideSettings", "Must be an object"),
    (query(overrideSettings={"reportAnalysisWinratesAs": "GREEN"}), "overrideSettings",
     "Could not set settings: Could not parse config value for reportAnalysisWinratesAs: GREEN"),
    (query(avoidMoves={}), "avoidMoves", "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'"),
    (query(avoidMoves=[{"player": "B", "moves": ["C4"]}]), "avoidMoves",
     "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'"),
    (query(avoidMoves=[{"player": "B", "moves": ["C4"], "untilDepth": 0}]), "untilDepth", "Must be a positive integer"),
    (query(avoidMoves=[{"player": "B", "moves": ["Q16"], "untilDepth": 1}]), "moves",
     "Could not parse board location: Q16"),
    (query(avoidMoves=[{"player": "B", "moves": ["C4"], "untilDepth": 1}],
           allowMoves=[{"player": "B", "moves": ["C4"], "untilDepth": 1}]), "allowMoves",
     "Cannot specify both allowMoves and avoidMoves"),
    (query(allowMoves=[{"player": "B", "moves": ["C4"], "untilDepth": 1},
                       {"player": "B", "moves": ["C5"], "untilDepth": 1}]), "allowMoves",
     "Cannot specify allowMoves more than once for the same player"),
    (query(moves=[["B", "pass"]] * (MAX_RECORD_MOVES + 1)), "moves", f"Must have at most {MAX_RECORD_MOVES} entries"),
    (query(analysisPVLen=0), "analysisPVLen", "Must be an integer from 1 to 1000"),
    (query(whiteHandicapBonus="N+1"), "whiteHandicapBonus", "Could not parse whiteHandicapBonus: N+1"),
]


def _line(q) -> str:
    if isinstance(q, str):
        return q
    return json.dumps({k: v for k, v in q.items() if v is not None})


@pytest.mark.parametrize("bad, field, message", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_each_malformed_query_is_one_error_object_and_the_engine_keeps_serving(bad, field, message):
    eng, out = engine()
    eng.handle_line(_line(bad))
    eng.handle_line(json.dumps(query(id="after", maxVisits=4)))
    eng.run_pending()
    got = lines(out)
    errors = [o for o in got if "error" in o]
    assert len(errors) == 1
    err = errors[0]
    assert message in err["error"]
    if field is None:
        assert set(err) == {"error"}
    else:
        assert err == {"error": err["error"], "field": field, "id": "x" if "action" in _line(bad) else "q"}
        assert err["error"] == message or err["error"].startswith(message)
    assert [o["id"] for o in got if "moveInfos" in o] == ["after"]


def test_a_deeply_nested_line_gets_one_short_error_not_its_own_echo():
    """Issue 47 item 8: 100,000 nested brackets (past Python's recursion limit) are a parse error whose
    message shows at most the line's first 200 characters."""
    eng, out = engine()
    deep = "[" * 100_000 + "]" * 100_000
    eng.handle_line(deep)
    (err,) = lines(out)
    assert set(err) == {"error"} and "could not parse input line as json request" in err["error"]
    assert err["error"].endswith("[" * 200 + "...") and len(err["error"]) < 400


def test_warnings_have_katago_shape_and_the_query_still_runs():
    got = ask(query(colour="B", rules="stone_scoring", maxVisits=10**7, includePVVisits=True,
                    overrideSettings={"wideRootNoise": 0.04, "maxTime": 50, "frobnicate": 1},
                    avoidMoves=[{"player": "W", "moves": ["C4"], "untilDepth": 3}]))
    warnings = {o["field"]: o["warning"] for o in got if "warning" in o}
    assert all(set(o) == {"warning", "field", "id"} and o["id"] == "q" for o in got if "warning" in o)
    assert warnings["colour"].startswith("Unexpected or unused field")
    assert warnings["rules"] == "Rules stone_scoring not supported by tengen, using chinese instead"
    assert warnings["maxVisits"] == "Capped at 200 visits (tengen analysis --max-visits-cap)"
    assert warnings["overrideSettings"] in ("Unknown config params: frobnicate",
                                            "Params ignored by tengen's search: wideRootNoise")
    assert warnings["includePVVisits"] == "Not reported by tengen"
    assert "root only" in warnings["avoidMoves"]
    finals = [o for o in got if "moveInfos" in o]
    assert len(finals) == 1 and finals[0]["rootInfo"]["visits"] == 200


def test_priorities_order_the_queue_and_ties_keep_arrival_order():
    got = ask(query(id="low", priority=-1, maxVisits=4), query(id="mid1", maxVisits=4),
              query(id="high", priority=5, maxVisits=4), query(id="mid2", maxVisits=4),
              query(id="turns", analyzeTurns=[0, 1, 2], priorities=[0, 9, -5], maxVisits=4))
    order = [(o["id"], o["turnNumber"]) for o in got if "moveInfos" in o]
    assert order == [("turns", 1), ("high", 2), ("mid1", 2), ("mid2", 2), ("turns", 0), ("low", 2), ("turns", 2)]


def test_actions_echo_the_request():
    eng, out = engine()
    for a in ({"id": "v", "action": "query_version"}, {"id": "c", "action": "clear_cache"},
              {"id": "t", "action": "terminate", "terminateId": "nothing"}, {"id": "ta", "action": "terminate_all"}):
        eng.handle_line(json.dumps(a))
    v, c, t, ta = lines(out)
    assert v["id"] == "v" and v["action"] == "query_version" and v["version"].startswith("tengen-") and v["git_hash"]
    assert c == {"id": "c", "action": "clear_cache"}
    assert t == {"id": "t", "action": "terminate", "terminateId": "nothing"}
    assert ta == {"id": "ta", "action": "terminate_all"}


def test_terminate_answers_queued_turns_with_no_results_at_once():
    eng, out = engine()
    eng.handle_line(json.dumps(query(id="a", analyzeTurns=[0, 1, 2], maxVisits=4)))
    eng.handle_line(json.dumps(query(id="b", maxVisits=4)))
    eng.handle_line(json.dumps({"id": "t", "action": "terminate", "terminateId": "a", "turnNumbers": [0, 2]}))
    assert lines(out) == [{"id": "a", "isDuringSearch": False, "noResults": True, "turnNumber": 0},
                          {"id": "a", "isDuringSearch": False, "noResults": True, "turnNumber": 2},
                          {"id": "t", "action": "terminate", "terminateId": "a", "turnNumbers": [0, 2]}]
    eng.run_pending()
    assert [(o["id"], o["turnNumber"]) for o in lines(out) if "moveInfos" in o] == [("a", 1), ("b", 2)]
    eng.handle_line(json.dumps(query(id="c", maxVisits=4)))
    eng.handle_line(json.dumps({"id": "all", "action": "terminate_all"}))
    assert lines(out)[-2:] == [{"id": "c", "isDuringSearch": False, "noResults": True, "turnNumber": 2},
                               {"id": "all", "action": "terminate_all"}]
    assert eng.run_pending() == 0


def test_terminate_stops_a_running_search_which_reports_what_it_has():
    holder: dict = {}

    class Terminating(Leaning):
        def evaluate(self, boards):
            if self.rows >= 20 and not holder.get("sent"):
                holder["sent"] = True
                holder["engine"].handle_line(json.dumps({"id": "t", "action": "terminate", "terminateId": "long"}))
            return super().evaluate(boards)

    eng, out = engine(Terminating("anywhere"), max_visits_cap=10_000)
    holder["engine"] = eng
    eng.handle_line(json.dumps(query(id="long", maxVisits=5000)))
    eng.run_pending()
    got = lines(out)
    final = [o for o in got if "moveInfos" in o]
    assert len(final) == 1 and final[0]["isDuringSearch"] is False and final[0]["rootInfo"]["visits"] < 100
    assert {"id": "t", "action": "terminate", "terminateId": "long"} in got


def test_a_failing_turn_is_an_error_object_with_its_id_then_no_results():
    def broken():
        raise OSError("no network here")

    eng, out = engine()
    eng._load_evaluator = broken
    eng.handle_line(json.dumps(query(id="x")))
    eng.run_pending()
    err, none = lines(out)
    assert err == {"error": "cannot load the network: no network here", "id": "x"}  # the user's to fix: no "internal error"
    assert none == {"id": "x", "isDuringSearch": False, "noResults": True, "turnNumber": 2}


def test_a_bug_in_a_turn_is_an_internal_error_with_its_id_then_no_results():
    eng, out = engine()

    def bug(req):
        raise KeyError("oops")

    eng._analyze = bug
    eng.handle_line(json.dumps(query(id="y")))
    eng.run_pending()
    err, none = lines(out)
    assert err["id"] == "y" and err["error"].startswith("internal error: ")
    assert none["noResults"] is True


def test_serve_reads_bytes_skips_overlong_lines_and_finishes_the_queue_at_end_of_input():
    eng, out = engine()
    stdin = io.BytesIO(b"\n".join([
        json.dumps(query(id="one", maxVisits=4)).encode(),
        b"x" * (MAX_LINE_BYTES + 10),
        b"\xff\xfe garbage",
        json.dumps({"id": "v", "action": "query_version"}).encode(),
        json.dumps(query(id="two", maxVisits=4, priority=3)).encode(),
    ]) + b"\n")
    assert eng.serve(stdin) == 0
    got = lines(out)
    assert sorted(o["id"] for o in got if "moveInfos" in o) == ["one", "two"]
    general = [o["error"] for o in got if "error" in o]
    assert len(general) == 2 and general[0] == f"Request line longer than {MAX_LINE_BYTES} bytes, ignoring"
    assert any(o.get("action") == "query_version" for o in got)


def test_the_command_line_refuses_bad_flags_in_one_line():
    from tengen.cli import main

    assert main(["analysis", "--visits", "0"]) == 2
    assert main(["analysis", "--max-visits-cap", "0"]) == 2


def test_tengen_analysis_as_a_subprocess_with_the_tiny_network_never_writes_a_traceback():
    queries = "\n".join([json.dumps(query(id="a", maxVisits=8, includeOwnership=True)), "{oops",
                         json.dumps({"id": "v", "action": "query_version"})]) + "\n"
    cmd = [sys.executable, "-c", "import sys; from tengen.cli import main; sys.exit(main())",
           "analysis", "--model", "tiny", "--threads", "1"]
    proc = subprocess.run(cmd,
                          input=queries.encode(), capture_output=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    got = [json.loads(s) for s in proc.stdout.decode().splitlines()]
    assert [o.get("id") for o in got if "moveInfos" in o] == ["a"]
    assert sum("error" in o for o in got) == 1 and any(o.get("action") == "query_version" for o in got)
    assert "Traceback" not in proc.stdout.decode()
