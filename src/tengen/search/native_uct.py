"""The native playout search (`tengen.search._uct`) over tengen's `Board`: a classic computer-Go Monte Carlo
tree search of the Mogo / Fuego / Pachi kind, with no network.

What the C engine does (see the headers of `src/tengen/search/_uct*.h`; its board is tengen.go's board core,
`src/tengen/go/_board_core.h`, the one the rules core plays on, with the playouts' 8-neighbour codes added):
* playouts with the heuristics of Gelly, Wang, Munos and Teytaud (2006), "Modification of UCT with patterns in
  Monte-Carlo Go" (Mogo), in their priority order: answer atari (capture the last move's chain, or save an own
  chain by capturing or by extending to >= 2 liberties, but not into a ladder that catches it: `_uct_ladder.h`, as
  Pachi's playouts check; the default knowledge values such an escape as a self-atari), the Mogo 3x3 patterns
  around the last move, capture
  anywhere (with probability 1/2), then random moves that fill no own eye, big self-ataris (>= 3 stones) drawn
  again; a playout ends at two passes (neither side has a legal move but filling its own eyes) or after 3 x the
  board's points in moves, and is scored by area with eyes counted, with komi (Benson's pass-alive test,
  `_uct.pass_alive`, is offered but not run inside the playouts: it costs more than the ~13 moves it would save);
  the mercy rule (Fuego, Pachi, Orego) ends a playout as soon as one side leads by `mercy` x points^0.75 stones
  on the board (`mercy`, recommended 0.6: 50 on 19x19, 16 on 9x9; see MERCY_RECOMMENDED, MERCY_DEFAULT) and
  scores it by that stone count with komi; it is off for a search whose root already has such a lead;
* UCT (Kocsis and Szepesvari 2006, "Bandit based Monte-Carlo planning") with RAVE / AMAF values (Gelly and
  Silver 2007, "Combining online and offline knowledge in UCT"; Gelly and Silver 2011, "Monte-Carlo tree search
  and rapid action value estimation in computer Go"): value = (1 - beta) Q + beta Q_amaf, beta = n_amaf /
  (n + n_amaf + n n_amaf / E), Silver's (2009, thesis) minimum-MSE schedule written with an equivalence
  parameter E (`rave_equivalence`, default 1000: RAVE decides until a move has about a thousand real visits,
  the order of magnitude Fuego and Pachi use on 19x19 with playout budgets of 10^4 - 10^5); no UCB term
  by default (`exploration` 0, as Gelly and Silver found best with RAVE);
* first-play urgency: an unvisited child is valued by its AMAF value when it has AMAF samples, else by `fpu`
  (default 1.0, so every move is tried once before any is repeated); pass is valued 0 until visited;
* expansion of a leaf after `expand_threshold` visits (default 4: a 19x19 node costs ~360 children, so a
  little evidence first keeps the tree within the node pool);
* default prior knowledge (`knowledge`, "classic" by default; "none" for the engine as it played before it): each
  new node's children start with virtual games (a value and a count, in both Q and Q_amaf) from what the
  playout policy would play there, self-ataris and 3x3 patterns, after Fuego's GoUctDefaultPriorKnowledge and
  Gelly and Silver (2007)'s prior as virtual experience, and on large boards by the line of a move in an empty
  area (Pachi's large-board prior; `_uct_knowledge.h` has the rule); the search reports real visits only;
* Rosin (2011), "Multi-armed bandits with episode context": an additive prior term W p(move) / (1 + n) in the
  value (or W p sqrt(K / (n + K)) with `prior_decay` K > 0, as Fuego's additive knowledge fades), p from a Python callable asked when a node within `prior_depth` plies of the root is expanded, or
  when a deeper node reaches `prior_visits` visits (the PBN costs ~1.5 ms a call);
* root parallelism (Cazenave and Jouandeau 2007, "On the parallelization of UCT"; Chaslot, Winands and van den
  Herik 2008, "Parallel Monte-Carlo tree search"): `threads` trees, root statistics summed, GIL released;
* budgets: `playouts` per move and / or `seconds`, whichever comes first, and an early stop when the most
  visited move cannot be overtaken; tree reuse between moves when the new position continues the last.

This wrapper adds what needs the whole game: the root's move must be legal under tengen's rules (positional
superko included; the next most visited otherwise), and the pass rule: pass when (a) no legal move that fills no
own eye remains, or (b) the opponent has just passed and the area count with komi wins for the player to move both
as the board stands (Tromp-Taylor) and once the chains the playouts call dead are taken off (`playout_dead_stones`:
the referee of a game under area rules removes dead stones, so the count as it stands alone would count the
player's own dead stones for it and pass into a lost game; where only the second count wins, playing on to take
the opponent's dead stones off costs nothing under area scoring), or (c) the chosen move's win rate is below
`pass_winrate` (default 0: never; the GTP player resigns instead, see `tengen.io.gtp_uct_player`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from tengen.go.board import Board
from tengen.go.coords import Point
from tengen.go.scoring import area_score
from tengen.search import _uct

MovePrior = Callable[[np.ndarray, int], np.ndarray]  # (stones int8 HxW, to_play) -> float HxW
FPU_DEFAULT = 1.0
RAVE_EQUIVALENCE_DEFAULT = 1000.0
EXPAND_THRESHOLD_DEFAULT = 4
KNOWLEDGE = ("none", "classic")  # new nodes' prior knowledge: none, or classic (_uct_knowledge.h)
KNOWLEDGE_DEFAULT = "classic"
# The playouts' mercy rule as a coefficient k (recommended 0.6, MERCY_RECOMMENDED): a playout stops when one
# side leads by round(k * points ** 0.75) stones on the board (50 on 19x19, 28 on 13x13, 16 on 9x9; 0: off).
# Measured from the empty board with komi 7.5 (full playouts, noting when the lead first reached each
# threshold), the leader at that moment lost the finished playout in about 0.3 % of playouts on all three sizes
# at this k (19x19: 0.25 % at 45 stones, 0.05 % at 54; 13x13: 0.3 % at 28; 9x9: 0.45 % at 16, 0 at 20), so
# k * points ** 0.75 keeps that error flat where a fixed share of the area would not (12.5 % of the points:
# 0.25 % wrong on 19x19, 5-10 % on 9x9). On the empty 19x19 board it ends ~40 % of search playouts early,
# 439 -> 419 moves a playout, ~9 % more playouts a CPU second (late moves are the dearer ones); from mid-game
# positions 7-16 % fewer moves.
MERCY_RECOMMENDED = 0.6
# Off by default for now (issue 45): the PBN match in progress started without the rule, and its later games must
# play the same engine as its earlier ones. Set MERCY_DEFAULT = MERCY_RECOMMENDED once that match is done.
MERCY_DEFAULT = 0.0
# The engine's real limits: its board (sides 2..19), its counters and its memory.
MAX_SIDE = _uct.MAX_SIDE
MAX_PLAYOUTS = 1 << 24  # per move: a node's win sum is a 32-bit float, exact up to 2^24 playouts
C_INT_MAX = (1 << 31) - 1  # the engine's int settings: expand_threshold, prior_depth, prior_visits
NODE_BYTES = 32  # one node of a thread's tree (_uct_tree.h)
MAX_THREADS = 16  # each thread reserves its own tree, max_nodes x 32 bytes (128 MB at the default): 2 GB at most


def _mercy_kw(stones: int) -> dict:
    """The Engine keyword for the mercy rule: none when it is off (builds of _uct before the rule took none)."""
    return {"mercy": stones} if stones else {}


def mercy_stones(mercy: float, width: int, height: int) -> int:
    """The mercy rule's lead in stones for coefficient `mercy` on a width x height board (0: off)."""
    return 0 if mercy <= 0 else max(1, round(mercy * (width * height) ** 0.75))


