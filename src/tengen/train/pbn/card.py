"""`models/pbn/MODEL_CARD.md`, written from the weights' meta (data, split, sizes, samples per bucket, training CPU
time, held-out top-k)."""
from __future__ import annotations

from pathlib import Path

from tengen.eval.pbn.weights import load_model
from tengen.files import write_atomic

HEADER = """# PBN move predictor: pyramidal Bayes nets for corners and sides

What: P(next move | a region's stones) for the 9x9 corner quadrants (81 points), the 5x19 side strips (95) and
"combined" (a corner's quadrant with its two strips, 181 points), as in Cortigo. Four levels: points
(3 values) -> 12-valued nodes over 3x3 fields (stride 2) -> 7-valued nodes over 3x3 fields of those -> the move.
Code: `tengen.eval.pbn` (structure, EM, inference, the choices Cortigo leaves open in its docstrings) and
`tengen.train.pbn` (extraction, training, this card). Files: `pbn-<kind>-<size>.npz`, `size` = training samples
per stone-count bucket (at most; fewer where the data ran out). Buckets: stone counts 0, 1, 2, 3, 4, 5, 6-7, 8-9,
10-12, 13-16, 17-20 (more stones: no prediction). Cortigo's one net per count 0..20 scores the same within 0.4
points of top-k (top-20 within 0.2), at 5,000 samples per net for each kind (`python bench/pbn_buckets.py`).

Data: KGS games with a 7d+ player or two 6d+ players (`kgs_6d_godmoves_36692.tar.xz` of the shared games folder,
research use only, see its MANIFEST.md): every second game in archive order, 18,065 games read, capped at 40,000
training and 2,000 test samples per kind and bucket (bucket 0, and bucket 1 for combined, ran short: 31,210 to
36,607); split by game with the records' split (move hash: 15 % test, 10 % validation unused, 75 % training).
A sample is a region instance's stones before a move that lies in it (mover as "black", canonical orientation),
kept when the region holds at most 20 stones. Held-out: the test games' samples (2,000 per bucket, 22,000 per
kind, from the first 700-760 test games in archive order; top-k over all counts weights the 11 buckets
equally, not as often as they occur in games). Top-k counts ties at random and
never ranks occupied points. EM: 20 iterations per subnet, one start, pseudo-counts 0.1 (hidden levels) and 0.5
(the move); training CPU seconds were measured on a shared 2-core VM (load about 5).

Rebuild: `python -m tengen.train.pbn build`, `python -m tengen.train.pbn train`, `python -m tengen.train.pbn card`.
Bench: `python bench/pbn_topk.py` (anchors: uniform, move frequencies, KataGo's policy in the region).

| kind | size | buckets | train samples | CPU s | test | top-1 | top-5 | top-10 | top-20 | top-20 at 3 / 5 / 10 stones |
|---|---|---|---|---|---|---|---|---|---|---|
"""


def _fmt(curve: list[float], k: int) -> str:
    """Top-k of a stored curve as a percentage."""
    return f"{100 * curve[k - 1]:.1f} %" if curve and curve[k - 1] == curve[k - 1] else "-"


def write_model_card(models_dir: Path) -> Path:
    """Rewrite MODEL_CARD.md from every `pbn-*.npz` in `models_dir`."""
    rows = []
    models = [load_model(p) for p in sorted(Path(models_dir).glob("pbn-*.npz"))]
    models.sort(key=lambda m: (m.kind, m.meta.get("size", 0)))
    for m in models:
        meta = m.meta
        curve = meta.get("topk_all", [])
        at = " / ".join(_fmt(meta.get(f"topk_{c}", []), 20) for c in (3, 5, 10))
        rows.append(f"| {m.kind} | {meta.get('size')} | {len(m.buckets)} | "
                    f"{sum(b.samples for b in m.buckets.values()):,} | {meta.get('train_cpu_s', '-')} | "
                    f"{meta.get('test_samples', '-'):,} | {_fmt(curve, 1)} | {_fmt(curve, 5)} | {_fmt(curve, 10)} | "
                    f"{_fmt(curve, 20)} | {at} |")
    path = Path(models_dir) / "MODEL_CARD.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (HEADER + "\n".join(rows) + "\n").encode())
    return path
