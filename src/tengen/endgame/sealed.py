"""Exact local rules for sealed regions inside a predictor-grown tree.

A local diagram (a region marked on an otherwise quiet board, bounded by living walls) has exact answers
the network's ownership can miss: on such boards KataGo often calls a point settled that the rules leave
open (after a hane it credits the next move to whoever it expects to get it) and its ownership of the open
surroundings leaks into the counts. Where the region is sealed, `SealedRules` lets the rules core decide
instead, with the exhaustive solver's conventions (`tengen.endgame.exact.rules`):
- a node whose region is settled is a leaf counted exactly (area count over the region);
- a node where a safe chain reaches the opponent's outside territory is a ±inf threat (the seal broke);
- elsewhere the wrapped predictor proposes the moves, restricted to the region's points (a move outside a
  sealed region is a move in someone's settled territory), and it does not end the line by its ownership.
Regions that are not sealed (the usual case on a whole board) pass through untouched. Walls must be
Benson pass-alive unless the region came from a user's mask: the user vouches for the walls, and an
outside point of an open area belongs to the color of the nearest stones (a diagram on an empty board;
equally near or no stone: neutral). The marked diagram's conventions: docs/LOCAL_GAME.md.
"""
from __future__ import annotations

from typing import Optional, Sequence

from tengen.endgame.exact import LocalRegion, RegionNotSealed
from tengen.endgame.predictors import LocalMovePredictor, LocalPrediction, PredictionRequest
from tengen.endgame.regions import Region
from tengen.endgame.tree import LocalTree
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE


def sealed_local_region(board: Board, region: Region) -> Optional[LocalRegion]:
    """The region as an exact local game when it is sealed (None otherwise)."""
    try:
        mask = region.source == "mask"
        # kata's lines keep trusting a mask's enclosed walls: its network still proposes moves against them
        return LocalRegion(board, region.points, require_benson=not mask, vouched=mask, trust_enclosed_walls=True)
    except (RegionNotSealed, ValueError):
        return None


def local_stones(local: LocalRegion, board: Board) -> tuple[int, int]:
    """The region's Black and White stones on `board` as the local game's bitmasks."""
    grid = board.array()
    b = w = 0
    for i, p in enumerate(local.points):
        c = int(grid[p])
        if c == BLACK:
            b |= 1 << i
        elif c == WHITE:
            w |= 1 << i
    return b, w


class SealedRules:
    """Wraps a predictor: exact leaves and seal-breaking threats in sealed regions (see the module doc)."""

    def __init__(self, inner: LocalMovePredictor, board: Board, regions: Sequence[Region]):
        self.inner = inner
        self.name = inner.name if isinstance(inner, LocalMovePredictor) else ""
        self.locals = {r.id: sealed_local_region(board, r) for r in regions}

    def __getattr__(self, attr):  # evaluation counters and the like belong to the wrapped predictor
        return getattr(self.inner, attr)

    def sealed(self, region: Region) -> bool:
        return self.locals.get(region.id) is not None

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        out: list[Optional[LocalPrediction]] = [None] * len(requests)
        forward: list[int] = []
        for i, req in enumerate(requests):
            local = self.locals.get(req.region.id)
            if local is None:
                forward.append(i)
                continue
            info = _analyze(local, req.board)
            if info is None:
                forward.append(i)
                continue
            if req.history and info.threat:
                out[i] = LocalPrediction(no_move=1.0, threat=info.threat,
                                         reason="breaks the seal: reaches the opponent's outside territory")
            elif req.history and info.settled:
                out[i] = LocalPrediction(no_move=1.0, exact_count=info.count, reason="settled (exact local rules)")
            else:
                forward.append(i)
        inner_requests = []
        for i in forward:
            req = requests[i]
            if self.locals.get(req.region.id) is not None:
                req = PredictionRequest(req.board, req.history, req.region, req.claimed, rules_decide_terminal=True)
            inner_requests.append(req)
        for i, pred in zip(forward, self.inner.predict(inner_requests) if inner_requests else []):
            region = requests[i].region
            if self.locals.get(region.id) is not None:
                pred.black = {p: v for p, v in pred.black.items() if p in region.points}
                pred.white = {p: v for p, v in pred.white.items() if p in region.points}
                pred.ko_retake = {c: p for c, p in pred.ko_retake.items() if p in region.points}
            out[i] = pred
        return out  # type: ignore[return-value]

    def settle_leaves(self, tree: LocalTree) -> int:
        """Count exactly the leaves and probes of a sealed region's tree that the rules call settled (and
        make seal breaks threats); returns how many were settled. Others keep the network's count."""
        local = self.locals.get(tree.region.id)
        if local is None:
            return 0
        done = 0
        for node in tree.leaves():
            if node.kind not in ("leaf", "probe") or node.counted:
                continue
            info = _analyze(local, node.board)
            if info is None:
                continue
            if info.threat:
                node.kind, node.threat, node.reason = "threat", info.threat, "breaks the seal"
            elif info.settled:
                node.value, node.counted = float(info.count), True
                node.reason += " (settled: counted exactly)"
            else:
                continue
            done += 1
        return done


def _analyze(local: LocalRegion, board: Board):
    """The exact local analysis of `board`'s region stones (None when both colors broke in: no local
    answer, the predictor judges)."""
    try:
        return local.analyze(*local_stones(local, board))
    except RegionNotSealed:
        return None
