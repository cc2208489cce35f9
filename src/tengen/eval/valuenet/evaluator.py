"""`ValueNetEvaluator`: tengen's value network behind the Evaluator interface. One pass gives ownership and
Black's win rate for all 41 komi values; the win rate at the board's komi and a score estimate come from that
curve. Batched, on CPU or CUDA. The network has no policy head: `policy` is all zero and `pass_policy` 1,
with `extras["policy"] = False` saying so. Trained on 19x19 records only, so other sizes are refused."""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

import numpy as np
import torch

from tengen.eval.devices import pick_device
from tengen.eval.evaluation import Evaluation
from tengen.eval.localnet.compact import CANVAS, board_codes, ko_index
from tengen.eval.valuenet.curve import curve_at, difference_stdev, expected_difference
from tengen.eval.valuenet.model import KOMIS
from tengen.eval.valuenet.planes import value_planes
from tengen.eval.valuenet.weights import ValueNetWeightsError, default_weights, load_weights


class ValueNetError(ValueError):
    """A position the value network cannot evaluate (a board other than 19x19)."""


def compact_inputs(boards: Sequence) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(codes (N, 361) uint8, to_play (N,), ko (N,)) of tengen boards, each with its side to move."""
    codes, to_play, ko = [], [], []
    for board in boards:
        if (board.height, board.width) != (CANVAS, CANVAS):
            raise ValueNetError(f"the value network evaluates 19x19 boards only, not {board.width}x{board.height}")
        codes.append(board_codes(board))
        to_play.append(board.to_play)
        ko.append(ko_index(board, board.to_play))
    return np.stack(codes), np.asarray(to_play, np.int64), np.asarray(ko, np.int64)


class ValueNetEvaluator:
    """Evaluate tengen `Board`s with a value network (default: the committed BV-ML-VN)."""

    def __init__(self, weights: Optional[str | Path] = None, device: str = "cpu", batch_size: int = 64,
                 threads: Optional[int] = None):
        path = weights or default_weights()
        if path is None:
            raise ValueNetWeightsError("no value network weights in this checkout (models/valuenet/bvmlvn.pt)")
        if threads is not None:
            torch.set_num_threads(int(threads))
        self.device = pick_device(device)
        self.model, self.meta = load_weights(path, device=str(self.device))
        self.batch_size = max(1, int(batch_size))
        self.name = f"valuenet-{self.model.config.variant}"
        self.evaluations_run = 0

    def raw(self, boards: Sequence) -> tuple[np.ndarray, Optional[np.ndarray]]:
        """(win probabilities (N, 41) or (N, 1), ownership (N, 2, 361) in [-1, 1] or None) for `boards`."""
        codes, to_play, ko = compact_inputs(boards)
        values, owns = [], []
        with torch.inference_mode():
            for start in range(0, len(codes), self.batch_size):
                sl = slice(start, start + self.batch_size)
                planes = value_planes(torch.from_numpy(codes[sl]).to(self.device),
                                      torch.from_numpy(to_play[sl]).to(self.device),
                                      torch.from_numpy(ko[sl]).to(self.device))
                value, own = self.model(planes)
                values.append(torch.sigmoid(value).cpu().numpy())
                if own is not None:
                    owns.append(torch.tanh(own / 2).cpu().numpy())
        self.evaluations_run += len(codes)
        if not values:
            return np.zeros((0, len(KOMIS))), None
        return np.concatenate(values), (np.concatenate(owns) if owns else None)

    def ownership(self, boards: Sequence) -> np.ndarray:
        """Black's-view ownership (N, 19, 19): the head distilled from KataGo's ownership."""
        _, own = self.raw(boards)
        if own is None:
            raise ValueNetError(f"{self.name} has no ownership head")
        return own[:, 1].reshape(-1, CANVAS, CANVAS).astype(np.float32)

    def komi_curves(self, boards: Sequence) -> np.ndarray:
        """Black's win rate (N, 41) at each komi of KOMIS."""
        values, _ = self.raw(boards)
        if values.shape[1] != len(KOMIS):
            raise ValueNetError(f"{self.name} has a single-komi value head")
        return values

    def evaluate(self, positions: Sequence) -> list[Evaluation]:
        boards = list(positions)
        values, owns = self.raw(boards)
        out = []
        for i, board in enumerate(boards):
            komi = float(board.rules.komi)
            if values.shape[1] == len(KOMIS):
                curve = values[i]
                win = float(curve_at(curve, komi))
                n_mean = float(expected_difference(curve))
                stdev = float(difference_stdev(curve))
                by_komi = {float(k): float(v) for k, v in zip(KOMIS, curve)}
            else:
                win, n_mean, stdev, by_komi = float(values[i, 0]), float("nan"), float("nan"), None
            ownership = (owns[i, 1].reshape(CANVAS, CANVAS) if owns is not None
                         else np.zeros((CANVAS, CANVAS))).astype(np.float32)
            out.append(Evaluation(
                to_play=board.to_play, komi=komi, policy=np.zeros((CANVAS, CANVAS), np.float32), pass_policy=1.0,
                ownership=ownership, score_mean=n_mean - komi, score_stdev=stdev, score_lead=n_mean - komi,
                win=win, loss=1.0 - win, winrate_by_komi=by_komi,
                extras={"model": self.name, "policy": False,
                        "final_ownership": None if owns is None else owns[i, 0].reshape(CANVAS, CANVAS)}))
        return out
