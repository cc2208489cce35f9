"""PUCT Monte Carlo tree search over `tengen.go` boards with batched leaf evaluation.

Each round selects up to `batch_size` leaves (virtual loss keeps the paths apart; a path that meets a
leaf already waiting for the network is a collision and is dropped), sends them to the evaluator in one
call, expands them with the policy as priors and backs up Black's win rate, score lead and, when the
evaluator gives one, the win rate at every komi label. The value is the network's: no rollouts (lambda = 1).

Passes: a pass is a move like any other (its prior is the network's pass policy); two passes in a row end
the game, and the node is scored exactly: Tromp-Taylor area under area rules (what the rules core
counts; dead stones must be captured to count as dead, as in KataGo's search), the network's evaluation
of the finished position under territory rules (where dead stones stay on the board).

The additive move prior (off unless `config.prior_weight > 0` and a `move_prior` is given): a child's
selection score is

    score(i) = Q(i) + c_puct * P(i) * sqrt(N_parent) / (1 + n_i) + prior_weight * p_prior(i) / (1 + n_i)

with Q the child's utility for the player choosing (FPU for an unvisited child), P the evaluator's policy prior,
N_parent the parent's visits and n_i the child's (both with pending virtual-loss visits), and p_prior(i) the
move prior's probability of move i in the node's position (0 for pass and for points it leaves out). The seed is
Rosin's PUCB (2011), which puts prior knowledge into an additive term of the bandit's score that fades as
evidence accumulates; Cortigo added its PBN probabilities to Fuego's UCT formula the same way. Here the term
decays with the child's own visits, like Chaslot et al.'s progressive bias H_i / (n_i + 1). The prior is
computed once per expanded node (19x19 positions only) and kept on the node (`Node.move_prior`).
"""
from __future__ import annotations

import math
import random
import time
from typing import Callable, Collection, Optional, Sequence, Union

import numpy as np

from tengen.eval.evaluation import Symmetric
from tengen.eval.katago.features import KataRules, build_history
from tengen.go.board import Board, IllegalMove
from tengen.go.coords import Move, Point
from tengen.go.scoring import area_score
from tengen.search.node import Node
from tengen.search.results import MoveStats, SearchConfig, SearchResult

MAX_COLLISIONS_PER_ROUND = 4  # collisions tolerated in one round before the batch is sent as it is
PRIOR_BOARD_SIZE = 19  # the additive move prior is computed on boards of this size only (the PBN's)
MovePrior = Callable[[Board], Union[dict[Point, float], np.ndarray]]