@dataclass(frozen=True)
class UctConfig:
    """Settings of the native search (see the module docstring for what each means and why its default)."""

    playouts: int = 10_000          # per move (0: `seconds` alone)
    seconds: Optional[float] = None  # per move (None: `playouts` alone)
    threads: int = 1
    rave_equivalence: float = RAVE_EQUIVALENCE_DEFAULT
    expand_threshold: int = EXPAND_THRESHOLD_DEFAULT
    fpu: float = FPU_DEFAULT
    exploration: float = 0.0
    prior_weight: float = 1.0       # W of the additive prior (used only with a prior)
    prior_depth: int = 2            # ask the prior for nodes this many plies from the root ...
    prior_visits: int = 200         # ... and for deeper nodes with this many visits
    prior_decay: float = 0.0        # 0: the prior term fades as 1 / (1 + n); K > 0: as sqrt(K / (n + K)) (Fuego's)
    mercy: float = MERCY_DEFAULT    # playouts' mercy rule: stop at a lead of mercy * points ** 0.75 stones (0: off)
    knowledge: str = KNOWLEDGE_DEFAULT  # new nodes' prior knowledge, one of KNOWLEDGE
    pass_winrate: float = 0.0       # pass when the chosen move's win rate is below this (0: never)
    max_nodes: int = 4_000_000      # per tree (NODE_BYTES a node)
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.playouts <= MAX_PLAYOUTS or (self.playouts == 0 and self.seconds is None):
            raise ValueError(f"playouts must be 0..{MAX_PLAYOUTS}, and > 0 unless seconds is given")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("seconds must be positive")
        if not 1 <= self.threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1..{MAX_THREADS} (each reserves a tree of "
                             f"{self.max_nodes * NODE_BYTES // 10**6} MB)")
        if not self.rave_equivalence > 0:
            raise ValueError("rave_equivalence must be positive")
        if not (0 <= self.expand_threshold <= C_INT_MAX and 0 <= self.prior_visits <= C_INT_MAX
                and -1 <= self.prior_depth <= C_INT_MAX):
            raise ValueError(f"expand_threshold and prior_visits must be 0..{C_INT_MAX}, prior_depth -1..{C_INT_MAX}")
        if not (np.isfinite(self.fpu) and self.exploration >= 0 and self.prior_weight >= 0):
            raise ValueError("fpu must be finite, exploration and prior_weight >= 0")
        if not (np.isfinite(self.prior_decay) and self.prior_decay >= 0):
            raise ValueError("prior_decay must be finite and >= 0 (0: the 1 / (1 + n) fade)")
        if not (np.isfinite(self.mercy) and self.mercy >= 0):
            raise ValueError("mercy must be finite and >= 0 (0: off)")
        if self.knowledge not in KNOWLEDGE:
            raise ValueError(f"knowledge must be one of {', '.join(KNOWLEDGE)}")
        if not 0 <= self.pass_winrate < 1:
            raise ValueError("pass_winrate must lie in [0, 1)")

    def describe(self) -> str:
        """One line of the settings that shape the search (GTP `version`, bench headers)."""
        return (f"native-uct rave-equivalence={self.rave_equivalence:g} fpu={self.fpu:g} (AMAF value when sampled) "
                f"expand={self.expand_threshold} exploration={self.exploration:g} mercy={self.mercy:g} "
                f"knowledge={self.knowledge} threads={self.threads}")


