"""Every setting of an endgame analysis in one frozen dataclass, checked when it is made: the CLI, the
library's front door and the benches build one `AnalysisOptions` and hand it down, instead of threading
keyword arguments through each layer of the analyzer."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Union

from tengen.endgame.leaves import DEFAULT_LEAF_CONFIDENCE
from tengen.endgame.move_check import DEFAULT_MARGIN
from tengen.endgame.predictors import LocalMovePredictor
from tengen.endgame.regions import DEFAULT_HOT_SWING, DEFAULT_THRESHOLD
from tengen.endgame.tree import GrowthConfig

PREDICTORS = ("auto", "kata", "oracle", "exhaustive", "net")
LEAF_SCORINGS = ("evaluator", "exact", "valuenet")
LEAF_BATCHES = ("board", "region")


MAX_MARGIN = 25  # growing a region further than a board's side changes nothing; bounded so a huge value cannot hang


@dataclass(frozen=True)
class AnalysisOptions:
    """How to analyze: the local-move predictor (a name of PREDICTORS or a predictor object), the ownership
    threshold that makes a point undecided, how far to grow regions (`margin`), the trees' thresholds and
    budgets (`growth`; None: the tree module's defaults), how leaves are scored (the evaluator's rounded
    ownership, or an exact local area count), when a region with several hot spots is split (`hot_swing`,
    0 or less keeps it whole), whether sealed regions follow the exact rules, the margin by which the
    network may overrule the orthodox move on a whole board (None: no check), and the local-move network's
    weights file for `net` (and `auto`, which uses `net` where a trained network exists; None: the
    committed default); with `leaf_scoring="valuenet"`, tengen's value network (`value_model`, None: the
    committed BV-ML-VN) scores the leaves it is sure of (every region point's |ownership| at least
    `leaf_confidence` away from 0.5, where rounding flips) and the evaluator (KataGo) the rest. Leaves are
    scored for all regions together (`leaf_batches="board"`: fewer, fuller network batches) or region by
    region (`"region"`, the older path, kept for the speed bench's before-and-after)."""

    predictor: Union[str, LocalMovePredictor] = "kata"
    threshold: float = DEFAULT_THRESHOLD
    margin: int = 0
    growth: Optional[GrowthConfig] = None
    leaf_scoring: str = "evaluator"
    hot_swing: float = DEFAULT_HOT_SWING
    sealed_rules: bool = True
    move_check_margin: Optional[float] = DEFAULT_MARGIN
    local_model: Optional[str] = None
    value_model: Optional[str] = None
    leaf_confidence: float = DEFAULT_LEAF_CONFIDENCE
    leaf_batches: str = "board"

    def __post_init__(self) -> None:
        if isinstance(self.predictor, str) and self.predictor not in PREDICTORS:
            raise ValueError(f"unknown predictor {self.predictor!r} ({', '.join(PREDICTORS)})")
        if self.leaf_scoring not in LEAF_SCORINGS:
            raise ValueError(f"leaf_scoring must be one of {', '.join(LEAF_SCORINGS)}, not {self.leaf_scoring!r}")
        if self.leaf_batches not in LEAF_BATCHES:
            raise ValueError(f"leaf_batches must be one of {', '.join(LEAF_BATCHES)}, not {self.leaf_batches!r}")
        if not (isinstance(self.leaf_confidence, (int, float)) and 0 <= self.leaf_confidence <= 0.5):
            raise ValueError(f"leaf_confidence must lie in [0, 0.5], not {self.leaf_confidence!r}")
        if not (isinstance(self.threshold, (int, float)) and 0 < self.threshold <= 1):
            raise ValueError(f"threshold must lie in (0, 1], not {self.threshold!r}")
        if not isinstance(self.margin, int) or not 0 <= self.margin <= MAX_MARGIN:
            raise ValueError(f"margin must be a whole number of points from 0 to {MAX_MARGIN} (a board's side), "
                             f"not {self.margin!r}")
        if self.move_check_margin is not None and not math.isfinite(self.move_check_margin):
            raise ValueError(f"move_check_margin must be a finite number of points or None, not {self.move_check_margin!r}")

    @property
    def predictor_name(self) -> str:
        return self.predictor if isinstance(self.predictor, str) else self.predictor.name

    def needs_network(self, has_region: bool) -> bool:
        """Whether these settings need the network (the evaluator) whatever the position (`auto` on a
        marked region may not: the exact solver can finish it). `net` proposes moves itself but needs the
        evaluator to find regions and score leaves."""
        return (self.predictor == "kata" or not has_region
                or (self.predictor in ("oracle", "net") and self.leaf_scoring != "exact"))
