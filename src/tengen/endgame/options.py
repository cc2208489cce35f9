"""Every setting of an endgame analysis in one frozen dataclass, checked when it is made, and the one home
of the defaults a user gets: the CLI's flags, the library's `tengen.analyze`, batch jobs, the GTP and JSON
engines and the web UI all start from `AnalysisOptions()` and change only what their user asked for, and
every `auto` is made concrete in one place (`AnalysisOptions.resolved`, which the analyzer calls), so the
same position with the same settings gets the same answer from every front end."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Optional, Union

from tengen.endgame.leaves import DEFAULT_LEAF_CONFIDENCE
from tengen.endgame.move_check import DEFAULT_MARGIN
from tengen.endgame.move_predictors import MOVE_PREDICTORS
from tengen.endgame.predictors import LocalMovePredictor
from tengen.endgame.regions import DEFAULT_HOT_SWING, DEFAULT_THRESHOLD
from tengen.endgame.tree import GrowthConfig
from tengen.eval.evaluation import Described, wrapped_chain

PREDICTORS = ("auto", "kata", "oracle", "exhaustive", "net")
# how a region is valued, by `predictor`: "exact" (the exhaustive solver only), "auto" (the exact solver where
# it finishes, else a tree) or "tree" (a tree grown by the move predictor of that name, or a predictor object)
REGION_METHOD_OF = {"auto": "auto", "exhaustive": "exact"}
LEAF_SCORINGS = ("auto", "evaluator", "exact", "valuenet", "solver")
LEAF_BATCHES = ("board", "region")
LEAVES_FLAG_NAMES = {"evaluator": "network"}  # leaf_scoring as `tengen analyze --leaves` names it (else the same)
DEFAULT_MAX_NODES = 800  # per region's tree (the CLI's --max-nodes)
DEFAULT_MAX_TOTAL_NODES = 1000  # shared by the trees of one position (--max-total-nodes)


def default_growth() -> GrowthConfig:
    """The trees' default thresholds with the default budgets."""
    return GrowthConfig(max_nodes=DEFAULT_MAX_NODES, max_total_nodes=DEFAULT_MAX_TOTAL_NODES)


DEFAULT_CHECK_VISITS = 64  # the move check's search per candidate (BENCHMARKS: Fuego's uct_endgame, 32 against 64)
DEFAULT_MISTAKE_CHECK_VISITS = 32  # the review's check of each flagged move: a whole game's worth of searches
MAX_CHECK_VISITS = 10_000  # the move check's search per candidate: bounded so a huge value cannot hang
MAX_MARGIN = 25  # growing a region further than a board's side changes nothing; bounded so a huge value cannot hang


