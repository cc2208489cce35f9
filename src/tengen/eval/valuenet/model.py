"""`ValueNet`: Wu et al.'s four value networks as configurations of one model. A residual trunk (the local-move
network's blocks) feeds a value head with 41 outputs (Black's win rate for komi -12.5 .. 27.5: "ML") or one
(the game's komi: plain "VN"), and, in the "BV" variants, an ownership head with two maps: the final
position's owner (Wu et al.'s auxiliary target) and KataGo's ownership of this position (distilled; what leaf
scoring reads).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from tengen.eval.localnet.compact import POINTS
from tengen.eval.localnet.model import ResidualBlock
from tengen.eval.valuenet.planes import PLANES

KOMIS = np.arange(-12.5, 28.0, 1.0)  # the 41 komi values of the multi-komi head
VARIANTS = {"vn": (False, False), "mlvn": (True, False), "bvvn": (False, True), "bvmlvn": (True, True)}


@dataclass(frozen=True)
class ValueNetConfig:
    blocks: int = 6
    channels: int = 64
    multi_komi: bool = True  # 41 outputs (ML) or one (the game's komi)
    ownership: bool = True  # the BV heads
    planes: int = PLANES

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def variant(self) -> str:
        return ("bv" if self.ownership else "") + ("ml" if self.multi_komi else "") + "vn"

    @staticmethod
    def of_variant(name: str, blocks: int = 6, channels: int = 64) -> "ValueNetConfig":
        if name not in VARIANTS:
            raise ValueError(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
        ml, bv = VARIANTS[name]
        return ValueNetConfig(blocks=blocks, channels=channels, multi_komi=ml, ownership=bv)


class ValueNet(nn.Module):
    """planes (N, PLANES, 19, 19) -> (value logits (N, 41 or 1): Black wins; ownership logits (N, 2, 361) or
    None: channel 0 final owner, channel 1 KataGo's ownership; + = Black)."""

    def __init__(self, config: ValueNetConfig = ValueNetConfig()):
        super().__init__()
        self.config = config
        c = config.channels
        self.stem = nn.Conv2d(config.planes, c, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(c)
        self.blocks = nn.ModuleList(ResidualBlock(c, pooled=(i == config.blocks // 2)) for i in range(config.blocks))
        self.value_conv = nn.Conv2d(c, 32, 1, bias=False)
        self.value_bn = nn.BatchNorm2d(32)
        self.value_fc = nn.Linear(64, 128)
        self.value_out = nn.Linear(128, len(KOMIS) if config.multi_komi else 1)
        self.own = nn.Conv2d(c, 2, 1) if config.ownership else None

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        n = planes.shape[0]
        on_board = planes[:, :1]
        area = on_board.sum((2, 3)).clamp(min=1)
        x = F.relu(self.stem_bn(self.stem(planes))) * on_board
        for block in self.blocks:
            x = block(x, on_board, area)
        v = F.relu(self.value_bn(self.value_conv(x))) * on_board
        pooled = torch.cat([v.sum((2, 3)) / area, (v * on_board - (1 - on_board) * 1e4).amax((2, 3))], 1)
        value = self.value_out(F.relu(self.value_fc(pooled))).float()
        own = self.own(x).reshape(n, 2, POINTS).float() if self.own is not None else None
        return value, own


def flops_per_position(config: ValueNetConfig = ValueNetConfig()) -> int:
    """Multiply-adds x 2 of one forward pass (the convolutions, which dominate)."""
    c = config.channels
    per_point = config.planes * c * 9 + config.blocks * 2 * c * c * 9 + c * 32 + (c * 2 if config.ownership else 0)
    return 2 * per_point * POINTS
