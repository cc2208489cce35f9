"""The networks as winner predictors on the test split, next to GNU Go: tengen's value network (its win rate at
the game's komi) on every test position and on the GNU Go reference positions, and KataGo's win rate on the GNU
Go positions. ``fill_network_caches`` evaluates what the winner pipeline needs (`netcache`) and writes
``models/winner/net_reference.json`` (read by the model card)."""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tengen.train.records.store import PHASES, PositionSet, load_split
from tengen.train.winner.metrics import metrics
from tengen.train.winner.model import MODELS_DIR
from tengen.train.winner.netcache import (
    ValueNetCache,
    game_komi,
    gnugo_indices,
    katago_winrates,
    subsample,
)

log = logging.getLogger("tengen.train.winner")
PerPhase = int | dict[int, int] | None  # positions per phase: one count for all, one per phase, or None (all)


def load_gnugo(models_dir: Path | str = MODELS_DIR) -> dict[str, Any] | None:
    path = Path(models_dir) / "gnugo_reference.json"
    return json.loads(path.read_text()) if path.exists() else None


def by_phase(p_black: np.ndarray, ps: PositionSet, idx: np.ndarray) -> dict[str, dict[str, float]]:
    """metrics per phase of P(Black wins) ``p_black`` for positions ``idx`` of ``ps``."""
    ph, y = ps.phase[idx], ps.winner[idx]
    return {str(q): metrics(p_black[ph == q], y[ph == q]) for q in PHASES if (ph == q).any()}


def valuenet_rows(test: PositionSet, cache: ValueNetCache, gnugo_idx: np.ndarray | None
                  ) -> dict[str, dict[str, dict[str, float]]]:
    """The value network's win rate at the game's komi: on every cached test position and on GNU Go's."""
    rows = {"all": by_phase(cache.win_at_komi(cache.index, game_komi(test, cache.index)), test, cache.index)}
    if gnugo_idx is not None and len(gnugo_idx):
        rows["gnugo"] = by_phase(cache.win_at_komi(gnugo_idx, game_komi(test, gnugo_idx)), test, gnugo_idx)
    return rows


def fill_network_caches(cache_dir: Path | str | None = None, models_dir: Path | str = MODELS_DIR,
                        train_per_phase: PerPhase = 15000, val_per_phase: PerPhase = 6000,
                        test_per_phase: PerPhase = None, katago: bool = True, threads: int = 1) -> Path:
    """Evaluate test (all, or a subsample that always includes the GNU Go positions), validation and a training
    subsample with the value network, KataGo on the GNU Go positions; write ``net_reference.json``."""
    gnugo = load_gnugo(models_dir)
    test = load_split("test", cache_dir)
    g_idx = gnugo_indices(test, gnugo) if gnugo else np.zeros(0, np.int64)
    plan = [("test", test, np.union1d(subsample(test, test_per_phase), g_idx)),
            ("val", None, val_per_phase), ("train", None, train_per_phase)]
    caches, counts = {}, {}
    for split, ps, want in plan:
        if isinstance(want, int) and want <= 0:
            continue
        ps = ps if ps is not None else load_split(split, cache_dir)
        idx = want if isinstance(want, np.ndarray) else subsample(ps, want)
        cache = ValueNetCache(split, cache_dir)
        cache.fill(ps, idx, threads=threads)
        caches[split] = cache
        counts[split] = {str(q): int((ps.phase[cache.index] == q).sum()) for q in PHASES}
        log.info("valuenet %s: %d positions cached", split, len(cache.index))
    vn = valuenet_rows(test, caches["test"], g_idx)
    result: dict[str, Any] = {"valuenet": {**caches["test"].info(), **vn},
                              "cached_positions": counts,
                              "made_by": "python -m tengen.train.winner valuenet", "python": sys.version.split()[0]}
    if katago and len(g_idx):
        win, info = katago_winrates(test, g_idx, cache_dir, threads=threads)
        result["katago"] = {**info, "gnugo": by_phase(win, test, g_idx)}
    path = Path(models_dir) / "net_reference.json"
    path.write_text(json.dumps(result, indent=1))
    return path
