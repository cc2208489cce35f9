"""The native playout player behind `tengen gtp --evaluator playouts`: genmove through the C search of
`tengen.search.native_uct` (UCT with RAVE over Mogo-style heavy playouts, no network).

What it adds to `NativeUct.genmove`:
* the budget: `playouts` per move, at most `seconds`, and under a GTP clock the seconds
  `tengen.search.time_control` gives this move (the smaller of the two);
* resignation: after `resign_consecutive` searches in a row whose chosen move's win rate is under
  `resign_threshold` (default 0.05; 0: never), the answer is `resign`; passing follows the search's pass rule
  (no move but own-eye fills, or the opponent passed and the board's area count already wins);
* dynamic komi (`dynamic_komi="vs"`: Baudiš's value-situational komi, `tengen.search.dynamic_komi`): each search
  of a colour is scored with a komi moved one point from that colour's last one while its win rate was outside
  (45 %, 55 %), so that a handicap game does not look won from the first move and every move alike; the tree is
  kept only while the komi stays. The komi only ever moves against the player (Baudiš: it makes a lead harder
  to keep), never below the game's for Black or above it for White: a player behind searches at the game's
  komi, and resigns there (a search under a moved komi never resigns; the pass rule always counts with the
  game's komi). Without that bound a player far behind kept lowering its komi, saw even chances to the end and
  filled its own area while the opponent passed. The methods that need a score or a komi curve (ss, mldk) are
  the network search's;
* `kgs-genmove_cleanup`: the search's move, except that where it would pass while opponent stones stand dead in
  the player's area (by the mean ownership of native playouts) it plays a liberty of such a chain first;
* dead stones (final_score, final_status_list): chains whose mean ownership over `ownership_playouts` native
  playouts is the other side's;
* a line on stderr per move (`verbose`): playouts, playouts per second, the win rate, why that move.
The analysis commands (kata-analyze, ...) need the network search: they answer with an error here.
"""
from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING, Callable, Optional, Union

import numpy as np

from tengen.go.board import Board
from tengen.go.colors import BLACK
from tengen.go.coords import Move, Point, to_gtp
from tengen.io.gtp_base import RESIGN, GtpError

if TYPE_CHECKING:
    from tengen.search.native_uct import MovePrior, NativeUct, UctConfig
    from tengen.search.time_control import TimeSettings


NATIVE_DYNAMIC_KOMI = ("none", "vs")  # the dynamic komi methods the playout engine can follow (a win rate only)


