"""`tengen eval`'s text: win rate, score lead, policy, win rate by komi and an ownership map of one
evaluated position; with `--value-net`, KataGo's komi sweep side by side with tengen's value network's curve."""
from __future__ import annotations

import math
from typing import Mapping, Optional

import numpy as np

from tengen.eval.evaluation import Evaluation
from tengen.go import coords


def _columns(width: int, height: int) -> list[str]:
    return [coords.to_gtp((height - 1, c), height).rstrip("0123456789") for c in range(width)]


def ownership_map(board, ev: Evaluation, threshold: float = 0.5) -> str:
    """ASCII board: X/O live stones, x/o stones the network thinks dead, +/- Black's/White's area."""
    grid = board.array()
    h, w = grid.shape
    cols = _columns(w, h)
    lines = ["   " + " ".join(cols)]
    for r in range(h):
        row = []
        for c in range(w):
            own = float(ev.ownership[r, c])
            s = grid[r, c]
            if s == 1:
                row.append("x" if own < -threshold else "X")
            elif s == -1:
                row.append("o" if own > threshold else "O")
            else:
                row.append("+" if own > threshold else "-" if own < -threshold else ".")
        label = coords.to_gtp((r, 0), h)[len(cols[0]):]
        lines.append(f"{label:>2} " + " ".join(row))
    lines.append("X/O stones, x/o dead stones, + Black's area, - White's area, . unsettled")
    return "\n".join(lines)


def render_evaluation(board, ev: Evaluation, value_net: Optional[Evaluation] = None) -> str:
    """Win rate, score lead +- stdev, top moves, win rate by komi and the ownership map.

    With `value_net` (tengen's value network's evaluation of the same board), the win-rate-by-komi block
    is `komi_comparison(ev, value_net)` instead: both curves side by side."""
    who = "Black" if ev.to_play == 1 else "White"
    h = board.height
    out = [
        f"to play: {who}   komi: {ev.komi:g}   rules: {getattr(board.rules, 'name', '?')}",
        f"Black win rate: {100 * ev.winrate:.1f}%   Black lead: {ev.score_lead:+.1f} +- {ev.score_stdev:.1f} "
        f"points (score mean {ev.score_mean:+.1f})",
    ]
    tops = ", ".join(f"{coords.to_gtp(p, h) if p is not None else 'pass'} {100 * q:.1f}%"
                     for p, q in ev.top_moves(5))
    out.append(f"{who}'s policy: {tops}")
    if value_net is not None:
        out.append(komi_comparison(ev, value_net))
    elif ev.winrate_by_komi:
        out.append("Black win rate by komi:")
        items = sorted(ev.winrate_by_komi.items())
        for i in range(0, len(items), 8):
            out.append("  " + "  ".join(f"{k:+6.1f}:{100 * v:5.1f}%" for k, v in items[i : i + 8]))
        even = _even_komi(items)
        if even is not None:
            out.append(f"  the game is even (50%) at komi {even:+.1f}")
    out.append(ownership_map(board, ev))
    return "\n".join(out)


def _key(k: float) -> float:
    return round(float(k), 6)  # the same komi from two sources (float32 / float64 arithmetic) is one row


def _cell(curve: Optional[Mapping[float, float]], k: float) -> str:
    v = curve.get(k) if curve else None
    return "-" if v is None else f"{100 * v:.1f}%"


def komi_comparison(katago: Evaluation, value_net: Evaluation, value_name: Optional[str] = None) -> str:
    """Black's win rate by komi, one row per komi: KataGo's sweep and the value network's curve side by
    side (a komi one of them lacks shows '-', the position's komi is marked), then where each curve
    crosses 50 %, and the value network's win rate at the position's komi and its score estimate.

    Returns the lines, joined.
    """
    name = value_name or str(value_net.extras.get("model", "value net"))
    kata = {_key(k): v for k, v in (katago.winrate_by_komi or {}).items()}
    vnet = {_key(k): v for k, v in (value_net.winrate_by_komi or {}).items()}
    komi = _key(katago.komi)
    out = ["Black win rate by komi:", f"  {'komi':>6}  {'KataGo':>7}  {'value net':>9}"]
    for k in sorted(set(kata) | set(vnet)):
        mark = "   <- the game's komi" if k == komi else ""
        out.append(f"  {k:+6.1f}  {_cell(kata, k):>7}  {_cell(vnet, k):>9}{mark}")
    evens = [_even_komi(sorted(c.items())) if c else None for c in (kata, vnet)]
    out.append(f"  {'even':>6}  {_komi_text(evens[0]):>7}  {_komi_text(evens[1]):>9}"
               "   (komi where Black's win rate crosses 50%)")
    lead = value_net.score_lead
    lead_text = f"Black lead {lead:+.1f} points" if math.isfinite(lead) else "no score estimate (single-komi head)"
    out.append(f"value net ({name}): Black win rate {100 * value_net.winrate:.1f}% at komi {value_net.komi:g}, "
               f"{lead_text}")
    return "\n".join(out)


def _komi_text(k: Optional[float]) -> str:
    return "-" if k is None else f"{k:+.1f}"


def _even_komi(items: list[tuple[float, float]]) -> Optional[float]:
    ks = np.array([k for k, _ in items])
    ws = np.array([v for _, v in items])
    for i in range(len(ks) - 1):
        if (ws[i] - 0.5) * (ws[i + 1] - 0.5) <= 0 and ws[i] != ws[i + 1]:
            return float(ks[i] + (0.5 - ws[i]) * (ks[i + 1] - ks[i]) / (ws[i + 1] - ws[i]))
    return None
