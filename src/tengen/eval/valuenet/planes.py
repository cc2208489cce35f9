"""Network inputs of the value network from the compact board form (`tengen.eval.localnet.compact`), built on
the network's device: colours are absolute (Black's planes first) because every output is from Black's side.

Planes: on board, Black stones, White stones, empty, Black chains with 1 / 2 / 3+ liberties, the same for White,
the ko point, Black to move, White to move.
"""
from __future__ import annotations

import torch

from tengen.eval.localnet.compact import BLACK_CODE, CANVAS, OFF, WHITE_CODE

PLANES = 13


def value_planes(codes: torch.Tensor, to_play: torch.Tensor, ko: torch.Tensor) -> torch.Tensor:
    """codes (N, 361) uint8/long, to_play (N,) +1/-1, ko (N,) canvas index or -1 -> float planes (N, 13, 19, 19)."""
    codes = codes.long()
    n = codes.shape[0]
    kind, libs = codes & 3, codes >> 2
    black, white = kind == BLACK_CODE, kind == WHITE_CODE
    planes = [kind != OFF, black, white, kind == 1]
    for stones in (black, white):
        planes += [stones & (libs == 1), stones & (libs == 2), stones & (libs >= 3)]
    ko_plane = torch.zeros_like(black)
    has_ko = ko >= 0
    if bool(has_ko.any()):
        rows = torch.nonzero(has_ko).squeeze(1)
        ko_plane[rows, ko[rows].long()] = True
    planes.append(ko_plane)
    tp = to_play.long().reshape(n, 1).expand(n, codes.shape[1])
    planes += [tp == 1, tp == -1]
    return torch.stack(planes, 1).float().reshape(n, PLANES, CANVAS, CANVAS)
