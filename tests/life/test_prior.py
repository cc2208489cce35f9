"""A network's policy as the df-pn search's move costs (`tengen.life.prior`): halvings below the likeliest move,
capped, Black's then White's, the pass last."""
from __future__ import annotations

import numpy as np
import pytest

from tengen.eval.evaluation import Evaluation
from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram
from tengen.life.prior import move_costs, policy_costs

POLICY = np.array([[0.5, 0.25], [0.125, 0.0]], dtype=np.float32)  # 2x2, the pass 0.125


@pytest.mark.parametrize("scale, cap, expected", [
    (1.0, 8, [0, 1, 2, 8, 2]),  # the likeliest 0, each halving one more, a ruled-out move the cap, the pass last
    (2.0, 8, [0, 2, 4, 8, 4]),
    (1.0, 1, [0, 1, 1, 1, 1]),
    (0.0, 8, [0, 0, 0, 0, 0]),
])
def test_costs_count_halvings_below_the_likeliest_move(scale, cap, expected):
    assert list(policy_costs(POLICY, 0.125, scale, cap)) == expected


@pytest.mark.parametrize("scale, cap", [(-1.0, 8), (1.0, 256)])
def test_bad_scales_and_caps_are_refused(scale, cap):
    with pytest.raises(ValueError, match="scale"):
        policy_costs(POLICY, 0.1, scale, cap)


class _TwoPolicies:
    """Evaluates with a fixed policy for the side to move and another for its opponent."""

    def evaluate(self, boards, opponent_policy=False):
        assert opponent_policy
        out = []
        for board in boards:
            own = np.zeros((board.height, board.width), dtype=np.float32)
            own[0, 0] = 1.0
            other = np.zeros_like(own)
            other[1, 1] = 1.0
            ev = Evaluation(to_play=board.to_play, komi=0.5, policy=own, pass_policy=0.0,
                            ownership=np.zeros_like(own), score_mean=0.0, score_stdev=0.0, score_lead=0.0,
                            win=0.5, loss=0.5)
            ev.opponent_policy, ev.opponent_pass_policy = other, 0.0
            out.append(ev)
        return out


@pytest.mark.parametrize("to_play", [BLACK, WHITE])
def test_both_colours_costs_come_black_first_whoever_is_to_move(to_play):
    board = board_from_diagram("""
        . . .
        . . .
        . . .
    """)
    board.to_play = to_play
    costs = move_costs(board, _TwoPolicies(), 1.0, 8)
    n = board.width * board.height + 1
    black, white = costs[:n], costs[n:]
    mover, other = (black, white) if to_play == BLACK else (white, black)
    assert len(costs) == 2 * n and mover[0] == 0 and other[4] == 0 and mover[4] == 8 and other[0] == 8
