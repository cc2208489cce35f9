"""Training the winner models: one fit with Adam, binary cross-entropy, a random board symmetry per example
and early stopping on the validation log loss; and every (kind, source, phase) model trained, stored and
measured on validation and test."""
from __future__ import annotations

import json
import logging
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from tengen.train.records.store import PHASES, PositionSet, load_split
from tengen.train.winner.features import (N_POINTS, PLAIN_SOURCES, assemble_inputs, cached_board_features,
                                          dihedral_permutations, is_clean)
from tengen.train.winner.metrics import metrics
from tengen.train.winner.model import MODELS_DIR, WinnerNet, load_model, model_name, save_model, write_index

log = logging.getLogger("tengen.train.winner")


@dataclass
class TrainConfig:
    """Optimiser and early-stopping settings (Adam, binary cross-entropy)."""

    hidden: int = 200
    lr: float = 1e-3
    weight_decay: float = 0.0
    batch: int = 256
    max_epochs: int = 30
    patience: int = 4
    augment: bool = True
    seed: int = 0
    threads: int = 2


def _augment(xb: torch.Tensor, perms: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Apply a random board symmetry to the first 361 inputs of each row."""
    sym = torch.randint(0, len(perms), (xb.shape[0],), generator=gen)
    board = torch.gather(xb[:, :N_POINTS], 1, perms[sym])
    return torch.cat([board, xb[:, N_POINTS:]], dim=1)


def train_model(x_train: np.ndarray, y_train: np.ndarray, x_val: np.ndarray, y_val: np.ndarray,
                cfg: TrainConfig) -> tuple[WinnerNet, list[dict[str, float]]]:
    """Fit one WinnerNet (labels +-1) with early stopping on validation log loss; returns net and history."""
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    gen = torch.Generator().manual_seed(cfg.seed)
    net = WinnerNet(x_train.shape[1], cfg.hidden)
    net.fit_standardization(x_train)
    xt = torch.as_tensor(x_train, dtype=torch.float32)
    yt = torch.as_tensor((y_train > 0).astype(np.float32))
    perms = torch.as_tensor(dihedral_permutations(), dtype=torch.long)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    loss_fn = nn.BCEWithLogitsLoss()
    best_loss, best_state, bad, history = math.inf, None, 0, []
    for epoch in range(cfg.max_epochs):
        net.train()
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(order), cfg.batch):
            idx = order[i:i + cfg.batch]
            xb = xt[idx]
            if cfg.augment:
                xb = _augment(xb, perms, gen)
            loss = loss_fn(net(xb), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        val = metrics(net.predict_proba(x_val), y_val)
        history.append({"epoch": epoch + 1, "train_loss": total / len(xt), **val})
        log.info("epoch %d train %.4f val %.4f acc %.2f", epoch + 1, total / len(xt), val["log_loss"],
                 val["accuracy"])
        if val["log_loss"] < best_loss - 1e-5:
            best_loss, bad = val["log_loss"], 0
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
        else:
            bad += 1
            if bad >= cfg.patience:
                break
    if best_state is not None:
        net.load_state_dict(best_state)
    return net, history


def _split_inputs(split: str, ps: PositionSet, source: str, cache_dir: Path | None,
                  models_dir: Path = MODELS_DIR) -> tuple[np.ndarray, np.ndarray]:
    """(rows, inputs): the positions of ``ps`` a source has inputs for, and the inputs (move number last, dropped
    per phase). Plain sources: every position. Clean sources: the positions the value network has evaluated
    (``python -m tengen.train.winner valuenet``), with komi and handicap inputs."""
    if is_clean(source):
        from tengen.train.winner.deadstones import clean_split_inputs, load_dead_stones
        from tengen.train.winner.netcache import ValueNetCache

        return clean_split_inputs(split, ps, source, load_dead_stones(models_dir), ValueNetCache(split, cache_dir),
                                  cache_dir)
    maps = cached_board_features(split, ps, source, cache_dir)
    return np.arange(len(ps)), assemble_inputs(maps, ps.captures, ps.phase)


def model_inputs_meta(source: str, models_dir: Path = MODELS_DIR) -> dict[str, Any]:
    """What a model's metadata says about its inputs (the clean sources: komi, handicap, dead-stone setting)."""
    if not is_clean(source):
        return {"inputs": ["map", "captures"]}
    from tengen.train.winner.deadstones import load_dead_stones

    d = load_dead_stones(models_dir)
    return {"inputs": ["map", "captures", "komi", "handicap"],
            "dead_stones": {"channel": d["channel"], "threshold": d["threshold"], "sha256": d["sha256"],
                            "weights": d["weights"]}}


def train_all(cache_dir: Path | None = None, models_dir: Path = MODELS_DIR,
              sources: tuple[str, ...] = PLAIN_SOURCES, kinds: tuple[str, ...] = ("logreg", "mlp"),
              phases: tuple[str, ...] = tuple(str(p) for p in PHASES) + ("all",),
              cfg: TrainConfig | None = None, max_train: int | None = None) -> dict[str, Any]:
    """Train every (kind, source, phase) model, save the weights, write index.json with val/test metrics."""
    cfg = cfg or TrainConfig()
    train, val, test = (load_split(s, cache_dir) for s in ("train", "val", "test"))
    index_path = Path(models_dir) / "index.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {"models": {}}
    index["prior"] = {str(q): float((train.winner[train.phase == q] > 0).mean()) for q in PHASES}
    index["data"] = {s: {"games": int(len(ps.games["game_key"])),
                         "positions": {str(q): int((ps.phase == q).sum()) for q in PHASES}}
                     for s, ps in (("train", train), ("val", val), ("test", test))}
    for source in sources:
        xs = {s: _split_inputs(s, ps, source, cache_dir, models_dir) for s, ps in (("train", train), ("val", val),
                                                                                   ("test", test))}
        for kind in kinds:
            if kind == "mlp" and source == "stones":
                continue  # the raw-board baseline is logistic only
            for phase in phases:
                name = model_name(kind, source, phase)
                sel = {}
                for s, ps in (("train", train), ("val", val), ("test", test)):
                    rows, xall = xs[s]
                    mask = np.ones(len(rows), bool) if phase == "all" else ps.phase[rows] == int(phase)
                    x = xall[mask] if phase == "all" else xall[mask][:, :-1]
                    sel[s] = (x, ps.winner[rows][mask], ps.phase[rows][mask])
                xtr, ytr, _ = sel["train"]
                if max_train and len(xtr) > max_train:
                    keep = np.random.default_rng(0).choice(len(xtr), max_train, replace=False)
                    xtr, ytr = xtr[keep], ytr[keep]
                run_cfg = TrainConfig(**{**asdict(cfg), "hidden": cfg.hidden if kind == "mlp" else 0})
                if kind == "logreg":
                    run_cfg.lr, run_cfg.weight_decay = 3e-3, 1e-5
                if phase == "all":  # four times the data: bigger batches keep an epoch affordable
                    run_cfg.batch, run_cfg.lr = run_cfg.batch * 4, run_cfg.lr * 2
                t0 = time.time()
                net, history = train_model(xtr, ytr, sel["val"][0], sel["val"][1], run_cfg)
                best_epoch = min(history, key=lambda h: h["log_loss"])["epoch"]
                meta = {"name": name, "kind": kind, "source": source, "phase": phase,
                        "n_inputs": int(xtr.shape[1]), "hidden": run_cfg.hidden, "config": asdict(run_cfg),
                        "epochs": len(history), "best_epoch": best_epoch, "train_positions": int(len(xtr)),
                        "seconds": round(time.time() - t0, 1), **model_inputs_meta(source, models_dir)}
                save_model(net, Path(models_dir) / f"{name}.npz", meta)
                net, meta = load_model(Path(models_dir) / f"{name}.npz")  # measure what is stored
                entry = dict(meta)
                for s in ("val", "test"):
                    x, y, ph = sel[s]
                    p = net.predict_proba(x)
                    entry[s] = {str(q): metrics(p[ph == q], y[ph == q]) for q in PHASES if (ph == q).any()}
                entry["val_positions"] = {str(q): int((sel["val"][2] == q).sum()) for q in PHASES}
                index["models"][name] = entry
                log.info("%s: val %s", name, json.dumps(entry["val"]))
                write_index(index, models_dir)
    return index