class Search:
    """A search tree over one game, reused between moves when the next position continues the last one.

    evaluator: anything with `evaluate(boards) -> [Evaluation]` (KataGo, tengen's value network behind a
    policy, a stand-in). An evaluator with a `symmetries` attribute evaluates the root with
    `config.root_symmetries` of them; one with `winrate_by_komi(board, komis)` can give the root's komi curve
    (`run(..., komi_sweep=...)`) when its leaf evaluations carry none. move_prior: the additive prior's
    probabilities for the side to move of a board ((height, width) array or {point: p}), used when
    `config.prior_weight > 0` (see the module's docstring for the formula).
    """

    def __init__(self, evaluator, config: SearchConfig = SearchConfig(), move_prior: Optional[MovePrior] = None):
        self.evaluator = evaluator
        self.config = config
        self.move_prior = move_prior
        self._rng = random.Random(config.seed)
        self._root: Optional[Node] = None
        self._root_board: Optional[Board] = None
        self._komi_labels: Optional[np.ndarray] = None
        self._network_seconds = 0.0
        self._evaluations = 0
        self._own_sum: Optional[np.ndarray] = None
        self._own_count = 0
        self._terminal_komi = 0.0
        self._root_allowed: Optional[set] = None  # run(allowed_root_moves=): the root's searchable moves

    # ------------------------------------------------------------------ public
    def clear(self) -> None:
        """Forget the tree (a new game, or a position that does not continue the last one)."""
        self._root = None
        self._root_board = None

    def run(self, board: Board, visits: Optional[int] = None, seconds: Optional[float] = None,
            komi: Optional[float] = None, should_stop: Optional[Callable[[], bool]] = None,
            on_progress: Optional[Callable[[SearchResult], None]] = None,
            progress_every: float = 1.0, komi_sweep: Optional[Sequence[float]] = None,
            allowed_root_moves: Optional[Collection[Move]] = None) -> SearchResult:
        """Search `board` (its `to_play` moves) until `visits` root visits (default config.visits), `seconds`
        elapsed, or `should_stop()` is true; `komi` overrides the board's komi (dynamic komi). The tree is
        reused when `board` continues the previously searched game under the same komi. `on_progress(result)`
        is called about every `progress_every` seconds (analysis commands) and never changes the search.
        `komi_sweep`: komi labels for the root's curve when the leaves carry none (a network sweep at the root).
        `allowed_root_moves`: only these root moves are searched (the JSON protocol's avoidMoves / allowMoves);
        when none of them is a candidate the filter is ignored, so the search still answers."""
        start = time.perf_counter()
        target = self.config.visits if visits is None else int(visits)
        if target < 1:
            raise ValueError("visits must be at least 1")
        root_board = board.copy()
        if komi is not None and float(komi) != root_board.rules.komi:
            root_board.rules = root_board.rules.with_komi(float(komi))
        self._network_seconds, self._evaluations = 0.0, 0
        self._set_root(root_board)
        self._root_allowed = None if allowed_root_moves is None else set(allowed_root_moves)
        root = self._root
        assert root is not None
        if not root.expanded:
            self._evaluate_root(root_board, root)
        last_report = time.perf_counter()
        while root.visits < target:
            if should_stop is not None and should_stop():
                break
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
            self._round(root_board, root, target - root.visits)
            if on_progress is not None and time.perf_counter() - last_report >= progress_every:
                last_report = time.perf_counter()
                on_progress(self.result(time.perf_counter() - start))
        result = self.result(time.perf_counter() - start)
        if komi_sweep is not None and result.winrate_by_komi is None and hasattr(self.evaluator, "winrate_by_komi"):
            t0 = time.perf_counter()
            ks = [float(k) for k in komi_sweep]
            curve = self.evaluator.winrate_by_komi(root_board, ks)
            self._network_seconds += time.perf_counter() - t0
            result.winrate_by_komi = dict(zip(ks, (float(w) for w in curve)))
            result.network_seconds = self._network_seconds
        return result

    def result(self, seconds: float = 0.0) -> SearchResult:
        """The root as it stands: moves by visits, values from the side to move's view."""
        root, board = self._root, self._root_board
        if root is None or board is None:
            raise RuntimeError("no search has run")
        su = self.config.score_utility
        player = root.to_play
        stats: list[MoveStats] = []
        for i, child in enumerate(root.children):
            if child is None or child.visits == 0:
                continue
            lead = child.black_lead() if player == 1 else -child.black_lead()
            stats.append(MoveStats(
                move=root.moves[i], visits=child.visits, winrate=child.winrate_for(player), score_lead=lead,
                prior=float(root.priors[i]), lcb=child.winrate_lcb(player), utility=child.utility_for(player, su),
                pv=[root.moves[i]] + child.principal_variation(su)))
        stats.sort(key=lambda s: (-s.visits, -s.utility, -s.prior))
        for order, s in enumerate(stats):
            s.order = order
        stats = stats[: self.config.max_children_reported]
        if stats:
            best = stats[0].move
        elif root.moves:
            best = root.moves[int(np.argmax(root.priors))]
        else:
            best = None
        by_komi = None
        if root.komi_sum is not None and self._komi_labels is not None and root.visits:
            curve = root.komi_sum / root.visits
            by_komi = {float(k): float(w) for k, w in zip(self._komi_labels, curve)}
        ownership = self._own_sum / self._own_count if self._own_sum is not None and self._own_count else None
        lead = root.black_lead() if player == 1 else -root.black_lead()
        return SearchResult(to_play=player, komi=float(board.rules.komi), visits=root.visits,
                            winrate=root.winrate_for(player), score_lead=lead, moves=stats, best=best,
                            ownership=ownership, winrate_by_komi=by_komi, seconds=seconds,
                            network_seconds=self._network_seconds, evaluations=self._evaluations,
                            root_policy=dict(zip(root.moves, (float(p) for p in root.priors))))

    # ------------------------------------------------------------------ the root and tree reuse
    def _set_root(self, board: Board) -> None:
        """Keep the subtree of the position `board` reached from the last root, or start afresh."""
        old, old_board = self._root, self._root_board
        self._root_board = board
        self._terminal_komi = board.rules.komi + _handicap_compensation(board)
        node = self._reused(old, old_board, board) if old is not None and old_board is not None else None
        if node is None:
            node = Node(board.moves[-1][1] if board.moves else None, board.to_play, 1.0)
        # the ownership average restarts with every search (a kept subtree's ownership is not tracked per node)
        self._own_sum, self._own_count = None, 0
        node.parent = None
        self._root = node

    @staticmethod
    def _reused(old: Node, old_board: Board, board: Board) -> Optional[Node]:
        n = len(old_board.moves)
        if (board.rules != old_board.rules or board.width != old_board.width or board.height != old_board.height
                or board.moves[:n] != old_board.moves or len(board.moves) < n):
            return None
        walker = old_board.copy()
        node: Optional[Node] = old
        for color, move in board.moves[n:]:
            if node is None or not node.expanded or color != node.to_play or move not in node.moves:
                return None
            node = node.children[node.moves.index(move)]
            try:
                walker.play(color, move)
            except IllegalMove:
                return None
        if node is None or not node.expanded or node.terminal:
            return None
        if walker.to_play != board.to_play or not np.array_equal(walker.array(), board.array()):
            return None
        return node

    def _evaluate_root(self, board: Board, root: Node) -> None:
        symmetries = self.evaluator.symmetries if isinstance(self.evaluator, Symmetric) else None
        if isinstance(symmetries, int):
            self.evaluator.symmetries = max(symmetries, self.config.root_symmetries)
        try:
            evaluation = self._evaluate([board])[0]
        finally:
            if isinstance(symmetries, int):
                self.evaluator.symmetries = symmetries
        self._expand(root, board, evaluation)
        self._backup([root], *self._values(evaluation))

    # ------------------------------------------------------------------ one round
    def _round(self, root_board: Board, root: Node, wanted: int) -> None:
        leaves: list[tuple[list[Node], Board]] = []
        collisions = 0
        size = min(self.config.batch_size, max(1, wanted))
        while len(leaves) < size and collisions <= MAX_COLLISIONS_PER_ROUND:
            path, leaf_board = self._select(root_board, root)
            leaf = path[-1]
            if leaf.terminal:
                self._backup(path, *self._terminal_values(leaf_board))
                if not leaves:
                    return  # a terminal answer costs no network call: let the caller check its limits
                continue
            if leaf.pending:
                collisions += 1
                continue
            for node in path:
                node.pending += self.config.virtual_loss
            leaves.append((path, leaf_board))
        if not leaves:
            return
        evaluations = self._evaluate([b for _, b in leaves])
        for (path, leaf_board), evaluation in zip(leaves, evaluations):
            for node in path:
                node.pending -= self.config.virtual_loss
            self._expand(path[-1], leaf_board, evaluation)
            self._backup(path, *self._values(evaluation))

    def _select(self, root_board: Board, root: Node) -> tuple[list[Node], Board]:
        """Walk down by PUCT from the root to an unexpanded or terminal node; its board (a copy)."""
        board = root_board.copy()
        node, path = root, [root]
        while node.expanded and not node.terminal:
            i = self._pick(node)
            if i is None:  # nothing legal left (every candidate refused): the position is a pass-only one
                break
            move = node.moves[i]
            board.play(node.to_play, move)
            child = node.children[i]
            if child is None:
                child = Node(move, board.to_play, float(node.priors[i]), node)
                child.terminal = board.consecutive_passes >= 2
                node.children[i] = child
            node = child
            path.append(node)
        return path, board

    def _pick(self, node: Node) -> Optional[int]:
        """The child maximizing PUCT (plus the additive prior when on); at the root only allowed moves, if any
        allowed move is a candidate. Candidates are legal: `_expand` keeps only those."""
        cfg = self.config
        player = node.to_play
        parent_visits = node.visits + node.pending
        sqrt_n = math.sqrt(max(parent_visits, 1))
        fpu = node.utility_for(player, cfg.score_utility) - cfg.fpu_reduction
        best, best_score = None, -math.inf
        extra = node.move_prior
        allowed = self._root_allowed if node is self._root else None
        if allowed is not None and not any(m in allowed for m in node.moves):
            allowed = None  # nothing allowed is a candidate: search them all rather than answer nothing
        for i, prior in enumerate(node.priors):
            if allowed is not None and node.moves[i] not in allowed:
                continue
            child = node.children[i]
            if child is None or child.visits + child.pending == 0:
                q, n = fpu, 0
            else:
                n = child.visits + child.pending
                # pending visits count as losses for the player choosing them (virtual loss)
                q = child.utility_for(player, cfg.score_utility) * child.visits / n if child.visits else 0.0
            score = q + cfg.c_puct * prior * sqrt_n / (1 + n)
            if extra is not None:
                score += cfg.prior_weight * extra[i] / (1 + n)
            if score > best_score:
                best, best_score = i, score
        return best

    # ------------------------------------------------------------------ expansion and values
    def _expand(self, node: Node, board: Board, evaluation) -> None:
        """Candidates: every point with policy > 0 that is legal now (superko included), and pass."""
        policy = np.asarray(evaluation.policy, dtype=np.float64)
        moves: list[Move] = []
        priors: list[float] = []
        for r, c in np.argwhere(policy > 0):
            point = (int(r), int(c))
            if board.is_legal(node.to_play, point):
                moves.append(point)
                priors.append(float(policy[r, c]))
        moves.append(None)
        priors.append(max(float(evaluation.pass_policy), 1e-6 if len(moves) > 1 else 1.0))
        total = sum(priors)
        node.moves = moves
        node.priors = np.array(priors, dtype=np.float64) / total
        node.children = [None] * len(moves)
        node.move_prior = self._move_prior(board, moves)
        node.expanded = True
        own = np.asarray(evaluation.ownership, dtype=np.float64)
        self._own_sum = own.copy() if self._own_sum is None else self._own_sum + own
        self._own_count += 1

    def _move_prior(self, board: Board, moves: list[Move]) -> Optional[np.ndarray]:
        """The additive prior of each candidate (pass: 0), or None when it is off or the board is not 19x19."""
        if self.move_prior is None or self.config.prior_weight <= 0.0:
            return None
        if board.width != PRIOR_BOARD_SIZE or board.height != PRIOR_BOARD_SIZE:
            return None
        probs = self.move_prior(board)
        if isinstance(probs, dict):
            return np.array([float(probs.get(m, 0.0)) if m is not None else 0.0 for m in moves], dtype=np.float64)
        grid = np.asarray(probs, dtype=np.float64)
        return np.array([float(grid[m]) if m is not None else 0.0 for m in moves], dtype=np.float64)

    def _values(self, evaluation) -> tuple[float, float, Optional[np.ndarray]]:
        """(Black's win rate, Black's lead, Black's win rate per komi label or None) of an evaluation."""
        curve = None
        by_komi = evaluation.winrate_by_komi
        if by_komi:
            labels = sorted(by_komi)
            self._komi_labels = np.array(labels, dtype=np.float64)
            curve = np.array([by_komi[k] for k in labels], dtype=np.float64)
        return float(evaluation.winrate), float(evaluation.score_lead), curve

    def _terminal_values(self, board: Board) -> tuple[float, float, Optional[np.ndarray]]:
        """A game ended by two passes: Tromp-Taylor area count under area rules, else the network's view."""
        if board.rules.scoring == "territory":
            return self._values(self._evaluate([board])[0])
        count = area_score(board, komi=0.0)
        margin = count.black - count.white - self._terminal_komi
        win = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
        curve = None
        if self._komi_labels is not None:
            diff = count.black - count.white - (self._terminal_komi - board.rules.komi)
            curve = np.where(diff > self._komi_labels, 1.0, np.where(diff < self._komi_labels, 0.0, 0.5))
        return win, float(margin), curve

    def _backup(self, path: list[Node], black_win: float, black_lead: float, curve: Optional[np.ndarray]) -> None:
        for node in path:
            node.add(black_win, black_lead, curve)

    def _evaluate(self, boards: list[Board]):
        t0 = time.perf_counter()
        out = self.evaluator.evaluate(boards)
        self._network_seconds += time.perf_counter() - t0
        self._evaluations += len(boards)
        return out


def _handicap_compensation(board: Board) -> float:
    """Points White gets for handicap stones under the board's rules (Chinese: N, AGA: N - 1), as KataGo
    counts them; added to komi when a finished game is counted in the tree."""
    return float(build_history(board, KataRules.from_rules(board.rules)).handicap_bonus)
