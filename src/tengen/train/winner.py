"""Winner prediction from influence maps: the seed's MLP (363-200-1, sigmoid) and a logistic baseline.

Inputs are an influence map (361 values, + = Black) and the two prisoner counts; the "all" models add the
move number. One network per phase (moves 30, 80, 130, 180) as in the seed, and one for all phases with the
move number as an input. Training uses the 8 board symmetries as augmentation and stops early on the
validation log loss. Weights are stored as small ``.npz`` files (float16) with an ``index.json`` that names,
per phase, the model that did best on validation; ``predict_winner`` uses it.

Commands (``python -m tengen.train.winner --help``): ``train`` fits and saves every model; ``evaluate``
prints held-out metrics; ``gnugo`` measures the GNU Go ``estimate_score`` reference on test positions;
``card`` rewrites ``MODEL_CARD.md`` from what was measured (``train`` and ``gnugo`` also do).
"""

from __future__ import annotations

import argparse
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

from tengen.eval.influence import MODELS as INFLUENCE_MODELS
from tengen.eval.influence import as_stones, influence_map
from tengen.train.records import PHASES, PositionSet, dataset_dir, load_split

log = logging.getLogger("tengen.train.winner")

SOURCES: tuple[str, ...] = INFLUENCE_MODELS + ("stones",)  # "stones" = the raw board, a baseline input
BOARD = 19
N_POINTS = BOARD * BOARD
MODELS_DIR = Path(__file__).resolve().parents[3] / "models" / "winner"
SEED_ACCURACY = {30: 52.1, 80: 61.8, 130: 76.7, 180: 89.3}
MOVE_SCALE = 100.0  # the "all" models read move_number / 100
CAPTURE_SCALE = 10.0


# ------------------------------------------------------------------------------------------ features


def board_features(boards: np.ndarray, source: str, batch: int = 20000) -> np.ndarray:
    """(N, 19, 19) stones -> (N, 361) int16 maps of ``source`` (an influence model, or 'stones')."""
    boards = np.asarray(boards, dtype=np.int8).reshape(-1, BOARD, BOARD)
    out = np.empty((len(boards), N_POINTS), dtype=np.int16)
    for i in range(0, len(boards), batch):
        part = boards[i:i + batch]
        maps = part.astype(np.int32) if source == "stones" else influence_map(part, source)
        out[i:i + batch] = maps.reshape(len(part), N_POINTS)
    return out


def cached_board_features(split: str, ps: PositionSet, source: str, cache_dir: Path | str | None = None
                          ) -> np.ndarray:
    """``board_features`` of a whole split, cached next to the dataset as ``features/<split>-<source>.npy``."""
    path = dataset_dir(cache_dir) / "features" / f"{split}-{source}.npy"
    if path.exists():
        arr = np.load(path, mmap_mode="r")
        if arr.shape == (len(ps), N_POINTS):
            return np.asarray(arr)
    arr = board_features(ps.boards, source)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, arr)
    tmp.replace(path)
    return arr


def assemble_inputs(maps: np.ndarray, captures: np.ndarray, move_number: np.ndarray | None = None
                    ) -> np.ndarray:
    """Stack maps (N, 361), prisoners (N, 2) [/10] and optionally move number (N,) [/100] -> float32."""
    cols = [maps.astype(np.float32), np.asarray(captures, dtype=np.float32).reshape(-1, 2) / CAPTURE_SCALE]
    if move_number is not None:
        cols.append(np.asarray(move_number, dtype=np.float32).reshape(-1, 1) / MOVE_SCALE)
    return np.concatenate(cols, axis=1)


def dihedral_permutations(n: int = BOARD) -> np.ndarray:
    """(8, n*n) index arrays: ``flat[perm[k]]`` is the board under the k-th rotation / reflection."""
    idx = np.arange(n * n).reshape(n, n)
    perms = []
    for k in range(4):
        r = np.rot90(idx, k)
        perms.append(r.ravel())
        perms.append(r.T.ravel())
    return np.stack(perms)


# ------------------------------------------------------------------------------------------ models


