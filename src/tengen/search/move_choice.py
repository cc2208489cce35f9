"""Which root move to play: the most visited, or early in the game a draw weighted by visits (seeded).

Two searches of the same position give the same tree, so two deterministic engines replay the same game
forever; a match needs variety. As KataGo's `chosenMoveTemperatureEarly`, the move is drawn with
probability proportional to visits ** (1 / T), the temperature T halving every `halflife` moves (scaled by
board area / 361), among moves with at least `min_share` of the best move's visits. A search of one visit has
visited no move: its draw follows the root's policy the same way (prior ** (1 / T)).
"""
from __future__ import annotations

import random
from typing import Optional

from tengen.go.coords import Move
from tengen.search.results import SearchResult

TEMPERATURE_EARLY = 0.5
HALFLIFE_MOVES = 19.0
MIN_TEMPERATURE = 0.05  # below it the draw is the most visited move
MIN_SHARE = 0.1


def move_temperature(move_number: int, board_points: int = 361, early: float = TEMPERATURE_EARLY,
                     halflife: float = HALFLIFE_MOVES) -> float:
    """The temperature at `move_number` (moves played so far)."""
    scaled = halflife * board_points / 361.0
    return early * 0.5 ** (move_number / scaled)


def chosen_move(result: SearchResult, move_number: int, rng: Optional[random.Random], board_points: int = 361,
                early: float = TEMPERATURE_EARLY, halflife: float = HALFLIFE_MOVES) -> Move:
    """The move to play: `result.best` without a generator (deterministic play) or once the temperature is
    negligible; otherwise a draw weighted by visits, or by the root's policy when no child was visited (a
    one-visit search: the raw network), so that low-visit players vary too."""
    if rng is None:
        return result.best
    t = move_temperature(move_number, board_points, early, halflife)
    if t < MIN_TEMPERATURE:
        return result.best
    if result.moves:
        candidates = [(m.move, float(m.visits)) for m in result.moves]
    elif result.root_policy:
        candidates = list(result.root_policy.items())
    else:
        return result.best
    top = max(weight for _, weight in candidates)
    if not top > 0:
        return result.best
    pool = [(move, weight) for move, weight in candidates if weight >= MIN_SHARE * top]
    weights = [(weight / top) ** (1.0 / t) for _, weight in pool]
    return rng.choices([move for move, _ in pool], weights=weights)[0]
