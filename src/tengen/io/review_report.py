"""What a game review shows a player: a text report (the settings assumed, every move's line, the
mistakes list, totals per player), JSON (one object, or one line per move), the record annotated for
KaTrain and Sabaki (a comment per move, the orthodox move marked with a triangle, KaTrain's `KT` analysis of
each position the network evaluated), and the game's temperature graph as a PNG."""
from __future__ import annotations

import io
import json
from typing import Any, Optional

from tengen.endgame.review import CONFIRM, MISTAKE, GameReview, MoveReview, describe_kind
from tengen.go.colors import BLACK
from tengen.go.coords import to_gtp

_COLOR = {BLACK: "B", -BLACK: "W"}


def _r(x: Optional[float], digits: int = 2) -> Optional[float]:
    return None if x is None else round(float(x), digits)


def move_json(move: MoveReview, height: int) -> dict[str, Any]:
    """One move of the review as JSON (points as GTP vertices, counts Black's side, losses the mover's)."""
    return {"move_number": move.number, "color": _COLOR[move.color], "move": to_gtp(move.move, height),
            "region": move.region, "region_temperature": _r(move.region_temperature),
            "region_kind": move.region_kind, "region_points": [to_gtp(p, height) for p in move.region_points],
            "hottest": move.hottest, "hottest_points": [to_gtp(p, height) for p in move.hottest_points],
            "hottest_temperature": _r(move.hottest_temperature),
            "hottest_kind": move.hottest_kind,
            "orthodox": None if move.orthodox is None else to_gtp(move.orthodox, height),
            "orthodox_reason": move.orthodox_reason, "count_before": _r(move.count_before),
            "count_after": _r(move.count_after), "gain": _r(move.gain), "sente": move.sente,
            "own_sente": move.own_sente,
            "follow_up": _r(move.follow_up), "loss": _r(move.loss), "network_loss": _r(move.network_loss),
            "search_loss": _r(move.search_loss), "search": move.search_how, "refuted_by_search": move.refuted,
            "lead_before": _r(move.lead_before), "lead_after": _r(move.lead_after), "reason": move.reason,
            "at_stake": list(move.at_stake),
            "regions": move.regions, "regions_reused": move.reused, "evaluations": move.evaluations,
            "seconds": _r(move.seconds, 3)}


def settings_line(review: GameReview) -> str:
    """What every figure of the review assumes, said once where a player reads it."""
    return (f"rules {review.rules}, komi {review.komi:g}; counts are area counts (Black's side); a move's loss is "
            f"the hottest temperature minus what it gained in the count of its area (0 for a sente move the "
            f"opponent must answer, and for the analysis's recommended move); the network's loss is KaTrain's "
            f"(score lead before minus after, one network evaluation per position, no search); "
            + (f"a loss of {MISTAKE:g} points or more is a mistake where a search ({review.mistake_check}) finds the "
               f"recommended move at least {CONFIRM:g} point ahead; " if review.mistake_check else "")
            + review.start_reason)


def review_json(review: GameReview) -> dict[str, Any]:
    """The whole review as one JSON object."""
    totals = {_COLOR[c]: {k: _r(v) if isinstance(v, float) else v for k, v in t.items()}
              for c, t in review.totals().items()}
    return {"start": review.start, "start_reason": review.start_reason, "rules": review.rules, "komi": review.komi,
            "assumptions": settings_line(review), "evaluations": review.evaluations, "seconds": _r(review.seconds, 1),
            "regions_reused": review.region_hits, "regions_analyzed": review.region_misses, "totals": totals,
            "mistakes": [m.number for m in review.mistakes()],
            "refuted_by_search": [m.number for m in review.refuted()], "mistake_check": review.mistake_check,
            "lost_by_search_alone": [m.number for m in review.searched_only()],
            "moves": [move_json(m, review.height) for m in review.moves]}


def review_json_lines(review: GameReview) -> str:
    """One JSON line per move."""
    return "".join(json.dumps(move_json(m, review.height), allow_nan=False) + "\n" for m in review.moves)


def _loss_text(loss: Optional[float]) -> str:
    return "  -  " if loss is None else f"{loss:5.1f}"


