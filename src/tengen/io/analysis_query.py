"""One line of KataGo's JSON analysis protocol read into an `AnalysisQuery` or an `Action`, with every error
and warning in KataGo's shapes and words (its `cpp/command/analysis.cpp`), so clients such as KaTrain react
to tengen as they do to KataGo.

Fields are checked in KataGo's order; the first error ends the query (`{"error":...,"field":...,"id":...}`),
warnings (`{"warning":...,"field":...,"id":...}`) go out and the query still runs. A line that is not JSON,
not an object or has no string `id` gets a general `{"error": ...}`. Bounds beyond KataGo's own: a line of
at most MAX_LINE_BYTES, at most MAX_RECORD_MOVES moves (the rules core's cap), MAX_ANALYZE_TURNS turns per query,
`maxVisits` capped by `tengen analysis --max-visits-cap` (a warning, so pondering clients keep working).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import Any, Optional, Union

from tengen.go.board import MAX_RECORD_MOVES, Board, IllegalMove, MoveLimitError
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import CoordinateError, Move, Point, from_gtp, to_gtp
from tengen.go.rules import Rules

MAX_LINE_BYTES = 1 << 20  # a 10,000-move game is about 130 kB
MAX_ANALYZE_TURNS = 1000
MAX_SIDE = 25  # tengen's board and GTP vertices (A..Z without I)
DEFAULT_PV_LEN = 15  # KataGo's analysisPVLen default
PRIORITY_BOUND = 2 ** 62
ACTIONS = ("query_version", "clear_cache", "terminate", "terminate_all")
PERSPECTIVES = ("BLACK", "WHITE", "SIDETOMOVE")
EXPECTED_KEYS = frozenset({
    "id", "moves", "initialStones", "initialPlayer", "rules", "priority", "priorities", "analyzeTurns",
    "boardXSize", "boardYSize", "komi", "whiteHandicapBonus", "overrideSettings", "maxVisits", "analysisPVLen",
    "rootFpuReductionMax", "rootPolicyTemperature", "includeMovesOwnership", "includeMovesOwnershipStdev",
    "includeOwnership", "includeOwnershipStdev", "includePolicy", "includePVVisits", "includeNoResultValue",
    "reportDuringSearchEvery", "firstReportDuringSearchAfter", "allowMoves", "avoidMoves", "tengenEndgame"})
# overrideSettings tengen uses, and KataGo's search parameters it accepts without an effect (a warning)
OVERRIDES_USED = ("reportAnalysisWinratesAs", "maxVisits", "maxTime", "cpuctExploration")
OVERRIDES_IGNORED = frozenset({
    "wideRootNoise", "rootPolicyTemperature", "rootPolicyTemperatureEarly", "rootFpuReductionMax",
    "fpuReductionMax", "winLossUtilityFactor", "staticScoreUtilityFactor", "dynamicScoreUtilityFactor",
    "rootNumSymmetriesToSample", "numSearchThreads", "playoutDoublingAdvantage", "maxPlayouts",
    "humanSLProfile", "ignorePreRootHistory", "antiMirror", "conservativePass", "analysisIgnorePreRootHistory"})
# KataGo's rule names tengen's presets lack: the nearest preset (KataGo warns the same way)
RULE_ALIASES = {"chinese-ogs": "chinese", "chinese-kgs": "chinese", "aga-button": "aga"}
UNSUPPORTED_RULES = {"stone-scoring": "chinese", "stonescoring": "chinese"}

MOVES_SHAPE = 'Must be an array of pairs of the form: ["b" or "w", GTP board vertex]'
SIZE_ERROR = f"Must provide an integer from 2 to {MAX_SIDE}"
AVOID_SHAPE = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'"
RULES_ERROR = ('Must specify rules string, such as "chinese" or "tromp-taylor", or a JSON object with detailed '
               'rules parameters.')
UNUSED_FIELD = "Unexpected or unused field, do you have a typo?"


class QueryError(Exception):
    """The first error of a query: KataGo's `{"error", "field", "id"}` (field and id None: a general error)."""

    def __init__(self, message: str, field_name: Optional[str] = None, query_id: Optional[str] = None):
        super().__init__(message)
        self.message, self.field, self.id = message, field_name, query_id


