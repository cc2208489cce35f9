"""The training loop of the value network's variants: every variant sees the same batches (same positions, same
symmetries), so Wu et al.'s comparison (VN, ML-VN, BV-VN, BV-ML-VN) is repeated on equal terms. Positions live
on the training device in compact form; AdamW with warm-up and cosine decay over steps or minutes; bf16 autocast
on CUDA; validation by game; each variant's best weights (lowest validation value + ownership loss) written to
`out_dir/<variant>.pt`; checkpoints and resume."""
from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np
import torch

from tengen.eval.valuenet.curve import curve_at
from tengen.eval.valuenet.model import ValueNet, ValueNetConfig
from tengen.eval.valuenet.planes import value_planes
from tengen.eval.valuenet.weights import load_weights, save_weights
from tengen.files import write_atomic
from tengen.eval.devices import pick_device
from tengen.train.localnet.augment import map_points, symmetry_maps
from tengen.train.valuedata.dataset import ValueData
from tengen.train.valuenet.loss import ownership_loss, value_loss


@dataclass
class ValueTrainConfig:
    variants: tuple[str, ...] = ("vn", "mlvn", "bvvn", "bvmlvn")
    steps: int = 20000
    batch: int = 512
    lr: float = 2e-3
    weight_decay: float = 1e-4
    warmup: int = 200
    eval_every: int = 500
    minutes: Optional[float] = None
    seed: int = 1
    device: str = "auto"
    blocks: int = 6
    channels: int = 64
    augment: bool = True
    val_positions: int = 20000
    init: Optional[str] = None  # weights file to start every variant of its configuration from (fine-tuning)
    extra: dict = field(default_factory=dict)


class DeviceData:
    """The dataset's tensors on the training device and batch assembly (with symmetries)."""

    def __init__(self, data: ValueData, device: torch.device):
        t = lambda a, dtype=None: torch.from_numpy(np.ascontiguousarray(a)).to(device, dtype)  # noqa: E731
        p, g = data.positions, data.games
        self.codes = t(p["codes"])
        self.to_play = t(p["to_play"], torch.long)
        self.ko = t(p["ko"], torch.long)
        self.game = t(p["game"], torch.long)
        self.n = t(g["game_n"], torch.float32)
        self.komi = t(g["game_komi"], torch.float32)
        self.labelled = data.labelled
        self.kata_own = t(p["kata_own"]) if data.labelled else None
        self.final_own = t(g["final_own"]) if data.labelled else None
        self.maps = symmetry_maps(device)  # (8, 361): old point -> new point
        self.inverse = torch.argsort(self.maps, dim=1)  # new point -> old point
        self.device = device

    def batch(self, rows: torch.Tensor, sym: Optional[torch.Tensor] = None) -> dict[str, torch.Tensor]:
        codes, ko = self.codes[rows], self.ko[rows]
        games = self.game[rows]
        out = {"n": self.n[games], "komi": self.komi[games], "to_play": self.to_play[rows]}
        own = None
        if self.labelled:
            own = (self.final_own[games].float() / 100, self.kata_own[rows].float() / 100)
        if sym is not None:
            inv = self.inverse[sym]
            codes = torch.gather(codes, 1, inv)
            ko = map_points(ko.view(-1, 1), self.maps[sym]).view(-1)
            if own is not None:
                own = tuple(torch.gather(o, 1, inv) for o in own)
        out["planes"] = value_planes(codes, out["to_play"], ko)
        if own is not None:
            out["final"], out["kata"] = own
        return out


def _game_komi_win(logits: torch.Tensor, komi: torch.Tensor) -> np.ndarray:
    probs = torch.sigmoid(logits).float().cpu().numpy()
    if probs.shape[1] == 1:
        return probs[:, 0]
    return curve_at(probs, komi.cpu().numpy())


def evaluate(models: dict[str, ValueNet], data: DeviceData, rows: torch.Tensor, batch: int = 2048) -> dict[str, dict]:
    """Per variant: validation value loss, MSE at the game's komi (Wu et al.'s: half the mean of (z - v)^2 with
    v = 2p - 1), and for BV variants the ownership loss and sign agreement with KataGo's ownership."""
    sums: dict[str, dict[str, float]] = {v: {"loss": 0.0, "mse": 0.0, "own_loss": 0.0, "own_agree": 0.0} for v in models}
    count = 0
    for m in models.values():
        m.eval()
    with torch.inference_mode():
        for start in range(0, len(rows), batch):
            b = data.batch(rows[start:start + batch])
            z = torch.where(b["n"] > b["komi"], 1.0, -1.0).cpu().numpy()
            on_board = b["planes"][:, 0].reshape(len(z), -1)
            for name, model in models.items():
                value, own = model(b["planes"])
                s = sums[name]
                s["loss"] += float(value_loss(value, b["n"], b["komi"])) * len(z)
                v = 2 * _game_komi_win(value, b["komi"]) - 1
                s["mse"] += float(0.5 * ((z - v) ** 2).sum())
                if own is not None and "kata" in b:
                    s["own_loss"] += float(ownership_loss(own, b["final"], b["kata"], on_board)) * len(z)
                    agree = (torch.sign(own[:, 1]) == torch.sign(b["kata"])) | (b["kata"].abs() < 0.01)
                    s["own_agree"] += float((agree.float() * on_board).sum() / on_board.sum()) * len(z)
            count += len(z)
    for m in models.values():
        m.train()
    out = {}
    for name, s in sums.items():
        out[name] = {k: v / max(1, count) for k, v in s.items()}
        if not models[name].config.ownership or not data.labelled:
            out[name].pop("own_loss")
            out[name].pop("own_agree")
    return out