class WinnerNet(nn.Module):
    """Standardise the inputs, then an MLP (hidden sigmoid units) or, with ``hidden=0``, logistic regression.

    ``forward`` returns the logit of P(Black wins); ``predict_proba`` the probability.
    """

    def __init__(self, n_inputs: int, hidden: int = 200):
        super().__init__()
        self.n_inputs, self.hidden = n_inputs, hidden
        self.register_buffer("mean", torch.zeros(n_inputs))
        self.register_buffer("std", torch.ones(n_inputs))
        if hidden:
            self.body: nn.Module = nn.Sequential(nn.Linear(n_inputs, hidden), nn.Sigmoid(), nn.Linear(hidden, 1))
        else:
            self.body = nn.Linear(n_inputs, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body((x - self.mean) / self.std).squeeze(-1)

    @torch.no_grad()
    def predict_proba(self, x: np.ndarray | torch.Tensor) -> np.ndarray:
        """P(Black wins) for a float array of inputs (N, n_inputs)."""
        self.eval()
        t = torch.as_tensor(np.asarray(x, dtype=np.float32))
        return torch.sigmoid(self(t)).numpy()

    def fit_standardisation(self, x: np.ndarray) -> None:
        """Mean and std per input from training data; board points averaged over the 8 symmetries."""
        mean, std = x.mean(axis=0).astype(np.float64), x.std(axis=0).astype(np.float64)
        perms = dihedral_permutations()
        mean[:N_POINTS] = np.mean([mean[:N_POINTS][p] for p in perms], axis=0)
        std[:N_POINTS] = np.mean([std[:N_POINTS][p] for p in perms], axis=0)
        std = np.where(std < 1e-3, 1.0, std)
        self.mean.copy_(torch.as_tensor(mean, dtype=torch.float32))
        self.std.copy_(torch.as_tensor(std, dtype=torch.float32))


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


def metrics(p_black: np.ndarray, winner: np.ndarray) -> dict[str, float]:
    """Accuracy (%) and mean log loss (nats) of P(Black wins) against winners (+1 Black, -1 White)."""
    p = np.clip(np.asarray(p_black, dtype=np.float64), 1e-7, 1 - 1e-7)
    y = (np.asarray(winner) > 0).astype(np.float64)
    if len(y) == 0:
        return {"accuracy": float("nan"), "log_loss": float("nan"), "n": 0}
    acc = float(((p > 0.5) == (y > 0.5)).mean() * 100)
    ll = float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
    return {"accuracy": acc, "log_loss": ll, "n": int(len(y))}


def train_model(x_train: np.ndarray, y_train: np.ndarray, x_val: np.ndarray, y_val: np.ndarray,
                cfg: TrainConfig) -> tuple[WinnerNet, list[dict[str, float]]]:
    """Fit one WinnerNet (labels +-1) with early stopping on validation log loss; returns net and history."""
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    gen = torch.Generator().manual_seed(cfg.seed)
    net = WinnerNet(x_train.shape[1], cfg.hidden)
    net.fit_standardisation(x_train)
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


# ------------------------------------------------------------------------------------------ storage


def model_name(kind: str, source: str, phase: int | str) -> str:
    """'mlp-bouzy-180', 'logreg-stones-all', ..."""
    return f"{kind}-{source}-{phase}"


def save_model(net: WinnerNet, path: Path, meta: dict[str, Any]) -> None:
    """Weights as float16 (small enough to commit) plus standardisation and metadata, in one .npz."""
    arrays = {k: v.detach().numpy().astype(np.float16 if k.startswith("body") else np.float32)
              for k, v in net.state_dict().items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, meta=np.array(json.dumps(meta)), **arrays)


def load_model(path: Path | str) -> tuple[WinnerNet, dict[str, Any]]:
    """Read a model written by ``save_model``."""
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        net = WinnerNet(int(meta["n_inputs"]), int(meta["hidden"]))
        state = {k: torch.as_tensor(z[k].astype(np.float32)) for k in z.files if k != "meta"}
    net.load_state_dict(state)
    net.eval()
    return net, meta


def load_index(models_dir: Path | str = MODELS_DIR) -> dict[str, Any]:
    """``index.json``: every stored model with its metrics, and the best model per phase (by validation)."""
    path = Path(models_dir) / "index.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m tengen.train.winner train`")
    return json.loads(path.read_text())


