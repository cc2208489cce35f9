"""GTP analysis commands (live analysis for Lizzie, Sabaki, KaTrain-style tools) in KataGo's and Leela Zero's
exact line formats, over tengen's search (`io/gtp_player.SearchPlayer`).

    kata-analyze [player] [interval] [interval CS] [minmoves N] [maxmoves N] [ownership true] [pvVisits true] [rootInfo true]
    lz-analyze   [player] [interval] [interval CS] [minmoves N] [maxmoves N]
    analyze      (Sabaki's name; its lines as lz-analyze's plus scoreLead, like Sayuri's)
    kata-genmove_analyze / lz-genmove_analyze / genmove_analyze: the same lines while genmove searches, then
    `play VERTEX` (or `play pass`, `play resign`)

`player` is b/w/black/white (default: the side to move), `interval` is in centiseconds (as KataGo, a
number). The response starts `=[id]` on a line of its own; an info line follows every interval (and one
when the search ends); the analysis runs until the next input line arrives (any line, an empty one too),
then the response ends with an empty line and that line is answered. A genmove_analyze variant is not
stopped by input: it searches as genmove does (visits, seconds, clock).

Lines (all moves of one report on one line, best first, values from the analyzed player's side):

    kata: info move D4 visits 12 utility 0.0613 winrate 0.53 scoreMean 1.2 scoreLead 1.2 prior 0.12 lcb 0.49 order 0 pv D4 Q16 [info ...] [rootInfo visits 13 ...] [ownership 361 numbers]
    lz:   info move D4 visits 12 winrate 5300 prior 1200 lcb 4900 order 0 pv D4 Q16 [info ...]

Kata floats are written with 6 significant digits and always a decimal point (`1.0`, not `1`: older Sabaki
tells KataGo's floats from Leela's integers by the point); Leela's are rounded x10000 integers in
[0, 10000]. `ownership` is H x W numbers in [-1, 1], row-major from the top-left point (A19 on 19x19),
from the analyzed player's side. `scoreStdev`, `scoreSelfplay` and `pvVisits` are written when the search's
move statistics carry them (attributes `score_stdev`, `score_selfplay`, `pv_visits`); tengen's search
reports a lead only, so `scoreMean` is the lead, as KataGo writes it. `minmoves` cannot add unvisited
moves (the search reports visited ones only).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from tengen.go.board import MAX_RECORD_MOVES, Board, MoveLimitError
from tengen.go.colors import parse_color
from tengen.go.coords import to_gtp
from tengen.io.gtp_base import GtpError, GtpHandler, Streamed

if TYPE_CHECKING:  # tengen.search loads the network's modules (torch): not when GTP starts
    from tengen.search.results import MoveStats, SearchResult

KATA, LZ, SABAKI = "kata", "lz", "sabaki"
MAX_INTERVAL_CS = 1e9  # centiseconds; a larger interval is refused (KataGo bounds it too)
PV_LENGTH = 30


class AnalyzeArgsError(ValueError):
    """Arguments an analysis command cannot use; the message is the GTP error text."""


@dataclass(frozen=True)
class AnalyzeArgs:
    color: Optional[int] = None  # None: the side to move
    interval: Optional[float] = None  # seconds between info lines (None: one line, when the search ends)
    min_moves: int = 0
    max_moves: Optional[int] = None
    ownership: bool = False
    pv_visits: bool = False
    root_info: bool = False


def _bool(text: str) -> Optional[bool]:
    return {"true": True, "false": False, "1": True, "0": False}.get(text.lower())


def _interval(text: str) -> Optional[float]:
    """Centiseconds (a number, as KataGo reads it) -> seconds; None if not a valid interval."""
    try:
        cs = float(text)
    except ValueError:
        return None
    if not (math.isfinite(cs) and 0 <= cs < MAX_INTERVAL_CS):
        return None
    return cs / 100.0


def _count(key: str, text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise AnalyzeArgsError(f"{key} must be a whole number 0..999999999, not {text!r}")
    return int(text)


def parse_analyze_args(args: list[str], dialect: str) -> AnalyzeArgs:
    """KataGo's reading: an optional player, an optional interval, then key-value pairs (`ownership`,
    `pvVisits` and `rootInfo` for kata only). AnalyzeArgsError names what is wrong."""
    i, color, interval = 0, None, None
    if i < len(args):
        try:
            color = parse_color(args[i])
            i += 1
        except ValueError:
            pass
    if i < len(args) and _interval(args[i]) is not None:
        interval = _interval(args[i])
        i += 1
    values: dict = {}
    while i < len(args):
        key = args[i]
        if i + 1 >= len(args):
            raise AnalyzeArgsError(f"{key!r} needs a value" if not key[:1].isdigit() else f"bad interval {key!r}")
        value = args[i + 1]
        i += 2
        if key == "interval":
            interval = _interval(value)
            if interval is None:
                raise AnalyzeArgsError(f"interval must be centiseconds, 0 or more, not {value!r}")
        elif key == "minmoves":
            values["min_moves"] = _count(key, value)
        elif key == "maxmoves":
            values["max_moves"] = _count(key, value)
        elif key in ("ownership", "pvVisits", "rootInfo") and dialect == KATA:
            flag = _bool(value)
            if flag is None:
                raise AnalyzeArgsError(f"{key} must be true or false, not {value!r}")
            values[{"ownership": "ownership", "pvVisits": "pv_visits", "rootInfo": "root_info"}[key]] = flag
        elif key in ("avoid", "allow"):
            raise AnalyzeArgsError(f"{key} is not supported by tengen")
        else:
            raise AnalyzeArgsError(f"unknown analysis argument {key!r}")
    return AnalyzeArgs(color=color, interval=interval, **values)


# ---------------------------------------------------------------------- numbers
def kata_number(x: float) -> str:
    """6 significant digits, always with a decimal point or an exponent (`1.0`, `0.53`, `-2.5`, `1e-07`)."""
    x = float(x)
    if not math.isfinite(x):
        return "0.0"
    text = f"{x:.6g}"
    if text == "-0":
        text = "0"
    return text if ("." in text or "e" in text) else text + ".0"


def lz_number(p: float) -> str:
    """A probability x10000, rounded half up, as an integer in [0, 10000]."""
    p = min(max(float(p), 0.0), 1.0) if math.isfinite(p) else 0.0
    return str(int(math.floor(p * 10000.0 + 0.5)))


# ---------------------------------------------------------------------- lines
def reported_moves(result: SearchResult, args: AnalyzeArgs) -> list[MoveStats]:
    """The moves of one report: visited ones (or as many as `minmoves` asks, of those the search kept),
    at most `maxmoves`, by order."""
    moves = sorted(result.moves, key=lambda s: s.order)
    kept = [s for k, s in enumerate(moves) if s.visits > 0 or k < args.min_moves]
    if args.max_moves is not None:
        kept = kept[: args.max_moves]
    return kept


def _pv(stats: MoveStats, height: int) -> str:
    line = stats.pv or [stats.move]
    return " ".join(to_gtp(m, height) for m in line[:PV_LENGTH])


def kata_info(stats: MoveStats, height: int, args: AnalyzeArgs) -> str:
    """One `info` of kata-analyze (KataGo's field order)."""
    fields = ["info", "move", to_gtp(stats.move, height), "visits", str(int(stats.visits)),
              "utility", kata_number(stats.utility), "winrate", kata_number(stats.winrate),
              "scoreMean", kata_number(stats.score_lead)]
    stdev = getattr(stats, "score_stdev", None)
    if stdev is not None:
        fields += ["scoreStdev", kata_number(stdev)]
    fields += ["scoreLead", kata_number(stats.score_lead)]
    selfplay = getattr(stats, "score_selfplay", None)
    if selfplay is not None:
        fields += ["scoreSelfplay", kata_number(selfplay)]
    fields += ["prior", kata_number(stats.prior), "lcb", kata_number(min(max(stats.lcb, 0.0), 1.0)),
               "order", str(int(stats.order)), "pv", _pv(stats, height)]
    pv_visits = getattr(stats, "pv_visits", None)
    if args.pv_visits and pv_visits:
        fields += ["pvVisits", " ".join(str(int(v)) for v in pv_visits[:PV_LENGTH])]
    return " ".join(fields)


def lz_info(stats: MoveStats, height: int, score_lead: bool = False) -> str:
    """One `info` of lz-analyze (Leela Zero's fields), with `scoreLead` for Sabaki's `analyze`."""
    fields = ["info", "move", to_gtp(stats.move, height), "visits", str(int(stats.visits)),
              "winrate", lz_number(stats.winrate)]
    if score_lead:
        fields += ["scoreLead", kata_number(stats.score_lead)]
    fields += ["prior", lz_number(stats.prior), "lcb", lz_number(stats.lcb), "order", str(int(stats.order)),
               "pv", _pv(stats, height)]
    return " ".join(fields)


def analysis_line(result: SearchResult, board: Board, args: AnalyzeArgs, dialect: str) -> Optional[str]:
    """One report (a line without its newline), or None when no move has been visited yet."""
    moves = reported_moves(result, args)
    if not moves:
        return None
    h = board.height
    if dialect != KATA:
        return " ".join(lz_info(s, h, score_lead=dialect == SABAKI) for s in moves)
    parts = [kata_info(s, h, args) for s in moves]
    if args.root_info:
        parts.append(" ".join(["rootInfo", "visits", str(int(result.visits)), "winrate", kata_number(result.winrate),
                               "scoreMean", kata_number(result.score_lead), "scoreLead", kata_number(result.score_lead)]))
    if args.ownership:
        own = result.ownership
        if own is None:
            own_values = [0.0] * (board.width * board.height)
        else:
            sign = 1.0 if result.to_play == 1 else -1.0  # the analyzed player's side
            own_values = [sign * float(v) for v in own.reshape(-1)]
        parts.append("ownership " + " ".join(kata_number(v) for v in own_values))
    return " ".join(parts)


# ---------------------------------------------------------------------- the commands (a GtpEngine handler)
class AnalysisCommands(GtpHandler):
    """The analysis commands Lizzie, Sabaki and KaTrain send (offered with a search player only): each
    streams the search's lines through the engine until the next command arrives."""

    needs_player = frozenset({"kata-analyze", "lz-analyze", "analyze", "kata-genmove_analyze",
                                   "lz-genmove_analyze", "genmove_analyze"})

    def cmd_kata_analyze(self, args):
        return self._analyze(args, KATA)

    def cmd_lz_analyze(self, args):
        return self._analyze(args, LZ)

    def cmd_analyze(self, args):
        return self._analyze(args, SABAKI)

    def cmd_kata_genmove_analyze(self, args):
        return self._genmove_analyze(args, KATA)

    def cmd_lz_genmove_analyze(self, args):
        return self._genmove_analyze(args, LZ)

    def cmd_genmove_analyze(self, args):
        return self._genmove_analyze(args, SABAKI)

    def _analysis_args(self, args, dialect) -> AnalyzeArgs:
        try:
            return parse_analyze_args(args, dialect)
        except AnalyzeArgsError as exc:
            raise GtpError(str(exc)) from None

    def _analyze(self, args, dialect):
        player = self.engine.require_player()
        opts = self._analysis_args(args, dialect)
        player.ensure_loaded()  # a network that cannot load is a plain `? ...` answer, before the stream
        position = self.engine.board.copy()
        if opts.color is not None:
            position.to_play = opts.color
        self.engine.stream_begin()

        def report(result: SearchResult) -> None:
            line = analysis_line(result, position, opts, dialect)
            if line is not None:
                self.engine.stream_line(line)

        result = player.analyze(position, should_stop=self.engine.input_pending,
                                on_progress=report if opts.interval is not None else None,
                                progress_every=opts.interval if opts.interval is not None else 1.0)
        report(result)
        self.engine.wait_for_input()
        return Streamed("")

    def _genmove_analyze(self, args, dialect):
        player = self.engine.require_player()
        opts = self._analysis_args(args, dialect)
        color = opts.color if opts.color is not None else self.engine.board.to_play
        if len(self.engine.board.moves) >= MAX_RECORD_MOVES:
            raise MoveLimitError()
        player.ensure_loaded()
        position = self.engine.board.copy()
        position.to_play = color
        self.engine.stream_begin()

        def report(result: SearchResult) -> None:
            line = analysis_line(result, position, opts, dialect)
            if line is not None:
                self.engine.stream_line(line)

        vertex = self.engine.search_genmove(color, cleanup=False, on_progress=report if opts.interval is not None else None,
                                      progress_every=opts.interval if opts.interval is not None else 1.0)
        if player.last_result is not None:
            report(player.last_result)
        return Streamed(f"play {vertex}\n")
