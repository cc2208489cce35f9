"""`ClassicEvaluator`: an `Evaluator` without a network, all from Black's side.

Per position: (1) Benson pass-alive chains and their regions are owned outright; (2) weak chains (few
liberties, or most liberties in the opponent's influence) go to the life judge: dead ones are the
opponent's, alive ones kept, unknown ones left half-trusted; (3) critical chains, kos and unsettled ataris
are urgent: the side to move wins the largest (the most urgent capture is carried out, or its own chain
saved), the others count half; (4) the points off the living chains split into one colour's enclosed
areas (its own; opponent stones in one too small for two eyes are dead), sealed regions (small areas
between both colours' settled stones: the injected valuer, the exact solver, where the product of
branching factors n! is at most `branch_cap`, a one-ply influence thermograph beyond it), and the open rest
(influence, saturating at `influence_full`). The score is the ownership's sum (area) minus komi, less
(Black's stones placed - White's) under territory rules; `win` is logistic in the lead (`scale`).
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from tengen.eval.classic.areas import find_areas
from tengen.eval.classic.config import ClassicConfig, branching_product
from tengen.eval.classic.groups import Chain, JudgeCache, chain_table, judge_weak, resolve_urgent, swing
from tengen.eval.classic.judges import LifeJudge, RegionValue, RegionValuer, no_region_valuer, static_life_judge
from tengen.eval.classic.policy import GOTE, MoveChooser, Source, hottest_source, make_policy
from tengen.eval.classic.values import heuristic_region_value, influence_ownership, open_move_values
from tengen.eval.evaluation import Evaluation
from tengen.eval.influence import influence_map
from tengen.eval.playout_evaluator import own_eyes
from tengen.go.benson import unconditional_life
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point, neighbours, to_gtp
from tengen.lru import LruCache


class ClassicEvaluator:
    """The classic evaluator; `life_judge`, `region_valuer` and `chooser` (the orthodox move among the
    sources of move value) default to ones needing nothing above layer 2."""

    display_name = "classic evaluator"  # what reports call it (they say "network" for the others)
    uses_network = False  # `AnalysisOptions.resolved`: `auto` means its own policy and ownership

    def __init__(self, config: ClassicConfig = ClassicConfig(), life_judge: LifeJudge = static_life_judge,
                 region_valuer: RegionValuer = no_region_valuer, chooser: MoveChooser = hottest_source,
                 cache_size: int = 20_000):
        self.config = config
        self.chooser = chooser
        self.judges = JudgeCache(life_judge, cache_size)
        self.region_valuer = region_valuer
        self._regions: LruCache[RegionValue] = LruCache(cache_size)

    def evaluate(self, positions: Sequence[Board]) -> list[Evaluation]:
        """One `Evaluation` per board, in order."""
        return [self._one(board) for board in positions]

    def region_value(self, board: Board, grid: np.ndarray, points: list[Point]) -> RegionValue:
        """A sealed region's value: the valuer's within the branching cap, else (or when it declines) the
        heuristic; cached on the region's stones, its walls' colours and a ko inside."""
        h, w = grid.shape
        outside = sorted({q for p in points for q in neighbours(p, h, w)} - set(points))
        ko = board.ko_point if board.ko_point in points else None
        key = (tuple(points), tuple(int(grid[p]) for p in points), tuple(int(grid[q]) for q in outside), ko,
               board.rules.suicide, board.rules.scoring)
        known = self._regions.get(key)
        if known is not None:
            return known
        value = None
        product = branching_product(len(points), self.config.branch_cap)
        if product <= self.config.branch_cap:
            value = self.region_valuer(board, points)
        if value is None:
            value = heuristic_region_value(grid, points, self.config)
            if product > self.config.branch_cap:
                value.notes.append(f"over the branching cap ({len(points)}! > {self.config.branch_cap})")
        self._regions.put(key, value)
        return value

    def _one(self, board: Board) -> Evaluation:
        cfg = self.config
        grid = board.array()
        h, w = grid.shape
        to_play = board.to_play
        safe = unconditional_life(board)
        influence = influence_map(grid, cfg.influence)
        chains = chain_table(board, safe)
        judge_weak(board, chains, influence, self.judges, cfg)
        won = resolve_urgent(chains, to_play, cfg.urgent_atari_only)
        claimed = {p: -c.color for c in chains if c.fate == -1 for p in c.stones}
        if won is not None:
            point = won.attack if won.color != to_play else won.defense
            if point is not None and grid[point] == 0:
                claimed[point] = to_play
        areas = find_areas(grid, chains, cfg, claimed)
        own = influence_ownership(grid, influence, cfg.influence_full)
        for c in chains:
            fate = cfg.unknown_stone if c.fate is None else float(c.fate)
            for p in c.stones:
                own[p] = c.color * fate
        for p, color in claimed.items():
            own[p] = color
        own[areas.owner != 0] = areas.owner[areas.owner != 0]
        regions = [(pts, self.region_value(board, grid, pts)) for pts in areas.sealed]
        for pts, value in regions:
            share = float(np.clip(value.mean / len(pts), -1.0, 1.0))
            for p in pts:
                own[p] = share
        own[safe != 0] = safe[safe != 0]
        values, sources = self._move_values(board, grid, chains, areas.owner, regions)
        chosen = self.chooser(sources, to_play)
        move = None if chosen is None else chosen.move(to_play)
        policy, pass_policy = make_policy((h, w), values, move, cfg)
        lead = float(own.sum()) - float(board.rules.komi)
        if board.rules.scoring == "territory":
            caps = board.captures
            lead -= float((grid == BLACK).sum() + caps[WHITE] - (grid == WHITE).sum() - caps[BLACK])
        scale = cfg.scale(h * w)
        win = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, lead / scale))))
        extras = self._extras(board, chains, regions, won, chosen, move)
        return Evaluation(to_play=to_play, komi=float(board.rules.komi), policy=policy, pass_policy=pass_policy,
                          ownership=np.clip(own, -1.0, 1.0).astype(np.float32), score_mean=lead,
                          score_stdev=scale * math.pi / math.sqrt(3), score_lead=lead, win=win, loss=1.0 - win,
                          extras=extras)

    def _move_values(self, board: Board, grid: np.ndarray, chains: list[Chain], enclosed: np.ndarray,
                     regions: list[tuple[list[Point], RegionValue]]) -> tuple[dict[Point, float], list[Source]]:
        """Every legal move's value (a temperature in points) and the sources orthodox play compares."""
        to_play = board.to_play
        eyes = own_eyes(grid, to_play)
        legal = [p for p in board.legal_moves(to_play) if not eyes[p]]
        in_region = {p for pts, _ in regions for p in pts}
        open_points = [p for p in legal if p not in in_region and enclosed[p] == 0]
        values = open_move_values(grid, open_points, self.config)
        for p in legal:
            if p in in_region:
                values[p] = 0.0
            elif enclosed[p] != 0:
                values[p] = -0.5  # inside settled territory: worth nothing
        sources: list[Source] = []
        if values and open_points:
            best = max(open_points, key=lambda p: values[p])
            sources.append(Source("open", 0.0, values[best], GOTE, best, best))
        for i, (pts, value) in enumerate(regions):
            for color in (BLACK, WHITE):
                for p in (value.best_black if color == BLACK else value.best_white):
                    if color == to_play and p in values:
                        values[p] = max(values[p], value.temperature)
            black = value.best_black[0] if value.best_black else None
            white = value.best_white[0] if value.best_white else None
            sources.append(Source(f"region {i}", value.mean, value.temperature, value.kind, black, white,
                                  value.component))
        for c in chains:
            if c.status not in ("critical", "ko", "atari"):
                continue
            t = swing(c) / 2
            black = c.defense if c.color == BLACK else c.attack
            white = c.defense if c.color == WHITE else c.attack
            mine = black if to_play == BLACK else white
            if mine in values:
                values[mine] = max(values[mine], t)
            sources.append(Source(f"chain {to_gtp(c.stones[0], board.height)}", 0.0, t, GOTE, black, white))
        return values, sources

    def _extras(self, board: Board, chains: list[Chain], regions, won: Optional[Chain], chosen, move) -> dict:
        """Per-region values and thermographs, the dead chains, every judged chain's status, the orthodox pick."""
        height = board.height
        out_regions = []
        for pts, v in regions:
            th = v.thermograph if v.thermograph is not None else getattr(v.component, "thermograph", None)
            out_regions.append({"points": pts, "mean": v.mean, "temperature": v.temperature, "kind": v.kind,
                                "exact": v.exact, "best_black": list(v.best_black), "best_white": list(v.best_white),
                                "thermograph": th, "nodes": v.nodes, "notes": list(v.notes)})
        return {
            "regions": out_regions,
            "dead": [c.stones for c in chains if c.fate == -1],
            "statuses": {to_gtp(c.stones[0], height): c.status for c in chains if c.status != "presumed"},
            "urgent_won": None if won is None else to_gtp(won.stones[0], height),
            "orthodox": None if chosen is None else chosen.label,
            "orthodox_move": move,
            "judge_calls": self.judges.calls,
            "judge_hits": self.judges.hits,
        }