def naive_count(maps: np.ndarray, komi: np.ndarray) -> np.ndarray:
    """Counting baseline: (points with positive influence - points with negative) - komi; > 0 means Black."""
    return np.sign(maps.reshape(len(maps), -1)).sum(axis=1) - np.nan_to_num(np.asarray(komi, np.float64), nan=0.0)


# ------------------------------------------------------------------------------------------ prediction


def nearest_phase(move_number: int) -> int:
    """The trained phase (30, 80, 130, 180) closest to ``move_number``."""
    return min(PHASES, key=lambda p: (abs(p - move_number), p))


_LOADED: dict[tuple[str, str], tuple[WinnerNet, dict[str, Any]]] = {}


def _cached_model(models_dir: Path, name: str) -> tuple[WinnerNet, dict[str, Any]]:
    key = (str(models_dir), name)
    if key not in _LOADED:
        _LOADED[key] = load_model(models_dir / f"{name}.npz")
    return _LOADED[key]


def model_inputs(meta: dict[str, Any], boards: np.ndarray, captures: np.ndarray, move_number: np.ndarray
                 ) -> np.ndarray:
    """The input matrix a stored model expects, from stones (N, 19, 19), prisoners (N, 2), move numbers (N,)."""
    maps = board_features(boards, meta["source"])
    return assemble_inputs(maps, captures, move_number if meta["phase"] == "all" else None)


def predict_winner(board: Any, move_number: int, captures: tuple[int, int] | None = None,
                   model: str | None = None, models_dir: Path | str = MODELS_DIR) -> tuple[float, str, int]:
    """P(Black wins) for a 19x19 position -> (p_black, model name, phase used).

    ``board`` is a tengen Board (its prisoners are used) or an int8 array with ``captures`` =
    (stones captured by Black, by White). The phase is the trained one nearest to ``move_number``; the model
    is the best on validation for that phase from ``index.json`` unless ``model`` names one.
    """
    stones = as_stones(board)
    if stones.shape != (BOARD, BOARD):
        raise ValueError(f"the winner models read 19x19 boards, not {stones.shape}")
    if captures is None:
        from tengen.go import BLACK, WHITE

        caps = getattr(board, "captures", None)
        captures = (caps[BLACK], caps[WHITE]) if isinstance(caps, dict) else (0, 0)
    models_dir = Path(models_dir)
    phase = nearest_phase(move_number)
    name = model or load_index(models_dir)["best"][str(phase)]
    if not (models_dir / f"{name}.npz").is_file():
        known = sorted(p.stem for p in models_dir.glob("*.npz"))
        raise ValueError(f"no winner model named {name!r} (known: {', '.join(known)})")
    net, meta = _cached_model(models_dir, name)
    # The "all" models saw moves 30..180 only: clamp instead of extrapolating.
    move = np.array([min(max(move_number, PHASES[0]), PHASES[-1]) if meta["phase"] == "all" else phase])
    x = model_inputs(meta, stones[None], np.array([captures]), move)
    return float(net.predict_proba(x)[0]), name, phase


# ------------------------------------------------------------------------------------------ training CLI


def _split_inputs(split: str, ps: PositionSet, source: str, cache_dir: Path | None) -> np.ndarray:
    maps = cached_board_features(split, ps, source, cache_dir)
    return assemble_inputs(maps, ps.captures, ps.phase)  # last column = move number (dropped per phase)


