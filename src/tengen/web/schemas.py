"""The web API's request and response models (pydantic): every input is checked here, before any work."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from tengen.endgame.options import DEFAULT_MAX_NODES, DEFAULT_MAX_TOTAL_NODES
from tengen.endgame.regions import DEFAULT_THRESHOLD

MAX_LINE_MOVES = 400  # moves played from a position (a local tree's path, a variation)
MAX_PASTE_CHARS = 1_000_000  # a pasted SGF record
MAX_NODES_LIMIT = 5000  # per local tree, whatever the request asks
MAX_TOTAL_NODES_LIMIT = 20000  # per analysis
MAX_TIME_LIMIT_S = 600.0  # per analysis or review
MAX_REVIEW_MOVES = 400  # moves one review covers
MAX_MOVE_NUMBER = 100_000
MoveNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_MOVE_NUMBER)]  # a move of a main line (1: the first)


class Strict(BaseModel):
    """Unknown fields are refused: a typo in a request is an error, not a silent default."""

    model_config = ConfigDict(extra="forbid")


class PasteIn(Strict):
    """An SGF record pasted as text."""

    sgf: str = Field(min_length=1, max_length=MAX_PASTE_CHARS)


class PathIn(Strict):
    """An SGF file named by its path relative to the served folder."""

    path: str = Field(min_length=1, max_length=1024)


class MoveOut(BaseModel):
    number: int
    color: Literal["B", "W"]
    vertex: str


class VariationOut(BaseModel):
    """A side line of the main line: it starts after `at_move` moves (its first moves, up to 50)."""

    at_move: int
    moves: list[str]


class RecordOut(BaseModel):
    id: str
    source: str
    width: int
    height: int
    komi: float
    rules: str
    rules_said: str  # where the rules and komi come from: the record, or what was assumed and why
    black: Optional[str] = None
    white: Optional[str] = None
    result: Optional[str] = None
    moves: list[MoveOut]
    variations: list[VariationOut]
    warnings: list[str]


class FilesOut(BaseModel):
    """A page of the served folder's records: `files` from `offset`, `total` matching `search` in all, and
    `complete` false when the folder held more records than the server reads for one listing."""

    folder: Optional[str]
    files: list[str]
    total: int = 0
    offset: int = 0
    search: str = ""
    complete: bool = True


class PositionIn(Strict):
    """A position: a record's main line after `move` moves (None: the end), then the moves of `line`
    ("B D4", "W pass") played from there (a variation or a local tree's path)."""

    record: str = Field(min_length=1, max_length=64)
    move: Optional[int] = Field(default=None, ge=0, le=MAX_MOVE_NUMBER)
    line: list[str] = Field(default_factory=list, max_length=MAX_LINE_MOVES)


class PositionOut(BaseModel):
    record: str
    move: int
    width: int
    height: int
    to_play: Literal["B", "W"]
    stones: list[list[int]]  # rows from the top; 1 Black, -1 White, 0 empty
    last_move: Optional[str] = None
    captures: dict[str, int]
    komi: float


class EvaluateIn(PositionIn):
    """A network evaluation request; `client` (one id per page) lets a newer request from the same page
    supersede an older one still waiting for the network (stepping through a record: the latest wins)."""

    client: Optional[str] = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


class EvaluationOut(BaseModel):
    """The network's view of the position it names (`record`, `move`, `line`, as asked): ownership (+1
    Black's), Black's score lead, Black's win rate, win rate by komi. `superseded`: a newer request from
    the same page came while this one waited, so it was not evaluated (every number is then empty).
    `undecided_threshold`: a point whose |ownership| is below it is undecided (the analysis's regions)."""

    record: str = ""
    move: Optional[int] = None
    line: list[str] = []
    superseded: bool = False
    ownership: list[list[float]] = []
    undecided_threshold: float = DEFAULT_THRESHOLD
    score_lead: float = 0.0
    score_mean: float = 0.0
    win: float = 0.0
    komi: float = 0.0
    winrate_by_komi: list[tuple[float, float]] = []
    policy_best: Optional[str] = None


class InfluenceOut(BaseModel):
    model: str
    influence: list[list[int]]
    territory: list[list[int]]


class AnalysisIn(PositionIn):
    """An endgame analysis request: the settings are `tengen analyze`'s flags by name with its defaults
    (`AnalysisOptions()`: budgets capped server-side), and a time limit."""

    region: Optional[str] = Field(default=None, max_length=2000)
    predictor: Literal["auto", "kata", "net", "exhaustive"] = "auto"
    leaves: Literal["auto", "network", "exact", "valuenet"] = "auto"  # not "solver" (every leaf solved exactly: too much work for one request)
    max_nodes: int = Field(default=DEFAULT_MAX_NODES, ge=1, le=MAX_NODES_LIMIT)
    max_total_nodes: int = Field(default=DEFAULT_MAX_TOTAL_NODES, ge=0, le=MAX_TOTAL_NODES_LIMIT)
    time_limit_s: float = Field(default=300.0, gt=0, le=MAX_TIME_LIMIT_S)


def _move_or_auto(value: Any) -> Any:
    """A review's `from`: one clear error for anything but "auto" or a move number (the union's own errors
    name both of its branches)."""
    if value == "auto" or (type(value) is int and 1 <= value <= MAX_MOVE_NUMBER):
        return value
    raise PydanticCustomError("move_or_auto", 'should be "auto" or a move number (1 or more)')


class ReviewIn(Strict):
    """A game review request: moves `from`..`to` of a record's main line (1-based, inclusive; `from` "auto":
    where the endgame starts, found by the network; `to` null: the last move), with a time limit. The
    range is checked against the record by the route, at most MAX_REVIEW_MOVES moves (from "auto": by the
    job, once it has found the start)."""

    record_id: str = Field(min_length=1, max_length=64)
    start: Annotated[Union[MoveNumber, Literal["auto"]], BeforeValidator(_move_or_auto)] = Field(default="auto",
                                                                                                alias="from")
    end: Optional[MoveNumber] = Field(default=None, alias="to")
    time_limit_s: float = Field(default=MAX_TIME_LIMIT_S, gt=0, le=MAX_TIME_LIMIT_S)


class JobOut(BaseModel):
    id: str
    status: Literal["queued", "running", "done", "failed", "cancelled"]
    stage: str = ""
    done: int = 0
    total: int = 0
    error: Optional[str] = None
    seconds: float = 0.0


class ThermographOut(BaseModel):
    """A region's thermograph in numbers: walls as (temperature, value) points, Black's values positive."""

    region: str
    kind: str
    mean: Optional[float]
    temperature: Optional[float]
    top: float
    left: list[tuple[float, float]]
    right: list[tuple[float, float]]
    left_infinite: bool
    right_infinite: bool


class RecommendedOut(BaseModel):
    color: Literal["B", "W"]
    move: Optional[str]
    reason: str


AnyJson = dict[str, Any]


MAX_QUIZ_REVIEWS = 16  # reviews one quiz round draws from


class QuizAnswerIn(Strict):
    """A quiz answer: the position (a review and the moves played before it) and the move clicked ("D4", "pass")."""

    review: str = Field(min_length=1, max_length=64)
    move: int = Field(strict=True, ge=0, le=MAX_MOVE_NUMBER)
    play: str = Field(min_length=1, max_length=8)


class OwnMoveIn(Strict):
    """A move of the user's own inside a solved diagram's region ("D2"), by `color` (default: the side to move)."""

    move: str = Field(min_length=2, max_length=4)
    color: Optional[Literal["B", "W"]] = None
