"""Move values in Go conventions, labelled, from the area-scoring temperature and the game's kind.

miai value = area temperature - 1 (territory counting); deiri value = 2 x miai for gote, = miai for
sente and reverse sente (no deiri value for kos); swing = 2 x miai (the 'value' of Endgame for Nerds /
Frejlak: the difference between the two sides' moves).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from tengen.cgt.numbers import Value
from tengen.cgt.thermo import BLACK_SENTE, GOTE, KO, WHITE_SENTE


@dataclass(frozen=True)
class MoveValues:
    """Labelled values of the hottest local move; all None except the temperature when nothing is hot."""

    kind: str
    area_temperature: Value
    miai: Optional[Value]
    deiri: Optional[Value]
    swing: Optional[Value]

    def as_dict(self) -> dict:
        return {k: (None if v is None else str(v)) for k, v in self.__dict__.items()}


def move_values(kind: str, temperature: Value) -> MoveValues:
    """MoveValues for a game of this kind and area temperature."""
    if kind not in (GOTE, BLACK_SENTE, WHITE_SENTE, KO):
        return MoveValues(kind, temperature, None, None, None)
    miai = temperature - 1
    deiri = 2 * miai if kind == GOTE else (None if kind == KO else miai)
    return MoveValues(kind, temperature, miai, deiri, 2 * miai)


def sente_player(kind: str) -> Optional[str]:
    """'black' for black_sente, 'white' for white_sente, else None."""
    return {BLACK_SENTE: "black", WHITE_SENTE: "white"}.get(kind)


def reverse_sente_player(kind: str) -> Optional[str]:
    """The player whose move is reverse sente: White in a black_sente game, Black in a white_sente one."""
    return {BLACK_SENTE: "white", WHITE_SENTE: "black"}.get(kind)
