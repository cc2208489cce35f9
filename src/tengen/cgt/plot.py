"""Thermograph pictures with matplotlib, in Winning Ways orientation: Black (Left, positive values) on the
left, so the value axis is inverted, and the temperature t upward; walls, mast and temperature marked."""
from __future__ import annotations

from fractions import Fraction
from typing import Optional, Union

from tengen.cgt.game import Game
from tengen.cgt.numbers import is_infinite
from tengen.cgt.thermo import Thermo


def thermograph_figure(game: Union[Game, Thermo], title: Optional[str] = None, t_max: Optional[Fraction] = None,
                       kind: Optional[str] = None):
    """A matplotlib Figure of the thermograph (save it with fig.savefig('x.png' or 'x.svg')). `kind` names
    the game in the title where the caller knows better than its thermograph (a ko valued by the ko rule).

    The lines are labelled 'left wall', 'right wall' and 'mast' (each with gid set the same), the
    temperature line 'temperature'. Infinite walls (unanswered threats) are not drawn.
    """
    from matplotlib.figure import Figure  # no pyplot: no global backend state

    th = game.thermograph if isinstance(game, Game) else game
    temp = th.temperature
    finite_t = temp if not is_infinite(temp) and temp > 0 else Fraction(0)
    bps = [b for w in (th.left, th.right) for b in w.breakpoints()]
    top = t_max if t_max is not None else max([finite_t, *bps, Fraction(1)]) * Fraction(3, 2)
    fig = Figure(figsize=(5, 4))
    ax = fig.add_subplot(1, 1, 1)
    for wall, name, color in ((th.left, "left wall", "black"), (th.right, "right wall", "tab:gray")):
        if wall.infinite:
            continue
        limit = top if is_infinite(temp) else min(top, finite_t)
        pts = wall.points(limit) if limit > 0 else [(Fraction(0), wall.at(Fraction(0)))]
        line, = ax.plot([float(v) for _, v in pts], [float(t) for t, _ in pts], color=color, lw=2, label=name)
        line.set_gid(name)
    if th.mean is not None:
        mast, = ax.plot([float(th.mean)] * 2, [float(finite_t), float(top)], color="tab:red", lw=2, label="mast")
        mast.set_gid("mast")
    if not is_infinite(temp) and temp > 0:
        tl = ax.axhline(float(temp), color="tab:blue", ls="--", lw=1, label="temperature")
        tl.set_gid("temperature")
        ax.annotate(f"t = {temp}", xy=(float(th.mean), float(temp)), xytext=(5, 5), textcoords="offset points")
    ax.set_ylim(0, float(top))
    lo, hi = ax.get_xlim()
    ax.set_xlim(max(lo, hi), min(lo, hi))  # Left (positive) on the left
    ax.set_xlabel("value (Black = positive, on the left)")
    ax.set_ylabel("temperature t")
    mean = "no mean (an unanswered threat)" if th.mean is None else f"mean {th.mean}"
    label = f"{mean}, temperature {temp}, {kind or th.kind}"
    ax.set_title(title + "\n" + label if title else label, fontsize=9)
    ax.grid(True, alpha=0.3)
    return fig