class UctPlayer:
    """One game's native playout player (the GTP engine's `player`). `prior_factory()` gives the additive
    move prior (called once, on the first genmove; None: no prior)."""

    last_result = None  # the analysis commands' report (they are not offered by this player)
    komi_includes_handicap = True  # its searches score with the board's komi: the GTP server adds the handicap bonus

    def __init__(self, config: "UctConfig", prior_factory: Optional[Callable[[], "MovePrior"]] = None,
                 seconds: Optional[float] = None, resign_threshold: float = 0.05, resign_consecutive: int = 3,
                 ownership_playouts: int = 256, verbose: bool = False, dynamic_komi: str = "none"):
        if seconds is not None and not seconds > 0:
            raise ValueError("seconds must be positive")
        if dynamic_komi not in NATIVE_DYNAMIC_KOMI:
            raise ValueError(f"dynamic komi with the playout engine is one of {', '.join(NATIVE_DYNAMIC_KOMI)}, "
                             f"not {dynamic_komi!r} (ss and mldk need the network search's score or komi curve)")
        if not 0 <= resign_threshold < 0.5:
            raise ValueError("resign_threshold must lie in [0, 0.5)")
        self.config = config
        self.seconds = seconds
        self.resign_threshold = resign_threshold
        self.resign_consecutive = resign_consecutive
        self.ownership_playouts = ownership_playouts
        self.verbose = verbose
        self._prior_factory = prior_factory
        self._search: Optional["NativeUct"] = None
        self._resign_count: dict[int, int] = {}
        self.dynamic_komi = dynamic_komi
        self._dynamic = None  # the method, made for the game's komi on the first genmove
        self._komi_state: dict[int, tuple[float, object]] = {}  # colour -> (its last komi, that search's result)

    @property
    def search(self) -> "NativeUct":
        if self._search is None:
            from tengen.search.native_uct import NativeUct

            prior = self._prior_factory() if self._prior_factory is not None else None
            self._search = NativeUct(self.config, prior)
        return self._search

    @property
    def max_side(self) -> int:
        """The largest board side the native engine plays (GTP `boardsize` refuses more)."""
        from tengen.search.native_uct import MAX_SIDE

        return MAX_SIDE

    def _check_size(self, board: Board) -> None:
        """GtpError when the board (a loaded record's) is larger than the native engine plays."""
        if max(board.width, board.height) > self.max_side:
            raise GtpError(f"the playout engine plays boards up to {self.max_side}x{self.max_side}")

    def ensure_loaded(self) -> None:
        raise GtpError("the analysis commands need the network search (--evaluator katago); "
                       "the native playout engine answers genmove only")

    def analyze(self, *args, **kwargs):
        self.ensure_loaded()

    def set_seed(self, seed: int) -> None:
        """A new seed for the playouts (games differ by seed, each reproducible with one thread)."""
        self.config = dataclasses.replace(self.config, seed=int(seed) & 0xFFFF_FFFF_FFFF_FFFF)
        if self._search is not None:
            prior = self._search.prior
            from tengen.search.native_uct import NativeUct

            self._search = NativeUct(self.config, prior)

    def new_game(self) -> None:
        if self._search is not None:
            self._search.clear()
        self._resign_count.clear()
        self._dynamic = None
        self._komi_state.clear()

    def search_komi(self, board: Board, color: int) -> float:
        """The komi `color`'s next search is scored with: the game's, or the dynamic komi's next step."""
        game_komi = float(board.rules.komi)
        if self.dynamic_komi == "none":
            return game_komi
        from tengen.search.dynamic_komi import make_dynamic_komi

        key = (game_komi, board.width * board.height)
        if self._dynamic is None or self._dynamic[0] != key:
            self._dynamic = (key, make_dynamic_komi(self.dynamic_komi, game_komi, key[1]))
            self._komi_state.clear()
        komi, last = self._komi_state.get(color, (game_komi, None))
        moved = float(self._dynamic[1].next_komi(komi, color, len(board.moves), last))
        return max(moved, game_komi) if color == BLACK else min(moved, game_komi)  # only ever against the player

    # ------------------------------------------------------------------ genmove
    def genmove(self, board: Board, color: int, cleanup: bool = False,
                time_settings: Optional["TimeSettings"] = None, time_left: Optional[tuple[float, int]] = None,
                on_progress=None, progress_every: float = 1.0) -> Union[Move, str]:
        """The move for `color` on `board` (not played here): a point, None (pass) or RESIGN."""
        self._check_size(board)
        position = board.copy()
        position.to_play = color
        seconds = self.seconds_for(position, time_settings, time_left)
        komi = self.search_komi(position, color)
        move = self.search.genmove(position, seconds=seconds, komi=komi)
        result = self.search.last
        if result is not None:
            self._komi_state[color] = (komi, result)
        if self.verbose and result is not None:
            moved = f" komi {komi:g}" if komi != position.rules.komi else ""
            print(f"tengen native-uct: {to_gtp(move, board.height)} winrate {result.winrate:.3f}{moved} playouts "
                  f"{result.playouts} ({result.playouts_per_second:.0f}/s, {result.reused} reused) {result.reason}",
                  file=sys.stderr, flush=True)
        if cleanup:
            return move if move is not None else self._cleanup_move(position, color)
        at_game_komi = komi == position.rules.komi
        if move is not None and result is not None and result.reason in ("search", "superko-next") and at_game_komi:
            losing = self.resign_threshold > 0 and result.winrate < self.resign_threshold
            self._resign_count[color] = self._resign_count.get(color, 0) + 1 if losing else 0
            if self._resign_count[color] >= self.resign_consecutive:
                return RESIGN
        return move

    def seconds_for(self, board: Board, time_settings: Optional["TimeSettings"],
                    time_left: Optional[tuple[float, int]]) -> Optional[float]:
        """The clock's budget for this move and the `seconds` cap, the smaller (None: playouts alone)."""
        from tengen.search.time_control import seconds_for_move

        empty = int((board.array() == 0).sum())
        clock = seconds_for_move(time_settings, time_left, empty_points=empty, board_points=board.width * board.height)
        caps = [s for s in (clock, self.seconds, self.config.seconds) if s is not None]
        return min(caps) if caps else None

    # ------------------------------------------------------------------ dead stones and cleanup
    def ownership(self, board: Board) -> np.ndarray:
        from tengen.search.native_uct import playout_ownership

        self._check_size(board)
        return playout_ownership(board, self.ownership_playouts, seed=self.config.seed)

    def dead_stones(self, board: Board) -> list[Point]:
        """Chains whose mean playout ownership is the other side's (the pass rule's judgement too)."""
        from tengen.search.native_uct import playout_dead_stones

        self._check_size(board)
        return playout_dead_stones(board, self.ownership_playouts, seed=self.config.seed)

    def _cleanup_move(self, board: Board, color: int) -> Move:
        """A liberty of an opponent chain the playouts call dead (fewest liberties first), else pass."""
        dead = set(self.dead_stones(board))
        best: Optional[tuple[int, Point]] = None
        for chain in board.chains(-color):
            if chain[0] not in dead:
                continue
            libs = board.chain_liberties(chain[0])
            for p in libs:
                if board.is_legal(color, p) and not _self_atari(board, color, p):
                    if best is None or (len(libs), p) < best:
                        best = (len(libs), p)
        return None if best is None else best[1]


def _self_atari(board: Board, color: int, point: Point) -> bool:
    captured = board.play(color, point)
    libs = board.liberties(point)
    board.undo()
    return libs < 2 and not captured