def error_object(message: str, field_name: Optional[str] = None, query_id: Optional[str] = None) -> dict:
    """KataGo's error shape: `{"error": m}` or `{"error": m, "field": f, "id": i}`."""
    out: dict[str, Any] = {"error": message}
    if query_id is not None:
        out["id"] = query_id
        if field_name is not None:
            out["field"] = field_name
    return out


def warning_object(message: str, field_name: str, query_id: str) -> dict:
    """KataGo's warning shape; the query still runs."""
    return {"warning": message, "field": field_name, "id": query_id}


@dataclass(frozen=True)
class Action:
    """A special action: `query_version`, `clear_cache`, `terminate` (terminateId, turnNumbers), `terminate_all`."""

    id: str
    name: str
    echo: dict  # the request as sent: KataGo answers with it (plus version fields for query_version)
    terminate_id: Optional[str] = None
    turn_numbers: Optional[frozenset[int]] = None  # None: every turn


@dataclass
class AnalysisQuery:
    """A checked analysis query: the game (setup, moves), what to analyze, how much, and what to report."""

    id: str
    width: int
    height: int
    rules: Rules
    initial_black: list[Point]
    initial_white: list[Point]
    initial_player: int
    moves: list[tuple[int, Move]]
    turns: list[int]  # ascending
    priorities: dict[int, int]  # per turn
    max_visits: int
    max_time: Optional[float] = None  # overrideSettings maxTime: seconds per turn
    c_puct: Optional[float] = None
    perspective: str = "SIDETOMOVE"
    pv_len: int = DEFAULT_PV_LEN
    include_ownership: bool = False
    include_moves_ownership: bool = False
    include_policy: bool = False
    report_every: Optional[float] = None
    avoid: dict[int, dict[Move, int]] = field(default_factory=dict)  # color -> move -> untilDepth
    allow: dict[int, set[Move]] = field(default_factory=dict)  # color -> the only moves allowed
    endgame: bool = False  # tengen's extra: endgame regions and move values

    def board_at(self, turn: int) -> Board:
        """The position before `moves[turn]` (turn 0: the setup), its side to move as KataGo has it."""
        board = Board(self.width, self.height, self.rules)
        if self.initial_black or self.initial_white:
            board.setup(black=self.initial_black, white=self.initial_white)
        board.to_play = self.initial_player
        for color, move in self.moves[:turn]:
            board.play(color, move)
        return board

    def allowed_root_moves(self, board: Board) -> Optional[set[Move]]:
        """The root moves the search may try (avoidMoves / allowMoves for the side to move), or None: all."""
        color = board.to_play
        if color in self.allow:
            return set(self.allow[color])
        if self.avoid.get(color):
            banned = set(self.avoid[color])
            return {m for m in [*board.legal_moves(color), None] if m not in banned}
        return None


ParsedLine = Union[AnalysisQuery, Action, None]


def _loads(line: str) -> Any:
    """JSON as KataGo reads it: NaN and Infinity are not numbers."""

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    return json.loads(line, parse_constant=no_constant)


def _is_int(x: Any) -> bool:
    """A JSON integer (not a bool, not 5.0: KataGo's is_number_integer)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    """A finite JSON number (not a bool)."""
    return (isinstance(x, (int, float)) and not isinstance(x, bool)) and math.isfinite(x)


class _Reader:
    """Field readers raising QueryError with KataGo's messages."""

    def __init__(self, data: dict, query_id: str):
        self.data, self.id = data, query_id

    def fail(self, field_name: str, message: str) -> QueryError:
        """The error of this query and field."""
        return QueryError(message, field_name, self.id)

    def integer(self, name: str, low: int, high: int, message: str, data: Optional[dict] = None) -> int:
        x = (self.data if data is None else data)[name]
        if not _is_int(x) or not low <= x <= high:
            raise self.fail(name, message)
        return x

    def number(self, name: str, low: float, high: float, message: str) -> float:
        x = self.data[name]
        if not _is_number(x) or not low <= x <= high:
            raise self.fail(name, message)
        return float(x)

    def boolean(self, name: str) -> bool:
        x = self.data[name]
        if not isinstance(x, bool):
            raise self.fail(name, "Must be a boolean")
        return x

    def player(self, name: str, data: Optional[dict] = None) -> int:
        x = (self.data if data is None else data).get(name)
        if isinstance(x, str) and x.strip().lower() in ("b", "black"):
            return BLACK
        if isinstance(x, str) and x.strip().lower() in ("w", "white"):
            return WHITE
        raise self.fail(name, 'Must be "b" or "w"')

    def vertex(self, name: str, text: str, width: int, height: int, allow_pass: bool) -> Move:
        move = parse_vertex(text, width, height)
        if move is False or (move is None and not allow_pass):
            raise self.fail(name, f"Could not parse board location: {text}")
        return move  # type: ignore[return-value]


