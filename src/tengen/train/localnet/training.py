"""The training loop: compact examples on the training device, rebalanced sampling by region size, the
augmentations, AdamW with warm-up and cosine decay, bf16 autocast on CUDA, a held-out split by game,
validation and checkpoints every `eval_every` steps, early stopping on validation loss, resume from the last
checkpoint, deterministic seeds. The best weights (lowest validation loss) are written to `out`."""
from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

import numpy as np
import torch

from tengen.eval.localnet.infer import forward
from tengen.eval.localnet.model import LocalMoveNet, NetConfig
from tengen.eval.localnet.weights import save_weights
from tengen.files import write_atomic
from tengen.eval.devices import pick_device
from tengen.train.localdata.dataset import Examples, split_rows
from tengen.train.localnet.augment import apply_symmetries, jitter_mask, remove_far_stones, symmetry_maps
from tengen.train.localnet.loss import local_move_loss
from tengen.train.localnet.metrics import auc, move_metrics

TENSOR_FIELDS = ("codes", "region", "recent", "recent_color", "to_play", "ko", "depth", "target", "answer")


@dataclass
class TrainConfig:
    steps: int = 20000
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    warmup: int = 200
    eval_every: int = 500
    patience: int = 6  # evaluations without a better validation loss before stopping
    minutes: Optional[float] = None  # wall-clock budget; stops after the step that passes it
    seed: int = 1
    device: str = "auto"
    blocks: int = 6
    channels: int = 64
    augment: bool = True
    balance_power: float = 0.5  # sampling weight of a region-size bucket ~ count ** -power
    val_examples: int = 20000
    solved_share: float = 0.0  # share of each batch drawn from the solver-taught examples (when given)
    init: Optional[str] = None  # start from these weights (a fresh optimizer; the trunk's shape is theirs)


def to_device(ex: Examples, device: torch.device) -> dict[str, torch.Tensor]:
    """The fields training needs as tensors on `device` (integer types kept small)."""
    out = {}
    for k in TENSOR_FIELDS:
        v = torch.from_numpy(np.ascontiguousarray(ex.arrays[k]))
        if k in ("recent", "recent_color", "to_play", "ko", "depth", "target", "answer"):
            v = v.long()
        out[k] = v.to(device)
    return out


def mixed_weights(game_weights: np.ndarray, solved_rows: int, share: float) -> np.ndarray:
    """Sampling probabilities over the game rows then the solved rows: the solved ones take `share` of the
    mass, uniformly (none when there are no solved rows)."""
    if solved_rows == 0 or share <= 0:
        return np.concatenate([game_weights, np.zeros(solved_rows)])
    return np.concatenate([game_weights * (1 - share), np.full(solved_rows, share / solved_rows)])


def sampling_weights(region_size: np.ndarray, power: float) -> np.ndarray:
    """Per-example sampling probability: each region-size bucket's share reduced to count ** (1 - power)."""
    buckets = np.digitize(np.minimum(region_size, 60), [2, 3, 4, 6, 11, 21, 51])
    counts = np.bincount(buckets, minlength=8).astype(float)
    w = counts[buckets] ** -power
    return w / w.sum()


def _batch(data: dict[str, torch.Tensor], rows: torch.Tensor) -> tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]:
    t = {k: data[k][rows] for k in TENSOR_FIELDS if k not in ("target", "answer")}
    return t, data["target"][rows], data["answer"][rows]


def evaluate(model: LocalMoveNet, data: dict[str, torch.Tensor], rows: torch.Tensor, batch: int = 1024) -> dict:
    """Validation loss and metrics over `rows` (no augmentation)."""
    model.eval()
    losses, probs, answers, targets, labels = [], [], [], [], []
    with torch.inference_mode():
        for start in range(0, len(rows), batch):
            t, target, answer = _batch(data, rows[start:start + batch])
            logits, ans = forward(model, t)
            loss, _ = local_move_loss(logits, ans, target, answer)
            losses.append(float(loss) * len(target))
            probs.append(torch.softmax(logits, 1).float().cpu().numpy())
            answers.append(torch.sigmoid(ans).float().cpu().numpy())
            targets.append(target.cpu().numpy())
            labels.append(answer.cpu().numpy())
    model.train()
    target = np.concatenate(targets)
    label = np.concatenate(labels)
    out = move_metrics(np.concatenate(probs), target)
    lab = label >= 0
    out["answer_auc"] = auc(np.concatenate(answers)[lab], label[lab] == 1)
    out["loss"] = sum(losses) / max(1, len(target))
    return out


def _column(solved: Examples, key: str, like: np.ndarray) -> np.ndarray:
    """The solved examples' column `key` in the games' dtype; zeros for a column lessons do not have (the
    games' `cutout` width: a lesson is a diagram of its own, not cut from a game)."""
    if key in solved.arrays:
        return solved.arrays[key].astype(like.dtype)
    return np.zeros((len(solved),) + like.shape[1:], like.dtype)


