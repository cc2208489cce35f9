"""The analysis commands (kata-analyze, lz-analyze, analyze and the genmove_analyze variants): KataGo's and
Leela Zero's line formats read back the way Lizzie and Sabaki read them, the streaming framing through
`GtpEngine.run` (a stdin that hands over the next line only once the engine waits for it, so every run is
the same), bad arguments, and golden transcripts (tests/io/transcripts/analysis/NAME.gtp -> NAME.out; to
re-record after an intended change: `python tests/io/test_gtp_analysis.py --record`, then review the diff).

Everything runs on tengen's real search with a stand-in evaluator (no network) and visit-bounded searches
(no interval elapses: intervals are 100000 centiseconds), so outputs do not depend on the machine's speed."""
from __future__ import annotations

import io
import re
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from standin_networks import StandInNetwork  # noqa: E402
from tengen.io.engines import gtp_engine  # noqa: E402
from tengen.io.gtp_analysis import (AnalyzeArgsError, kata_number, lz_number,  # noqa: E402
                                    parse_analyze_args)
from tengen.io.gtp_player import PlayerSettings, SearchPlayer  # noqa: E402

TRANSCRIPTS = sorted((HERE / "transcripts" / "analysis").glob("*.gtp"))
FAR = "100000"  # an interval (centiseconds) that never elapses in a test: one line per search, at its end


def make_engine(size: int = 9, visits: int = 12, analysis_visits: int = 12, **kwargs) -> GtpEngine:
    player = SearchPlayer(lambda: StandInNetwork("anywhere"),
                          {"visits": visits, "batch_size": 4, "root_symmetries": 1},
                          PlayerSettings(analysis_visits=analysis_visits))
    return gtp_engine(size=size, player=player, **kwargs)


class GatedInput(io.RawIOBase):
    """A stdin whose next line comes only when the engine waits for input (the main loop, or an analysis
    that reached its visits): the analysis is never cut short by a line that happened to be read early."""

    def __init__(self, engine: GtpEngine, data: bytes):
        self.engine = engine
        self.lines = data.splitlines(keepends=True)
        self.ended = threading.Event()  # the session is over: nothing will wait for input again

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> bytes:
        while not self.engine.waiting_for_input.wait(0.1):  # no deadline: a loaded machine may take long
            if self.ended.is_set():
                return b""
        self.engine.waiting_for_input.clear()
        return self.lines.pop(0) if self.lines else b""


def run_session(engine: GtpEngine, commands: str) -> str:
    out = io.BytesIO()
    gate = GatedInput(engine, commands.encode())

    def session() -> None:
        try:
            engine.run(gate, out)
        finally:
            gate.ended.set()

    thread = threading.Thread(target=session)
    thread.start()
    thread.join()  # pytest-timeout ends a session that never does
    return out.getvalue().decode()


# ---------------------------------------------------------------- parsers as the GUIs read the lines
def sabaki_parse(line: str, kata: bool) -> list[dict]:
    """Sabaki's parseAnalysis (src/modules/analysis.js): split on `info`, the PV is the trailing run of
    vertices, the tokens before it key/value pairs; winrate a float (kata) or x10000 integer (else)."""
    out = []
    for chunk in re.split(r"\s*info\s+", line)[1:]:
        chunk = chunk.strip()
        match = re.search(r"(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$", chunk)
        if match is None:
            continue
        tokens = chunk[: match.start()].strip().split()[:-1]  # drops the `pv` key
        pv = match.group(0).split()
        if "pass" in pv:
            pv = pv[: pv.index("pass")]
        fields = dict(zip(tokens[0::2], tokens[1::2]))
        winrate = float(fields["winrate"]) * 100 if kata else int(fields["winrate"]) / 100
        out.append({"move": fields["move"], "visits": int(fields["visits"]), "winrate": winrate,
                    "scoreLead": float(fields["scoreLead"]) if "scoreLead" in fields else None, "pv": pv})
    return out


def lizzie_parse(line: str, kata: bool) -> tuple[list[dict], list[float]]:
    """Lizzie's Leelaz.parseInfoKatago / MoveData.fromInfoKatago (fromInfo for lz): split on " info ",
    single-space tokens, key/value until `pv`, the rest the variation; `ownership` split off the line."""
    assert line.startswith("info ")
    ownership = []
    if "ownership" in line:
        ownership = [float(x) for x in line.strip().split("ownership")[1].strip().split(" ")]
    moves = []
    for var in line[5:].split(" info "):
        data = var.strip().split(" ")
        move: dict = {}
        i = 0
        while i < len(data):
            key = data[i]
            if key == "pv":
                move["variation"] = data[i + 1:]
                break
            value = data[i + 1]
            i += 2
            if key == "move":
                move["coordinate"] = value
            elif key == "visits":
                move["playouts"] = int(value)
            elif key == "winrate":
                move["winrate"] = float(value) * 100 if kata else int(value) / 100.0
            elif key == "scoreMean" and kata:
                move["scoreMean"] = float(value)
            elif key == "prior":
                move["policy"] = float(value) * 100 if kata else int(value) / 100.0
        moves.append(move)
    return moves, ownership