def parse_vertex(text: str, width: int, height: int) -> Union[Move, bool]:
    """A GTP vertex, `pass`, or KataGo's explicit `(x,y)` (x from the left, y from the top) -> a Move, or
    False when it names no point of the board."""
    t = text.strip()
    if t.startswith("(") and t.endswith(")") and t.count(",") == 1:
        xs, ys = (s.strip() for s in t[1:-1].split(","))
        if xs.isascii() and xs.isdigit() and ys.isascii() and ys.isdigit() and len(xs) < 4 and len(ys) < 4:
            x, y = int(xs), int(ys)
            return (y, x) if x < width and y < height else False
        return False
    try:
        return from_gtp(t, height, width)
    except CoordinateError:
        return False


def parse_line(line: str, max_visits_cap: int, default_visits: int, endgame_default: bool = False,
               warnings: Optional[list[dict]] = None) -> ParsedLine:
    """One input line -> an AnalysisQuery, an Action, or None (a blank line). Warnings are appended to
    `warnings`; the first error raises QueryError."""
    warnings = [] if warnings is None else warnings
    line = line.strip()
    if not line:
        return None
    if len(line.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
        raise QueryError(f"Request line longer than {MAX_LINE_BYTES} bytes, ignoring")
    try:
        data = _loads(line)
    except (ValueError, RecursionError) as exc:
        shown = line if len(line) <= 200 else line[:200] + "..."
        text = " ".join(str(exc).split())
        raise QueryError(f"{text} - could not parse input line as json request: {shown}") from None
    if not isinstance(data, dict):
        raise QueryError("Request line was valid json but was not an object, ignoring: "
                         + json.dumps(data, separators=(",", ":"))[:200])
    if not isinstance(data.get("id"), str):
        raise QueryError('Request must have a string "id" field')
    if isinstance(data.get("action"), str):
        return _parse_action(data)
    return _parse_query(data, _Reader(data, data["id"]), max_visits_cap, default_visits, endgame_default, warnings)


def _parse_action(data: dict) -> Action:
    """A special action query, its fields checked as KataGo checks them."""
    qid, name = data["id"], data["action"]
    if name not in ACTIONS:
        raise QueryError("'action' field must be " + " or ".join(f"'{a}'" for a in ACTIONS), "action", qid)
    terminate_id = None
    if name == "terminate":
        if not isinstance(data.get("terminateId"), str):
            raise QueryError('Requests for a terminate action must have a string "terminateId" field',
                             "terminateId", qid)
        terminate_id = data["terminateId"]
    turns = None
    if name in ("terminate", "terminate_all") and "turnNumbers" in data:
        t = data["turnNumbers"]
        if not isinstance(t, list) or not all(_is_int(x) for x in t):
            raise QueryError("If provided, must be an array of integers indicating turns to terminate",
                             "turnNumbers", qid)
        turns = frozenset(t)
    return Action(qid, name, data, terminate_id, turns)


def _moves(r: _Reader, name: str, width: int, height: int, allow_pass: bool) -> list[tuple[int, Move]]:
    """`moves` / `initialStones`: [player, vertex] pairs, at most MAX_RECORD_MOVES."""
    items = r.data[name]
    if not isinstance(items, list):
        raise r.fail(name, MOVES_SHAPE)
    if len(items) > MAX_RECORD_MOVES:
        raise r.fail(name, f"Must have at most {MAX_RECORD_MOVES} entries (tengen's move cap)")
    out = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)):
            raise r.fail(name, MOVES_SHAPE)
        color = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}.get(item[0].strip().lower())
        if color is None:
            raise r.fail(name, f"Could not parse player: {item[0]}")
        out.append((color, r.vertex(name, item[1], width, height, allow_pass)))
    return out


