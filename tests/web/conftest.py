"""Shared pieces of the web tests: the 5x5 one-dame position as SGF, a 6x6 game whose review finds one
mistake, and the stand-in network."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web UI's extra (fastapi) is not installed: pip install -e '.[test]'")

from standin_networks import StandInNetwork  # noqa: E402

from tengen.go.coords import from_gtp  # noqa: E402
from tengen.go.diagram import parse_diagram  # noqa: E402

# the stand-in's ONE_DAME position (tests/standin_networks.py) as setup: one undecided point, C4, Black to play;
# a main line of two moves (B C4, W pass) and a side line (W C4) at move 0, so steps and variations are exercised
ONE_DAME_SGF = ("(;GM[1]FF[4]SZ[5]KM[0]RU[Chinese]PB[Black]PW[White]"
                "AB[aa][ba][ab][bb][ac][bc][cc][bd][cd][ae][be][ce]AW[ca][da][db][eb][dc][ec][dd][ed][de]PL[B]"
                "(;B[cb];W[])(;W[cb]))")


def sgf_from_diagram(diagram: str, moves: list[str], komi: float = 0) -> str:
    """A square record: the diagram's stones as setup (X Black, O White), then `moves` ("W B1"), the first
    mover set to play first."""
    grid, _ = parse_diagram(diagram)
    size = grid.shape[0]

    def point(row: int, col: int) -> str:
        return "abcdefghijklmnopqrs"[col] + "abcdefghijklmnopqrs"[row]

    setup = "".join(tag + "".join(f"[{point(r, c)}]" for r in range(size) for c in range(size) if grid[r, c] == sign)
                    for tag, sign in (("AB", 1), ("AW", -1)))
    played = "".join(f";{color}[{point(*from_gtp(vertex, size, size))}]"
                     for color, vertex in (m.split() for m in moves))
    return f"(;GM[1]FF[4]SZ[{size}]KM[{komi:g}]RU[Chinese]{setup}PL[{moves[0].split()[0]}]{played})"


# a 6x6 endgame for the review, by the stand-in's values: B3-C3 is the one region (temperature 2). White
# fills an own point (B1), then Black fills his own eye (E5) instead of taking B3: the review's one mistake
# (loss 2, network loss 4); White takes B3, Black answers at C3. From "auto" the review starts at move 2.
REVIEW_DIAGRAM = """
    X X X X X X
    X . X X . X
    X X . . X X
    X . . . O O
    O O . . O O
    O . O O O O
"""
REVIEW_SGF = sgf_from_diagram(REVIEW_DIAGRAM, ["W B1", "B E5", "W B3", "B C3"])


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


OFFLINE_REASON = "could not download katrain from PyPI (offline?)"


def offline_network():
    """An evaluator factory as the default one fails offline with no cached model."""
    from tengen.eval.katago.weights import ModelDownloadError

    raise ModelDownloadError(OFFLINE_REASON)


def wait_final(client, job_id: str) -> dict:
    """Poll an analysis job until it is done, failed or cancelled (no deadline of its own: a loaded machine may
    take long, and pytest-timeout ends a job that never finishes)."""
    import time

    while True:
        job = client.get(f"/api/analyses/{job_id}").json()
        if job["status"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.05)