def _info_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("info ")]


def test_kata_analyze_lines_read_back_as_lizzie_and_sabaki_read_them():
    engine = make_engine()
    engine.handle("play b E5")
    response = engine.handle(f"7 kata-analyze {FAR} ownership true")
    assert response.startswith("=7\ninfo move ") and response.endswith("\n\n")
    lines = _info_lines(response)
    assert len(lines) == 1
    line = lines[0]
    result = engine.player.last_result if engine.player.last_result is not None else None
    moves, ownership = lizzie_parse(line, kata=True)
    sabaki = sabaki_parse(line.split(" ownership ")[0], kata=True)
    assert len(ownership) == 81 and all(-1 <= v <= 1 for v in ownership)
    assert [m["coordinate"] for m in moves] == [m["move"] for m in sabaki]
    assert sum(m["playouts"] for m in moves) <= 12 and moves[0]["playouts"] >= moves[-1]["playouts"]
    for lz, sb in zip(moves, sabaki):
        assert lz["winrate"] == pytest.approx(sb["winrate"]) and 0 <= lz["winrate"] <= 100
        assert 0 <= lz["policy"] <= 100
        assert lz["scoreMean"] == pytest.approx(sb["scoreLead"])
        assert lz["variation"][0] == lz["coordinate"] and sb["pv"][: 1] == [lz["coordinate"]]
    fields = line.split(" info ")[0].split()
    keys = fields[1::2][: fields.index("pv") // 2]
    assert keys == ["move", "visits", "utility", "winrate", "scoreMean", "scoreLead", "prior", "lcb", "order"]
    assert result is None  # analysis is not genmove: nothing recorded as the player's last move search


def test_analysis_values_match_the_search_and_the_side_to_move():
    """White to move on a 5x5 board where the stand-in gives White the contested point: winrates from White's
    view, ownership from White's view (KataGo's: the analyzed player's)."""
    engine = make_engine(size=5, analysis_visits=10)
    for cmd in ("play b A1", "play b B2", "play w D4", "play w E5"):
        engine.handle(cmd)
    lines = _info_lines(engine.handle(f"kata-analyze w {FAR} ownership true rootInfo true"))
    moves, ownership = lizzie_parse(lines[0], kata=True)
    assert ownership[4] == pytest.approx(1.0)  # E5 (top right, row-major from A5): White's stone, White's view
    assert ownership[20] == pytest.approx(-1.0)  # A1: a black stone, seen from White
    assert " rootInfo visits " in lines[0]
    lz = _info_lines(engine.handle(f"lz-analyze w {FAR}"))[0]
    lz_moves, _ = lizzie_parse(lz, kata=False)
    assert all(re.fullmatch(r"\d+", t) for t in re.findall(r"(?:winrate|prior|lcb) (\S+)", lz))
    assert {m["coordinate"] for m in lz_moves} <= {m["coordinate"] for m in moves} | {m["coordinate"] for m in lz_moves}


def test_sabaki_analyze_is_leela_format_with_score_lead():
    engine = make_engine()
    line = _info_lines(engine.handle(f"analyze b {FAR}"))[0]
    assert re.match(r"info move \S+ visits \d+ winrate \d+ scoreLead \S+ prior \d+ lcb \d+ order 0 pv ", line)
    parsed = sabaki_parse(line, kata=False)
    assert parsed and all(0 <= v["winrate"] <= 100 and v["scoreLead"] is not None for v in parsed)


def test_genmove_analyze_prints_lines_then_play_and_plays_the_move():
    engine = make_engine()
    response = engine.handle(f"3 kata-genmove_analyze b {FAR}")
    head, *rest = response.split("\n")
    assert head == "=3"
    assert response.endswith("\n\n")
    play = [line for line in rest if line.startswith("play ")]
    assert len(play) == 1 and rest[-3] == play[0]
    vertex = play[0].split()[1]
    assert engine.board.moves[-1][0] == 1 and len(engine.board.moves) == 1
    assert vertex != "resign"
    lz = engine.handle(f"lz-genmove_analyze w {FAR}")
    assert re.search(r"\nplay (\S+)\n\n$", lz) and len(engine.board.moves) == 2
    assert engine.handle("genmove_analyze b").split("\n")[-3].startswith("play ")


def test_streaming_through_run_ends_at_the_next_command():
    engine = make_engine()
    out = run_session(engine, f"1 kata-analyze b {FAR} maxmoves 2\n2 name\n3 lz-analyze {FAR}\n\n4 name\nquit\n")
    parts = out.split("\n\n")
    assert parts[0].startswith("=1\ninfo move ") and parts[0].count("\n") == 1
    assert len(sabaki_parse(parts[0].split("\n")[1], kata=True)) <= 2
    assert parts[1] == "=2 tengen"
    assert parts[2].startswith("=3\ninfo move ") and parts[3] == "=4 tengen" and parts[4] == "="


def test_minmoves_maxmoves_and_pv():
    engine = make_engine(analysis_visits=20)
    one = _info_lines(engine.handle(f"kata-analyze {FAR} maxmoves 1"))[0]
    assert one.count("info ") == 1
    many = _info_lines(engine.handle(f"kata-analyze interval {FAR} minmoves 3"))[0]
    assert many.count("info ") >= 1


@pytest.mark.parametrize("command,message", [
    ("kata-analyze b 50 ownership maybe", "ownership must be true or false"),
    ("kata-analyze b 50 frobnicate 1", "unknown analysis argument 'frobnicate'"),
    ("kata-analyze b 50 minmoves -1", "minmoves must be a whole number"),
    ("kata-analyze b 50 maxmoves", "'maxmoves' needs a value"),
    ("lz-analyze b 50 ownership true", "unknown analysis argument 'ownership'"),
    ("lz-analyze b 50 avoid b D4 1", "avoid is not supported"),
    ("kata-analyze interval -5", "interval must be centiseconds"),
    ("kata-analyze b nan", "'nan' needs a value"),
    ("kata-genmove_analyze b 50 pvVisits 2", "pvVisits must be true or false"),
    ("analyze purple", "'purple' needs a value"),
])
def test_bad_arguments_are_one_error_line(command, message):
    engine = make_engine()
    answer = engine.handle("5 " + command)
    assert answer.startswith("?5 ") and message in answer and answer.endswith("\n\n") and answer.count("\n") == 2
    assert not engine.board.moves


def test_analysis_commands_need_the_search_player():
    engine = gtp_engine(size=9)
    assert engine.handle("kata-analyze b 50") == "? unknown command\n\n"
    assert "kata-analyze" not in engine.commands() and "tengen-endgame" in engine.commands()
    assert "kata-analyze" in make_engine().commands()


def test_a_network_that_cannot_load_is_an_error_before_the_stream():
    def broken():
        raise FileNotFoundError("nothing.bin.gz: no such model file")

    engine = gtp_engine(size=9, player=SearchPlayer(broken, {"visits": 4}))
    assert engine.handle("1 kata-analyze b 50") == "?1 cannot load the network: nothing.bin.gz: no such model file\n\n"
    assert engine.handle("2 genmove b") == "?2 cannot load the network: nothing.bin.gz: no such model file\n\n"
    assert engine.handle("3 name") == "=3 tengen\n\n"


def test_argument_parsing_follows_katago():
    args = parse_analyze_args(["w", "25", "ownership", "true", "pvVisits", "false"], "kata")
    assert (args.color, args.interval, args.ownership, args.pv_visits) == (-1, 0.25, True, False)
    assert parse_analyze_args(["10"], "lz").interval == 0.1 and parse_analyze_args(["10"], "lz").color is None
    assert parse_analyze_args([], "kata").interval is None
    with pytest.raises(AnalyzeArgsError):
        parse_analyze_args(["b", "10", "rootInfo", "true"], "lz")


def test_number_formats():
    assert [kata_number(x) for x in (1, 0.53, -2.5, 0.0, 1e-7, 0.1234567)] == ["1.0", "0.53", "-2.5", "0.0", "1e-07", "0.123457"]
    assert [lz_number(x) for x in (0.53, 0.99995, 1.2, -0.1, 0.00005)] == ["5300", "10000", "10000", "0", "1"]


# ---------------------------------------------------------------- golden transcripts
def run_transcript(script: Path) -> str:
    engine = make_engine(size=9)
    return run_session(engine, script.read_bytes().decode("utf-8"))


def test_transcripts_are_present():
    assert {p.stem for p in TRANSCRIPTS} >= {"kata", "leela"}


@pytest.mark.parametrize("script", TRANSCRIPTS, ids=lambda p: p.stem)
def test_golden_analysis_transcript(script: Path):
    assert run_transcript(script) == script.with_suffix(".out").read_bytes().decode("utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    for path in TRANSCRIPTS:
        path.with_suffix(".out").write_bytes(run_transcript(path).encode("utf-8"))
        print(f"wrote {path.with_suffix('.out')}")
