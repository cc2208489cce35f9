"""A finished game's outputs, written atomically once all its units are journaled: `games/NAME.jsonl` (one
line per unit, by turn) and `games/NAME.sgf` (the record annotated: KaTrain's analysis property `KT` on each
evaluated or searched node, so KaTrain opens the results, and a `C[]` comment everywhere), and the job's
`summary.json`.

`KT` is what KaTrain's `analysis_dumps` writes (katrain/core/game_node.py): three base64 strings of gzip
data: the ownership as half floats (row-major from the top left, Black's view), the policy likewise plus the
pass, and JSON `{"moves": {GTP: moveInfo}, "root": rootInfo, "completed": true}`; the root carries
`KTV[1.0]`, the format's version.
"""
from __future__ import annotations

import base64
import gzip
import json
import os
import struct
from typing import Optional

from tengen.files import write_atomic

KT_VERSION = "1.0"  # KaTrain's ANALYSIS_FORMAT_VERSION


def _pack_half(values: Optional[list[float]]) -> bytes:
    """KaTrain's `pack_floats`: IEEE half floats, native order (little-endian everywhere KaTrain runs)."""
    return b"" if values is None else struct.pack(f"<{len(values)}e", *values)


def katrain_analysis(result: dict) -> Optional[dict]:
    """An eval or search result as KaTrain's node analysis (None for an endgame result: it has no root)."""
    if "winrate" not in result:
        return None
    root = {"visits": result.get("visits", 1), "winrate": result["winrate"], "scoreLead": result["score_lead"],
            "scoreMean": result.get("score_mean", result["score_lead"]), "currentPlayer": result["to_play"]}
    if "score_stdev" in result:
        root["scoreStdev"] = result["score_stdev"]
    moves = {}
    for m in result.get("moves", []):
        moves[m["move"]] = {"move": m["move"], "visits": m["visits"], "winrate": m["winrate"],
                            "scoreLead": m["score_lead"], "scoreMean": m["score_lead"], "prior": m["prior"],
                            "order": m["order"], "pv": m["pv"]}
    return {"moves": moves, "root": root, "ownership": result.get("ownership"), "policy": result.get("policy"),
            "completed": True}


def kt_values(analysis: dict) -> list[bytes]:
    """The three `KT` values of a KaTrain analysis (as its `analysis_dumps` makes them)."""
    main = {k: v for k, v in analysis.items() if k not in ("ownership", "policy")}
    parts = [_pack_half(analysis.get("ownership")), _pack_half(analysis.get("policy")),
             json.dumps(main).encode("utf-8")]
    return [base64.standard_b64encode(gzip.compress(p, mtime=0)) for p in parts]


def comment_for(entry: dict) -> str:
    """A one-paragraph comment for a unit: the values a reader looks for first."""
    turn, kind = entry["turn"], entry["kind"]
    if "error" in entry:
        return f"tengen batch ({kind}, turn {turn}): not analyzed: {entry['error']}"
    r = entry["result"]
    if kind in ("eval", "search"):
        lead = r["score_lead"]
        text = (f"tengen batch ({kind}, turn {turn}): Black win rate {100 * r['winrate']:.1f}%, "
                f"{'B' if lead >= 0 else 'W'}+{abs(lead):.1f}")
        if kind == "search":
            text += f", best {r['best']} ({r['visits']} visits)"
        else:
            text += ", policy " + " ".join(f"{m} {100 * p:.0f}%" for m, p in r["policy_top"][:3])
        return text
    regions = r.get("regions", [])
    parts = [f"{g.get('id', i)}: count {g.get('count')}, temperature {g.get('temperature')}, {g.get('type', '')}"
             for i, g in enumerate(regions)]
    return (f"tengen batch (endgame, turn {turn}): {len(regions)} regions; recommended {r.get('recommended')}"
            + ("\n" + "\n".join(parts) if parts else ""))


def game_paths(out_dir: str, name: str) -> tuple[str, str]:
    return os.path.join(out_dir, "games", name + ".jsonl"), os.path.join(out_dir, "games", name + ".sgf")


def write_game_outputs(out_dir: str, name: str, source: str, data: bytes, entries: list[dict]) -> None:
    """Write a finished game's JSON lines and annotated SGF (each atomically; the SGF first, so the JSON
    lines' presence means both are there)."""
    from tengen.go.sgf import load_game_bytes
    from tengen.io.sgf_write import annotate, write_game

    entries = sorted(entries, key=lambda e: (e["turn"], e["kind"]))
    jsonl_path, sgf_path = game_paths(out_dir, name)
    os.makedirs(os.path.dirname(jsonl_path), exist_ok=True)
    game = load_game_bytes(data, source)
    any_kt = False
    for entry in entries:
        node = game.node_at(entry["turn"])
        annotate(node, comment_for(entry))
        analysis = katrain_analysis(entry["result"]) if "result" in entry else None
        if analysis is not None:
            node.set_raw_list("KT", kt_values(analysis))
            any_kt = True
    if any_kt:
        game.sgf.get_root().set_raw("KTV", KT_VERSION.encode())
    write_game(game, sgf_path)
    lines = []
    for entry in entries:
        line = {"id": entry["unit"], "file": source, "turn": entry["turn"], "kind": entry["kind"]}
        line.update({"error": entry["error"]} if "error" in entry else {"result": entry["result"]})
        lines.append(json.dumps(line, separators=(",", ":"), allow_nan=False))
    write_atomic(jsonl_path, ("\n".join(lines) + "\n").encode() if lines else b"")


def write_summary(out_dir: str, summary: dict) -> None:
    """The job's summary (counts, skipped records with their reasons), written atomically."""
    write_atomic(os.path.join(out_dir, "summary.json"), (json.dumps(summary, indent=1) + "\n").encode())
