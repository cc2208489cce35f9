"""An analysed position written as a diagram SGF (the workbench's Save): the board's stones as setup (AB / AW),
the side to move (PL), the rules and komi, the region that was asked for as `SQ[]`, and the analysis on the
root node exactly as `tengen analyze --sgf` writes it (the values in the comment, the best local lines as
variations), so `tengen analyze FILE` reads it back to the same region and numbers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

from tengen.go.colors import BLACK, WHITE

if TYPE_CHECKING:
    from tengen.endgame.results import Analysis
    from tengen.go.board import Board
    from tengen.go.coords import Point

SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def sgf_point(point: Point, height: int) -> str:
    """(row, col), row 0 at the top, as an SGF point ("aa": the top left)."""
    row, col = point
    return SGF_LETTERS[col] + SGF_LETTERS[row]


def setup_sgf(board: Board, region: Optional[Iterable[Point]] = None) -> str:
    """The board as an SGF record of one node: setup stones, side to move, rules and komi, `region` as SQ[]."""
    grid = board.array()
    height, width = board.height, board.width
    size = f"{width}" if width == height else f"{width}:{height}"

    def points(sign: int) -> str:
        return "".join(f"[{sgf_point((r, c), height)}]" for r in range(height) for c in range(width)
                       if grid[r, c] == sign)

    parts = [f"(;GM[1]FF[4]CA[UTF-8]SZ[{size}]KM[{float(board.rules.komi):g}]RU[{board.rules.name}]"]
    for tag, sign in (("AB", BLACK), ("AW", WHITE)):
        if points(sign):
            parts.append(tag + points(sign))
    parts.append("PL[B]" if board.to_play == BLACK else "PL[W]")
    marked = sorted(set(region or ()))
    if marked:
        parts.append("SQ" + "".join(f"[{sgf_point(p, height)}]" for p in marked))
    return "".join(parts) + ")"


def analysis_sgf(analysis: Analysis, region: Optional[Iterable[Point]] = None) -> bytes:
    """The analysed board as a diagram SGF, annotated as `tengen analyze --sgf` annotates a record."""
    from tengen.go.sgf import load_game_bytes
    from tengen.io.report import annotate_sgf
    from tengen.io.sgf_write import repair_charset

    game = load_game_bytes(setup_sgf(analysis.board, region).encode("utf-8"), "<diagram>")
    annotate_sgf(game, game.sgf.get_root(), analysis)
    repair_charset(game.sgf)
    return game.sgf.serialise()
