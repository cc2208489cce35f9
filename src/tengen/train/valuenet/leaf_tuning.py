"""Fine-tune the value network's KataGo-ownership channel on the leaves of real analyses.

Data: the shards of `python -m tengen.train.valuedata.leaf_dataset` (compact boards, KataGo's ownership, the region
mask, the game). Loss: binary cross-entropy of channel 1 against KataGo's ownership, region points weighted
1 and the rest `rest_weight` (the leaf bench counts region points; the rest keeps the whole board sane), one
random board symmetry per example, AdamW with cosine decay. Games with index % 10 == 0 are held out; the
metric is the leaf bench's: agreement of rounded ownership over region points.
"""
from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from tengen.eval.valuenet.model import ValueNet
from tengen.eval.valuenet.planes import value_planes
from tengen.train.localnet.augment import map_points, symmetry_maps

KEYS = ("codes", "to_play", "ko", "kata", "region", "game")


def load_leaves(folder: Path | str, device: torch.device) -> dict[str, torch.Tensor]:
    """Every shard of a leaf dataset as tensors on `device` (FileNotFoundError when there is none)."""
    shards = sorted(Path(folder).glob("leaves-*.npz"))
    if not shards:
        raise FileNotFoundError(f"{folder}: no leaves-*.npz shards (python -m tengen.train.valuedata.leaf_dataset)")
    parts = [np.load(path) for path in shards]
    out = {}
    for key in KEYS:
        a = np.concatenate([p[key] for p in parts])
        dtype = torch.float32 if key in ("kata", "region") else torch.long
        out[key] = torch.from_numpy(a.astype(np.float32) if dtype == torch.float32 else a.astype(np.int64)).to(device)
    return out


def region_agreement(model: ValueNet, data: dict[str, torch.Tensor], rows: torch.Tensor, batch: int = 512) -> float:
    """Share of region points where the rounded ownership (channel 1) equals KataGo's rounded ownership."""
    model.eval()
    same = total = 0.0
    with torch.no_grad():
        for start in range(0, len(rows), batch):
            r = rows[start:start + batch]
            own = torch.tanh(model(value_planes(data["codes"][r], data["to_play"][r], data["ko"][r]))[1][:, 1] / 2)
            mask = data["region"][r] > 0
            equal = torch.round(own.clamp(-1, 1)) == torch.round(data["kata"][r].clamp(-1, 1))
            same += float((equal & mask).sum())
            total += float(mask.sum())
    return same / max(1.0, total)


def tune(model: ValueNet, data: dict[str, torch.Tensor], steps: int, lr: float = 3e-4, batch: int = 256,
         rest_weight: float = 0.2, eval_every: int = 200, seed: int = 0, log=print) -> dict:
    """Fine-tune `model` in place; returns the held-out agreement before and after and the steps run."""
    device = data["codes"].device
    held = data["game"] % 10 == 0
    val_rows, train_rows = torch.nonzero(held).squeeze(1), torch.nonzero(~held).squeeze(1)
    if len(train_rows) == 0:
        raise ValueError("no training leaves (every game is held out)")
    gen = torch.Generator(device=device).manual_seed(seed)
    maps = symmetry_maps(device)
    before = region_agreement(model, data, val_rows) if len(val_rows) else float("nan")
    log(f"leaves: train {len(train_rows)}, held out {len(val_rows)}; held-out agreement before {before:.4f}")
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    start = time.perf_counter()
    for step in range(1, steps + 1):
        model.train()
        rows = train_rows[torch.randint(0, len(train_rows), (batch,), device=device, generator=gen)]
        row_map = maps[torch.randint(0, 8, (batch,), device=device, generator=gen)]
        inverse = torch.argsort(row_map, dim=1)
        codes = data["codes"][rows].gather(1, inverse)
        kata = data["kata"][rows].gather(1, inverse)
        region = data["region"][rows].gather(1, inverse)
        ko = map_points(data["ko"][rows].view(-1, 1), row_map).view(-1)
        own = model(value_planes(codes, data["to_play"][rows], ko))[1][:, 1]
        weight = rest_weight + region
        loss = (F.binary_cross_entropy_with_logits(own, (kata + 1) / 2, reduction="none") * weight).sum() / weight.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for group in opt.param_groups:
            group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * step / steps))
        if step % eval_every == 0 or step == steps:
            agree = region_agreement(model, data, val_rows) if len(val_rows) else float("nan")
            log(f"step {step} ({time.perf_counter() - start:.1f} s): loss {loss.item():.4f} held-out agreement {agree:.4f}")
    model.eval()
    after = region_agreement(model, data, val_rows) if len(val_rows) else float("nan")
    return {"before": before, "after": after, "steps": steps, "train_leaves": int(len(train_rows)),
            "held_out_leaves": int(len(val_rows)), "lr": lr, "batch": batch, "rest_weight": rest_weight}
