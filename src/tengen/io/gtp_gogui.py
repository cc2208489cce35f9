"""GoGui analyze commands showing tengen's own endgame analysis (`tengen.api.analyze`), and `tengen-endgame`.

`gogui-analyze_commands` lists them as GoGui reads them, `type/label/command`, one a line:

    gfx/tengen region temperatures/tengen-gfx_temperatures   LABEL: each region's empty points, its temperature
    gfx/tengen ownership/tengen-gfx_ownership                INFLUENCE: every point, the agreed ownership (Black +1)
    gfx/tengen regions/tengen-gfx_regions                    COLOR #rrggbb: each region's points in a color of its own
    gfx/tengen best local sequences/tengen-gfx_sequences     VAR: the principal line of the region the move is in
    gfx/tengen recommended move/tengen-gfx_move              SQUARE on the move, TEXT: the move and why
    string/tengen endgame table/tengen-endgame               the table `tengen analyze` prints (io/report)

GoGui's gfx lines: `LABEL C3 2.5 D3 2.5`, `INFLUENCE A1 0.97 B1 -0.4`, `COLOR #e6194b C3 D3`,
`VAR b C3 w D3`, `SQUARE C3`, `TEXT ...`. One analysis per position (the side to move's, with the defaults
every front end shares: `AnalysisOptions()`, so GoGui shows what `tengen analyze` prints) serves every
command until the position changes.
"""
from __future__ import annotations

from typing import Optional

from tengen.go.colors import BLACK
from tengen.go.coords import to_gtp
from tengen.io.figures import figure
from tengen.io.gtp_base import GtpError, GtpHandler

PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
           "#fabed4", "#469990", "#dcbeff", "#9a6324", "#800000", "#aaffc3", "#808000", "#000075")

GOGUI_COMMANDS = (
    ("gfx", "tengen region temperatures", "tengen-gfx_temperatures"),
    ("gfx", "tengen ownership", "tengen-gfx_ownership"),
    ("gfx", "tengen regions", "tengen-gfx_regions"),
    ("gfx", "tengen best local sequences", "tengen-gfx_sequences"),
    ("gfx", "tengen recommended move", "tengen-gfx_move"),
    ("string", "tengen endgame table", "tengen-endgame"),
)


# ---------------------------------------------------------------------- gfx text from an Analysis
def gfx_temperatures(analysis) -> str:
    h = analysis.board.height
    cells = []
    for r in analysis.regions:
        label = figure(r.temperature) if r.temperature is not None else "-"
        for p in r.region.sorted_points():
            if analysis.board.get(p) == 0:
                cells.append(f"{to_gtp(p, h)} {label}")
    return "LABEL " + " ".join(cells) if cells else ""


def gfx_ownership(analysis) -> str:
    own = analysis.ownership
    if own is None:
        return "TEXT no ownership (the analysis ran without the network)"
    h, w = own.shape
    cells = [f"{to_gtp((r, c), h)} {float(own[r, c]):.2f}" for r in range(h) for c in range(w)]
    return "INFLUENCE " + " ".join(cells)


def gfx_regions(analysis) -> str:
    h = analysis.board.height
    lines = []
    for i, r in enumerate(analysis.regions):
        points = " ".join(to_gtp(p, h) for p in r.region.sorted_points())
        if points:
            lines.append(f"COLOR {PALETTE[i % len(PALETTE)]} {points}")
    return "\n".join(lines) if lines else "TEXT no undecided region"


def _recommended_region(analysis):
    """The region of the recommended move (else the hottest one), or None."""
    if analysis.recommended is not None:
        move = analysis.recommended[1]
        for r in analysis.regions:
            if move in r.region.points:
                return r
    hot = [r for r in analysis.regions if r.temperature is not None]
    return max(hot, key=lambda r: r.temperature) if hot else None


