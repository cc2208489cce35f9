"""`tengen eval --plot`: Black's win rate against komi, one line per evaluator (KataGo's komi sweep, tengen's
value network's 41-komi curve), the position's komi marked, written as a PNG atomically."""
from __future__ import annotations

import os
from typing import Mapping, Optional

from tengen.files import write_png_atomic

_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red")


def komi_curve_figure(curves: Mapping[str, Optional[Mapping[float, float]]], komi: float,
                      title: Optional[str] = None):
    """A matplotlib Figure: Black's win rate (%) against komi for each named curve (komi -> probability; a
    None or empty curve is left out), a dotted 50 % line and a vertical line at the position's `komi`.

    Each curve's line has its name as gid; the marks have gid '50%' and 'komi'.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure  # no pyplot: no global backend state

    fig = Figure(figsize=(6.4, 4.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    drawn = [(name, curve) for name, curve in curves.items() if curve]
    for i, (name, curve) in enumerate(drawn):
        ks = sorted(curve)
        line, = ax.plot(ks, [100.0 * curve[k] for k in ks], marker=".", ms=4, lw=1.5,
                        color=_COLOURS[i % len(_COLOURS)], label=name)
        line.set_gid(name)
    half = ax.axhline(50.0, color="tab:gray", ls=":", lw=1)
    half.set_gid("50%")
    mark = ax.axvline(float(komi), color="black", ls="--", lw=1, label=f"komi {komi:g}")
    mark.set_gid("komi")
    ax.set_ylim(0, 100)
    ax.set_xlabel("komi (White's compensation, points)")
    ax.set_ylabel("Black win rate (%)")
    ax.set_title(title or "Black win rate by komi", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


def write_komi_plot(path: str | os.PathLike, curves: Mapping[str, Optional[Mapping[float, float]]], komi: float,
                    title: Optional[str] = None) -> None:
    """`komi_curve_figure(curves, komi, title)` as a PNG at `path`, written atomically."""
    write_png_atomic(komi_curve_figure(curves, komi, title), path)