def _rules(r: _Reader, warnings: list[dict]) -> Rules:
    """`rules` by name (tengen's presets and KataGo's names) or as KataGo's object."""
    if "rules" not in r.data:
        raise r.fail("rules", RULES_ERROR)
    spec = r.data["rules"]
    if isinstance(spec, str):
        key = spec.strip().lower().replace("_", "-").replace(" ", "-")
        if key in UNSUPPORTED_RULES:
            nearest = UNSUPPORTED_RULES[key]
            warnings.append(warning_object(f"Rules {spec} not supported by tengen, using {nearest} instead",
                                           "rules", r.id))
            return Rules.from_name(nearest)
        try:
            return Rules.from_name(RULE_ALIASES.get(key, key))
        except ValueError:
            raise r.fail("rules", f"Could not parse rules: {spec}") from None
    if isinstance(spec, dict):
        return _rules_object(r, spec, warnings)
    raise r.fail("rules", RULES_ERROR)


def _rules_object(r: _Reader, spec: dict, warnings: list[dict]) -> Rules:
    """KataGo's detailed rules object (ko, scoring, tax, suicide, hasButton, whiteHandicapBonus)."""
    bad = r.fail("rules", "Could not parse rules: " + json.dumps(spec, sort_keys=True, separators=(",", ":")))
    known = {"ko", "scoring", "tax", "suicide", "hasButton", "whiteHandicapBonus", "friendlyPassOk", "komi"}
    if set(spec) - known:
        raise bad
    try:
        ko = {"SIMPLE": "simple", "POSITIONAL": "positional", "SITUATIONAL": "situational",
              "SPIGHT": "situational"}[str(spec.get("ko", "SIMPLE")).upper()]
        scoring = {"AREA": "area", "TERRITORY": "territory"}[str(spec.get("scoring", "AREA")).upper()]
        tax = {"NONE": "none", "SEKI": "seki", "ALL": "all"}[str(spec.get("tax", "NONE")).upper()]
        bonus = {"0": 0, "N-1": 1, "N": 2}[str(spec.get("whiteHandicapBonus", "0")).upper()]
    except KeyError:
        raise bad from None
    suicide = spec.get("suicide", False)
    if not isinstance(suicide, bool) or not isinstance(spec.get("hasButton", False), bool):
        raise bad
    if scoring == "area" and tax != "none":
        warnings.append(warning_object("Rules with area scoring and a tax not supported by tengen, using tax NONE",
                                       "rules", r.id))
        tax = "none"
    if spec.get("hasButton"):
        warnings.append(warning_object("Rules with a button not supported by tengen, using no button", "rules", r.id))
    komi = 7.5 if scoring == "area" else 6.5
    return Rules("custom", komi, scoring, ko, suicide, bonus, tax)


def _overrides(r: _Reader, q: dict, warnings: list[dict]) -> None:
    """overrideSettings: the ones tengen uses into `q`; KataGo params it ignores and unknown ones warned of."""
    settings = r.data["overrideSettings"]
    if not isinstance(settings, dict):
        raise r.fail("overrideSettings", "Must be an object")

    def could_not(text: str) -> QueryError:
        return r.fail("overrideSettings", f"Could not set settings: {text}")

    for key, value in settings.items():
        if key == "reportAnalysisWinratesAs":
            text = str(value).strip().upper()
            if text not in PERSPECTIVES:
                raise could_not(f"Could not parse config value for reportAnalysisWinratesAs: {value}")
            q["perspective"] = text
        elif key == "maxVisits":
            if not _is_int(value) or not 1 <= value <= 2 ** 50:
                raise could_not(f"maxVisits must be an integer from 1 to 2^50, not {value}")
            q["max_visits"] = value
        elif key == "maxTime":
            if not _is_number(value) or value <= 0:
                raise could_not(f"maxTime must be a positive number of seconds, not {value}")
            q["max_time"] = float(value)
        elif key == "cpuctExploration":
            if not _is_number(value) or value <= 0 or value > 100:
                raise could_not(f"cpuctExploration must be a number in (0, 100], not {value}")
            q["c_puct"] = float(value)
    ignored = sorted(k for k in settings if k in OVERRIDES_IGNORED)
    unknown = sorted(k for k in settings if k not in OVERRIDES_IGNORED and k not in OVERRIDES_USED)
    if unknown:
        warnings.append(warning_object("Unknown config params: " + ",".join(unknown), "overrideSettings", r.id))
    if ignored:
        warnings.append(warning_object("Params ignored by tengen's search: " + ",".join(ignored),
                                       "overrideSettings", r.id))


