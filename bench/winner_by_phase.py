"""Winner prediction accuracy and log loss per game phase on the held-out test games.

Loads the cached test split (``python -m tengen.train.records build``) and the stored models
(``python -m tengen.train.winner train``) and prints, for moves 30, 80, 130 and 180, each model's accuracy
and log loss next to the seed's figures, the GNU Go ``estimate_score`` reference (``gnugo_reference.json``)
the model that validation picked for each phase, and naive counting (sign of the summed influence minus komi,
also after removing the stones the value network calls dead: ``count-<map>-clean``). The ``*-clean`` models
read influence after dead-stone removal plus komi and handicap. Network rows: tengen's value network (its
win rate at the game's komi) on all test positions, and on GNU Go's positions next to KataGo's win rate.
Ends with ``best_at_180: <accuracy>``: the validation-chosen influence model at move 180 on every test position
of that phase (the positions of its row in the main table).

Run time is bounded: features are computed once per influence model (cached next to the dataset), the networks'
outputs come from their caches (``python -m tengen.train.winner valuenet`` fills them; a missing position is
evaluated here, slowly), and ``--max-per-phase`` subsamples the test positions (default: all).
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

from tengen.train.archives import COLLECTIONS  # noqa: E402
from tengen.train.records.store import PHASES, dataset_dir, load_split  # noqa: E402
from tengen.eval.influence import MODELS as INFLUENCE_MODELS  # noqa: E402
from tengen.train.winner.features import (assemble_inputs, board_features, cached_board_features,  # noqa: E402
                                          clean_features, is_clean)
from tengen.train.winner.metrics import SEED_ACCURACY, metrics, naive_count  # noqa: E402
from tengen.train.winner.model import MODELS_DIR, load_index, load_model, split_name  # noqa: E402
from tengen.train.winner.netcache import ValueNetCache, game_handicap, game_komi, katago_winrates  # noqa: E402



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (default ~/.cache/tengen/datasets)")
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--max-per-phase", type=int, default=None, help="subsample test positions per phase")
    ap.add_argument("--models", nargs="*", default=None, help="only these model names")
    ap.add_argument("--json", type=Path, default=None, help="also write the table as JSON")
    ap.add_argument("--by-collection", action="store_true", help="also break the chosen models down by collection")
    ap.add_argument("--no-katago", action="store_true", help="skip the KataGo row (evaluated here when not cached)")
    ap.add_argument("--no-nets", action="store_true", help="skip the value network and KataGo rows and the clean "
                    "sources (which need the value network's ownership)")
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
        keep = np.arange(len(test))
        maps_split = "test"
    full = load_split("test", args.cache_dir) if args.max_per_phase else test  # indices of the caches

    def order(n: str) -> tuple:
        kind, source, phase = split_name(n)
        return (kind != "logreg", is_clean(source), source, int(phase) if phase.isdigit() else 999)

    names = sorted(index["models"], key=order)
    if args.models:
        names = [n for n in names if n in args.models]
    if args.no_nets:
        names = [n for n in names if not is_clean(split_name(n)[1])]
    dead = None
    if not args.no_nets and (Path(args.models_dir) / "dead_stones.json").exists():
        from tengen.train.winner.deadstones import load_dead_stones

        dead = load_dead_stones(args.models_dir)
        vcache = ValueNetCache("test", args.cache_dir)
        if dead["sha256"] != vcache.sha:
            print(f"dead_stones.json was chosen with other value-network weights ({dead['weights']}): "
                  "clean rows skipped (rerun `python -m tengen.train.winner dead-stones`)")
            dead = None
    if dead is None:
        names = [n for n in names if not is_clean(split_name(n)[1])]
    else:
        vcache.fill(full, keep)  # cached by `python -m tengen.train.winner valuenet`; here only if missing
        own = vcache.ownership(keep, int(dead["channel"]))
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
            if is_clean(source):
                assert dead is not None and float(meta["dead_stones"]["threshold"]) == float(dead["threshold"])
                maps_cache[source] = clean_features(maps_split if len(vcache.index) == len(keep) else None,
                                                    test.boards, own, source, int(dead["channel"]),
                                                    float(dead["threshold"]), vcache.sha, args.cache_dir)
            elif maps_split:
                maps_cache[source] = cached_board_features(maps_split, test, source, args.cache_dir)
            else:
                maps_cache[source] = board_features(test.boards, source)
        move = test.phase if meta["phase"] == "all" else None
        if is_clean(source):
            x = assemble_inputs(maps_cache[source], test.captures, move, game_komi(test), game_handicap(test))
        else:
            x = assemble_inputs(maps_cache[source], test.captures, move)
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
    for source in INFLUENCE_MODELS + ((tuple(m + "-clean" for m in INFLUENCE_MODELS)) if dead else ()):
        if source not in maps_cache and is_clean(source):
            maps_cache[source] = clean_features(maps_split if len(vcache.index) == len(keep) else None,
                                                test.boards, own, source, int(dead["channel"]),
                                                float(dead["threshold"]), vcache.sha, args.cache_dir)
        if source not in maps_cache:
            maps_cache[source] = (cached_board_features(maps_split, test, source, args.cache_dir) if maps_split
                                  else board_features(test.boards, source))
        count = naive_count(maps_cache[source], komi)
        cells = []
        for q in PHASES:
            sel = test.phase == q
            acc = float(((count[sel] > 0) == (test.winner[sel] > 0)).mean() * 100) if sel.any() else float("nan")
            cells.append(acc_cell(acc))
        label = f"count-{source}-komi" if is_clean(source) else f"count-{source} - komi"
        print(f"{label:24s}" + "".join(f"{c:>15s}" for c in cells))
    for name in names:
        print(f"{name:24s}" + "".join(f"{cell(rows[name].get(str(q))):>15s}" for q in PHASES))
    vn_win = None
    if not args.no_nets:
        vcache = ValueNetCache("test", args.cache_dir)
        vcache.fill(full, keep)
        vn_win = vcache.win_at_komi(keep, game_komi(test))
        print(f"{'valuenet @ game komi':24s}" + "".join(
            f"{cell(metrics(vn_win[test.phase == q], test.winner[test.phase == q])):>15s}" for q in PHASES)
              + f"   ({vcache.weights.name} {vcache.sha[:12]}, win rate at the game's komi)")
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
        print("on GNU Go's positions (a fixed random sample of the test split, n per phase; accuracy):")
        print(f"{'GNU Go estimate_score':24s}" + "".join(f"{c:>15s}" for c in g_cells))
        print(f"{'best, same positions':24s}" + "".join(f"{c:>15s}" for c in m_cells))
        clean_names = [n for n in names if is_clean(split_name(n)[1])]
        if clean_names:  # the clean model validation prefers per phase (by validation log loss)
            c_cells = []
            for q in PHASES:
                cands = [(index["models"][n]["val"][str(q)]["log_loss"], n) for n in clean_names
                         if str(q) in index["models"][n].get("val", {})]
                sel = on_gnugo & (test.phase == q)
                if cands and sel.any():
                    m = metrics(probs[min(cands)[1]][sel], test.winner[sel])
                    c_cells.append(f"{m['accuracy']:6.1f}% n={m['n']:<5d}")
                else:
                    c_cells.append(" " * 15)
            print(f"{'best clean, same pos.':24s}" + "".join(f"{c:>15s}" for c in c_cells))
        net_rows, kata_model = [], None
        if vn_win is not None:
            net_rows.append(("valuenet @ game komi", vn_win))
        if not args.no_nets and not args.no_katago and on_gnugo.any():
            kwin, kinfo = katago_winrates(full, keep[on_gnugo], args.cache_dir)
            kata = np.full(len(test), np.nan)
            kata[on_gnugo] = kwin
            net_rows.append(("KataGo @ game komi", kata))
            kata_model = kinfo["model"]
        for label, win in net_rows:
            cells = []
            for q in PHASES:
                sel = on_gnugo & (test.phase == q)
                m = metrics(win[sel], test.winner[sel]) if sel.any() else None
                cells.append(f"{m['accuracy']:6.1f}% n={m['n']:<5d}" if m else " " * 15)
            note = f"   (KataGo network {kata_model}, no search)" if label.startswith("KataGo") else ""
            print(f"{label:24s}" + "".join(f"{c:>15s}" for c in cells) + note)
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
    print(f"best_at_180 is {best.get('180')} at move 180 on the {counts[180]} test positions of that phase "
          f"({'all' if not args.max_per_phase else 'a subsample'}; the row above), not only GNU Go's")
    print(f"best_at_180: {best_acc[180]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