def train_all(cache_dir: Path | None = None, models_dir: Path = MODELS_DIR,
              sources: tuple[str, ...] = SOURCES, kinds: tuple[str, ...] = ("logreg", "mlp"),
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
        xs = {s: _split_inputs(s, ps, source, cache_dir) for s, ps in (("train", train), ("val", val),
                                                                       ("test", test))}
        for kind in kinds:
            if kind == "mlp" and source == "stones":
                continue  # the raw-board baseline is logistic only
            for phase in phases:
                name = model_name(kind, source, phase)
                sel = {}
                for s, ps in (("train", train), ("val", val), ("test", test)):
                    mask = np.ones(len(ps), bool) if phase == "all" else ps.phase == int(phase)
                    x = xs[s][mask] if phase == "all" else xs[s][mask][:, :-1]
                    sel[s] = (x, ps.winner[mask], ps.phase[mask])
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
                        "seconds": round(time.time() - t0, 1)}
                save_model(net, Path(models_dir) / f"{name}.npz", meta)
                net, meta = load_model(Path(models_dir) / f"{name}.npz")  # measure what is stored
                entry = dict(meta)
                for s in ("val", "test"):
                    x, y, ph = sel[s]
                    p = net.predict_proba(x)
                    entry[s] = {str(q): metrics(p[ph == q], y[ph == q]) for q in PHASES if (ph == q).any()}
                index["models"][name] = entry
                log.info("%s: val %s", name, json.dumps(entry["val"]))
                _write_index(index, models_dir)
    return index


def _write_index(index: dict[str, Any], models_dir: Path) -> None:
    """Pick the best model per phase by validation log loss and write index.json."""
    best = {}
    for phase in PHASES:
        cands = [(m["val"][str(phase)]["log_loss"], n) for n, m in index["models"].items()
                 if str(phase) in m.get("val", {})]
        if cands:
            best[str(phase)] = min(cands)[1]
    index["best"] = best
    path = Path(models_dir) / "index.json"
    path.write_text(json.dumps(index, indent=1, sort_keys=True))