def _avoid_allow(r: _Reader, width: int, height: int, q: dict, warnings: list[dict]) -> None:
    """avoidMoves / allowMoves into `q` (applied at the root: the search filters the root's moves)."""
    has_allow, has_avoid = "allowMoves" in r.data, "avoidMoves" in r.data
    if has_allow and has_avoid:
        raise r.fail("allowMoves", "Cannot specify both allowMoves and avoidMoves")
    name = "allowMoves" if has_allow else "avoidMoves"
    entries = r.data[name]
    if not isinstance(entries, list):
        raise r.fail(name, AVOID_SHAPE)
    if has_allow and len(entries) > 2:
        raise r.fail(name, "Currently allowMoves only allows at most one entry per player")
    deep = False
    for entry in entries:
        if not (isinstance(entry, dict) and {"moves", "untilDepth", "player"} <= set(entry)):
            raise r.fail(name, AVOID_SHAPE)
        color = r.player("player", entry)
        if not isinstance(entry["moves"], list) or not all(isinstance(s, str) for s in entry["moves"]):
            raise r.fail("moves", "Must be an array of GTP board vertices")
        moves = [r.vertex("moves", s, width, height, True) for s in entry["moves"]]
        depth = r.integer("untilDepth", 1, 1_000_000_000, "Must be a positive integer", entry)
        deep = deep or depth > 1
        if has_allow:
            if color in q["allow"]:
                raise r.fail(name, "Cannot specify allowMoves more than once for the same player")
            q["allow"][color] = set(moves)
        else:
            q["avoid"].setdefault(color, {}).update({m: depth for m in moves})
    if deep:
        warnings.append(warning_object("tengen applies untilDepth > 1 at the root only", name, r.id))


