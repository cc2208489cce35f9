"""Network input planes from compact batches, in torch so the same code runs in training (on the GPU, with
augmentation applied to the compact tensors first) and in the predictor (on the CPU).

Colors are seen from the side to move ("mine" / "theirs"); the network's 723 outputs follow that view
(361 moves of the side to move, 361 of the other side, no move) and `to_absolute` / `to_relative` convert
to and from the absolute layout (361 White, 361 Black, no move) that targets and predictions use.
"""
from __future__ import annotations

import torch

from tengen.eval.localnet.compact import (BLACK_CODE, CANVAS, EMPTY_CODE, NO_MOVE, OFF, POINTS, RECENT,
                                          WHITE_CODE, CompactBatch)

PLANES = 15


def tensors(batch: CompactBatch, device: torch.device | str = "cpu") -> dict[str, torch.Tensor]:
    """The compact arrays as torch tensors on `device` (integer types kept)."""
    return {
        "codes": torch.as_tensor(batch.codes, device=device),
        "region": torch.as_tensor(batch.region, device=device),
        "recent": torch.as_tensor(batch.recent, device=device).long(),
        "recent_color": torch.as_tensor(batch.recent_color, device=device).long(),
        "to_play": torch.as_tensor(batch.to_play, device=device).long(),
        "ko": torch.as_tensor(batch.ko, device=device).long(),
        "depth": torch.as_tensor(batch.depth, device=device).long(),
    }


def _one_hot_points(index: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """(N,) canvas indices (-1 none) -> (N, 361) float one-hot, zero where `keep` is false or index < 0."""
    n = index.shape[0]
    out = torch.zeros(n, POINTS, device=index.device)
    ok = (index >= 0) & keep
    rows = torch.nonzero(ok, as_tuple=True)[0]
    out[rows, index[rows]] = 1.0
    return out


def build_planes(t: dict[str, torch.Tensor]) -> torch.Tensor:
    """(N, PLANES, 19, 19) float inputs from compact tensors (see module docstring for the colour view)."""
    codes = t["codes"].long()
    kind, libs = codes & 3, codes >> 2
    n = codes.shape[0]
    black_to_play = (t["to_play"] == 1).view(n, 1)
    mine_code = torch.where(black_to_play, BLACK_CODE, WHITE_CODE)
    theirs_code = torch.where(black_to_play, WHITE_CODE, BLACK_CODE)
    mine, theirs = (kind == mine_code).float(), (kind == theirs_code).float()
    planes = [
        (kind != OFF).float(),
        mine, theirs,
        mine * (libs == 1), theirs * (libs == 1),
        mine * (libs == 2), theirs * (libs == 2),
        t["region"].float(),
        _one_hot_points(t["ko"], torch.ones(n, dtype=torch.bool, device=codes.device)),
    ]
    recent, recent_color = t["recent"], t["recent_color"]
    to_play = t["to_play"]
    for k in range(2):
        planes.append(_one_hot_points(recent[:, k], recent_color[:, k] == to_play))
        planes.append(_one_hot_points(recent[:, k], recent_color[:, k] == -to_play))
    older = torch.zeros(n, POINTS, device=codes.device)
    for k in range(2, RECENT):
        older = torch.maximum(older, _one_hot_points(recent[:, k], recent_color[:, k] != 0))
    planes.append(older)
    planes.append((kind != OFF).float() * (t["depth"].clamp(max=10).float() / 10.0).view(n, 1))
    return torch.stack(planes, dim=1).view(n, PLANES, CANVAS, CANVAS)


def legal_mask(t: dict[str, torch.Tensor]) -> torch.Tensor:
    """(N, 723) bool in the relative layout: empty on-board points for either side (the ko point barred to
    the side to move), and no move."""
    kind = t["codes"].long() & 3
    empty = kind == EMPTY_CODE
    n = empty.shape[0]
    mine = empty.clone()
    rows = torch.nonzero(t["ko"] >= 0, as_tuple=True)[0]
    mine[rows, t["ko"][rows]] = False
    return torch.cat([mine, empty, torch.ones(n, 1, dtype=torch.bool, device=empty.device)], dim=1)


def to_absolute(rel: torch.Tensor, to_play: torch.Tensor) -> torch.Tensor:
    """(N, 723) relative (mine, theirs, none) -> absolute (White, Black, none) for each row's side to move."""
    mine, theirs, none = rel[:, :POINTS], rel[:, POINTS:NO_MOVE], rel[:, NO_MOVE:]
    black = (to_play == 1).view(-1, 1)
    white_part = torch.where(black, theirs, mine)
    black_part = torch.where(black, mine, theirs)
    return torch.cat([white_part, black_part, none], dim=1)


def target_to_relative(target: torch.Tensor, to_play: torch.Tensor) -> torch.Tensor:
    """Absolute target indices (White 0-360, Black 361-721, none 722) -> relative ones (mine first)."""
    is_move = target < NO_MOVE
    point = target % POINTS
    black_move = target >= POINTS
    mine = black_move == (to_play == 1)
    rel = torch.where(mine, point, point + POINTS)
    return torch.where(is_move, rel, torch.full_like(target, NO_MOVE))
