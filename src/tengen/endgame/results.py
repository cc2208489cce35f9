"""What the endgame analyzer returns: one `RegionResult` per region and the whole-board `Analysis`, and the
regions' names as boards and reports show them. Adapters (reports, GTP, JSON) read these types; they hold no
logic beyond what a reader derives from the values (move values in Go conventions, the board count)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Optional

import numpy as np

from tengen.cgt import BLACK_SENTE, GOTE, KO, WHITE_SENTE, KoChain
from tengen.cgt.game import Game
from tengen.cgt.thermo import Thermo
from tengen.endgame.move_check import MoveCheck
from tengen.phases import PhaseClock
from tengen.endgame.regions import Region
from tengen.endgame.tree import LocalTree
from tengen.go.board import Board
from tengen.go.coords import Move, Point

UNSUPPORTED = "unsupported"  # a region the analyzer could not value (a ko its tree analysis cannot value)
# a region the exact solver gave no value for, and no tree answered instead (`declined` says why: not sealed,
# too large, a ko or loop it cannot value, a start already broken into, an infinite count or temperature)
UNSOLVED = "unsolved"


def region_label(index: int) -> str:
    """Region names as they appear on boards: A, B, ..., Z, AA, ..."""
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(65 + rem) + name
    return name


@dataclass(frozen=True)
class LocalValue:
    """What a region's local game is worth, as one method found it (a tree's CGT analysis, the exact solver)."""

    count: Optional[float] = None  # mean of the local game (area), Black's side
    temperature: Optional[float] = None  # area temperature
    kind: str = UNSUPPORTED  # one of tengen.cgt.KINDS, UNSUPPORTED or UNSOLVED
    game: object = None  # the local Game, or the thermograph where there is no plain game (a ko inside)
    game_text: str = ""
    thermograph_text: str = ""
    cold_fight: str = ""
    ko: Optional[KoChain] = None


@dataclass(frozen=True)
class BestPlay:
    """Each colour's best first moves, principal lines and the temperature their first move leaves."""

    best_black: tuple[Point, ...] = ()
    best_white: tuple[Point, ...] = ()
    principal_black: tuple[tuple[int, Move], ...] = ()
    principal_white: tuple[tuple[int, Move], ...] = ()
    follow_black: Optional[float] = None
    follow_white: Optional[float] = None


@dataclass
class RegionResult:
    """What a player wants to know about one local region (built once from its parts: `from_parts`)."""

    region: Region
    count: Optional[float] = None  # mean of the local game (area), Black's side
    temperature: Optional[float] = None  # area temperature
    kind: str = UNSUPPORTED  # one of tengen.cgt.KINDS (gote, black_sente, white_sente, ko, number, ...), UNSUPPORTED or UNSOLVED
    best_black: list[Point] = field(default_factory=list)
    best_white: list[Point] = field(default_factory=list)
    principal_black: list[tuple[int, Move]] = field(default_factory=list)
    principal_white: list[tuple[int, Move]] = field(default_factory=list)
    # the temperature left after each side's first orthodox move: how much its follow-up is worth (<= 0: the
    # move settles the region; inf: it leaves an unanswered threat; None: no move or not known)
    follow_black: Optional[float] = None
    follow_white: Optional[float] = None
    game_text: str = ""
    tree: Optional[LocalTree] = None
    evaluations: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    game: object = None
    exact_rules: bool = False  # a sealed region: the rules core ended lines and counted settled leaves
    method: str = "tree"  # how the value was found: "tree" (a grown variation tree) or "exhaustive" (exact solver)
    declined: str = ""  # why the exact solver, when asked, gave no value (not sealed, too large, a ko it cannot value, ...)
    thermograph_text: str = ""  # the exact solver's thermograph in text: walls' breakpoints, mean, temperature
    cold_fight: str = ""  # a number whose first moves are hot: what each side's best start comes to (else empty)
    ko: Optional[KoChain] = None  # the ko at the root (kind KO): its exits and taker, for orthodox play
    reused: bool = False  # taken from an earlier position's analysis of the same region (a game review)

    @classmethod
    def from_parts(cls, region: Region, value: LocalValue = LocalValue(), play: BestPlay = BestPlay(),
                   **how) -> "RegionResult":
        """The result of `region` from its value, its best play and how it was found (method, tree, notes,
        evaluations, ...: the other fields by name)."""
        parts = {f.name: getattr(value, f.name) for f in fields(value)}
        parts.update({f.name: list(getattr(play, f.name)) if isinstance(getattr(play, f.name), tuple)
                      else getattr(play, f.name) for f in fields(play)})
        return cls(region, **parts, **how)

    @property
    def thermograph(self) -> Optional[Thermo]:
        """The region's thermograph: its game's, or the one the exact solver keeps in `game` where it can give
        no plain game (a ko inside); None without either."""
        if isinstance(self.game, Game):
            return self.game.thermograph
        return self.game if isinstance(self.game, Thermo) else None

    @property
    def cut_tree(self) -> bool:
        """Whether the value comes from a tree its node budget cut (it may miss the lines that decide it)."""
        return self.method == "tree" and self.tree is not None and self.tree.budget_exhausted

    @property
    def miai_value(self) -> Optional[float]:
        """Territory-scoring miai value = area temperature - 1 (a simple ko: swing / 3 is the temperature),
        at least 0; none for a region with no hot move (a number, temperature 0, a threat, unsupported)."""
        if self.temperature is None or self.kind not in HOT_KINDS:
            return None
        return max(self.temperature - 1, 0.0)

    @property
    def deiri_value(self) -> Optional[float]:
        """Deiri value = 2 x miai for gote, = miai for sente and reverse sente."""
        m = self.miai_value
        if m is None or self.kind == KO:
            return None  # a ko has no deiri value in this convention; see its miai (swing / 3)
        return 2 * m if self.kind == GOTE else m