def train(cfg: ValueTrainConfig, dataset: ValueData, out_dir: Path, checkpoint_dir: Path, resume: bool = True,
          meta: Optional[dict] = None, log=print) -> dict[str, dict]:
    """Train every variant; returns each one's best validation metrics (also in `checkpoint_dir/best.json`)."""
    device = pick_device(cfg.device)
    torch.manual_seed(cfg.seed)
    gen = torch.Generator(device=device)
    gen.manual_seed(cfg.seed)
    split = dataset.split()
    train_rows = np.nonzero(split == 0)[0]
    val_rows = np.nonzero(split == 1)[0]
    if len(val_rows) == 0:
        val_rows = np.nonzero(split == 2)[0]
    if len(train_rows) == 0 or len(val_rows) == 0:
        raise ValueError("the dataset needs training and validation games (too few games?)")
    rng = np.random.default_rng(cfg.seed)
    if len(val_rows) > cfg.val_positions:
        val_rows = np.sort(rng.choice(val_rows, cfg.val_positions, replace=False))
    data = DeviceData(dataset, device)
    train_index = torch.from_numpy(train_rows).to(device)
    val_index = torch.from_numpy(val_rows).to(device)
    models = {v: ValueNet(ValueNetConfig.of_variant(v, cfg.blocks, cfg.channels)) for v in cfg.variants}
    if cfg.init:
        start_model, _ = load_weights(cfg.init)
        for v, m in models.items():
            if m.config == start_model.config:
                m.load_state_dict(start_model.state_dict())
                log(f"{v}: starts from {cfg.init}")
    for v in models:
        models[v] = models[v].to(device)
        if device.type == "cuda":
            models[v] = models[v].to(memory_format=torch.channels_last)
    opts = {v: torch.optim.AdamW(m.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay) for v, m in models.items()}
    checkpoint_dir.mkdir(parents=True, exist_ok=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    ckpt_path = checkpoint_dir / "last.pt"
    step, history = 0, []
    best: dict[str, dict] = {}
    if resume and ckpt_path.exists():
        ck = torch.load(ckpt_path, map_location=device, weights_only=False)
        for v in models:
            models[v].load_state_dict(ck["models"][v])
            opts[v].load_state_dict(ck["opts"][v])
        step, history, best = ck["step"], ck["history"], ck["best"]
        gen.set_state(ck["gen"].cpu())
        log(f"resumed at step {step}")
    started = time.monotonic()
    amp = device.type == "cuda"
    while step < cfg.steps:
        done = step / cfg.steps
        if cfg.minutes is not None:
            done = max(done, (time.monotonic() - started) / (60 * cfg.minutes))
        lr = cfg.lr * min(1.0, (step + 1) / cfg.warmup) * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(1.0, done))))
        pick = torch.randint(0, len(train_index), (cfg.batch,), device=device, generator=gen)
        sym = torch.randint(0, 8, (cfg.batch,), device=device, generator=gen) if cfg.augment else None
        b = data.batch(train_index[pick], sym)
        on_board = b["planes"][:, 0].reshape(cfg.batch, -1)
        losses = {}
        for name, model in models.items():
            for g in opts[name].param_groups:
                g["lr"] = lr
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                value, own = model(b["planes"])
            loss = value_loss(value, b["n"], b["komi"])
            if own is not None and "final" in b:
                loss = loss + ownership_loss(own, b["final"], b["kata"], on_board)
            opts[name].zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opts[name].step()
            losses[name] = loss.item() if step % cfg.eval_every == cfg.eval_every - 1 else 0.0
        step += 1
        budget_spent = cfg.minutes is not None and time.monotonic() - started > 60 * cfg.minutes
        if step % cfg.eval_every == 0 or step == cfg.steps or budget_spent:
            metrics = evaluate(models, data, val_index)
            elapsed = round(time.monotonic() - started, 1)
            history.append({"step": step, "seconds": elapsed, "lr": lr, **metrics})
            marks = []
            for name, m in metrics.items():
                total = m["loss"] + m.get("own_loss", 0.0)  # the best weights by value and ownership together
                if total < best.get(name, {}).get("loss", math.inf) + best.get(name, {}).get("own_loss", 0.0):
                    best[name] = dict(m, step=step)
                    save_weights(out_dir / f"{name}.pt", models[name],
                                 dict(meta or {}, train=asdict(cfg), step=step, validation=m))
                    marks.append(name)
            log(f"step {step} ({elapsed} s): " + "  ".join(
                f"{n} loss {m['loss']:.4f} mse {m['mse']:.4f}" + (f" own {m['own_agree']:.3f}" if "own_agree" in m else "")
                for n, m in metrics.items()) + (f"  * {','.join(marks)}" if marks else ""))
            torch.save({"models": {v: m.state_dict() for v, m in models.items()},
                        "opts": {v: o.state_dict() for v, o in opts.items()}, "step": step, "history": history,
                        "best": best, "gen": gen.get_state()}, checkpoint_dir / "last.tmp")
            (checkpoint_dir / "last.tmp").replace(ckpt_path)
            write_atomic(checkpoint_dir / "best.json", json.dumps(best, indent=1).encode())
            if budget_spent:
                log(f"time budget of {cfg.minutes} min spent at step {step}")
                break
    return best
