"""A region's picture for `tengen analyze --plots`: its thermograph beside a small diagram of the region on
the board (the region's box and two lines around it: stones, the region's empty points shaded, each
side's best first move marked), so a player sees which corner the curve belongs to."""
from __future__ import annotations

from tengen.cgt.plot import draw_thermograph
from tengen.endgame.results import Analysis, region_label
from tengen.go.colors import BLACK
from tengen.go.coords import to_gtp

CONTEXT = 2  # lines of board shown around the region's box


def region_figure(analysis: Analysis, index: int):
    """A matplotlib Figure: region `index`'s thermograph (left) and its diagram (right). The region must
    have a game (`RegionResult.game`)."""
    from matplotlib.figure import Figure

    r = analysis.regions[index]
    fig = Figure(figsize=(8.5, 4), layout="constrained")
    thermo_ax, board_ax = fig.subplots(1, 2, width_ratios=[1.25, 1])
    draw_thermograph(thermo_ax, r.game, title=f"region {region_label(index)}", kind=r.kind)
    draw_region(board_ax, analysis, index)
    return fig


def draw_region(ax, analysis: Analysis, index: int) -> None:
    """The board around region `index`: grid, stones, the region's empty points shaded, Black's best first
    move a triangle and White's a square; coordinates as GTP names them."""
    board, r = analysis.board, analysis.regions[index]
    h, w = board.height, board.width
    rows = [p[0] for p in r.region.points] or [0]
    cols = [p[1] for p in r.region.points] or [0]
    top, bottom = max(0, min(rows) - CONTEXT), min(h - 1, max(rows) + CONTEXT)
    left, right = max(0, min(cols) - CONTEXT), min(w - 1, max(cols) + CONTEXT)
    grid = board.array()
    ax.set_facecolor("#e8c07d")
    for row in range(top, bottom + 1):
        ax.plot([left, right], [row, row], color="#5a4327", lw=0.8, zorder=1)
    for col in range(left, right + 1):
        ax.plot([col, col], [top, bottom], color="#5a4327", lw=0.8, zorder=1)
    shaded = [p for p in r.region.points if grid[p] == 0 and top <= p[0] <= bottom and left <= p[1] <= right]
    ax.scatter([p[1] for p in shaded], [p[0] for p in shaded], marker="s", s=180, color="tab:orange", alpha=0.45,
               zorder=2, label="region", gid="region")
    for color, face in ((BLACK, "black"), (-BLACK, "white")):
        stones = [(row, col) for row in range(top, bottom + 1) for col in range(left, right + 1) if grid[row, col] == color]
        ax.scatter([c for _, c in stones], [row for row, _ in stones], s=260, color=face, edgecolors="black",
                   linewidths=0.8, zorder=3)
    for points, marker, face in ((r.best_black[:1], "^", "black"), (r.best_white[:1], "s", "white")):
        for row, col in points:
            ax.scatter([col], [row], marker=marker, s=90, color=face, edgecolors="tab:red", linewidths=1.5, zorder=4)
    ax.set_xlim(left - 0.7, right + 0.7)
    ax.set_ylim(bottom + 0.7, top - 0.7)  # row 0 is the top line
    ax.set_aspect("equal")
    ax.set_xticks(range(left, right + 1), [to_gtp((0, col), h)[0] for col in range(left, right + 1)])
    ax.set_yticks(range(top, bottom + 1), [str(h - row) for row in range(top, bottom + 1)])
    ax.tick_params(length=0, labelsize=8)
    ax.set_title(f"region {region_label(index)} on the board (shaded; ▲ Black's best, ■ White's)", fontsize=9)
