"""`python -m tengen.train.valuenet card`: models/valuenet/MODEL_CARD.md from the weights' metadata (dataset
counts, training settings, validation metrics, command, hardware), the training logs beside the weights and,
when given, the outputs of `bench/value_net.py` and `bench/leaf_scoring.py`. Every number comes from those
files (the same card format as the local-move network's)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from tengen.eval.valuenet.model import VARIANTS, flops_per_position
from tengen.eval.valuenet.weights import load_weights, variant_weights


def _f(x, digits: int = 4) -> str:
    return f"{x:.{digits}f}" if isinstance(x, (int, float)) else "-"


def _bench(title: str, path: Optional[Path]) -> list[str]:
    if path is None or not path.is_file():
        return []
    return ["", f"## {title}", "", "```", path.read_text().strip(), "```"]


def render(weights: Path, logs: Optional[Path] = None, value_bench: Optional[Path] = None,
           leaf_bench: Optional[Path] = None) -> str:
    model, meta = load_weights(weights)
    cfg = model.config
    ds, val, train = meta.get("dataset", {}), meta.get("validation", {}), meta.get("train", {})
    params = sum(p.numel() for p in model.parameters())
    parts = [
        "# Value network (`models/valuenet/bvmlvn.pt`, BV-ML-VN)",
        "",
        "Black's win rate for every komi from -12.5 to 27.5 (41 outputs, one pass) and per-point ownership, from the",
        "board alone (13 input planes: stones, liberties 1/2/3+, ko, side to move; colours absolute, no komi input).",
        "Two ownership maps: the final position's owner (Wu et al.'s \"BV\" auxiliary target) and KataGo's ownership of",
        "this position (distilled; what tengen's leaf scoring reads). `tengen.eval.valuenet.ValueNetEvaluator` serves",
        "it behind the Evaluator interface (win rate at the board's komi, score estimate from the curve); `tengen",
        "analyze --leaves valuenet` scores local-tree leaves with it; `tengen eval --value-net` shows its komi curve.",
        "",
        f"Network: residual trunk of {cfg.blocks} blocks x {cfg.channels} channels (one global-pooling bias, the",
        f"local-move network's blocks), a pooled value head and a 1x1 ownership head; {params:,} parameters,",
        f"{flops_per_position(cfg) / 1e9:.2f} GFLOP per position (KataGo's default b10c384: about 9.6),",
        f"{weights.stat().st_size / 1e6:.1f} MB (fp32). 19x19 only (trained on 19x19 records).",
        "",
        "## Data",
        "",
        "`python -m tengen.train.valuedata pack` parses the games played to a counted result",
        "(`../shared/data/games/finished_19x19_scored_games.txt`) into a compact games pack; `python -m",
        "tengen.train.valuedata build` samples 16 positions per game across the whole game (a fixed draw per game),",
        "labels each with the final difference n = Black's margin + komi (targets: Black wins at komi k iff k < n),",
        "KataGo's ownership, lead and win rate at the game's komi (the default b10c384 network, one symmetry, bf16),",
        "and each game with KataGo's ownership of its final position (dead stones removed). Split by game (hash of",
        "the moves): 15 % test, 10 % validation, the rest training. Augmentation: the 8 symmetries.",
        "",
        f"This model's data: {ds.get('games')} games, {ds.get('positions')} positions; games by split "
        f"{ds.get('games_by_split')}; positions by split {ds.get('positions_by_split')}; most common komi values "
        f"(games) {ds.get('komi_games')}.",
        "",
        "## Training",
        "",
        "`python -m tengen.train.valuenet train` (`tengen.train.valuenet`): binary cross-entropy of Black winning at each",
        "of the 41 komi values (the game's komi for a single-output variant) plus, for the BV variants, cross-entropy",
        "of each point's owner (final position) and of KataGo's ownership (soft targets); every variant trained on the",
        "same batches; AdamW, warm-up and cosine decay over the time budget; bf16 on CUDA; the best validation value +",
        f"ownership loss kept. Settings: batch {train.get('batch')}, learning rate {train.get('lr')}, evaluation every "
        f"{train.get('eval_every')} steps; best step {meta.get('step')}.",
        "",
        f"Hardware: {meta.get('hardware')}; torch {meta.get('torch')}. Command: `{meta.get('command')}`.",
        "",
        "Reproduce (one GPU call on an H200 with 16 cores, about 8 minutes; `.carry/` holds the KataGo model and the",
        "games pack, `.whl/` sgfmill): `bash scripts/device_valuenet.sh OUT 230 3.6` builds the dataset from the",
        "pack's games in order until 230 s are spent (28,489 games) and trains the four variants together for 3.6",
        "minutes; this BV-ML-VN and models/valuenet/comparison/ are that run's. A second call fine-tuned this model",
        "on the next 16,500 games of the pack (`TRAIN_ARGS=\"--variants bvmlvn --init .carry/bvmlvn-run1.pt --lr",
        "1e-3\" bash scripts/device_valuenet.sh OUT 100 2.5 --start 28500`, log `train-run2.log`); it was not shipped:",
        "on 300 test games its MSE was higher overall and far higher on komi-0.5 (handicap) games, which that part of",
        "the pack hardly holds (`bench/value_net.py --no-kata --model run2=...`, output in",
        "`logs/choose-run1-vs-run2.txt`, where `bvmlvn` is this model and `run2` the fine-tuned one).",
    ]
    if logs is not None and logs.is_dir():
        parts += ["", "Training runs (logs in `models/valuenet/logs/`):", ""]
        for log in sorted(logs.glob("train*.log")):
            lines = [ln for ln in log.read_text().splitlines() if ln.startswith(("step", "resumed", "time", "bvmlvn:"))]
            if lines:
                parts.append(f"- `{log.name}`: {lines[0]} ... {lines[-1]}")
    parts += [
        "",
        "## Validation metrics (the weights' own validation split, best checkpoint)",
        "",
        "MSE as in Wu et al.: half the mean of (z - v)^2, z = +-1 the result at the game's komi, v = 2p - 1. Ownership",
        "agreement: sign agreement with KataGo's ownership over all points.",
        "",
        "| model | value loss | MSE | ownership loss | ownership agreement |",
        "|---|---|---|---|---|",
        f"| shipped BV-ML-VN | {_f(val.get('loss'))} | {_f(val.get('mse'))} | {_f(val.get('own_loss'))} "
        f"| {_f(val.get('own_agree'), 3)} |",
    ]
    for variant in VARIANTS:
        path = variant_weights(variant)
        if path.is_file():
            _, m = load_weights(path)
            v = m.get("validation", {})
            parts.append(f"| comparison {variant} | {_f(v.get('loss'))} | {_f(v.get('mse'))} | {_f(v.get('own_loss'))} "
                         f"| {_f(v.get('own_agree'), 3)} |")
    parts += _bench("Held-out test games (`python bench/value_net.py`)", value_bench)
    parts += _bench("Leaf scoring against KataGo (`python bench/leaf_scoring.py`)", leaf_bench)
    parts += [
        "",
        "## Limits",
        "",
        "- Short training (minutes on one GPU, part of the finished games): its MSE and ownership are well below KataGo's;",
        "  analyses keep KataGo for the regions and for every leaf the network is unsure of.",
        "- The records mix rule sets: n is the recorded margin plus komi, so territory-scored games enter as if area",
        "  scored (a point or so of noise); handicap games keep their stones on the board and no komi input.",
        "- The data licences are mixed (see `../shared/data/games/MANIFEST.md`): research use.",
        "",
    ]
    return "\n".join(parts)
