"""Which stones count as dead before influence: the value network's ownership head and threshold, chosen on the
validation split and stored in ``models/winner/dead_stones.json``; and the clean sources' inputs per split.

The choice: for each head (0 = predicted final owner, 1 = distilled KataGo ownership) and threshold, remove the
stones whose point the head gives to the other colour beyond the threshold, then count (sign of the summed
influence minus komi, no training) on the validation positions. The setting with the best mean accuracy over
the three influence models at move 180 wins (ties: the lower threshold, then head 0); the whole table is kept.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.influence import MODELS as INFLUENCE_MODELS
from tengen.train.records.store import PHASES, PositionSet
from tengen.train.winner.features import (
    N_POINTS,
    assemble_inputs,
    board_features,
    clean_features,
    influence_of,
    remove_dead,
)
from tengen.train.winner.metrics import naive_count
from tengen.train.winner.model import MODELS_DIR
from tengen.train.winner.netcache import ValueNetCache, game_handicap, game_komi

log = logging.getLogger("tengen.train.winner")

CHANNELS = (0, 1)
THRESHOLDS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.9)
CHOICE_PHASE = 180


def dead_stones_path(models_dir: Path | str = MODELS_DIR) -> Path:
    return Path(models_dir) / "dead_stones.json"


def load_dead_stones(models_dir: Path | str = MODELS_DIR) -> dict[str, Any]:
    """The stored setting: {"channel", "threshold", "sha256", "table", ...}."""
    path = dead_stones_path(models_dir)
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m tengen.train.winner dead-stones`")
    return json.loads(path.read_text())


def count_accuracy(boards: np.ndarray, own: np.ndarray | None, threshold: float, komi: np.ndarray,
                   winner: np.ndarray, phase: np.ndarray, model: str) -> dict[str, float]:
    """Per phase: accuracy (%) of the sign of (clean influence count - komi); ``own`` None = no removal."""
    b = boards if own is None else remove_dead(boards, own, threshold)[0]
    count = naive_count(board_features(b, model), komi)
    return {str(q): float(((count[phase == q] > 0) == (winner[phase == q] > 0)).mean() * 100)
            for q in PHASES if (phase == q).any()}


def choose_dead_stones(val: PositionSet, cache: ValueNetCache, models_dir: Path | str = MODELS_DIR,
                       channels: tuple[int, ...] = CHANNELS, thresholds: tuple[float, ...] = THRESHOLDS
                       ) -> dict[str, Any]:
    """Measure every (head, threshold) on the cached validation positions; write and return the choice."""
    idx = cache.index
    boards, komi = val.boards[idx], game_komi(val, idx)
    winner, phase = val.winner[idx], val.phase[idx]
    table: dict[str, Any] = {"none": {m: count_accuracy(boards, None, 0, komi, winner, phase, m)
                                      for m in INFLUENCE_MODELS}}
    best = None
    for ch in channels:
        own = cache.ownership(idx, ch)
        for t in thresholds:
            row = {m: count_accuracy(boards, own, t, komi, winner, phase, m) for m in INFLUENCE_MODELS}
            key = f"c{ch}-t{t:g}"
            table[key] = row
            score = float(np.mean([row[m][str(CHOICE_PHASE)] for m in INFLUENCE_MODELS]))
            log.info("dead stones %s: mean count accuracy at %d %.2f %s", key, CHOICE_PHASE, score, json.dumps(row))
            if best is None or score > best[0] + 1e-9:
                best = (score, ch, t)
    assert best is not None
    _, ch, t = best
    own = cache.ownership(idx, ch)
    dead = remove_dead(boards, own, t)[1]
    stones = boards != 0
    result = {"channel": ch, "threshold": t, "sha256": cache.sha, "weights": cache.weights.name,
              "criterion": f"mean accuracy over {', '.join(INFLUENCE_MODELS)} of the no-training count at move "
                           f"{CHOICE_PHASE} on validation",
              "val_positions": {str(q): int((phase == q).sum()) for q in PHASES},
              "dead_fraction": {str(q): float(dead[phase == q].sum() / max(stones[phase == q].sum(), 1))
                                for q in PHASES},
              "table": table, "made_by": "python -m tengen.train.winner dead-stones"}
    path = dead_stones_path(models_dir)
    path.write_text(json.dumps(result, indent=1))
    log.info("dead stones: head %d, threshold %g (%s)", ch, t, path)
    return result


def clean_split_inputs(split: str, ps: PositionSet, source: str, setting: dict[str, Any], cache: ValueNetCache,
                       cache_dir: Path | str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(rows, inputs) of a clean source on the positions the value-net cache holds: the clean map, prisoners,
    komi, handicap and move number (last). ``rows`` are the positions' indices in ``ps``."""
    if setting["sha256"] != cache.sha:
        raise ValueError(f"dead_stones.json was chosen with other value-network weights ({setting['weights']}); "
                         "rerun `python -m tengen.train.winner dead-stones`")
    rows = cache.index
    own = cache.ownership(rows, int(setting["channel"]))
    maps = clean_features(split, ps.boards[rows], own, source, int(setting["channel"]), float(setting["threshold"]),
                          cache.sha, cache_dir)
    assert maps.shape == (len(rows), N_POINTS), influence_of(source)
    x = assemble_inputs(maps, ps.captures[rows], ps.phase[rows], game_komi(ps, rows), game_handicap(ps, rows))
    return rows, x
