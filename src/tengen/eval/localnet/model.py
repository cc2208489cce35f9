"""`LocalMoveNet`: a small residual trunk over the 19x19 canvas (with one global-pooling bias), a policy head
of 723 outputs (moves of the side to move, moves of the other side, no move) and an answer head.

Sized for CPU inference: the default 6 blocks of 64 channels cost ~0.33 GFLOP per position.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn import functional as F

from tengen.eval.localnet.compact import NO_MOVE, POINTS
from tengen.eval.localnet.planes import PLANES

MASKED = -1.0e4  # logit given to impossible moves (off board, occupied, ko)


@dataclass(frozen=True)
class NetConfig:
    blocks: int = 6
    channels: int = 64
    head_channels: int = 32
    planes: int = PLANES

    def as_dict(self) -> dict:
        return asdict(self)


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with a skip connection, optionally a global-pooling bias, masked to the board (shared by
    tengen's networks)."""

    def __init__(self, channels: int, pooled: bool = False):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.pool_fc = nn.Linear(2 * channels, channels) if pooled else None

    def forward(self, x: torch.Tensor, on_board: torch.Tensor, area: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        if self.pool_fc is not None:  # whole-board context (mean and max over the board) as a channel bias
            mean = (y * on_board).sum((2, 3)) / area
            peak = (y * on_board - (1 - on_board) * 1e4).amax((2, 3))
            y = y + self.pool_fc(torch.cat([mean, peak], 1))[:, :, None, None]
        y = self.bn2(self.conv2(y)) * on_board
        return F.relu(x + y)


class LocalMoveNet(nn.Module):
    """planes (N, PLANES, 19, 19) and a legal mask (N, 723) -> (relative logits (N, 723), answer logit (N,))."""

    def __init__(self, config: NetConfig = NetConfig()):
        super().__init__()
        self.config = config
        c, hc = config.channels, config.head_channels
        self.stem = nn.Conv2d(config.planes, c, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(c)
        self.blocks = nn.ModuleList(ResidualBlock(c, pooled=(i == config.blocks // 2)) for i in range(config.blocks))
        self.head = nn.Conv2d(c + 1, hc, 1, bias=False)
        self.head_bn = nn.BatchNorm2d(hc)
        self.moves = nn.Conv2d(hc, 2, 1)
        self.pooled = nn.Linear(3 * hc, hc)
        self.no_move = nn.Linear(hc, 1)
        self.answer = nn.Linear(hc, 1)

    def forward(self, planes: torch.Tensor, legal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        n = planes.shape[0]
        on_board = planes[:, :1]
        region = planes[:, 7:8]
        area = on_board.sum((2, 3)).clamp(min=1)
        x = F.relu(self.stem_bn(self.stem(planes))) * on_board
        for block in self.blocks:
            x = block(x, on_board, area)
        h = F.relu(self.head_bn(self.head(torch.cat([x, region], 1)))) * on_board
        moves = self.moves(h).reshape(n, 2 * POINTS)
        region_area = region.sum((2, 3)).clamp(min=1)
        pooled = torch.cat([(h * on_board).sum((2, 3)) / area, (h * region).sum((2, 3)) / region_area,
                            (h * on_board - (1 - on_board) * 1e4).amax((2, 3))], 1)
        g = F.relu(self.pooled(pooled))
        logits = torch.cat([moves, self.no_move(g)], 1).float()
        logits = logits.masked_fill(~legal, MASKED)
        return logits, self.answer(g).float().squeeze(1)


def flops_per_position(config: NetConfig = NetConfig()) -> int:
    """Multiply-adds x 2 of one forward pass on the 19x19 canvas (trunk and heads' convolutions)."""
    c, hc = config.channels, config.head_channels
    per_point = config.planes * c * 9 + config.blocks * 2 * c * c * 9 + (c + 1) * hc + hc * 2
    return 2 * per_point * POINTS


assert NO_MOVE == 2 * POINTS
