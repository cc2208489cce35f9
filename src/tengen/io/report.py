"""Analysis reports: a readable text table, a JSON document (with the trees), and SGF markup."""
from __future__ import annotations

import json
import math
from typing import Any, Optional

from tengen.cgt import BLACK_SENTE, GOTE, INFINITESIMAL, KO, NUMBER, UNBOUNDED, WHITE_SENTE
from tengen.endgame.notes import of_kind, without_kind
from tengen.endgame.results import UNSOLVED, UNSUPPORTED, Analysis, RegionResult, region_label
from tengen.endgame.tree import MISSING, LocalNode
from tengen.go.colors import BLACK
from tengen.go.coords import Move, to_gtp
from tengen.io.figures import figure

KIND_TEXT = {
    GOTE: "gote",
    BLACK_SENTE: "Black sente (White reverse sente)",
    WHITE_SENTE: "White sente (Black reverse sente)",
    KO: "ko",
    NUMBER: "settled (number)",
    INFINITESIMAL: "no gain (temperature 0)",  # area scoring: a dame point is {1 | -1}, temperature 1
    UNBOUNDED: "unanswered threat (no count)",
    UNSUPPORTED: "unsupported",
    UNSOLVED: "unsolved",  # the exact solver gave no value and no tree answered (the notes say why)
}


def kind_text(r: RegionResult) -> str:
    """The type column: a number whose first moves start fights is 'cold', not 'settled'; a value from a tree
    its node budget cut is said to be unreliable."""
    text = "cold (no start gains)" if r.kind == NUMBER and r.cold_fight else KIND_TEXT.get(r.kind, r.kind)
    return f"{text}, unreliable (cut tree)" if r.cut_tree and r.kind not in (UNSOLVED, UNSUPPORTED) else text


def answered_by(r: RegionResult) -> str:
    """Which method gave the region's value, and why the exact solver declined when it did ('' when the
    exact solver was not asked)."""
    if r.method == "exhaustive":
        return "answered by the exact solver"
    if r.kind == UNSOLVED:
        return f"unsolved: the exact solver declined: {r.declined}"
    if r.declined and not of_kind(r.notes, "method"):
        predictor = r.tree.predictor if r.tree is not None else "tree"
        return f"answered by a grown tree ({predictor}): the exact solver declined: {r.declined}"
    return ""


def _moves(points, height: int) -> str:
    return " ".join(to_gtp(p, height) for p in points) or "-"


def _line(moves: list[tuple[int, Move]], height: int) -> str:
    return " ".join(f"{'B' if c == BLACK else 'W'} {to_gtp(p, height)}" for c, p in moves)


def _follow_up(line: list[tuple[int, Move]], follow: Optional[float], height: int) -> str:
    """What the line's first move leaves: the region's temperature after it (how much the next local move,
    the follow-up, is worth), so a player sees how urgent the answer is; '' when not known."""
    if follow is None:
        return ""
    after = f"after {_line(line[:1], height)}"
    if follow == math.inf:
        return f" ({after}: a threat that must be answered)"
    if follow < 0:
        return f" ({after}: settled)"
    return f" ({after}: no gain left, temperature 0)" if follow == 0 else f" ({after}: temperature {figure(follow)})"


def where(points, height: int) -> str:
    """Where a region lies, for the table: its bounding box by GTP corners ("C3-E5"; one point: "C4")."""
    points = list(points)
    if not points:
        return "-"
    rows, cols = [p[0] for p in points], [p[1] for p in points]
    low_left, up_right = (max(rows), min(cols)), (min(rows), max(cols))
    return to_gtp(low_left, height) if low_left == up_right else f"{to_gtp(low_left, height)}-{to_gtp(up_right, height)}"


def _cold(r: RegionResult) -> bool:
    """A settled region (a number): no move gains, so its temperature (-1 by convention) and move values say
    nothing; the table shows them as '-'."""
    return r.kind == NUMBER or (r.temperature is not None and r.temperature < 0)