def write_model_card(models_dir: Path | str = MODELS_DIR, cache_dir: Path | str | None = None) -> Path:
    """Write MODEL_CARD.md from index.json, the dataset summary and gnugo_reference.json (all measured)."""
    models_dir = Path(models_dir)
    index = load_index(models_dir)
    summary_path = dataset_dir(cache_dir) / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else None
    gnugo_path = models_dir / "gnugo_reference.json"
    gnugo = json.loads(gnugo_path.read_text()) if gnugo_path.exists() else None
    lines = [
        "# Winner prediction from influence maps (`models/winner/`)",
        "",
        "Predicts P(Black wins) of a 19x19 position at moves 30, 80, 130 and 180 from an influence map",
        "(`tengen.eval.influence`: zobrist, bouzy 5/21, cross) plus the two prisoner counts: the seed's MLP",
        "363-200-1 with sigmoid units (`mlp-<map>-<phase>`), one network over all phases with the move number",
        "as a 364th input (`mlp-<map>-all`), and logistic-regression baselines (`logreg-*`, also on the raw",
        "stones). Inputs are standardised with training statistics stored in each file. Weights are float16",
        "in `.npz` files (`tengen.train.winner.load_model`); `index.json` holds every model's metadata,",
        "validation and test metrics, and the model validation picked per phase (used by `predict_winner`).",
        "",
        "## Data",
        "",
        "The five game-record archives in `../shared/data/games` (see its MANIFEST.md), streamed by",
        "`tengen.train.records`: 19x19 games with a recorded winner (B+/W+ by score, resignation, time or",
        "winner only; skipped: no result, draws/Jigo, Void, B+0.0, forfeits, odd strings, illegal moves),",
        "duplicates by move sequence removed across all collections, split by a hash of the moves",
        f"({records_split_note()}). Positions are the board after exactly N moves, so a game contributes",
        "a position at move 180 only if it lasted at least 180 moves.",
        "",
    ]
    if summary:
        lines += ["| split | games | pos. 30 | pos. 80 | pos. 130 | pos. 180 | Black wins |", "|---|---|---|---|---|---|---|"]
        for name, sp in summary["splits"].items():
            pos = sp["positions"]
            lines.append(f"| {name} | {sp['games']} | " + " | ".join(str(pos[str(q)]) for q in PHASES)
                         + f" | {100 * sp['black_wins']:.1f} % |")
        skips = {k: v for k, v in summary["counts"].items() if k.startswith(("skip_", "duplicate", "komi", "fixed"))}
        lines += ["", "Counted quirks and skips: " + ", ".join(f"{k} {v}" for k, v in sorted(skips.items())) + ".", ""]
    lines += [
        "The data licences are mixed (MANIFEST.md): only the Fox set carries a licence (GPL-3.0); the others are",
        "research-only until the project decides. These weights are derived from all five.",
        "",
        "## Commands",
        "",
        "```",
        "python -m tengen.train.records build            # ~6 min on 2 cores; cache in ~/.cache/tengen/datasets",
        "python -m tengen.train.winner train --max-epochs 30 --patience 4 --threads 1   # ~35 min, 35 models",
        "python -m tengen.train.winner gnugo --per-phase 500   # ~70 min: GNU Go on 2,000 test positions",
        "python -m tengen.train.winner card              # this file",
        "python bench/winner_by_phase.py                 # the held-out table (~20-45 s with cached features)",
        "```",
        "",
        "Training: Adam, binary cross-entropy, batch 256 (1024 for `-all`), lr 1e-3 (MLP) / 3e-3 (logistic), both x2 for `-all`,",
        "random board symmetry per example, early stopping on validation log loss (patience "
        f"{next(iter(index['models'].values()))['config']['patience'] if index['models'] else '?'}), best epoch kept.",
        "",
        "## Held-out test metrics (accuracy %, log loss in nats)",
        "",
        "| model | " + " | ".join(f"move {q}" for q in PHASES) + " |",
        "|---|" + "---|" * len(PHASES),
        "| seed (original) | " + " | ".join(f"{SEED_ACCURACY[q]:.1f}" for q in PHASES) + " |",
    ]
    prior = index.get("prior", {})
    def order(n: str) -> tuple:
        kind, source, phase = n.split("-")
        return (kind != "logreg", source, int(phase) if phase.isdigit() else 999)

    counts_row = _naive_count_row(cache_dir)
    if counts_row:
        lines += counts_row
    for name in sorted(index["models"], key=order):
        test = index["models"][name].get("test", {})
        lines.append(f"| {name} | " + " | ".join(
            f"{test[str(q)]['accuracy']:.1f} / {test[str(q)]['log_loss']:.3f}" if str(q) in test else ""
            for q in PHASES) + " |")
    best = index.get("best", {})
    lines.append("| **best on validation** | " + " | ".join(
        f"**{index['models'][best[str(q)]]['test'][str(q)]['accuracy']:.1f}** ({best[str(q)]})" if str(q) in best
        else "" for q in PHASES) + " |")
    if gnugo:
        lines.append(f"| GNU Go estimate_score (n per phase) | " + " | ".join(
            f"{gnugo['accuracy'][str(q)]['accuracy']:.1f} (n={gnugo['accuracy'][str(q)]['n']})"
            if str(q) in gnugo["accuracy"] else "" for q in PHASES) + " |")
    if prior:
        lines += ["", "Training-set Black win rate per phase: " + ", ".join(
            f"{q}: {100 * prior[str(q)]:.1f} %" for q in PHASES) + "."]
    lines += ["", "GNU Go: `" + (" ".join(["gnugo"] + gnugo["argv"]) if gnugo else "gnugo --mode gtp --chinese-rules")
              + "`, position set up stone by stone over GTP with the game's komi, sign of `estimate_score`;",
              "same test positions (a fixed random sample per phase).", ""]
    lines += _why_below_seed(index, gnugo)
    path = models_dir / "MODEL_CARD.md"
    path.write_text("\n".join(lines))
    return path


def _naive_count_row(cache_dir: Path | str | None) -> list[str]:
    """Card rows for the counting baseline on the test split (only when the dataset cache is present)."""
    try:
        test = load_split("test", cache_dir)
    except FileNotFoundError:
        return []
    komi = test.games["game_komi"][test.game]
    rows = []
    for source in INFLUENCE_MODELS:
        count = naive_count(cached_board_features("test", test, source, cache_dir), komi)
        cells = []
        for q in PHASES:
            sel = test.phase == q
            cells.append(f"{((count[sel] > 0) == (test.winner[sel] > 0)).mean() * 100:.1f}")
        rows.append(f"| count {source} - komi (no training) | " + " | ".join(cells) + " |")
    return rows