def _solved_rows(solved: Optional[Examples], offset: int, seed: int, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Training rows and (at most `limit`) validation rows of the solved examples, offset past the games."""
    if solved is None or len(solved) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    splits = split_rows(solved)
    val = splits["val"]
    if len(val) > limit:
        val = np.sort(np.random.default_rng(seed).choice(val, limit, replace=False))
    return splits["train"] + offset, val + offset


def _initial_model(cfg: TrainConfig, device: torch.device) -> LocalMoveNet:
    if cfg.init:
        from tengen.eval.localnet.weights import load_weights

        model, _ = load_weights(cfg.init, device="cpu")
        return model.to(device)
    return LocalMoveNet(NetConfig(blocks=cfg.blocks, channels=cfg.channels)).to(device)


def train(cfg: TrainConfig, examples: Examples, out: Path, checkpoint_dir: Path, resume: bool = True,
          meta: Optional[dict] = None, log=print, solved: Optional[Examples] = None) -> dict:
    """Train; returns the best validation metrics (also written beside the checkpoint as `best.json`).
    `solved`: the solver-taught examples, drawn as `cfg.solved_share` of each batch; the validation loss
    that picks the best weights stays the games' (their own top-1 is reported beside it)."""
    device = pick_device(cfg.device)
    torch.manual_seed(cfg.seed)
    gen = torch.Generator(device=device)
    gen.manual_seed(cfg.seed)
    splits = split_rows(examples)
    train_rows = splits["train"]
    if len(train_rows) == 0:
        raise ValueError("the dataset has no training examples (too few games?)")
    val_rows = splits["val"] if len(splits["val"]) else splits["test"]
    rng = np.random.default_rng(cfg.seed)
    if len(val_rows) > cfg.val_examples:
        val_rows = np.sort(rng.choice(val_rows, cfg.val_examples, replace=False))
    solved_train, solved_val = _solved_rows(solved, len(examples), cfg.seed, cfg.val_examples)
    if len(solved_train):
        examples = Examples({k: np.concatenate([examples.arrays[k], _column(solved, k, examples.arrays[k])])
                             for k in examples.arrays})
    data = to_device(examples, device)
    weights = mixed_weights(sampling_weights(examples.arrays["region_size"][train_rows], cfg.balance_power),
                            len(solved_train), cfg.solved_share)
    probs = torch.from_numpy(weights).float().to(device)
    train_index = torch.from_numpy(np.concatenate([train_rows, solved_train])).long().to(device)
    val_index = torch.from_numpy(val_rows).long().to(device)
    solved_val_index = torch.from_numpy(solved_val).long().to(device)
    model = _initial_model(cfg, device)
    if device.type == "cuda":
        model = model.to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    maps = symmetry_maps(device)
    checkpoint_dir.mkdir(parents=True, exist_ok=True)
    ckpt_path = checkpoint_dir / "last.pt"
    step, best, stale, history = 0, math.inf, 0, []
    if resume and ckpt_path.exists():
        ck = torch.load(ckpt_path, map_location=device, weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        step, best, stale, history = ck["step"], ck["best"], ck["stale"], ck["history"]
        gen.set_state(ck["gen"].cpu())  # a ByteTensor on the CPU whatever the device
        log(f"resumed at step {step} (best validation loss {best:.4f})")
    started = time.monotonic()
    model.train()
    best_metrics = min(history, key=lambda m: m["loss"]) if history else {}
    amp = device.type == "cuda"
    while step < cfg.steps:
        done = step / cfg.steps  # the schedule runs over the steps or the time budget, whichever ends first
        if cfg.minutes is not None:
            done = max(done, (time.monotonic() - started) / (60 * cfg.minutes))
        lr = cfg.lr * min(1.0, (step + 1) / cfg.warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, done))))
        for g in opt.param_groups:
            g["lr"] = lr
        pick = torch.multinomial(probs, cfg.batch, replacement=True, generator=gen)
        t, target, answer = _batch(data, train_index[pick])
        if cfg.augment:
            sym = torch.randint(0, 8, (len(target),), device=device, generator=gen)
            t, target = apply_symmetries(t, target, sym, maps)
            t = remove_far_stones(t, target, gen)
            t = jitter_mask(t, gen)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
            logits, ans = forward(model, t)
        loss, parts = local_move_loss(logits, ans, target, answer)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        step += 1
        budget_spent = cfg.minutes is not None and time.monotonic() - started > 60 * cfg.minutes
        if step % cfg.eval_every == 0 or step == cfg.steps or budget_spent:
            metrics = evaluate(model, data, val_index)
            if len(solved_val_index):
                taught = evaluate(model, data, solved_val_index)
                metrics.update(solved_top1=taught["top1"], solved_auc=taught["answer_auc"])
            metrics.update(step=step, train_loss=loss.item(), lr=lr, seconds=round(time.monotonic() - started, 1))
            history.append(metrics)
            improved = metrics["loss"] < best
            if improved:
                best, stale, best_metrics = metrics["loss"], 0, metrics
                save_weights(out, model, dict(meta or {}, train=asdict(cfg), step=step, validation=metrics))
            else:
                stale += 1
            log(f"step {step}: train {loss.item():.3f} val {metrics['loss']:.3f} top1 {metrics['top1']:.3f} "
                f"top5 {metrics['top5']:.3f} auc {metrics['answer_auc']:.3f}"
                + (f" solved top1 {metrics['solved_top1']:.3f} auc {metrics['solved_auc']:.3f}" if "solved_top1" in metrics else "")
                + (" *" if improved else ""))
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "best": best,
                        "stale": stale, "history": history, "gen": gen.get_state()}, checkpoint_dir / "last.tmp")
            (checkpoint_dir / "last.tmp").replace(ckpt_path)
            write_atomic(checkpoint_dir / "best.json", json.dumps(best_metrics, indent=1).encode())
            if stale >= cfg.patience:
                log(f"early stop: {stale} evaluations without a better validation loss")
                break
            if budget_spent:
                log(f"time budget of {cfg.minutes} min spent at step {step}")
                break
    return best_metrics
