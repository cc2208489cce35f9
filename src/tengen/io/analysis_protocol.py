"""KataGo's JSON analysis protocol (`tengen analysis`): the response objects, written as KataGo writes them.

    {"id":..,"isDuringSearch":false,"turnNumber":N,"moveInfos":[{move, visits, winrate, scoreLead, scoreMean,
     scoreSelfplay, scoreStdev, prior, lcb, utility, order, pv}..],"rootInfo":{visits, winrate, scoreLead,
     scoreSelfplay, scoreStdev, utility, currentPlayer, rawWinrate, rawLead},"ownership":[..],"policy":[..]}

One line each, keys sorted and no spaces (KataGo's `json::dump`), floats to 8 significant digits. Values are
from the side of `reportAnalysisWinratesAs` (overrideSettings; default the side to move, KataGo's own
default): win rates, lcb, leads, utilities and ownership flip together. How tengen's search maps onto the
fields: `scoreMean` and `scoreSelfplay` are the lead (KataGo writes the lead into `scoreMean` too); the search
backs up no score spread, so `scoreStdev` is the network's at the root for every move; `utility` is KataGo's
centred form 2u - 1 of the search's win-rate-plus-score utility u; `ownership` is the search's average
(Black's view, flipped to the reporting side); a move's `ownership` (includeMovesOwnership) is the
network's for the position after that move; `policy` is the network's raw policy with -1 on illegal points,
pass last.

tengen's extras, which KataGo clients ignore: with `"tengenEndgame": true` (or `tengen analysis
--endgame`) the final response carries `tengenEndgame` (the endgame regions of `tengen.api.analyze`: points
as GTP vertices, count, temperature, type, best moves, miai and deiri values; counts from Black's side under
area scoring) and each candidate move inside a region a `tengenMoveValue` (its region's type, temperature,
miai and deiri values, and whether it is one of the region's best moves for the player).

The parsing is `io/analysis_query.py`, the loop (reader, priority queue, worker) `io/analysis_engine.py`.
"""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from tengen.go.board import Board
from tengen.go.colors import BLACK
from tengen.go.coords import Move, to_gtp
from tengen.io.analysis_query import AnalysisQuery
from tengen.io.gtp_analysis import AnalyzeArgs, reported_moves

if TYPE_CHECKING:
    from tengen.endgame.results import Analysis
    from tengen.search.results import SearchResult

PRECISION = 8  # significant digits, as KataGo's roundDynamic(x, 8)