# the kinds of region whose moves gain something: they have move values (miai, deiri)
HOT_KINDS = (GOTE, BLACK_SENTE, WHITE_SENTE, KO)

# points by which half the network's two-sided count difference may exceed the hottest region's temperature
SWING_SLACK = 3.0


@dataclass
class Analysis:
    """The whole-board analysis: the regions' results, the sure count outside them and the recommended move."""

    board: Board
    regions: list[RegionResult]
    ownership: Optional[np.ndarray]  # what Black-first and White-first agree on (see regions.agreed_ownership)
    sure_count: float
    recommended: Optional[tuple[int, Move]] = None
    recommended_reason: str = ""
    evaluations: int = 0
    seconds: float = 0.0
    predictor: str = ""
    # the network's own area count of the whole board (sum of its ownership) with Black and with White to
    # move: a cross-check, since the board count (no one's move) should lie between them
    network_counts: Optional[tuple[float, float]] = None
    move_check: Optional[MoveCheck] = None  # the network's one-move look at the orthodox move (move_check.py)
    evaluator_name: str = "network"  # what the report calls the evaluator (its `display_name`, e.g. "classic evaluator")
    phases: Optional[PhaseClock] = None  # where the analysis's time went, by phase (tengen.phases)
    lead: Optional[float] = None  # the network's score lead (Black's side) with the side to move: a review sets it
    settings: dict = field(default_factory=dict)  # the resolved AnalysisOptions, as `AnalysisOptions.summary` gives them
    critical_groups: list = field(default_factory=list)  # groups the side to move decides (tengen.life.notes.CriticalGroup)

    def count_outside_network(self, slack: float = 1.0) -> bool:
        """Whether the board count lies more than `slack` points outside the network's two counts (a count
        with no one's move should lie between them): a region is then probably misjudged."""
        count = self.board_count
        if self.network_counts is None or count is None:
            return False
        low, high = sorted(self.network_counts)
        return not low - slack <= count <= high + slack

    def underread_swing(self, slack: float = SWING_SLACK) -> Optional[tuple[float, Optional[float]]]:
        """(half the network's Black-first minus White-first count, the hottest region's temperature or None
        when no region has one) when the first exceeds the second (taken as at least 0) by more than `slack`
        points: with each side to move the count moves by about the hottest move's value, so a region is
        then probably under-read (a cut tree). Else None."""
        if self.network_counts is None or not self.regions:
            return None
        half_swing = abs(self.network_counts[0] - self.network_counts[1]) / 2
        hottest = max((r.temperature for r in self.regions if r.temperature is not None), default=None)
        return (half_swing, hottest) if half_swing - max(hottest or 0.0, 0.0) > slack else None

    @property
    def board_count(self) -> Optional[float]:
        """Sure territory plus the regions' counts (area, Black's side, before komi)."""
        if any(r.count is None for r in self.regions):
            return None
        return self.sure_count + sum(r.count for r in self.regions)