def _dame(r: RegionResult) -> bool:
    """A lone point worth one point to whoever fills it under area scoring and nothing under territory
    scoring: temperature 1 with miai and deiri 0."""
    return r.kind == GOTE and r.temperature == 1 and r.miai_value == 0


def table_type(r: RegionResult) -> str:
    """The type column, dame said as such."""
    return "dame (1 point by area, 0 by territory)" if _dame(r) else kind_text(r)


def text_report(analysis: Analysis, explain: bool = False) -> str:
    """The table a player reads: one row per region (where it is, count, temperature, move values, type,
    best moves), a map of the regions, then the recommended move, the costs and what the numbers assume;
    `explain`: the terms the table uses, in plain words."""
    h = analysis.board.height
    rows = [("region", "where", "points", "count", "temp", "miai", "deiri", "type", "Black plays", "White plays")]
    for i, r in enumerate(analysis.regions):
        cold = _cold(r)
        rows.append((region_label(i), where(r.region.points, h), str(len(r.region)), figure(r.count),
                     "-" if cold else figure(r.temperature), "-" if cold else figure(r.miai_value),
                     "-" if cold else figure(r.deiri_value), table_type(r), _moves(r.best_black, h),
                     _moves(r.best_white, h)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    for i, r in enumerate(analysis.regions):
        extra = []
        for line, follow, who in ((r.principal_black, r.follow_black, "Black"), (r.principal_white, r.follow_white, "White")):
            if line:
                extra.append(f"{who} first: {_line(line, h)}{_follow_up(line, follow, h)}")
        if r.thermograph_text:
            extra.append(f"thermograph: {r.thermograph_text}")
        answered = answered_by(r)
        if answered:
            extra.append(answered)
        extra += without_kind(r.notes, "declined")  # said by `answered_by`
        if extra:
            lines.append(f"{region_label(i)}: " + "; ".join(extra))
    lines += shared_best_moves(analysis)
    lines += _groups_outside_regions(analysis)
    lines += region_map(analysis)
    if analysis.board_count is not None and analysis.ownership is None:  # no network: nothing counts the rest
        lines.append(f"count of the analyzed regions (area, Black's side): {figure(analysis.board_count)} "
                     "(the rest of the board is not counted without the network, so no board count or komi)")
    elif analysis.board_count is not None:
        komi = analysis.board.rules.komi
        lines.append(f"board count (area, Black's side): {figure(analysis.board_count)}; after komi {komi:g}: {figure(analysis.board_count - komi)}")
    name = analysis.evaluator_name
    if analysis.network_counts is not None:
        b_first, w_first = analysis.network_counts
        lines.append(f"the {name}'s own count (its ownership summed): {figure(b_first)} with Black to move, "
                     f"{figure(w_first)} with White to move (a count with no one's move lies between)")
        if analysis.count_outside_network():
            lines.append(f"warning: the board count lies outside the {name}'s range: a region is probably "
                         f"misjudged (a cut tree, a probe, or walls the {name} doubts); check the notes above")
        underread = analysis.underread_swing()
        if underread is not None:
            hottest = ("no region has a temperature" if underread[1] is None else
                       "no region has a move that gains (the table's temperatures are all '-')" if underread[1] < 0
                       else f"the hottest region's temperature is {figure(underread[1])}")
            lines.append(f"warning: the {name}'s two counts differ by {2 * underread[0]:.1f} (a move worth about "
                         f"{underread[0]:.1f}), but {hottest}: a region is probably under-read (a tree cut by its budget?)")
    color_name = "Black" if analysis.board.to_play == BLACK else "White"
    check = analysis.move_check
    if check is not None and not check.overruled:
        side = "behind" if check.loss > 0 else "ahead of"
        against = (f"its policy move {to_gtp(check.policy, h)}" if check.alternatives == 1 else
                   f"the best of its {check.alternatives} likeliest moves")
        lines.append(f"{name} check: the orthodox {to_gtp(check.orthodox, h)} is {abs(check.loss):.1f} points {side} "
                     f"{against} {check.how} (overruled beyond {check.margin:g})")
    if analysis.recommended is not None:
        c, p = analysis.recommended
        lines.append(f"recommended for {color_name}: {to_gtp(p, h)} ({analysis.recommended_reason})")
    else:
        lines.append(f"recommended for {color_name}: none ({analysis.recommended_reason or 'no region to play in'})")
    lines.append(f"predictor {analysis.predictor}; {analysis.evaluations} {name} evaluations; {analysis.seconds:.1f} s")
    lines.append(assumptions_text(analysis))
    lines.append("temperatures and counts are area-scoring values; miai = temperature - 1 (at least 0; none without a hot move), "
                 "deiri = 2 x miai (gote) or miai (sente); '-': none (no move gains there)")
    if explain:
        lines += explanations(analysis)
    return "\n".join(lines)


def _groups_outside_regions(analysis: Analysis) -> list[str]:
    """The critical groups (`Analysis.critical_groups`) that no region's notes already say."""
    h, name = analysis.board.height, analysis.evaluator_name
    said = {n for r in analysis.regions for n in r.notes}
    return [f"life and death: {g.sentence(h, name)}" for g in analysis.critical_groups
            if g.sentence(h, name) not in said]


def critical_groups_json(analysis: Analysis) -> list[dict[str, Any]]:
    """The critical groups for the JSON report: a stone, colour, size, the key moves, judged (not proved)."""
    h = analysis.board.height
    return [{"stone": to_gtp(g.stone, h), "color": "B" if g.color == BLACK else "W", "stones": g.size,
             "attack": None if g.attack is None else to_gtp(g.attack, h),
             "defense": None if g.defense is None else to_gtp(g.defense, h), "status": g.status, "proved": False,
             "note": g.sentence(h, analysis.evaluator_name)} for g in analysis.critical_groups]


def shared_best_moves(analysis: Analysis) -> list[str]:
    """A line for each point that is the best move of two or more regions: they interact (one stone plays
    in both), so adding their values as independent games is only an approximation there."""
    h = analysis.board.height
    owners: dict = {}
    for i, r in enumerate(analysis.regions):
        for p in set(r.best_black) | set(r.best_white):
            owners.setdefault(p, []).append(region_label(i))
    return [f"note: {to_gtp(p, h)} is a best move of regions {' and '.join(labels)}: they interact (one move plays "
            "in both), so their values are not independent there" for p, labels in sorted(owners.items())
            if len(labels) > 1]


MAP_MAX_SIZE = 25  # boards up to this size get the map (every standard size)


def region_map(analysis: Analysis) -> list[str]:
    """The board with each region's empty points marked by its letter in lower case (X Black, O White, .
    elsewhere), so a player sees where the table's regions lie; regions past Z share '*'."""
    board = analysis.board
    if not analysis.regions or max(board.height, board.width) > MAP_MAX_SIZE:
        return []
    grid = board.array()
    cells = [["." if v == 0 else ("X" if v == BLACK else "O") for v in row] for row in grid]
    for i, r in enumerate(analysis.regions):
        label = region_label(i)
        for p in r.region.points:
            if grid[p] == 0:
                cells[p[0]][p[1]] = label.lower() if len(label) == 1 else "*"
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:board.width]
    out = ["regions on the board (a, b, ...: the empty points of regions A, B, ...; X Black, O White):",
           "    " + " ".join(letters)]
    for r, row in enumerate(cells):
        out.append(f"{board.height - r:>3} " + " ".join(row))
    return out


GLOSSARY = {
    "count": "count: what the region is worth to Black in points (area scoring: stones and surrounded points) "
             "when both sides play it out well, the mean of Black first and White first; negative: White's",
    "temp": "temp (temperature): how many points a move here gains compared with the opponent playing here; "
            "play the hottest region first (a settled region has none: '-')",
    "miai": "miai: what one move here is worth by the Japanese count (temperature - 1 under area scoring)",
    "deiri": "deiri: the swing between Black's and White's move here (2 x miai for gote, miai for sente)",
    "gote": "gote: after the move the opponent need not answer and may play elsewhere first",
    "sente": "Black sente / White sente: the move threatens a follow-up bigger than anything else, so the "
             "opponent must answer and the mover keeps the initiative; the other side's move there is reverse "
             "sente, worth twice its temperature to play first",
    "ko": "ko: the region holds a ko; its value depends on ko threats (the notes say how it was valued)",
    "settled": "settled (number): no move here gains anything; the count is its final value",
    "cold": "cold (no start gains): moves start fights here but none gains: leave it",
    "dame": "dame: a neutral point; filling it is worth 1 point under area scoring and nothing under territory",
    "threat": "unanswered threat: a move here threatens something the tree did not see answered, so the region "
              "has no count; grow the tree (--max-nodes) or mark the region",
    "unsolved": "unsolved: neither the exact solver nor a tree could value the region (the notes say why)",
    "tedomari": "tedomari: taking the last big move; with two regions of equal temperature the orthodox move "
                "plays the one whose follow-up keeps the initiative",
}


def explanations(analysis: Analysis) -> list[str]:
    """The glossary entries for the terms this table uses (`tengen analyze --explain`)."""
    used = {"count", "temp", "miai", "deiri"}
    for r in analysis.regions:
        text = table_type(r)
        for term in ("gote", "sente", "ko", "settled", "cold", "dame", "threat", "unsolved"):
            if term in text:
                used.add(term)
    if "tedomari" in analysis.recommended_reason:
        used.add("tedomari")
    return ["", "what the table's terms mean:"] + [f"  {GLOSSARY[t]}" for t in GLOSSARY if t in used]


def report_answer(report: dict[str, Any]) -> dict[str, Any]:
    """The answer in a JSON report (`json_report`, or the `tengenEndgame` extras): per region its points,
    count, temperature, type and best moves, the recommended move, and the settings it was found with; no
    costs or timings. Two front ends agree when their answers are equal."""
    def value(x: Any) -> Optional[float]:  # the extras round to 8 significant digits and give no infinite value
        return None if x is None or isinstance(x, str) or not math.isfinite(x) else float(f"{x:.6g}")

    def region(r: dict) -> tuple:
        return (tuple(r["points"]), value(r["count"]), value(r["temperature"]), r["type"],
                tuple(r.get("best_black", r.get("bestBlack", ()))), tuple(r.get("best_white", r.get("bestWhite", ()))))

    return {"regions": sorted(region(r) for r in report["regions"]), "recommended": report.get("recommended"),
            "settings": report.get("settings")}


def assumptions_text(analysis: Analysis) -> str:
    """What the numbers assume, in one line: rules and komi, and the settings by `tengen analyze`'s flags."""
    rules = analysis.board.rules
    text = f"assumed: {rules.name} rules ({rules.scoring} scoring), komi {rules.komi:g}"
    s = analysis.settings
    if s:
        text += (f"; settings: --predictor {s['predictor']} --leaves {s['leaves']} --max-nodes {s['max_nodes']} "
                 f"--max-total-nodes {s['max_total_nodes']} --threshold {s['threshold']:g} --margin {s['margin']} "
                 f"--move-check {s['move_check']:g}" + ("" if s["sealed_rules"] else " --no-sealed-rules")
                 + (f" --move-check-visits {s['move_check_visits']}" if s.get("move_check_visits") else "")
                 + (f" --device {s['device']}" if s.get("device", "cpu") != "cpu" else ""))
    return text


def _tree_json(node: LocalNode, height: int) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": node.kind}
    if node.value is not None:
        out["value"] = node.value
    if node.counted:
        out["exact"] = True
    if node.kind == "threat":
        out["threat"] = "+inf" if node.threat == BLACK else "-inf"
    if node.reason:
        out["reason"] = node.reason
    if node.ko_retakes:
        out["ko_retakes"] = [f"{'B' if c == BLACK else 'W'} {to_gtp(p, height)}" for c, p in node.ko_retakes]
    children = {}
    for color, tag in ((BLACK, "B"), (-BLACK, "W")):
        for point, child in node.children[color]:
            if child.kind == "threat" and point == MISSING:
                children[f"{tag} threat"] = _tree_json(child, height)
            else:
                children[f"{tag} {to_gtp(point, height)}"] = _tree_json(child, height)
    if children:
        out["children"] = children
    return out


def region_json(r: RegionResult, index: int, height: int) -> dict[str, Any]:
    return {
        "id": region_label(index),
        "points": [to_gtp(p, height) for p in r.region.sorted_points()],
        "source": r.region.source,
        "count": r.count,
        "temperature": r.temperature,
        "miai_value": r.miai_value,
        "deiri_value": r.deiri_value,
        "type": r.kind,
        "cold_fight": bool(r.cold_fight),
        "method": r.method,
        "declined": r.declined or None,  # why the exact solver gave no value (None: it did, or was not asked)
        "thermograph": r.thermograph_text or None,  # the exact solver's: walls' breakpoints, mean, temperature
        "exact_rules": r.exact_rules,
        "best_black": [to_gtp(p, height) for p in r.best_black],
        "best_white": [to_gtp(p, height) for p in r.best_white],
        "principal_black": _line(r.principal_black, height),
        "principal_white": _line(r.principal_white, height),
        # the temperature after each side's first move (<= 0: it settles the region; "inf": a threat)
        "follow_up_black": r.follow_black,
        "follow_up_white": r.follow_white,
        "game": r.game_text or None,  # None: no plain game (a ko or a repetition inside; see type and notes)
        "notes": list(r.notes) + list(r.region.notes),
        "evaluations": r.evaluations,
        "seconds": round(r.seconds, 3),
        "tree": _tree_json(r.tree.root, height) if r.tree is not None else None,
        "budget_exhausted": bool(r.tree.budget_exhausted) if r.tree is not None else False,
    }


def json_report(analysis: Analysis) -> dict[str, Any]:
    h = analysis.board.height
    rec = analysis.recommended
    return {
        "board_size": [analysis.board.width, analysis.board.height],
        "to_play": "B" if analysis.board.to_play == BLACK else "W",
        "komi": analysis.board.rules.komi,
        "rules": {"name": analysis.board.rules.name, "scoring": analysis.board.rules.scoring},
        "predictor": analysis.predictor,
        "settings": dict(analysis.settings),
        "regions": [region_json(r, i, h) for i, r in enumerate(analysis.regions)],
        # without the network (an exact solve of marked regions) nothing counts the rest of the board
        "sure_count": None if analysis.ownership is None else analysis.sure_count,
        "board_count": None if analysis.ownership is None else analysis.board_count,
        "regions_count": None if any(r.count is None for r in analysis.regions) else sum(r.count for r in analysis.regions),
        "network_counts": None if analysis.network_counts is None else
        {"black_to_move": analysis.network_counts[0], "white_to_move": analysis.network_counts[1]},
        "recommended": None if rec is None else to_gtp(rec[1], h),
        "recommended_reason": analysis.recommended_reason,
        "critical_groups": critical_groups_json(analysis),
        "move_check": None if analysis.move_check is None else _check_json(analysis.move_check, h),
        "underread_swing": analysis.underread_swing() is not None,
        "evaluations": analysis.evaluations,
        "seconds": round(analysis.seconds, 3),
        "phases": None if analysis.phases is None else  # where the seconds went (exclusive; "a/b": b inside a)
        {path: {"seconds": round(stat.seconds, 3), "calls": stat.calls, "network_rows": stat.rows}
         for path, stat in analysis.phases.stats.items()},
        "ownership": None if analysis.ownership is None else [[round(float(v), 3) for v in row] for row in analysis.ownership],
        "conventions": "area scoring, Black's side; points as GTP vertices (A1 bottom left, no I); "
                       "miai = temperature - 1 (at least 0; null without a hot move); "
                       "deiri = 2 x miai (gote) or miai (sente)",
    }


def _check_json(check, height: int) -> dict[str, Any]:
    return {"orthodox": to_gtp(check.orthodox, height), "policy": to_gtp(check.policy, height),
            "orthodox_score": round(check.orthodox_score, 3), "policy_score": round(check.policy_score, 3),
            "best_score": round(check.loss + check.orthodox_score, 3), "loss": round(check.loss, 3),
            "margin": check.margin, "overruled": check.overruled}


def write_json_atomic(data: Any, path: str) -> None:
    """Write strict JSON (an infinite value, an unanswered threat's temperature, becomes the string "inf" or
    "-inf", as the trees' threat leaves are written) via a temporary file and a rename."""
    from tengen.files import write_atomic

    write_atomic(path, (json.dumps(_strict(data), indent=1, allow_nan=False) + "\n").encode())


def strict_json_report(analysis: Analysis, trees: bool = True) -> dict[str, Any]:
    """The analysis as `tengen analyze --json` writes it (non-finite values as "inf" / "-inf" strings), as
    data: what the web app and batch analysis return; without the regions' trees unless `trees`."""
    report = _strict(json_report(analysis))
    if not trees:
        for region in report["regions"]:
            region.pop("tree", None)
    return report


def _strict(data: Any) -> Any:
    """`data` with non-finite floats as strings ("inf", "-inf") or None (NaN): JSON has no such numbers."""
    if isinstance(data, float) and not math.isfinite(data):
        return None if data != data else ("inf" if data > 0 else "-inf")
    if isinstance(data, dict):
        return {k: _strict(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_strict(v) for v in data]
    return data


def annotate_sgf(game, node, analysis: Analysis) -> None:
    """Write the analysis onto an SGF node: a comment with the table, region labels, best local
    sequences as variations. A previous tengen analysis of the node is replaced, not repeated. At the end
    of the record an empty first child keeps the main line as recorded (the first child of a node is the
    main line in SGF, so a best sequence added there would read as the game's continuation)."""
    from tengen.go.sgf import SGF_END_MARK, SGF_HEADING, SGF_LINE_MARK
    from tengen.io.sgf_write import add_variation, annotate

    h = analysis.board.height
    _remove_previous_analysis(node)
    labels = {}
    for i, r in enumerate(analysis.regions):
        for p in r.region.points:
            if analysis.board.get(p) == 0:
                labels[p] = region_label(i)
    annotate(node, comment=SGF_HEADING + "\n" + text_report(analysis), labels=labels, size=h)
    lines = [(i, r, line, who) for i, r in enumerate(analysis.regions)
             for line, who in ((r.principal_black, "Black"), (r.principal_white, "White")) if line]
    if lines and not len(node):
        end = node.new_child()
        end.set("C", f"{SGF_END_MARK}; the variations beside this node are tengen's best local sequences")
        if node.has_property("SQ"):
            end.set_raw_list("SQ", node.get_raw_list("SQ"))  # a marked region stays marked for a re-analysis
    for i, r, line, who in lines:
        add_variation(node, line, comment=f"{SGF_LINE_MARK}{region_label(i)}: {who} first "
                      f"(count {figure(r.count)}, temperature {figure(r.temperature)}, {kind_text(r)})", size=h)


def _remove_previous_analysis(node) -> None:
    """Take off what an earlier `annotate_sgf` wrote on this node: its comment section and variations
    (an end-of-record node someone has continued from is kept)."""
    from tengen.go.sgf import SGF_END_MARK, SGF_HEADING, comment_text, is_tengen_line

    text = comment_text(node)
    if SGF_HEADING + "\n" in text:
        kept = text[:text.index(SGF_HEADING + "\n")].rstrip("\n")
        if kept:
            node.set("C", kept)
        else:
            node.unset("C")
    for child in list(node):
        if is_tengen_line(child) or comment_text(child).startswith(SGF_END_MARK) and not len(child):
            child.delete()