def dumps(obj: dict) -> str:
    """One protocol line: KataGo's compact, key-sorted JSON (never NaN)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def num(x: float) -> float:
    """A float rounded to 8 significant digits; a non-finite value becomes 0.0 (JSON has no NaN)."""
    x = float(x)
    if not math.isfinite(x):
        return 0.0
    return float(f"{x:.{PRECISION}g}")


def perspective_sign(query: AnalysisQuery, to_play: int) -> float:
    """+1 when values from the side to move are already from the reporting side, else -1."""
    if query.perspective == "SIDETOMOVE":
        return 1.0
    return 1.0 if (query.perspective == "BLACK") == (to_play == BLACK) else -1.0


def _ownership(own: Optional[np.ndarray], board: Board, query: AnalysisQuery) -> list[float]:
    """Row-major from the top-left, from the reporting side (Black's view in)."""
    if own is None:
        return [0.0] * (board.width * board.height)
    sign = {"BLACK": 1.0, "WHITE": -1.0}.get(query.perspective, 1.0 if board.to_play == BLACK else -1.0)
    return [num(sign * float(v)) for v in np.asarray(own, dtype=np.float64).reshape(-1)]


def policy_list(evaluation, board: Board) -> list[float]:
    """The network's policy at the root, -1 on illegal points, pass last (KataGo's `policy`)."""
    policy = np.asarray(evaluation.policy, dtype=np.float64)
    out = []
    for r in range(board.height):
        for c in range(board.width):
            out.append(num(policy[r, c]) if board.is_legal(board.to_play, (r, c)) else -1.0)
    out.append(num(evaluation.pass_policy))
    return out


def noresult_response(query_id: str, turn: int) -> dict:
    """A turn terminated before any analysis: KataGo's `noResults` answer."""
    return {"id": query_id, "isDuringSearch": False, "noResults": True, "turnNumber": turn}


def analysis_response(query: AnalysisQuery, turn: int, board: Board, result: SearchResult, root_eval,
                      during_search: bool, moves_ownership: Optional[dict[Move, np.ndarray]] = None,
                      endgame: Optional[Analysis] = None) -> dict:
    """One turn's response from a search result and the network's root evaluation (`root_eval`)."""
    s = perspective_sign(query, board.to_play)
    h = board.height
    stdev = num(getattr(root_eval, "score_stdev", 0.0)) if root_eval is not None else 0.0
    values = _move_values(endgame, board) if endgame is not None else {}
    infos = []
    for stats in reported_moves(result, AnalyzeArgs()):
        w, lead, lcb = stats.winrate, stats.score_lead, stats.lcb
        info: dict[str, Any] = {
            "move": to_gtp(stats.move, h), "visits": int(stats.visits), "order": int(stats.order),
            "winrate": num(w if s > 0 else 1.0 - w), "lcb": num(lcb if s > 0 else 1.0 - lcb),
            "scoreLead": num(s * lead), "scoreMean": num(s * lead), "scoreSelfplay": num(s * lead),
            "scoreStdev": stdev, "prior": num(stats.prior), "utility": num(s * (2.0 * stats.utility - 1.0)),
            "pv": [to_gtp(m, h) for m in (stats.pv or [stats.move])[: query.pv_len]],
        }
        if moves_ownership is not None and stats.move in moves_ownership:
            info["ownership"] = _ownership(moves_ownership[stats.move], board, query)
        if stats.move in values:
            info["tengenMoveValue"] = values[stats.move]
        infos.append(info)
    root_utility = max((m.utility for m in result.moves if m.order == 0), default=result.winrate)
    root: dict[str, Any] = {
        "visits": int(result.visits), "currentPlayer": "B" if board.to_play == BLACK else "W",
        "winrate": num(result.winrate if s > 0 else 1.0 - result.winrate), "scoreLead": num(s * result.score_lead),
        "scoreSelfplay": num(s * result.score_lead), "scoreStdev": stdev,
        "utility": num(s * (2.0 * root_utility - 1.0)),
    }
    if root_eval is not None:  # the network's own view of the root (KataGo: rawWinrate, rawLead)
        raw_w = float(root_eval.winrate) if board.to_play == BLACK else 1.0 - float(root_eval.winrate)
        raw_lead = float(root_eval.score_lead) * (1.0 if board.to_play == BLACK else -1.0)
        root["rawWinrate"] = num(raw_w if s > 0 else 1.0 - raw_w)
        root["rawLead"] = num(s * raw_lead)
    out: dict[str, Any] = {"id": query.id, "isDuringSearch": bool(during_search), "turnNumber": int(turn),
                           "moveInfos": infos, "rootInfo": root}
    if query.include_ownership:
        own = result.ownership if result.ownership is not None else getattr(root_eval, "ownership", None)
        out["ownership"] = _ownership(own, board, query)
    if query.include_policy and root_eval is not None:
        out["policy"] = policy_list(root_eval, board)
    if endgame is not None:
        out["tengenEndgame"] = endgame_json(endgame)
    return out


# ---------------------------------------------------------------------- tengen's extras
def _opt(x: Optional[float]) -> Optional[float]:
    """A finite number rounded, or None (an unanswered threat's infinite temperature, no value)."""
    return None if x is None or not math.isfinite(float(x)) else num(x)


def endgame_json(analysis: Analysis) -> dict:
    """The endgame regions of one position (Black's side, area scoring; points as GTP vertices)."""
    from tengen.endgame.results import region_label

    h = analysis.board.height
    regions = []
    for i, r in enumerate(analysis.regions):
        regions.append({
            "id": region_label(i), "points": [to_gtp(p, h) for p in r.region.sorted_points()],
            "size": len(r.region.points), "count": _opt(r.count), "temperature": _opt(r.temperature),
            "type": r.kind, "miai": _opt(r.miai_value), "deiri": _opt(r.deiri_value),
            "bestBlack": [to_gtp(p, h) for p in r.best_black], "bestWhite": [to_gtp(p, h) for p in r.best_white],
        })
    rec = analysis.recommended
    return {"regions": regions, "recommended": None if rec is None else to_gtp(rec[1], h),
            "view": "black, area scoring", "settings": dict(analysis.settings)}


def _move_values(analysis: Analysis, board: Board) -> dict[Move, dict]:
    """Per point inside a region: that region's value for a move there by the side to move."""
    from tengen.endgame.results import region_label

    out: dict[Move, dict] = {}
    for i, r in enumerate(analysis.regions):
        best = r.best_black if board.to_play == BLACK else r.best_white
        for p in r.region.points:
            out[p] = {"region": region_label(i), "type": r.kind, "temperature": _opt(r.temperature),
                      "miai": _opt(r.miai_value), "deiri": _opt(r.deiri_value), "best": p in best}
    return out

