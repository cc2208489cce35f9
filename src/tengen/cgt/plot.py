"""Thermograph pictures with matplotlib, in Winning Ways orientation: Black (Left, positive values) on the
left, so the value axis is inverted, and the temperature t upward; walls, mast and temperature marked."""
from __future__ import annotations

from fractions import Fraction
from typing import Optional, Union

from tengen.cgt.game import Game
from tengen.cgt.numbers import is_infinite
from tengen.cgt.thermo import Thermo


def decimal(x) -> str:
    """A value as a player reads it: a decimal of at most 3 places ("5.907", "4.5", "-2"), never a fraction
    such as 4525/766."""
    text = f"{float(x):.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def thermograph_figure(game: Union[Game, Thermo], title: Optional[str] = None, t_max: Optional[Fraction] = None,
                       kind: Optional[str] = None):
    """A matplotlib Figure of the thermograph (save it with fig.savefig('x.png' or 'x.svg')), laid out so
    no label is clipped; `draw_thermograph` draws into an axes of the caller's own figure."""
    from matplotlib.figure import Figure  # no pyplot: no global backend state

    fig = Figure(figsize=(5, 4), layout="constrained")
    draw_thermograph(fig.add_subplot(1, 1, 1), game, title, t_max, kind)
    return fig


def draw_thermograph(ax, game: Union[Game, Thermo], title: Optional[str] = None, t_max: Optional[Fraction] = None,
                     kind: Optional[str] = None) -> None:
    """Draw the thermograph into the matplotlib axes `ax`. `kind` names the game in the title where the
    caller knows better than its thermograph (a ko valued by the ko rule); numbers are written in decimals.

    The lines are labelled 'left wall', 'right wall' and 'mast' (each with gid set the same), the
    temperature line 'temperature'. Infinite walls (unanswered threats) are not drawn. A number (no move
    gains: temperature below 0) is drawn as a marked point at its value ('value'), not a flat line."""
    th = game.thermograph if isinstance(game, Game) else game
    temp = th.temperature
    finite_t = temp if not is_infinite(temp) and temp > 0 else Fraction(0)
    bps = [b for w in (th.left, th.right) for b in w.breakpoints()]
    top = t_max if t_max is not None else max([finite_t, *bps, Fraction(1)]) * Fraction(3, 2)
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
        ax.annotate(f"t = {decimal(temp)}", xy=(float(th.mean), float(temp)), xytext=(5, 5),
                    textcoords="offset points")
    number = th.mean is not None and not is_infinite(temp) and temp < 0
    if number:
        dot, = ax.plot([float(th.mean)], [0.0], "o", color="tab:red", ms=9, clip_on=False, label="value")
        dot.set_gid("value")
        ax.annotate(f"a number: {decimal(th.mean)}\nno move gains", xy=(float(th.mean), 0.0), xytext=(8, 12),
                    textcoords="offset points")
        ax.set_xlim(float(th.mean) + 2, float(th.mean) - 2)
    ax.set_ylim(0, float(top))
    lo, hi = ax.get_xlim()
    ax.set_xlim(max(lo, hi), min(lo, hi))  # Left (positive) on the left
    ax.set_xlabel("value (Black = positive, on the left)")
    ax.set_ylabel("temperature t")
    mean = "no mean (an unanswered threat)" if th.mean is None else f"mean {decimal(th.mean)}"
    temperature = "infinite" if is_infinite(temp) else decimal(temp)
    label = f"{mean}, temperature {temperature}, {kind or th.kind}"
    ax.set_title(title + "\n" + label if title else label, fontsize=9)
    ax.grid(True, alpha=0.3)
