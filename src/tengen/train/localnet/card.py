"""`python -m tengen.train.localnet card`: models/localnet/MODEL_CARD.md from the weights' metadata (dataset
counts, training settings, validation metrics, command, machine), the training logs beside the weights and,
when given, the held-out accuracy bench's output. Every number comes from those files."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from tengen.eval.localnet.model import flops_per_position
from tengen.eval.localnet.weights import load_weights


def _table(hist: dict) -> str:
    return "\n".join(["| bucket | count |", "|---|---|"] + [f"| {k} | {v} |" for k, v in hist.items()])


def mix_line(ds: dict, solved: Optional[dict], share: Optional[float]) -> str:
    """What the training drew from: whole-board examples, cut-out diagrams by wall width, and the exact
    solver's lessons with their share of each batch."""
    cutouts = {int(w): n for w, n in (ds.get("cutout_examples") or {}).items()}
    whole = (ds.get("examples") or 0) - sum(cutouts.values())
    parts = [f"whole-board positions {whole:,} examples"]
    if cutouts:
        parts.append("cut-out diagrams (the region and the stones within w points on an empty board) "
                     + ", ".join(f"w={w}: {n:,}" for w, n in sorted(cutouts.items())))
    if solved and share:
        shapes = solved.get("shapes", {})
        parts.append(f"the exact solver's lessons {solved.get('examples', 0):,} examples from "
                     f"{shapes.get('taught', 0):,} taught shapes of {sum(shapes.values()):,} drawn, "
                     f"{share:.0%} of each batch")
    else:
        parts.append("no solver lessons")
    return "Training mix: " + "; ".join(parts) + "."