@dataclass
class MoveStat:
    """One root move: visits, win rate for the player to move, AMAF visits and win rate, prior."""

    move: Optional[Point]
    visits: int
    winrate: float
    amaf_visits: int
    amaf_winrate: float
    prior: float


@dataclass
class UctResult:
    """What one search found (the GTP front end shows these)."""

    move: Optional[Point]           # the chosen move (None: pass)
    winrate: float                  # the chosen move's win rate for the player to move (0.5 when unknown)
    playouts: int                   # run by this search
    seconds: float
    reused: int                     # root visits kept from the previous search
    nodes: int
    reason: str                     # why this move: search, superko-next, no-moves, opponent-passed-and-won, losing
    moves: list[MoveStat] = field(default_factory=list)
    to_play: int = 0                # the side the search moved for (its win rates are that side's)
    komi: float = 0.0               # the komi the playouts were scored with

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0


class NativeUct:
    """One game's native search: `genmove(board)` for the board's side to move; the tree is kept between
    moves and reused when the next position continues the game. `prior(stones, to_play)`: the additive move
    prior, (height, width) probabilities for the side to move (Rosin 2011), or None."""

    def __init__(self, config: UctConfig = UctConfig(), prior: Optional[MovePrior] = None):
        self.config = config
        self.prior = prior
        self._engine: Optional[object] = None
        self._shape: Optional[tuple[int, int]] = None
        self._last_moves: Optional[list] = None  # the history of the last searched position
        self._last_komi: Optional[float] = None  # the komi its playouts were scored with
        self.last: Optional[UctResult] = None

    def clear(self) -> None:
        """Forget the tree (a new game)."""
        if self._engine is not None:
            self._engine.clear()
        self._last_moves = None

    def _engine_for(self, board: Board):
        shape = (board.width, board.height)
        if self._engine is None or self._shape != shape:
            cfg = self.config
            callback = None
            if self.prior is not None:
                prior, height, width = self.prior, board.height, board.width

                def callback(stones: bytes, to_play: int) -> np.ndarray:
                    grid = np.frombuffer(stones, dtype=np.int8).reshape(height, width)
                    return np.ascontiguousarray(prior(grid, to_play), dtype=np.float64).reshape(-1)
            self._engine = _uct.Engine(board.width, board.height, threads=cfg.threads, seed=cfg.seed,
                                       max_nodes=cfg.max_nodes, rave_equivalence=cfg.rave_equivalence,
                                       expand_threshold=cfg.expand_threshold, fpu=cfg.fpu,
                                       exploration=cfg.exploration, prior=callback,
                                       prior_weight=cfg.prior_weight if callback else 0.0,
                                       prior_depth=cfg.prior_depth, prior_visits=cfg.prior_visits,
                                       prior_decay=cfg.prior_decay,
                                       knowledge=cfg.knowledge != "none",
                                       **_mercy_kw(mercy_stones(cfg.mercy, board.width, board.height)))
            self._shape = shape
            self._last_moves = None
        return self._engine

    def search(self, board: Board, playouts: Optional[int] = None, seconds: Optional[float] = None,
               komi: Optional[float] = None) -> dict:
        """Run the engine on `board` (its side to move), its playouts scored with `komi` (None: the board's); the
        raw result dict of `_uct.Engine.search`. The tree is reused only under the komi it was grown with."""
        engine = self._engine_for(board)
        komi = float(board.rules.komi if komi is None else komi)
        if not np.isfinite(komi):
            raise ValueError(f"komi must be finite, not {komi}")
        if self._last_komi is not None and komi != self._last_komi:
            self.clear()  # its win rates were counted under another komi
        self._last_komi = komi
        w = board.width
        ko = board.ko_point
        last = board.moves[-1][1] if board.moves else None
        last_index = None if not board.moves else (-1 if last is None else last[0] * w + last[1])
        path = None
        history = list(board.moves)
        prev = self._last_moves
        if prev is not None and len(prev) <= len(history) and history[:len(prev)] == prev:
            path = [-1 if p is None else p[0] * w + p[1] for _, p in history[len(prev):]]
        playouts = self.config.playouts if playouts is None else playouts
        seconds = self.config.seconds if seconds is None else seconds
        raw = engine.search(board.array().tobytes(), board.to_play, komi, int(playouts),
                            seconds=float(seconds or 0.0), ko=-1 if ko is None else ko[0] * w + ko[1],
                            last=last_index, path=path)
        self._last_moves = history
        return raw

    def genmove(self, board: Board, playouts: Optional[int] = None, seconds: Optional[float] = None,
                komi: Optional[float] = None) -> Optional[Point]:
        """The move for the board's side to move (None: pass), by the search (its playouts scored with `komi`,
        None: the board's) and the pass rule (the board's own komi); the details in `self.last`."""
        t0 = time.perf_counter()
        raw = self.search(board, playouts, seconds, komi)
        w, color = board.width, board.to_play
        stats = [MoveStat(None if m < 0 else (m // w, m % w), int(v), q, int(av), aq, p)
                 for m, v, q, av, aq, p in raw["moves"]]
        stats.sort(key=lambda s: (-s.visits, -s.amaf_winrate))
        result = UctResult(None, 0.5, raw["playouts"], raw["seconds"], raw["reused"], raw["nodes"], "search", stats,
                           to_play=color, komi=self._last_komi)
        self.last = result
        stones = [s for s in stats if s.move is not None]
        if not stones:
            result.reason = "no-moves"
            return None
        passed = board.moves and board.moves[-1][1] is None and board.moves[-1][0] == -color
        if passed and area_score(board).margin * color > 0 and \
                area_score(board, dead=playout_dead_stones(board, seed=self.config.seed)).margin * color > 0:
            result.reason = "opponent-passed-and-won"
            result.winrate = 1.0
            return None
        for rank, s in enumerate(stones):
            if s.visits == 0 and rank > 0:
                break
            if board.is_legal(color, s.move):
                result.move, result.winrate = s.move, s.winrate if s.visits else 0.5
                result.reason = "search" if rank == 0 else "superko-next"
                break
        else:
            result.reason = "no-moves"
            return None
        if self.config.pass_winrate > 0 and result.winrate < self.config.pass_winrate:
            result.reason, result.move = "losing", None
            return None
        result.seconds = result.seconds or time.perf_counter() - t0
        return result.move


def playout_ownership(board: Board, playouts: int = 256, seed: int = 0) -> np.ndarray:
    """The mean final ownership (Black's view, -1..1) of `playouts` native heavy playouts from `board`."""
    if playouts < 1:
        raise ValueError("playouts must be at least 1")
    ko = board.ko_point
    _, _, _, own = _uct.playouts(board.array().tobytes(), board.width, board.height, board.to_play,
                                 float(board.rules.komi), playouts, seed=seed,
                                 ko=-1 if ko is None else ko[0] * board.width + ko[1])
    return np.frombuffer(own, dtype=np.float64).reshape(board.height, board.width).copy()


# Playouts that judge which stones are dead before the pass rule counts.
DEAD_STONE_PLAYOUTS = 256


def playout_dead_stones(board: Board, playouts: int = DEAD_STONE_PLAYOUTS, seed: int = 0) -> list[Point]:
    """The stones of the chains whose mean final ownership over `playouts` native playouts from `board` (its side
    to move) is the other side's: what a referee under area rules takes off before counting."""
    own = playout_ownership(board, playouts, seed=seed)
    dead: list[Point] = []
    for color in (1, -1):
        for chain in board.chains(color):
            if float(np.mean([own[p] for p in chain])) * color < 0:
                dead.extend(chain)
    return sorted(dead)


def board_move_prior(move_prior: Callable[[Board], np.ndarray], rules=None) -> MovePrior:
    """A `MovePrior` (stones, to_play) from a prior over tengen Boards (`tengen.search.pbn_prior.pbn_move_prior`)."""
    def prior(stones: np.ndarray, to_play: int) -> np.ndarray:
        board = Board(stones.shape[1], stones.shape[0], rules=rules)
        board.set_array(stones)
        board.to_play = to_play
        return np.asarray(move_prior(board), dtype=np.float64)
    return prior