def _why_below_seed(index: dict[str, Any], gnugo: dict[str, Any] | None) -> list[str]:
    """The note the issue asks for when the best model does not reach the seed's figures."""
    best = index.get("best", {})
    got = {q: index["models"][best[str(q)]]["test"][str(q)]["accuracy"] for q in PHASES if str(q) in best}
    short = [q for q in PHASES if q in got and got[q] < SEED_ACCURACY[q]]
    if not short:
        return ["## Against the seed", "", "The best model reaches the seed's figure at every phase.", ""]
    g = gnugo["accuracy"] if gnugo else {}
    gtxt = ", ".join(f"{g[str(q)]['accuracy']:.1f} % at {q}" for q in PHASES if str(q) in g)
    return [
        "## Why the best model stays below the seed's figures",
        "",
        "Below the seed at moves " + ", ".join(map(str, short)) + " (best: " +
        ", ".join(f"{got[q]:.1f} %" for q in PHASES if q in got) + "). The numbers above say why:",
        "",
        "- These are strong players' games (professionals, Tom.com 9d, KGS 6d+, top bots), and a position at",
        "  move N exists only if the game lasted N moves: games still going at move 180 are the close ones",
        "  (lopsided games end by resignation earlier). The Black win rate is 48-49 % at every phase.",
        "- The board carries little that an influence map can see. GNU Go 3.8, which reads life and death,",
        f"  gets only {gtxt} on a fixed sample of the same test positions (its estimate_score sign),",
        "  below the seed's 61.8 / 76.7 / 89.3 % from move 80 on.",
        "- Influence models treat every stone as alive, so a dead group still on the board counts for its",
        "  owner. Simple counting (sign of the summed influence minus komi, rows `count ...` above) is at",
        "  chance for zobrist and bouzy at every phase, and the trained models get only a few points more.",
        "  Our reading, not measured: the loser of a strong game typically still has a dead or unsettled",
        "  group on the board when the game is decided, which influence scores the wrong way round.",
        "- The seed's data are not documented; they were presumably easier (weaker players, games decided by",
        "  large captures, which the prisoner inputs see).",
        "",
    ]


def records_split_note() -> str:
    from tengen.train.records import TEST_PERCENT, VAL_PERCENT

    return f"{TEST_PERCENT} % test, {VAL_PERCENT} % validation, the rest training"


def main(argv: list[str] | None = None) -> int:
    """``python -m tengen.train.winner train|evaluate|gnugo|card``."""
    ap = argparse.ArgumentParser(prog="python -m tengen.train.winner", description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("train", "evaluate", "gnugo", "card"))
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (see tengen.train.records)")
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--sources", nargs="*", default=list(SOURCES))
    ap.add_argument("--kinds", nargs="*", default=["logreg", "mlp"])
    ap.add_argument("--phases", nargs="*", default=[str(p) for p in PHASES] + ["all"])
    ap.add_argument("--max-epochs", type=int, default=TrainConfig.max_epochs)
    ap.add_argument("--patience", type=int, default=TrainConfig.patience)
    ap.add_argument("--max-train", type=int, default=None, help="subsample training positions (smoke runs)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--per-phase", type=int, default=500, help="gnugo: test positions per phase")
    ap.add_argument("--log", type=Path, default=None)
    args = ap.parse_args(argv)
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if args.log:
        handlers.append(logging.FileHandler(args.log))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", handlers=handlers)
    if args.command == "train":
        cfg = TrainConfig(max_epochs=args.max_epochs, patience=args.patience, threads=args.threads)
        train_all(args.cache_dir, args.models_dir, tuple(args.sources), tuple(args.kinds), tuple(args.phases),
                  cfg, args.max_train)
    elif args.command == "evaluate":
        index = load_index(args.models_dir)
        for name, m in sorted(index["models"].items()):
            row = "  ".join(f"{p}: {m['test'][p]['accuracy']:.1f}% {m['test'][p]['log_loss']:.3f}"
                            for p in map(str, PHASES) if p in m.get("test", {}))
            print(f"{name:24s} {row}")
        print("best (by validation):", index.get("best"))
    elif args.command == "gnugo":
        from tengen.train.reference import gnugo_reference

        gnugo_reference(args.cache_dir, args.models_dir, per_phase=args.per_phase)
    if args.command in ("train", "gnugo", "card") and (Path(args.models_dir) / "index.json").exists():
        print(f"wrote {write_model_card(args.models_dir, args.cache_dir)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
