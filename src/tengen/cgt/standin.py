"""A small game with a given mean, temperature and kind: stands in for a position whose thermograph is
known but whose game tree is not a plain game (a ko inside), so that orthodox play over a sum of regions
can still rank it (hotstrat and tedomari read only temperatures, kinds and what a move leaves)."""
from __future__ import annotations

from tengen.cgt.game import Game
from tengen.cgt.numbers import Value
from tengen.cgt.thermo import BLACK_SENTE, GOTE, WHITE_SENTE


def stand_in(mean: Value, temperature: Value, kind: str) -> Game:
    """Gote: {m+t | m-t}. Black sente: {{m+2t+2 | m} | m-t} (Black's move threatens more than t, White
    answers back to m). White sente: the mirror image."""
    m, t = mean, temperature
    if kind == GOTE:
        return Game([Game.num(m + t)], [Game.num(m - t)])
    if kind == BLACK_SENTE:
        threat = Game([Game.num(m + 2 * t + 2)], [Game.num(m)])
        return Game([threat], [Game.num(m - t)])
    if kind == WHITE_SENTE:
        threat = Game([Game.num(m)], [Game.num(m - 2 * t - 2)])
        return Game([Game.num(m + t)], [threat])
    raise ValueError(f"no stand-in for a game of kind {kind!r}")