def review_text(review: GameReview) -> str:
    """The review as a player reads it in a terminal."""
    h = review.height
    lines = [f"endgame review, moves {review.start}-{review.moves[-1].number if review.moves else review.start}",
             settings_line(review), "",
             " move       region (t)     hottest (t)   orthodox   loss   network  reason"]
    for m in review.moves:
        region = "-" if m.region is None else f"{m.region} ({m.region_temperature:.1f})" if m.region_temperature is not None else m.region
        hottest = "-" if m.hottest is None else f"{m.hottest} ({m.hottest_temperature:.1f})"
        orthodox = "-" if m.orthodox is None else to_gtp(m.orthodox, h)
        net = "  -  " if m.network_loss is None else f"{m.network_loss:5.1f}"
        lines.append(f"{m.number:4d} {_COLOR[m.color]} {to_gtp(m.move, h):5s} {region:13s} {hottest:13s} "
                     f"{orthodox:8s} {_loss_text(m.loss)}   {net}   {m.reason}")
        lines += [f"{'':11s}at stake: {sentence}" for sentence in m.at_stake]
    mistakes = review.mistakes()
    lines += ["", f"mistakes (a loss of {MISTAKE:g} points or more, largest first): {len(mistakes) or 'none'}"]
    for m in mistakes:
        lines.append(f"  move {m.number} {_COLOR[m.color]} {to_gtp(m.move, h)}: {m.loss:.1f} points "
                     f"(network {'-' if m.network_loss is None else f'{m.network_loss:.1f}'}): {m.reason}")
    alone = review.searched_only()
    if alone:
        lines += ["", f"not valued by the regions, {MISTAKE:g} points or more lost by search ({review.mistake_check}): "
                      f"{len(alone)}"]
        lines += [f"  move {m.number} {_COLOR[m.color]} {to_gtp(m.move, h)}: {m.search_loss:.1f} by search: {m.reason}"
                  for m in alone]
    refuted = review.refuted()
    if refuted:
        lines += ["", f"charged {MISTAKE:g} points or more by the regions' values but not a mistake by search "
                      f"({review.mistake_check}): {len(refuted)}"]
        lines += [f"  move {m.number} {_COLOR[m.color]} {to_gtp(m.move, h)}: {m.loss:.1f} by the regions, "
                  f"{m.search_loss:.1f} by search" for m in refuted]
    lines.append("")
    for color, t in review.totals().items():
        lines.append(f"{'Black' if color == BLACK else 'White'}: {t['moves']} moves, {t['valued']} valued"
                     + (f" ({t['valued_by_search']} more by search alone)" if t["valued_by_search"] else "") + ", "
                     f"{t['loss']:.1f} points lost by the regions' values, {t['network_loss']:.1f} by the network, "
                     f"{t['mistakes']} mistakes")
    lines.append(f"{review.evaluations} network evaluations, {review.seconds:.1f} s; regions reused "
                 f"{review.region_hits}, analyzed {review.region_misses}")
    return "\n".join(lines)


def move_comment(move: MoveReview, height: int) -> str:
    """The SGF comment on a move's node."""
    loss = "not valued" if move.loss is None else f"loss {move.loss:.1f}"
    net = "" if move.network_loss is None else f" (network {move.network_loss:.1f})"
    before = "" if move.hottest is None else (
        f"\nBefore it: hottest region {move.hottest} (temperature {move.hottest_temperature:.1f}, "
        f"{describe_kind(move.hottest_kind, move.color)}); orthodox move "
        f"{'-' if move.orthodox is None else to_gtp(move.orthodox, height)}.")
    stake = "".join(f"\nAt stake: {sentence}." for sentence in move.at_stake)
    return (f"tengen review: {_COLOR[move.color]} {to_gtp(move.move, height)}: {loss}{net}: {move.reason}.{before}"
            f"{stake}")


def annotate_review_sgf(game, review: GameReview, analyses: Optional[dict[int, dict]] = None) -> None:
    """Write the review into the record: a comment on each reviewed move's node, the orthodox move (when not
    the one played) marked with a triangle, and KaTrain's `KT` analysis where `analyses` (moves played ->
    KaTrain analysis dict, `tengen.batch.outputs.katrain_analysis`) has one."""
    from tengen.batch.outputs import KT_VERSION, kt_values
    from tengen.io.sgf_write import annotate

    for move in review.moves:
        node = game.node_at(move.number)
        annotate(node, move_comment(move, review.height))
        if move.orthodox is not None and move.orthodox != move.move:
            node.set_raw_list("TR", [_sgf_point(move.orthodox, review.height).encode()])
    if analyses:
        for moves_played, analysis in analyses.items():
            game.node_at(moves_played).set_raw_list("KT", kt_values(analysis))
        game.sgf.get_root().set_raw("KTV", KT_VERSION.encode())


def _sgf_point(point, height: int) -> str:
    row, col = point
    return "abcdefghijklmnopqrstuvwxyz"[col] + "abcdefghijklmnopqrstuvwxyz"[row]


def temperature_png(review: GameReview) -> bytes:
    """The game's temperature graph: the hottest temperature before each move and the temperature of the
    region each move was played in (0 outside every region), Black's and White's moves apart."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 3.6), dpi=110)
    xs = [m.number for m in review.moves]
    ax.step(xs, [m.hottest_temperature for m in review.moves], where="mid", color="#b03020",
            label="hottest temperature before the move")
    for color, marker, face in ((BLACK, "o", "black"), (-BLACK, "o", "white")):
        pts = [(m.number, m.region_temperature or 0.0) for m in review.moves if m.color == color]
        if pts:
            ax.scatter(*zip(*pts), marker=marker, facecolor=face, edgecolor="black", s=22, zorder=3,
                       label=f"temperature of {'Black' if color == BLACK else 'White'}'s move")
    for m in review.mistakes():
        ax.annotate(f"{m.number}", (m.number, m.region_temperature or 0.0), textcoords="offset points",
                    xytext=(0, 7), ha="center", fontsize=7, color="#b03020")
    ax.set_xlabel("move")
    ax.set_ylabel("temperature (area points)")
    ax.set_title(f"Endgame temperature, moves {review.start}-{xs[-1] if xs else review.start} "
                 f"(rules {review.rules}, komi {review.komi:g}); mistakes numbered")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png")
    plt.close(fig)
    return out.getvalue()