def _parse_query(data: dict, r: _Reader, cap: int, default_visits: int, endgame_default: bool,
                 warnings: list[dict]) -> AnalysisQuery:
    """An analysis query, its fields in KataGo's order (the first error raises), then its moves replayed."""
    for name in ("boardXSize", "boardYSize"):
        if name not in data:
            raise r.fail(name, SIZE_ERROR)
    width = r.integer("boardXSize", 2, MAX_SIDE, SIZE_ERROR)
    height = r.integer("boardYSize", 2, MAX_SIDE, SIZE_ERROR)
    placements = _moves(r, "initialStones", width, height, False) if "initialStones" in data else []
    if "moves" not in data:
        raise r.fail("moves", "Must specify an array of [player,location] pairs")
    moves = _moves(r, "moves", width, height, True)
    initial_player = r.player("initialPlayer") if "initialPlayer" in data else None
    if "analyzeTurns" in data:
        turns = data["analyzeTurns"]
        if not isinstance(turns, list) or not all(_is_int(t) for t in turns):
            raise r.fail("analyzeTurns", "Must specify an array of integers indicating turns to analyze")
        if not turns:  # no turn would be analyzed and no line would ever answer the query
            raise r.fail("analyzeTurns", "Must specify at least one turn to analyze")
        for t in turns:
            if not 0 <= t <= len(moves):
                raise r.fail("analyzeTurns", f"Invalid turn number: {t}")
        if len(set(turns)) > MAX_ANALYZE_TURNS:
            raise r.fail("analyzeTurns", f"Must have at most {MAX_ANALYZE_TURNS} turns per query (tengen's bound)")
    else:
        turns = [len(moves)]
    priorities: dict[int, int] = {}
    if "priorities" in data:
        pv = data["priorities"]
        if not isinstance(pv, list) or not all(_is_int(p) for p in pv):
            raise r.fail("priorities", "Must specify an array of integers indicating priorities")
        if "analyzeTurns" not in data:
            raise r.fail("priorities", "Can only specify when also specifying analyzeTurns")
        if len(pv) != len(turns):
            raise r.fail("priorities", "Must be of matching length to analyzeTurns")
        for t, p in zip(turns, pv):
            if not -PRIORITY_BOUND < p < PRIORITY_BOUND:
                raise r.fail("priorities", f"Invalid priority: {p}")
            priorities[t] = p
    rules = _rules(r, warnings)
    if "komi" in data:
        msg = "Must be a integer or half-integer from -400.0 to 400.0"
        komi = r.number("komi", -400.0, 400.0, msg)
        if komi * 2 != int(komi * 2):
            raise r.fail("komi", msg)
        rules = rules.with_komi(komi)
    if "whiteHandicapBonus" in data:
        text = data["whiteHandicapBonus"]
        if not isinstance(text, str):
            raise r.fail("whiteHandicapBonus", "Must be a string")
        if text.strip().upper() not in ("0", "N-1", "N"):
            raise r.fail("whiteHandicapBonus", f"Could not parse whiteHandicapBonus: {text}")
        rules = replace(rules, white_handicap_bonus={"0": 0, "N-1": 1, "N": 2}[text.strip().upper()])
    q: dict[str, Any] = {"max_visits": default_visits, "avoid": {}, "allow": {}}
    if "overrideSettings" in data:
        _overrides(r, q, warnings)
    if "maxVisits" in data:
        q["max_visits"] = r.integer("maxVisits", 1, 2 ** 50, "Must be an integer from 1 to 2^50")
    if "analysisPVLen" in data:
        q["pv_len"] = r.integer("analysisPVLen", 1, 1000, "Must be an integer from 1 to 1000")
    if "rootFpuReductionMax" in data:
        r.number("rootFpuReductionMax", 0.0, 2.0, "Must be a number from 0.0 to 2.0")
        warnings.append(warning_object("Ignored by tengen's search", "rootFpuReductionMax", r.id))
    if "rootPolicyTemperature" in data:
        r.number("rootPolicyTemperature", 0.01, 100.0, "Must be a number from 0.01 to 100.0")
        warnings.append(warning_object("Ignored by tengen's search", "rootPolicyTemperature", r.id))
    for name, key in (("includeMovesOwnership", "include_moves_ownership"), ("includeOwnership", "include_ownership"),
                      ("includePolicy", "include_policy"), ("tengenEndgame", "endgame")):
        if name in data:
            q[key] = r.boolean(name)
    for name in ("includeMovesOwnershipStdev", "includeOwnershipStdev", "includePVVisits", "includeNoResultValue"):
        if name in data and r.boolean(name):
            warnings.append(warning_object("Not reported by tengen", name, r.id))
    for name in ("reportDuringSearchEvery", "firstReportDuringSearchAfter"):
        if name in data:
            every = r.number(name, 0.001, 1_000_000.0, "Must be number of seconds from 0.001 to 1000000.0")
            q["report_every"] = q.get("report_every") or every
    priority = 0
    if "priority" in data:
        if "priorities" in data:
            raise r.fail("priority", "Cannot specify both priority and priorities")
        priority = r.integer("priority", -PRIORITY_BOUND, PRIORITY_BOUND, "Must be a number between -2^62 and 2^62")
    if "allowMoves" in data or "avoidMoves" in data:
        _avoid_allow(r, width, height, q, warnings)
    for key in data:
        if key not in EXPECTED_KEYS:
            warnings.append(warning_object(UNUSED_FIELD, key, r.id))
    if q["max_visits"] > cap:
        warnings.append(warning_object(f"Capped at {cap} visits (tengen analysis --max-visits-cap)", "maxVisits", r.id))
        q["max_visits"] = cap
    if initial_player is None:
        blacks = sum(1 for c, _ in placements if c == BLACK)
        whites = len(placements) - blacks
        initial_player = moves[0][0] if moves else (WHITE if blacks >= 2 and whites == 0 else BLACK)
    query = AnalysisQuery(
        id=r.id, width=width, height=height, rules=rules,
        initial_black=[p for c, p in placements if c == BLACK], initial_white=[p for c, p in placements if c == WHITE],
        initial_player=initial_player, moves=moves, turns=sorted(set(turns)),
        priorities={t: priorities.get(t, priority) for t in set(turns)}, endgame=q.pop("endgame", endgame_default), **q)
    _replay(query, r)
    return query


def _replay(query: AnalysisQuery, r: _Reader) -> None:
    """Play the moves once: KataGo's `Illegal move N: VERTEX` for the first that the rules refuse."""
    board = Board(query.width, query.height, query.rules)
    board.setup(black=query.initial_black, white=query.initial_white)
    board.to_play = query.initial_player
    for n, (color, move) in enumerate(query.moves):
        try:
            board.play(color, move)
        except (IllegalMove, MoveLimitError):
            raise r.fail("moves", f"Illegal move {n}: {to_gtp(move, query.height)}") from None
