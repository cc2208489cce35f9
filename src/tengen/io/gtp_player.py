"""The search player behind `tengen gtp --player search`: genmove through the MCTS (`tengen.search`).

What it adds to a bare `Search.run`:
* the budget: `visits` per move, at most `seconds` (the `--seconds` cap), and under a GTP clock the seconds
  `tengen.search.time_control` gives this move (the smaller of the two);
* dynamic komi: each search of a color runs under `make_dynamic_komi(...).next_komi(...)` of that color's
  last result (the game's komi with `none`);
* resignation: after `resign_consecutive` searches in a row with at least `min_resign_visits` visits and the
  player's win rate (at the game's komi) under `resign_threshold` (SearchConfig), the answer is `resign`;
* `kgs-genmove_cleanup`: the search's move, except that it never passes (nor resigns) while the search's
  ownership says opponent stones stand dead in the player's area: it then plays a liberty of such a chain
  (the one the search ranks best; else the chain with the fewest liberties, no self-atari), so the dead
  stones are captured before the game ends;
* dead stones (final_score, final_status_list) from the search's ownership: a chain is dead when the
  ownership of its points (averaged over the chain, Black's view) says the other side owns them
  (threshold 0).

The network is loaded on the first command that needs it (`load_evaluator`), so GTP starts instantly; a
failure is the GTP error `cannot load the network: ...`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Union

import numpy as np

from tengen.go.board import Board
from tengen.go.colors import BLACK
from tengen.go.coords import Move, Point
from tengen.io.gtp_base import RESIGN, GtpError
from tengen.search.move_choice import HALFLIFE_MOVES, TEMPERATURE_EARLY

if TYPE_CHECKING:  # tengen.search imports the network's modules (torch): loaded with the network, not at start
    from tengen.search.results import SearchConfig, SearchResult
    from tengen.search.time_control import TimeSettings

DEFAULT_VISITS = 64
ANALYSIS_MAX_VISITS = 100_000
# ML-DK with an evaluator whose leaves carry no komi curve (KataGo): the root's curve from a komi sweep over the
# labels this close to the search's komi (15 labels: one network batch of 16)
MLDK_SWEEP_RADIUS = 7.0  # an analysis command searches until the next command, or this many visits


@dataclass(frozen=True)
class PlayerSettings:
    """The player's own settings beside the search's (`SearchConfig`)."""

    seconds: Optional[float] = None  # at most this per move (None: visits alone, unless a clock runs)
    dynamic_komi: str = "none"  # one of tengen.search.dynamic_komi.DYNAMIC_KOMI_NAMES
    analysis_visits: int = ANALYSIS_MAX_VISITS
    temperature_early: float = TEMPERATURE_EARLY  # the early-move draw after set_random_seed (0: most visited)
    temperature_halflife: float = HALFLIFE_MOVES  # moves of a 19x19 board, scaled by the board's area

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("seconds must be positive")
        if not 0 <= self.temperature_early <= 10:
            raise ValueError("temperature_early must lie in [0, 10]")
        if not self.temperature_halflife > 0:
            raise ValueError("temperature_halflife must be positive")
        if self.analysis_visits < 1:
            raise ValueError("analysis_visits must be at least 1")


class SearchPlayer:
    """One game's search player. `load_evaluator()` gives the evaluator (called once, on first need);
    `search_factory(evaluator, config)` makes the search (default `tengen.search.Search`). `config`: a
    SearchConfig, or a dict of its fields (made on first use, so that GTP starts without tengen.search)."""

    def __init__(self, load_evaluator: Callable[[], object], config: Union["SearchConfig", dict, None] = None,
                 settings: PlayerSettings = PlayerSettings(), search_factory: Optional[Callable] = None):
        self._load_evaluator = load_evaluator
        self._config = config
        self.settings = settings
        self._search_factory = search_factory
        self._search = None
        self._resign_count: dict[int, int] = {}
        self._komi_state: dict[int, tuple[float, Optional[SearchResult]]] = {}
        self._dynamic = None
        self._dynamic_key: Optional[tuple] = None
        self._ownership_cache: Optional[tuple[tuple, Optional[np.ndarray]]] = None
        self.last_result: Optional[SearchResult] = None
        self.last_seconds: Optional[float] = None  # the seconds the last genmove gave its search (tests, logs)
        self._rng: Optional[random.Random] = None  # set_random_seed: early moves drawn by visits

    def set_seed(self, seed: int) -> None:
        """Seed the early-move draw (`tengen.search.move_choice`): games differ by seed, each reproducible."""
        self._rng = random.Random(seed)

    # ------------------------------------------------------------------ the network and the tree
    @property
    def config(self) -> "SearchConfig":
        if not hasattr(self._config, "visits"):
            from tengen.search.results import SearchConfig

            self._config = SearchConfig(**(self._config or {}))
        return self._config

    @property
    def search(self):
        """The search (the network loaded on first use); GtpError `cannot load the network: ...` on failure."""
        if self._search is None:
            try:
                evaluator = self._load_evaluator()
            except GtpError:
                raise
            except Exception as e:  # offline with no cached network, a corrupt file, no CUDA ...
                text = " ".join(str(e).split()) or type(e).__name__
                raise GtpError(f"cannot load the network: {text}") from None
            factory = self._search_factory
            if factory is None:
                from tengen.search.mcts import Search

                factory = Search
            self._search = factory(evaluator, self.config)
        return self._search

    def ensure_loaded(self) -> None:
        self.search  # noqa: B018 (loads the network; raises GtpError)

    def new_game(self) -> None:
        """Forget the tree, the resignation counts and the dynamic komi (a new board, a loaded game)."""
        if self._search is not None:
            self._search.clear()
        self._resign_count.clear()
        self._komi_state.clear()
        self._dynamic = None
        self._ownership_cache = None
        self.last_result = None

    # ------------------------------------------------------------------ genmove
    def genmove(self, board: Board, color: int, cleanup: bool = False,
                time_settings: Optional[TimeSettings] = None, time_left: Optional[tuple[float, int]] = None,
                on_progress: Optional[Callable[[SearchResult], None]] = None,
                progress_every: float = 1.0) -> Union[Move, str]:
        """The move for `color` on `board` (not played here): a point, None (pass) or RESIGN."""
        position = _to_move(board, color)
        seconds = self.seconds_for(position, time_settings, time_left)
        komi = self._search_komi(position, color)
        extra = {}
        if self.settings.dynamic_komi == "mldk":
            extra["komi_sweep"] = _sweep_labels(position.rules.komi if komi is None else komi)
        result = self.search.run(position, visits=self.config.visits, seconds=seconds, komi=komi,
                                 on_progress=on_progress, progress_every=progress_every, **extra)
        self.last_result, self.last_seconds = result, seconds
        self._komi_state[color] = (result.komi if komi is not None else position.rules.komi, result)
        if result.ownership is not None:
            self._ownership_cache = (_position_key(position), result.ownership)
        if cleanup:
            return self._cleanup_move(position, color, result)
        if self._should_resign(position, color, result):
            return RESIGN
        from tengen.search.move_choice import chosen_move

        return chosen_move(result, len(position.moves), self._rng, position.width * position.height,
                           self.settings.temperature_early, self.settings.temperature_halflife)

    def seconds_for(self, board: Board, time_settings: Optional[TimeSettings],
                    time_left: Optional[tuple[float, int]]) -> Optional[float]:
        """The search's time limit: the clock's budget for this move and the `seconds` cap, the smaller."""
        from tengen.search.time_control import seconds_for_move

        empty = int((board.array() == 0).sum())
        clock = seconds_for_move(time_settings, time_left, empty_points=empty, board_points=board.width * board.height)
        caps = [s for s in (clock, self.settings.seconds) if s is not None]
        return min(caps) if caps else None

    def _search_komi(self, board: Board, color: int) -> Optional[float]:
        """The dynamic komi of this search (None: the board's own komi, no dynamic komi in use)."""
        if self.settings.dynamic_komi == "none":
            return None
        from tengen.search.dynamic_komi import make_dynamic_komi  # loads the value net's labels: on first use

        key = (board.rules.komi, board.width * board.height)
        if self._dynamic is None or self._dynamic_key != key:
            self._dynamic = make_dynamic_komi(self.settings.dynamic_komi, board.rules.komi, key[1])
            self._dynamic_key = key
            self._komi_state.clear()
        komi, last = self._komi_state.get(color, (board.rules.komi, None))
        return float(self._dynamic.next_komi(komi, color, len(board.moves), last))

    # ------------------------------------------------------------------ analysis
    def analyze(self, board: Board, should_stop: Optional[Callable[[], bool]] = None,
                on_progress: Optional[Callable[[SearchResult], None]] = None,
                progress_every: float = 1.0) -> SearchResult:
        """Search `board` (its side to move) under the game's komi until `should_stop()` or
        `settings.analysis_visits` visits (an analysis command's search)."""
        result = self.search.run(board, visits=self.settings.analysis_visits, should_stop=should_stop,
                                 on_progress=on_progress, progress_every=progress_every)
        key = _position_key(board)
        if result.ownership is not None:
            self._ownership_cache = (key, result.ownership)
        elif self._ownership_cache is not None and self._ownership_cache[0] == key:
            result.ownership = self._ownership_cache[1]  # a reused tree that needed no new visit
        return result

    # ------------------------------------------------------------------ resignation
    def _should_resign(self, board: Board, color: int, result: SearchResult) -> bool:
        cfg = self.config
        winrate = _winrate_at(result, color, board.rules.komi)
        losing = cfg.resign_threshold > 0 and result.visits >= cfg.min_resign_visits and winrate < cfg.resign_threshold
        count = self._resign_count.get(color, 0) + 1 if losing else 0
        self._resign_count[color] = count
        return count >= cfg.resign_consecutive

    # ------------------------------------------------------------------ cleanup
    def _cleanup_move(self, board: Board, color: int, result: SearchResult) -> Move:
        """The search's move, unless it passes while opponent stones stand dead in the player's area."""
        if result.best is not None:
            return result.best
        own = result.ownership if result.ownership is not None else self.ownership(board)
        if own is None:
            return None
        targets = [chain for chain in board.chains(-color) if _chain_dead(chain, -color, own)]
        if not targets:
            return None
        liberties = {}
        for chain in targets:
            libs = board.chain_liberties(chain[0])
            for p in libs:
                liberties[p] = min(liberties.get(p, 1_000), len(libs))
        legal = [p for p in liberties if board.is_legal(color, p)]
        if not legal:
            return None
        ranked = [s.move for s in result.moves if s.move in liberties and s.move in legal]
        if ranked:
            return ranked[0]
        safe = [p for p in legal if not _self_atari(board, color, p)] or legal
        return min(safe, key=lambda p: (liberties[p], p))

    # ------------------------------------------------------------------ dead stones
    def ownership(self, board: Board) -> Optional[np.ndarray]:
        """The search's ownership of `board` (Black's view), searched once per position."""
        key = _position_key(board)
        if self._ownership_cache is not None and self._ownership_cache[0] == key:
            return self._ownership_cache[1]
        result = self.search.run(board.copy(), visits=self.config.visits, seconds=self.settings.seconds)
        if result.ownership is None:  # a reused tree that needed no new visit: search the position afresh
            self.search.clear()
            result = self.search.run(board.copy(), visits=self.config.visits, seconds=self.settings.seconds)
        self._ownership_cache = (key, result.ownership)
        return result.ownership

    def dead_stones(self, board: Board) -> list[Point]:
        """Stones the search's ownership gives to the other side (by chain; none without an ownership)."""
        own = self.ownership(board)
        if own is None:
            from tengen.go.scoring import benson_dead_stones

            return benson_dead_stones(board)
        dead: list[Point] = []
        for color in (BLACK, -BLACK):
            for chain in board.chains(color):
                if _chain_dead(chain, color, own):
                    dead.extend(chain)
        return sorted(dead)


# ---------------------------------------------------------------------- helpers
def _sweep_labels(komi: float) -> list[float]:
    """The komi labels within MLDK_SWEEP_RADIUS of `komi` (ML-DK's window on the curve)."""
    from tengen.search.dynamic_komi import KOMI_LABELS

    return [k for k in KOMI_LABELS if abs(k - komi) <= MLDK_SWEEP_RADIUS]


def _to_move(board: Board, color: int) -> Board:
    """A copy of `board` with `color` to move (GTP lets a controller ask for either color)."""
    position = board.copy()
    position.to_play = color
    return position


def _position_key(board: Board) -> tuple:
    return (board.hash, board.to_play, board.rules.komi, len(board.moves), board.width, board.height)


def _chain_dead(chain: list[Point], color: int, ownership: np.ndarray) -> bool:
    """The other side owns the chain's points (mean ownership, Black's view, against the chain's color)."""
    mean = float(np.mean([ownership[p] for p in chain]))
    return mean * color < 0


def _self_atari(board: Board, color: int, point: Point) -> bool:
    captured = board.play(color, point)
    libs = board.liberties(point)
    board.undo()
    return libs < 2 and not captured


def _winrate_at(result: SearchResult, color: int, komi: float) -> float:
    """`color`'s win rate at the game's `komi`: the search's own when it searched under it, else read off
    its komi curve (linear between labels) when it has one, else the search's."""
    own = result.winrate if result.to_play == color else 1.0 - result.winrate
    curve = result.winrate_by_komi
    if abs(result.komi - komi) < 1e-9 or not curve:
        return own
    labels = sorted(curve)
    black = float(np.interp(komi, labels, [curve[k] for k in labels]))
    return black if color == BLACK else 1.0 - black

