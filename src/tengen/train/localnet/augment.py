"""Training-time augmentation on compact tensors (19x19 records): the 8 board symmetries (one per example),
random removal of stones far from the region and its local moves, and random dilation or erosion of the
region mask at its border. All vectorised in torch, on the training device."""
from __future__ import annotations

import torch
from torch.nn import functional as F

from tengen.eval.localnet.compact import CANVAS, EMPTY_CODE, NO_MOVE, OFF, POINTS, RECENT
from tengen.eval.localnet.infer import board_symmetry_maps


def symmetry_maps(device: torch.device | str = "cpu") -> torch.Tensor:
    """(8, 361) long: where symmetry s sends each canvas point (bit 0 flips rows, 1 columns, 2 transposes)."""
    return torch.as_tensor(board_symmetry_maps(CANVAS, CANVAS), dtype=torch.long, device=device)


def map_points(index: torch.Tensor, row_map: torch.Tensor) -> torch.Tensor:
    """Map canvas indices (-1 kept) through per-row maps."""
    return torch.where(index >= 0, row_map.gather(1, index.clamp(min=0)), index)


def apply_symmetries(t: dict[str, torch.Tensor], target: torch.Tensor, sym: torch.Tensor,
                     maps: torch.Tensor) -> tuple[dict[str, torch.Tensor], torch.Tensor]:
    """Each row transformed by its symmetry `sym[row]`; targets follow their points."""
    row_map = maps[sym]  # (N, 361): old point -> new point
    inverse = torch.argsort(row_map, dim=1)  # new point -> old point
    out = dict(t)
    out["codes"] = t["codes"].gather(1, inverse)
    out["region"] = t["region"].gather(1, inverse)
    out["recent"] = map_points(t["recent"], row_map)
    out["ko"] = map_points(t["ko"].view(-1, 1), row_map).view(-1)
    is_move = target < NO_MOVE
    point = (target % POINTS).clamp(max=POINTS - 1)
    moved = target - point + row_map.gather(1, point.view(-1, 1)).view(-1)
    return out, torch.where(is_move, moved, target)


def _grid(x: torch.Tensor) -> torch.Tensor:
    return x.float().view(-1, 1, CANVAS, CANVAS)


def _cross_dilate(mask: torch.Tensor, steps: int) -> torch.Tensor:
    kernel = torch.tensor([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=torch.float32, device=mask.device).view(1, 1, 3, 3)
    m = _grid(mask)
    for _ in range(steps):
        m = (F.conv2d(m, kernel, padding=1) > 0).float()
    return m.view(mask.shape[0], POINTS) > 0


def remove_far_stones(t: dict[str, torch.Tensor], target: torch.Tensor, generator: torch.Generator,
                      rate: float = 0.3, distance: int = 6, keep_prob: float = 0.5) -> dict[str, torch.Tensor]:
    """In a `rate` share of rows, remove each stone more than `distance` steps from the region, the local moves
    and the target with probability 1 - keep_prob (liberty codes of far stones may go stale: far by design)."""
    n = target.shape[0]
    dev = target.device
    anchor = t["region"].clone()
    rows = torch.arange(n, device=dev)
    is_move = target < NO_MOVE
    anchor[rows[is_move], (target[is_move] % POINTS)] = True
    for k in range(RECENT):
        has = t["recent"][:, k] >= 0
        anchor[rows[has], t["recent"][has, k]] = True
    far = ~_cross_dilate(anchor, distance)
    kind = t["codes"] & 3
    stone = (kind != OFF) & (kind != EMPTY_CODE)
    chosen = torch.rand(n, 1, device=dev, generator=generator) < rate
    drop = stone & far & chosen & (torch.rand(n, POINTS, device=dev, generator=generator) > keep_prob)
    out = dict(t)
    out["codes"] = torch.where(drop, torch.full_like(t["codes"], EMPTY_CODE), t["codes"])
    return out


def jitter_mask(t: dict[str, torch.Tensor], generator: torch.Generator, rate: float = 0.2) -> dict[str, torch.Tensor]:
    """Dilate the region mask by one step in a `rate` share of rows, erode it by one in another `rate` share
    (an erosion that would empty the mask is not applied)."""
    n = t["region"].shape[0]
    dev = t["region"].device
    on_board = (t["codes"] & 3) != OFF
    region = t["region"]
    grown = _cross_dilate(region, 1) & on_board
    outside = ~region & on_board
    eroded = region & ~_cross_dilate(outside | ~on_board, 1)
    eroded = torch.where(eroded.any(1, keepdim=True), eroded, region)
    u = torch.rand(n, 1, device=dev, generator=generator)
    out = dict(t)
    out["region"] = torch.where(u < rate, grown, torch.where(u < 2 * rate, eroded, region))
    return out