@dataclass(frozen=True)
class AnalysisOptions:
    """How to analyze: the local-move predictor (a name of PREDICTORS or a predictor object), the ownership
    threshold that makes a point undecided, how far to grow regions (`margin`), the trees' thresholds and
    budgets (`growth`; None: the tree module's `GrowthConfig()`), how leaves are scored (`auto`, the
    evaluator's rounded ownership, or an exact local area count), when a region with several hot spots is split (`hot_swing`,
    0 or less keeps it whole), whether sealed regions follow the exact rules, the margin by which the
    network may overrule the orthodox move on a whole board (None: no check), and the local-move network's
    weights file for `net` (and `auto`, which uses `net` where a trained network exists; None: the
    committed default); with `leaf_scoring="valuenet"`, tengen's value network (`value_model`, None: the
    committed BV-ML-VN) scores the leaves it is sure of (every region point's |ownership| at least
    `leaf_confidence` away from 0.5, where rounding flips) and the evaluator (KataGo) the rest. Leaves are
    scored for all regions together (`leaf_batches="board"`: fewer, fuller network batches) or region by
    region (`"region"`, the older path, kept for the speed bench's before-and-after). The defaults are what
    every front end gives a user; `resolved` makes each `auto` concrete."""

    predictor: Union[str, LocalMovePredictor] = "auto"
    threshold: float = DEFAULT_THRESHOLD
    margin: int = 0
    growth: Optional[GrowthConfig] = field(default_factory=default_growth)
    leaf_scoring: str = "auto"
    hot_swing: float = DEFAULT_HOT_SWING
    sealed_rules: bool = True
    move_check_margin: Optional[float] = DEFAULT_MARGIN
    local_model: Optional[str] = None
    value_model: Optional[str] = None
    leaf_confidence: float = DEFAULT_LEAF_CONFIDENCE
    leaf_batches: str = "board"
    life_groups: int = 2  # groups at stake that `tengen.analyze` reads for life and death on a whole board (0: none)
    # the move check's look: a search of this many visits after each of the orthodox and the policy move
    # (`tengen.analyze` gives it: tengen.search.move_look), 0 for the network's one-move look
    move_check_visits: int = DEFAULT_CHECK_VISITS

    def __post_init__(self) -> None:
        if isinstance(self.predictor, str) and self.predictor not in PREDICTORS:
            raise OptionError("predictor", f"unknown predictor {self.predictor!r} ({', '.join(PREDICTORS)})")
        if self.leaf_scoring not in LEAF_SCORINGS:
            raise OptionError("leaf_scoring", f"leaf_scoring must be one of {', '.join(LEAF_SCORINGS)}, not {self.leaf_scoring!r}")
        if self.leaf_batches not in LEAF_BATCHES:
            raise OptionError("leaf_batches", f"leaf_batches must be one of {', '.join(LEAF_BATCHES)}, not {self.leaf_batches!r}")
        if not (isinstance(self.leaf_confidence, (int, float)) and 0 <= self.leaf_confidence <= 0.5):
            raise OptionError("leaf_confidence", f"leaf_confidence must lie in [0, 0.5], not {self.leaf_confidence!r}")
        if not isinstance(self.life_groups, int) or self.life_groups < 0:
            raise OptionError("life_groups", f"life_groups must be a whole number at least 0, not {self.life_groups!r}")
        if not (isinstance(self.threshold, (int, float)) and 0 < self.threshold <= 1):
            raise OptionError("threshold", f"threshold must lie in (0, 1], not {self.threshold!r}")
        if not isinstance(self.margin, int) or not 0 <= self.margin <= MAX_MARGIN:
            raise OptionError("margin", f"margin from 0 to {MAX_MARGIN} points (a board's side, a whole number), "
                              f"not {self.margin!r}")
        if self.move_check_margin is not None and not math.isfinite(self.move_check_margin):
            raise OptionError("move_check_margin", "move_check_margin must be a finite number of points or None, not "
                              f"{self.move_check_margin!r}")
        if not isinstance(self.move_check_visits, int) or not 0 <= self.move_check_visits <= MAX_CHECK_VISITS:
            raise OptionError("move_check_visits", f"move_check_visits must be a whole number from 0 to "
                              f"{MAX_CHECK_VISITS}, not {self.move_check_visits!r}")
        growth = self.growth or GrowthConfig()
        if not isinstance(growth.max_nodes, int) or growth.max_nodes < 1:
            raise OptionError("max_nodes", f"max_nodes must be a whole number at least 1, not {growth.max_nodes!r}")
        if growth.max_total_nodes is not None and (not isinstance(growth.max_total_nodes, int)
                                                   or growth.max_total_nodes < 1):
            raise OptionError("max_total_nodes", "max_total_nodes must be a whole number at least 1 or None (no "
                              f"shared cap), not {growth.max_total_nodes!r}")

    def resolved(self, evaluator=None) -> "AnalysisOptions":
        """These settings with `auto` made concrete, the one place that does it. Leaves `auto`: tengen's value
        network (KataGo where it is unsure) when its weights exist (`value_model`, or the committed default),
        else the evaluator's rounded ownership. With an evaluator that uses no network (the classic one),
        leaves `auto` are its ownership and predictor `auto` its policy (`kata`; sealed regions still end by
        the exact rules). Predictor `auto` otherwise stays: the analyzer decides per region (the exact
        solver, else `tree_predictor`)."""
        leaves, predictor = self.leaf_scoring, self.predictor
        if _network_free(evaluator):
            leaves = "evaluator" if leaves == "auto" else leaves
            predictor = "kata" if predictor == "auto" else predictor
        elif leaves == "auto":
            from tengen.eval.valuenet.weights import default_weights

            leaves = "valuenet" if self.value_model is not None or default_weights() is not None else "evaluator"
        if (leaves, predictor) == (self.leaf_scoring, self.predictor):
            return self
        return replace(self, leaf_scoring=leaves, predictor=predictor)

    def tree_predictor(self) -> str:
        """The predictor `auto` grows trees with where the exact solver does not finish a region: `net` when
        a trained local-move network exists (`local_model`, or the committed default), else `kata`."""
        if self.local_model is not None:
            return "net"
        from tengen.eval.localnet.weights import default_weights

        return "net" if default_weights() is not None else "kata"

    def with_budgets(self, max_nodes: int, max_total_nodes: Optional[int]) -> "AnalysisOptions":
        """These settings with other tree budgets (`max_total_nodes` 0 or None: no shared cap)."""
        return replace(self, growth=replace(self.growth or GrowthConfig(), max_nodes=max_nodes,
                                            max_total_nodes=max_total_nodes or None))

    def summary(self) -> dict:
        """The settings a user would want stated beside a result (after `resolved`), by `tengen analyze`'s
        flag names."""
        growth = self.growth or GrowthConfig()
        return {"predictor": self.predictor_name,
                "leaves": LEAVES_FLAG_NAMES.get(self.leaf_scoring, self.leaf_scoring),
                "max_nodes": growth.max_nodes, "max_total_nodes": growth.max_total_nodes or 0,
                "threshold": self.threshold, "margin": self.margin,
                "move_check": -1 if self.move_check_margin is None else self.move_check_margin,
                "move_check_visits": self.move_check_visits,
                "sealed_rules": self.sealed_rules, "life_groups": self.life_groups}

    @property
    def predictor_name(self) -> str:
        return self.predictor if isinstance(self.predictor, str) else self.predictor.name

    @property
    def region_method(self) -> str:
        """How each region is valued: "exact", "auto" (exact where the solver finishes, else a tree) or
        "tree" (`REGION_METHOD_OF`)."""
        return REGION_METHOD_OF.get(self.predictor, "tree") if isinstance(self.predictor, str) else "tree"

    def move_predictor(self) -> Union[str, LocalMovePredictor, None]:
        """What proposes a tree's moves: the predictor named (or given), `tree_predictor()` under `auto`,
        None for the exact solver alone."""
        method = self.region_method
        return None if method == "exact" else self.tree_predictor() if method == "auto" else self.predictor

    def needs_network(self, has_region: bool) -> bool:
        """Whether these settings need the network (the evaluator) whatever the position (`auto` on a
        marked region may not: the exact solver can finish it). `net` and `oracle` propose moves themselves
        but need the evaluator to find regions and score leaves; `kata` proposes with it."""
        if not has_region:
            return True
        if self.region_method != "tree" or not isinstance(self.predictor, str):
            return False
        return MOVE_PREDICTORS[self.predictor].proposes_with_evaluator or self.leaf_scoring not in ("exact", "solver")


class OptionError(ValueError):
    """A setting out of range: `field` names it (the CLI names its flag instead: `flag_message`)."""

    def __init__(self, field_name: str, message: str):
        super().__init__(message)
        self.field = field_name

    def flag_message(self, flags: dict[str, str]) -> str:
        """The message with the field's name replaced by its flag (`flags`: field -> flag)."""
        flag = flags.get(self.field)
        text = str(self)
        return text.replace(self.field, flag, 1) if flag and text.startswith(self.field) else (
            f"{flag}: {text}" if flag else text)


def _network_free(evaluator) -> bool:
    """Whether `evaluator` (through any caches or guards wrapped around it) says it uses no network."""
    return any(isinstance(inner, Described) and inner.uses_network is False for inner in wrapped_chain(evaluator))


def leaf_scoring_of_flag(leaves: str) -> str:
    """`leaf_scoring` for a `--leaves` value (the CLI's and the web's name `network` is `evaluator`)."""
    return {flag: name for name, flag in LEAVES_FLAG_NAMES.items()}.get(leaves, leaves)

