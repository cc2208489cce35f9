"""Winner prediction accuracy and log loss per game phase on the held-out test games.

Loads the cached test split (``python -m tengen.train.records build``) and the stored models
(``python -m tengen.train.winner train``) and prints, for moves 30, 80, 130 and 180, each model's accuracy
and log loss next to the seed's figures, the GNU Go ``estimate_score`` reference (``gnugo_reference.json``)
the model that validation picked for each phase, and naive counting (sign of the summed influence minus komi).
Ends with ``best_at_180: <accuracy>``.

Run time is bounded: features are computed once per influence model (cached next to the dataset) and
``--max-per-phase`` subsamples the test positions (default: all).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.train.records.store import COLLECTIONS, PHASES, dataset_dir, load_split  # noqa: E402
from tengen.train.winner.features import assemble_inputs, board_features, cached_board_features  # noqa: E402
from tengen.train.winner.metrics import SEED_ACCURACY, metrics, naive_count  # noqa: E402
from tengen.train.winner.model import MODELS_DIR, load_index, load_model  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (default ~/.cache/tengen/datasets)")
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--max-per-phase", type=int, default=None, help="subsample test positions per phase")
    ap.add_argument("--models", nargs="*", default=None, help="only these model names")
    ap.add_argument("--json", type=Path, default=None, help="also write the table as JSON")
    ap.add_argument("--by-collection", action="store_true", help="also break the chosen models down by collection")
    args = ap.parse_args(argv)
    t0 = time.time()
    try:
        index = load_index(args.models_dir)
        test = load_split("test", args.cache_dir)
    except FileNotFoundError as exc:
        print(f"cannot run: {exc}")
        return 2
    if args.max_per_phase:
        rng = np.random.default_rng(0)
        keep = np.concatenate([np.sort(rng.choice(np.flatnonzero(test.phase == p),
                                                  min(args.max_per_phase, int((test.phase == p).sum())),
                                                  replace=False)) for p in PHASES])
        test = test.select(keep)
        maps_split = None  # subsampled: features are computed, not read from the full-split cache
    else:
        maps_split = "test"
    def order(n: str) -> tuple:
        kind, source, phase = n.split("-")
        return (kind != "logreg", source, int(phase) if phase.isdigit() else 999)

    names = sorted(index["models"], key=order)
    if args.models:
        names = [n for n in names if n in args.models]
    gnugo_path = Path(args.models_dir) / "gnugo_reference.json"
    gnugo = json.loads(gnugo_path.read_text()) if gnugo_path.exists() else None
    gnugo_keys = {(p["game_key"], p["phase"]) for p in gnugo["positions"]} if gnugo else set()
    key_of = np.array([f"{int(test.games['game_key'][g])}" for g in test.game])
    on_gnugo = np.array([(k, int(p)) in gnugo_keys for k, p in zip(key_of, test.phase)])

    maps_cache: dict[str, np.ndarray] = {}
    rows: dict[str, dict[str, dict[str, float]]] = {}
    probs: dict[str, np.ndarray] = {}
    for name in names:
        net, meta = load_model(Path(args.models_dir) / f"{name}.npz")
        source = meta["source"]
        if source not in maps_cache:
            if maps_split:
                maps_cache[source] = cached_board_features(maps_split, test, source, args.cache_dir)
            else:
                maps_cache[source] = board_features(test.boards, source)
        x = assemble_inputs(maps_cache[source], test.captures, test.phase if meta["phase"] == "all" else None)
        p = np.full(len(test), np.nan)
        phases = PHASES if meta["phase"] == "all" else (int(meta["phase"]),)
        mask = np.isin(test.phase, phases)
        p[mask] = net.predict_proba(x[mask])
        probs[name] = p
        rows[name] = {str(q): metrics(p[test.phase == q], test.winner[test.phase == q])
                      for q in phases}

    def acc_cell(acc: float) -> str:
        return f"{acc:5.1f}%" + " " * 6

    def cell(m: dict[str, float] | None) -> str:
        return f"{m['accuracy']:5.1f}% {m['log_loss']:.3f}" if m else " " * 12

    counts = {q: int((test.phase == q).sum()) for q in PHASES}
    print(f"winner prediction on held-out test games ({len(set(test.game.tolist()))} games; positions per phase "
          + ", ".join(f"{q}: {n}" for q, n in counts.items()) + ")")
    print(f"dataset: {dataset_dir(args.cache_dir)}   models: {args.models_dir}")
    print("cells: accuracy  log loss (nats)")
    header = f"{'model':24s}" + "".join(f"{'move ' + str(q):>15s}" for q in PHASES)
    print(header)
    print("-" * len(header))
    print(f"{'seed (original MLP)':24s}" + "".join(f"{acc_cell(SEED_ACCURACY[q]):>15s}" for q in PHASES))
    prior = index.get("prior", {})
    if prior:
        cells = []
        for q in PHASES:
            pb = prior.get(str(q))
            m = metrics(np.full(counts[q], pb), test.winner[test.phase == q]) if pb is not None else None
            cells.append(f"{cell(m):>15s}")
        print(f"{'prior (train win rate)':24s}" + "".join(cells))
    # Naive counting: Black wins when (points with positive influence - negative ones) exceeds komi.
    komi = test.games["game_komi"][test.game]
    for source in ("zobrist", "bouzy", "cross"):
        if source not in maps_cache:
            maps_cache[source] = (cached_board_features(maps_split, test, source, args.cache_dir) if maps_split
                                  else board_features(test.boards, source))
        count = naive_count(maps_cache[source], komi)
        cells = []
        for q in PHASES:
            sel = test.phase == q
            acc = float(((count[sel] > 0) == (test.winner[sel] > 0)).mean() * 100) if sel.any() else float("nan")
            cells.append(acc_cell(acc))
        print(f"{'count-' + source + ' - komi':24s}" + "".join(f"{c:>15s}" for c in cells))
    for name in names:
        print(f"{name:24s}" + "".join(f"{cell(rows[name].get(str(q))):>15s}" for q in PHASES))
    print("-" * len(header))
    best = index.get("best", {})
    best_cells, best_acc = [], {}
    for q in PHASES:
        n = best.get(str(q))
        m = rows.get(n, {}).get(str(q)) if n else None
        best_acc[q] = m["accuracy"] if m else float("nan")
        best_cells.append(f"{cell(m):>15s}")
    print(f"{'best (chosen on val)':24s}" + "".join(best_cells) + "   " + " ".join(f"{q}:{best.get(str(q))}" for q in PHASES))
    if gnugo:
        g_cells, m_cells = [], []
        g_by = {(p["game_key"], p["phase"]): p["score"] for p in gnugo["positions"]}
        for q in PHASES:
            sel = on_gnugo & (test.phase == q)
            if sel.any():
                score = np.array([g_by[(k, q)] for k in key_of[sel]])
                acc = float(((score > 0) == (test.winner[sel] > 0)).mean() * 100)
                g_cells.append(f"{acc:6.1f}% n={int(sel.sum()):<5d}")
                n = best.get(str(q))
                bm = metrics(probs[n][sel], test.winner[sel]) if n in probs else None
                m_cells.append(f"{bm['accuracy']:6.1f}% n={int(sel.sum()):<5d}" if bm else " " * 15)
            else:
                g_cells.append(" " * 15)
                m_cells.append(" " * 15)
        print(f"{'GNU Go estimate_score':24s}" + "".join(f"{c:>15s}" for c in g_cells))
        print(f"{'best, same positions':24s}" + "".join(f"{c:>15s}" for c in m_cells))
    else:
        print("GNU Go reference: not measured (python -m tengen.train.winner gnugo)")
    if args.by_collection:
        col = test.games["game_collection"][test.game]
        print("\nbest model by collection (accuracy, positions):")
        print(f"{'collection':24s}" + "".join(f"{'move ' + str(q):>15s}" for q in PHASES))
        for cname, cid in COLLECTIONS.items():
            if not (col == cid).any():
                continue
            cells = []
            for q in PHASES:
                n = best.get(str(q))
                sel = (col == cid) & (test.phase == q)
                if n in probs and sel.any():
                    m = metrics(probs[n][sel], test.winner[sel])
                    cells.append(f"{m['accuracy']:6.1f}% n={m['n']:<5d}")
                else:
                    cells.append(" " * 15)
            print(f"{cname:24s}" + "".join(f"{c:>15s}" for c in cells))
    print(f"elapsed: {time.time() - t0:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "best": best, "best_accuracy": best_acc}, indent=1))
    print(f"best_at_180: {best_acc[180]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