def gfx_sequences(analysis) -> str:
    region = _recommended_region(analysis)
    if region is None:
        return "TEXT no local sequence"
    line = region.principal_black if analysis.board.to_play == BLACK else region.principal_white
    line = line or region.principal_black or region.principal_white
    if not line:
        return "TEXT no local sequence"
    h = analysis.board.height
    return "VAR " + " ".join(f"{'b' if c == BLACK else 'w'} {to_gtp(p, h)}" for c, p in line)


def gfx_move(analysis) -> str:
    h = analysis.board.height
    who = "Black" if analysis.board.to_play == BLACK else "White"
    if analysis.recommended is None:
        reason = " ".join((analysis.recommended_reason or "no region to play in").split())
        return f"TEXT {who}: no recommended move ({reason})"
    move = analysis.recommended[1]
    reason = " ".join(analysis.recommended_reason.split())
    square = f"SQUARE {to_gtp(move, h)}\n" if move is not None else ""
    return f"{square}TEXT {who}: {to_gtp(move, h)} ({reason})"


class GoGuiCommands(GtpHandler):
    """GoGui's analyze commands and `tengen-endgame`, over one endgame analysis per position; the network
    is the engine's `load_evaluator`, else its search player's, else the default."""

    def __init__(self, engine):
        super().__init__(engine)
        self.endgame_options = None  # AnalysisOptions for these commands (None: the defaults every front end shares)
        self._endgame_cache: Optional[tuple] = None
        self._endgame_evaluator_loaded = None

    def cmd_gogui_analyze_commands(self, args):
        return "\n".join(f"{kind}/{label}/{command}" for kind, label, command in GOGUI_COMMANDS)

    def cmd_tengen_endgame(self, args):
        """The table `tengen analyze` prints; `tengen-endgame json`: the JSON report `tengen analyze --json`
        writes (trees left out), on one line, for GUIs that read it."""
        import json

        from tengen.io.report import strict_json_report, text_report

        if args[:1] == ["json"]:
            report = strict_json_report(self._endgame_analysis(args[1:]), trees=False)
            return json.dumps(report, separators=(",", ":"))
        return "\n" + text_report(self._endgame_analysis(args))

    def cmd_tengen_gfx_temperatures(self, args):
        return self._gfx(args, gfx_temperatures)

    def cmd_tengen_gfx_ownership(self, args):
        return self._gfx(args, gfx_ownership)

    def cmd_tengen_gfx_regions(self, args):
        return self._gfx(args, gfx_regions)

    def cmd_tengen_gfx_sequences(self, args):
        return self._gfx(args, gfx_sequences)

    def cmd_tengen_gfx_move(self, args):
        return self._gfx(args, gfx_move)

    def _gfx(self, args, render) -> str:
        text = render(self._endgame_analysis(args))
        return "\n" + text if text else ""

    # ------------------------------------------------------------------ the analysis, once per position
    def _endgame_evaluator(self):
        if self._endgame_evaluator_loaded is None:
            try:
                if self.engine.load_evaluator is not None:
                    self._endgame_evaluator_loaded = self.engine.load_evaluator()
                elif self.engine.player is not None:
                    self._endgame_evaluator_loaded = self.engine.player.search.evaluator
                else:
                    from tengen.api import default_evaluator

                    self._endgame_evaluator_loaded = default_evaluator()
            except GtpError:
                raise
            except Exception as e:
                raise GtpError(f"cannot load the network: {' '.join(str(e).split()) or type(e).__name__}") from None
        return self._endgame_evaluator_loaded

    def _endgame_analysis(self, args):
        if args:
            raise GtpError(f"{len(args)} unexpected argument(s): this command analyzes the current position")
        board = self.engine.board
        key = (board.hash, board.to_play, board.rules, len(board.moves), board.width, board.height)
        if self._endgame_cache is not None and self._endgame_cache[0] == key:
            return self._endgame_cache[1]
        evaluator = self._endgame_evaluator()
        from tengen.api import analyze

        try:
            analysis = analyze(board.copy(), evaluator=evaluator, options=self.endgame_options)
        except (ValueError, OSError) as e:
            raise GtpError(f"cannot analyze: {' '.join(str(e).split())}") from None
        self._endgame_cache = (key, analysis)
        return analysis
