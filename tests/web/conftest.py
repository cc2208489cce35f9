"""Shared pieces of the web tests: the 5x5 one-dame position as SGF, and an app on the stand-in network."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web UI's extra (fastapi) is not installed: pip install -e '.[test]'")

from standin_networks import StandInNetwork  # noqa: E402

# the stand-in's ONE_DAME position (tests/standin_networks.py) as setup: one undecided point, C4, Black to play;
# a main line of two moves (B C4, W pass) and a side line (W C4) at move 0, so steps and variations are exercised
ONE_DAME_SGF = ("(;GM[1]FF[4]SZ[5]KM[0]RU[Chinese]PB[Black]PW[White]"
                "AB[aa][ba][ab][bb][ac][bc][cc][bd][cd][ae][be][ce]AW[ca][da][db][eb][dc][ec][dd][ed][de]PL[B]"
                "(;B[cb];W[])(;W[cb]))")


class CurveStandIn(StandInNetwork):
    """The stand-in with a win rate by komi (a logistic of the score), as the KataGo evaluator gives."""

    def evaluate(self, boards, komi_sweep=None, opponent_policy=False):
        import math

        out = super().evaluate(boards)
        if komi_sweep is not None:
            for ev in out:
                ev.winrate_by_komi = {float(k): 1 / (1 + math.exp((k - ev.score_lead) / 2)) for k in komi_sweep}
        return out


@pytest.fixture
def standin() -> CurveStandIn:
    return CurveStandIn()
