"""Influence maps drawn for people (`tengen influence`): a text diagram with territory marks and the
values, or a PNG heat map with the stones on top."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.influence import as_stones, influence_map, territory
from tengen.files import write_png_atomic
from tengen.go import coords


def _column_labels(width: int) -> list[str]:
    """Column letters as GTP writes them (A..T without I)."""
    return [coords.to_gtp((0, c), 1).rstrip("0123456789") for c in range(width)]


def render_ascii(board: Any, influence: np.ndarray | None = None, model: str = "bouzy",
                 values: bool = False, threshold: int = 0) -> str:
    """Text diagram: X/O stones, x/o for Black/White territory, '.' neutral; ``values`` adds the numbers."""
    stones = as_stones(board)
    if stones.ndim != 2:
        raise ValueError("render_ascii draws one board, not a batch")
    if influence is None:
        influence = influence_map(stones, model)
    marks = territory(stones, influence, threshold)
    h, w = stones.shape
    labels = _column_labels(w)
    glyph = {(1, 0): "X", (-1, 0): "O", (0, 1): "x", (0, -1): "o", (0, 0): "."}
    lines = ["   " + " ".join(labels)]
    for r in range(h):
        row = " ".join(glyph[(int(stones[r, c]), int(marks[r, c]))] for c in range(w))
        lines.append(f"{h - r:2d} {row} {h - r:2d}")
    lines.append(lines[0])
    if values:
        cell = max(4, len(str(int(np.abs(influence).max()))) + 2)
        lines.append("")
        lines.append("   " + "".join(f"{lab:>{cell}}" for lab in labels))
        for r in range(h):
            row = "".join(f"{int(influence[r, c]):>{cell}d}" for c in range(w))
            lines.append(f"{h - r:2d} {row}")
    return "\n".join(lines)


def render_png(board: Any, influence: np.ndarray, path: str | Path, title: str | None = None) -> Path:
    """Write a heat map of ``influence`` (red = Black, blue = White) with the stones drawn on top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stones = as_stones(board)
    h, w = stones.shape
    vmax = float(np.abs(influence).max()) or 1.0
    fig, ax = plt.subplots(figsize=(0.4 * w + 1.5, 0.4 * h + 1.0))
    im = ax.imshow(influence, cmap="RdBu_r", vmin=-vmax, vmax=vmax, origin="upper",
                   extent=(-0.5, w - 0.5, h - 0.5, -0.5))
    for i in range(h):
        ax.plot([0, w - 1], [i, i], color="0.3", lw=0.5, zorder=1)
    for j in range(w):
        ax.plot([j, j], [0, h - 1], color="0.3", lw=0.5, zorder=1)
    rows, cols = np.nonzero(stones)
    colors = ["black" if stones[r, c] > 0 else "white" for r, c in zip(rows, cols)]
    ax.scatter(cols, rows, s=(220 * 19 / max(h, w)), c=colors, edgecolors="black", linewidths=0.8, zorder=3)
    labels = _column_labels(w)
    ax.set_xticks(range(w), labels)
    ax.set_yticks(range(h), [str(h - r) for r in range(h)])
    ax.set_xlim(-0.6, w - 0.4)
    ax.set_ylim(h - 0.4, -0.6)
    if title:
        ax.set_title(title)
    fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02, label="influence (+ Black)")
    fig.tight_layout()
    path = Path(path)
    write_png_atomic(fig, path)
    plt.close(fig)
    return path
