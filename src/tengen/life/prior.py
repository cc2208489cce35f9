"""A network's policy as the df-pn search's move costs (`tengen.life._proof`'s `costs`): the network orders the
moves, the search proves. A move's cost for its colour is how many halvings its probability lies below that
colour's likeliest move (times `scale`, at most `cap`): a new child's proof number for its mover starts that much
higher, so the likely moves are searched first (Gao, Mueller and Hayward, "Focused depth-first proof number
search using convolutional neural networks for the game of Hex", IJCAI 2017, initialise df-pn's proof numbers
from the policy). Costs change only the order of the search, never what it proves.
"""
from __future__ import annotations

import numpy as np

from tengen.go.board import Board
from tengen.go.colors import BLACK

COST_SCALE = 1.0  # cost units per halving of a move's probability
COST_CAP = 8  # the largest cost (a move the policy all but rules out)
_FLOOR = 1e-9  # probabilities below this count as this


def policy_costs(policy: np.ndarray, pass_policy: float, scale: float = COST_SCALE, cap: int = COST_CAP) -> bytes:
    """One colour's costs: width*height bytes (row-major) then the pass's, from its policy grid and pass."""
    if scale < 0 or not 0 <= cap <= 255:
        raise ValueError("scale must be >= 0 and cap within 0..255")
    probs = np.append(np.asarray(policy, dtype=np.float64).ravel(), float(pass_policy))
    probs = np.maximum(np.nan_to_num(probs, nan=0.0), _FLOOR)
    halvings = np.log2(probs.max() / probs) * scale
    return bytes(np.minimum(np.floor(halvings + 0.5), cap).astype(np.uint8))


def move_costs(board: Board, evaluator, scale: float = COST_SCALE, cap: int = COST_CAP) -> bytes:
    """Both colours' costs on `board` (Black's, then White's: the C search's layout), from one evaluation with
    the side to move's policy and the other side's (`opponent_policy`)."""
    (ev,) = evaluator.evaluate([board], opponent_policy=True)
    own = policy_costs(ev.policy, ev.pass_policy, scale, cap)
    other = policy_costs(ev.opponent_policy, ev.opponent_pass_policy, scale, cap)
    return own + other if ev.to_play == BLACK else other + own

