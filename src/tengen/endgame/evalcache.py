"""An evaluation cache for the analyzer: one network evaluation per position and color to move.

The analyzer asks for the same positions many times: the root with each color to move (the decomposition
and then every region's tree), the same local position reached by transposed move orders, a probe that is
also a node of another line. Positions are keyed by their stones, the color to move, the ko point and the
rules, not by the move history: KataGo's inputs also hold the last moves, and two move orders to one
position give slightly different outputs; a local tree treats them as one position anyway.
"""
from __future__ import annotations

from typing import Callable, Hashable, Optional, Sequence

from tengen.eval.evaluation import Evaluator, ReportsFresh, display_name
from tengen.phases import phase
from tengen.go.board import Board
from tengen.lru import LruCache


def position_key(board: Board) -> Hashable:
    """Stones, color to move, ko point, komi, rules and size: what the cache treats as one position."""
    return (board.hash, board.to_play, board.ko, board.rules, board.height, board.width)


class CachedEvaluator:
    """Wraps an evaluator; `evaluate` runs the network only on positions not seen before (one batch).

    `evaluations` counts the network evaluations made, `hits` the answers served from the cache, and
    `fresh` flags, for the last call, which boards needed the network (to charge each region its own)."""

    def __init__(self, evaluator, capacity: int = 50_000):
        self.evaluator = evaluator
        self._cache: LruCache = LruCache(capacity)
        self.evaluations = 0
        self.hits = 0
        self.fresh: list[bool] = []

    def evaluate(self, boards: Sequence[Board]) -> list:
        """Evaluations for `boards`, in order; duplicates within the batch are evaluated once."""
        keys = [position_key(b) for b in boards]
        missing: dict[Hashable, Board] = {}
        for key, board in zip(keys, boards):
            if key not in self._cache and key not in missing:
                missing[key] = board
        found = {key: self._cache.get(key) for key in set(keys) if key not in missing}
        if missing:
            with phase("katago", rows=len(missing)):
                evaluations = self.evaluator.evaluate(list(missing.values()))
            for key, ev in zip(missing, evaluations):
                found[key] = ev
                self._cache.put(key, ev)
            self.evaluations += len(missing)
        self.hits += len(boards) - len(missing)
        seen: set = set()
        self.fresh = []
        for key in keys:
            self.fresh.append(key in missing and key not in seen)
            seen.add(key)
        return [found[key] for key in keys]


def fresh_flags(evaluator, count: int) -> list[bool]:
    """Which of the last call's `count` boards needed the network: the cache's record (`ReportsFresh`), or
    all of them for an evaluator without a cache."""
    return list((evaluator.fresh if isinstance(evaluator, ReportsFresh) else None) or [True] * count)


def cached(evaluator):
    """`evaluator` behind a cache (an evaluator that is already cached is returned as it is)."""
    if evaluator is None or isinstance(evaluator, CachedEvaluator):
        return evaluator
    return CachedEvaluator(evaluator)


class NeedsNetwork(RuntimeError):
    """The analysis needs a network (an evaluator) and has no way to get one."""


class NetworkOnDemand:
    """The analysis's evaluator, behind the evaluation cache: the one given, or loaded by `load` the first
    time a stage needs it (once; `NeedsNetwork` when there is no way to get one)."""

    def __init__(self, evaluator: Optional[Evaluator], load: Optional[Callable[[], Evaluator]] = None):
        self.evaluator, self._load = cached(evaluator), load

    def get(self) -> Evaluator:
        if self.evaluator is None:
            if self._load is None:
                raise NeedsNetwork("the analysis needs a network (an evaluator) and none was given")
            self.evaluator = cached(self._load())
        return self.evaluator

    @property
    def name(self) -> str:
        """What reports call the evaluator: its `display_name` ("classic evaluator"), else "network"."""
        inner = None if self.evaluator is None else self.evaluator.evaluator
        return display_name(inner)