def render(weights: Path, logs: Optional[Path] = None, accuracy: Optional[Path] = None) -> str:
    model, meta = load_weights(weights)
    cfg = model.config
    ds = meta.get("dataset", {})
    val = meta.get("validation", {})
    train = meta.get("train", {})
    params = sum(p.numel() for p in model.parameters())
    size_mb = weights.stat().st_size / 1e6
    parts = [
        "# Local-move network (`models/localnet/localnet.pt`)",
        "",
        "Predicts the next local move of a region, of either colour, or that the region is finished, and whether",
        "that move answers the last local move (a sente move's reply). Inputs: the board seen from the side to move,",
        "chains in atari / with two liberties, the region mask, the ko point, the last four local moves, the local",
        "depth (`tengen.eval.localnet.planes`). Outputs: 723 logits (361 White moves, 361 Black moves, no move) and an",
        "answer logit. The `net` predictor (`tengen.endgame.predictors`) grows the local trees of the endgame",
        "analysis with it.",
        "",
        f"Network: residual trunk of {cfg.blocks} blocks x {cfg.channels} channels (one global-pooling bias), policy",
        f"head over the trunk and the mask, pooled no-move and answer heads; {params:,} parameters, "
        f"{flops_per_position(cfg) / 1e9:.2f} GFLOP per position, {size_mb:.1f} MB (fp32). Boards up to 19x19 (a",
        "smaller board sits in the corner of the 19x19 canvas; the trunk masks the rest).",
        "",
        "## Data",
        "",
        "`python -m tengen.train.localdata build` (`tengen.train.localdata`): games played to a counted result",
        "(`../shared/data/games/finished_19x19_scored_games.txt`) of the Tom.com 9d and Fox pro archives (the two",
        "that travel with the KataGo model in one GPU call: 13,791 games); positions at 70, 80",
        "and 90 % of each game, labelled with the default KataGo network's ownership (b10c384, one symmetry);",
        "undecided points (|ownership| < 0.9) form the regions; points that looked settled but ended with the other",
        "owner (the final position evaluated the same way) are blacklisted; every other point joins the nearest",
        "region (BFS); each later move of the game goes to its point's region. One example per local move and one",
        "\"no move\" after each sequence; answer label: the move came straight after the previous local move.",
        "Split by game (hash of the moves): 15 % test, 10 % validation, the rest training.",
        "",
        f"Games read {ds.get('games_read')}, used {ds.get('games_used')} (skipped: {ds.get('skipped')}); "
        f"positions {ds.get('positions')}; regions {ds.get('regions')}; examples {ds.get('examples')} "
        f"(no-move {ds.get('no_move_examples')}); answer-labelled {ds.get('answer_labelled')}, of which answers "
        f"{ds.get('answer_fraction', float('nan')):.3f}. Games per split: {ds.get('games_by_split')}.",
        "",
        "Region sizes (points):",
        "",
        _table(ds.get("region_size_histogram", {})),
        "",
        "Local sequence lengths (moves):",
        "",
        _table(ds.get("sequence_length_histogram", {})),
        "",
        mix_line(ds, meta.get("solved"), train.get("solved_share")),
        "",
        "## Training",
        "",
        "`python -m tengen.train.localnet train` (`tengen.train.localnet`): cross-entropy over the 723 outputs plus,",
        "on no-move targets, 6 x the move probabilities' sum; binary cross-entropy for the answer head. Sampling",
        f"rebalanced by region size (bucket weight count^-{train.get('balance_power')}); augmentation: the 8",
        "symmetries, removal of stones far from the region, mask dilation/erosion by one step. AdamW, warm-up then",
        "cosine decay over the steps or the time budget; bf16 autocast on CUDA; validation every "
        f"{train.get('eval_every')} steps on {val.get('examples')} validation examples; the best validation loss kept.",
        "",
        f"Machine: {meta.get('machine')}. Final leg's command: `{meta.get('command')}`; "
        f"best step {meta.get('step')}.",
    ]
    parts += [
        "",
        "Reproduce (one GPU call of ~7 minutes on an H200 with 16 cores; `.carry/` holds the KataGo model and the two",
        "archives with their lines of the finished-games list, `.whl/` sgfmill): `bash scripts/device_localnet.sh OUT 210 4.0`",
        "builds the dataset (2 min) and trains from scratch (4 min); the weights here then resumed from that run's",
        "checkpoint on the same machine: `python -m tengen.train.localnet train --device auto --batch 1024 --lr 1.5e-3",
        "--warmup 50 --steps 50000 --minutes 5.3 --eval-every 400 --patience 8` (stopped early: the restarted",
        "learning rate only raised the validation loss) and then the final leg's command above. On 2 CPU cores the",
        "same commands run with `--device cpu` (about 4 s per step of 256 examples). The examples can be rebuilt",
        "without KataGo from the labels the GPU run saved: `python -m tengen.train.localdata build --labels FILE`.",
    ]
    if logs is not None and logs.is_dir():
        parts += ["", "Training legs (logs in `models/localnet/logs/`):", ""]
        for log in sorted(logs.glob("train*.log")):
            lines = [ln for ln in log.read_text().splitlines() if ln.startswith(("step", "resumed", "early", "time"))]
            if lines:
                parts.append(f"- `{log.name}`: {lines[0]} ... {lines[-1]}")
    parts += [
        "",
        "## Validation metrics (best checkpoint)",
        "",
        "| loss | top-1 | top-5 | move top-1 | colour | no-move precision | no-move recall | answer AUC |",
        "|---|---|---|---|---|---|---|---|",
        f"| {val.get('loss', float('nan')):.3f} | {val.get('top1', float('nan')):.3f} | {val.get('top5', float('nan')):.3f} "
        f"| {val.get('move_top1', float('nan')):.3f} | {val.get('color_accuracy', float('nan')):.3f} "
        f"| {val.get('no_move_precision', float('nan')):.3f} | {val.get('no_move_recall', float('nan')):.3f} "
        f"| {val.get('answer_auc', float('nan')):.3f} |",
        "",
        "No-move is predicted when P(no move) > 0.30 (the published leaf threshold; the trees use 0.20 since the growth sweep on the shared problems, bench/growth_sweep.py).",
    ]
    if accuracy is not None and accuracy.is_file():
        parts += ["", "## Held-out test games (`python bench/localnet_accuracy.py`)", "", "```",
                  accuracy.read_text().strip(), "```"]
    parts += [
        "",
        "## Limits",
        "",
        "- Trained on 19x19 professional-level records only; 9x9 and other sizes run (the canvas is masked) but are",
        "  outside the training distribution.",
        "- Labels are one KataGo network's ownership with one symmetry; regions are KataGo's undecided points, so",
        "  the model learns the local sequences that strong players actually played, not proven-best local play.",
        "- The data licences are mixed (see `../shared/data/games/MANIFEST.md`): research use.",
        "",
    ]
    return "\n".join(parts)
