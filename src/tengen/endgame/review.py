"""Endgame review of a game record: for every move from the start of the endgame, the region it
was played in and that region's temperature, the hottest region and the orthodox move then, the move's
loss in points against orthodox play by the regions' values, the network's point loss as KaTrain computes
it, and a one-line reason in a player's words.

Positions are analyzed in order with one evaluation cache and one region cache (`region_cache`), so a
region the move did not touch is valued once, not at every move. How a move's loss is found, in the
terms of temperature theory (Berlekamp, "The economist's view of combinatorial games", 1996; Spight's
orthodox play): the board count (sure territory plus every region's mean, area, Black's side) after the
move minus the count before, from the mover's side, is what the move gained; orthodox play would have
gained the hottest temperature `t`. A gote move loses `t - gain` (at least 0). A move that leaves a local
follow-up hotter than anything else on the board is sente: the opponent must answer, so it loses only
what it gave away in the count (`-gain`, at least 0). So is a move in a region whose thermograph makes it
the mover's sente (the count already stands at the value after it, and the opponent's reverse sente there,
worth the region's temperature, is gone), even where the position after it shows no follow-up near the move.
The network's loss is KaTrain's: the score lead
before the move minus the lead after it, from the mover's side (one network evaluation per position, no
search, where KaTrain searches).

A move the regions' values charge with a mistake (MISTAKE points or more) is checked by a search where the
caller gives a look (`mistake_look`, e.g. `tengen.search.move_look.SearchLook`): the mover's score lead after
the move played and after the analysis's recommended move, each by a fresh search. A mistake the search
does not see (the recommended move less than CONFIRM points ahead) is not listed among the mistakes: the
regions' values rest on trees that can misread a region, and a whole-board search is the better judge of
what a move loses; both figures are reported, and the reason says which one a player reads. A move next to a
region the analysis could not value (an unanswered threat, a ko it cannot value) is valued by the same search
alone and says so; it is reported beside the mistakes, not among them (no region's value says why it loses).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from tengen.endgame.analysis import analyze_board, root_ownerships
from tengen.endgame.evalcache import CachedEvaluator, cached
from tengen.endgame.local_games import MAX_LOCAL_POINTS
from tengen.endgame.move_check import MoveLook
from tengen.endgame.notes import of_kind
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.region_cache import RegionCache
from tengen.endgame.regions import agreed_ownership, find_regions
from tengen.endgame.results import BLACK_SENTE, GOTE, KO, WHITE_SENTE, Analysis, region_label
from tengen.go.colors import BLACK
from tengen.go.coords import Move, to_gtp

MISTAKE = 2.0  # points lost from which a move is listed as a mistake
CONFIRM = 1.0  # points the mistake check's search must also find lost for a flagged move to stay a mistake
FINE = 0.5  # a loss below this is within the counts' rounding: the move was as good as orthodox
NEAR = 2  # how many points from a move its local follow-up (or an answer) may stand
KEEP = 3  # a region with no point this close to the move keeps its borders at the next position
# `--from auto`: the endgame starts after the first move from which every region of the board has at most this
# many points: the board has split into local games the analysis values (MAX_LOCAL_POINTS, its own limit; a
# larger open area is still the middle game). At 40 points (before 2026-12-07) the review began in the small
# endgame, after most of the points a player loses were gone
ENDGAME_REGION_POINTS = MAX_LOCAL_POINTS


@dataclass
class MoveReview:
    """One move of the review, with what stood on the board before it."""

    number: int  # 1 = the first move of the record
    color: int
    move: Move  # None: a pass
    region: Optional[str] = None  # the label (before the move) of the region it was played in
    region_temperature: Optional[float] = None
    region_kind: Optional[str] = None
    region_points: list = field(default_factory=list)  # its points (sorted), for boards that show it
    hottest: Optional[str] = None  # the hottest region before the move
    hottest_temperature: float = 0.0
    hottest_kind: Optional[str] = None
    hottest_points: list = field(default_factory=list)
    orthodox: Move = None  # the analysis's recommended move before this one
    orthodox_reason: str = ""
    count_before: Optional[float] = None  # board counts (area, Black's side) before and after
    count_after: Optional[float] = None
    follow_up: float = 0.0  # the hottest temperature left next to the move (its local follow-up)
    gain: Optional[float] = None
    loss: Optional[float] = None
    sente: bool = False
    # played in a region whose sente move is the mover's (by the region's thermograph before the move): the count
    # already assumes it, so it gains about nothing and loses nothing; the opponent's reverse sente there is gone
    own_sente: bool = False
    lead_before: Optional[float] = None  # the network's score lead (Black's side) before and after
    lead_after: Optional[float] = None
    network_loss: Optional[float] = None
    reason: str = ""
    # the mistake check (a move the regions' values charge MISTAKE or more): the points the recommended move is
    # ahead of the move played by a search after each (None: not checked), and how the search looked
    search_loss: Optional[float] = None
    search_how: str = ""
    # groups whose life the side to move decided before the move (the analysis's life stage, judged by the
    # network one move deep): a count cannot say that a group lives or dies
    at_stake: list[str] = field(default_factory=list)
    regions: int = 0
    reused: int = 0
    evaluations: int = 0
    seconds: float = 0.0

    def gtp(self, height: int) -> str:
        return to_gtp(self.move, height)

    @property
    def refuted(self) -> bool:
        """Charged with a mistake by the regions' values, but the mistake check's search finds less than
        CONFIRM points lost: not listed as a mistake."""
        return self.loss is not None and self.search_loss is not None and self.search_loss < CONFIRM



@dataclass
class GameReview:
    """The whole review: the moves, where it started and why, and the settings said beside every result."""

    moves: list[MoveReview]
    start: int
    start_reason: str
    height: int
    komi: float
    rules: str
    evaluations: int = 0
    seconds: float = 0.0
    region_hits: int = 0
    region_misses: int = 0
    mistake_check: str = ""  # how flagged moves were checked by search ("": not checked)

    def mistakes(self, threshold: float = MISTAKE) -> list[MoveReview]:
        """Moves that lost at least `threshold` points by the regions' values and that the mistake check (where
        there was one) did not refute, largest first."""
        return sorted((m for m in self.moves if m.loss is not None and m.loss >= threshold and not m.refuted),
                      key=lambda m: (-m.loss, m.number))

    def searched_only(self, threshold: float = MISTAKE) -> list[MoveReview]:
        """Moves the regions give no value that the mistake check's search finds losing at least `threshold`
        points (reported beside the mistakes, not among them: no region's value says why), largest first."""
        return sorted((m for m in self.moves if m.loss is None and m.search_loss is not None
                       and m.search_loss >= threshold), key=lambda m: (-m.search_loss, m.number))

    def refuted(self, threshold: float = MISTAKE) -> list[MoveReview]:
        """Moves the regions' values charge with at least `threshold` points that the search does not confirm."""
        return [m for m in self.moves if m.loss is not None and m.loss >= threshold and m.refuted]

    def totals(self) -> dict[int, dict]:
        """Per colour: moves reviewed, points lost (regions' values and network), mistakes."""
        out = {}
        for color in (BLACK, -BLACK):
            mine = [m for m in self.moves if m.color == color]
            valued = [m for m in mine if m.loss is not None]
            net = [m for m in mine if m.network_loss is not None]
            out[color] = {"moves": len(mine), "valued": len(valued), "loss": sum(m.loss for m in valued),
                          "valued_by_search": sum(1 for m in mine if m.loss is None and m.search_loss is not None),
                          "network_loss": sum(m.network_loss for m in net),
                          "mistakes": sum(1 for m in self.mistakes() if m.color == color)}
        return out


ProgressCallback = Callable[[int, int], None]


def review_game(game, evaluator, options: AnalysisOptions, start: Optional[int] = None, end: Optional[int] = None,
                progress: Optional[ProgressCallback] = None, reuse: bool = True,
                on_analysis: Optional[Callable[[int, Analysis], None]] = None,
                mistake_look: Optional[Callable[[object], MoveLook]] = None) -> GameReview:
    """Review moves `start`..`end` (1-based, inclusive; start None: `find_endgame_start`; end None: the last
    move). `reuse=False` analyzes every position afresh, as `tengen analyze` would one at a time (its own
    evaluation cache, no region reused: the review bench's anchor). `on_analysis(moves_played, analysis)` is
    given each position's analysis as it is made (the web quiz keeps what it needs of them). `mistake_look`
    makes the mistake check's look from the evaluator (the module doc; None: flagged moves are not checked)."""
    evaluator = cached(evaluator)
    look = mistake_look(evaluator) if mistake_look is not None else None
    total = len(game.moves)
    end = total if end is None else end
    reason = f"from move {start} (asked)"
    if start is None:
        start, reason = find_endgame_start(game, evaluator, options)
        if start > end:
            raise ValueError(f"the endgame start found (move {start}) lies after the last move to review ({end})")
    if not 1 <= start <= end <= total:
        raise ValueError(f"moves {start}-{end} are not in the record (it has {total} moves)")
    cache = RegionCache() if reuse else None
    began = time.perf_counter()
    evaluations_before = evaluator.evaluations
    before, before_cost = _analyze(game, start - 1, evaluator, options, cache, reuse, None)
    if on_analysis:
        on_analysis(start - 1, before)
    reviews = []
    for number in range(start, end + 1):
        color, move = game.moves[number - 1]
        keep = _untouched(before, move) if reuse else None
        after, after_cost = _analyze(game, number, evaluator, options, cache, reuse, keep)
        if on_analysis:
            on_analysis(number, after)
        review = judge_move(number, color, move, before, after, game.height)
        review.evaluations, review.seconds = after_cost if number > start else _add(before_cost, after_cost)
        review.regions = len(before.regions)
        review.reused = sum(r.reused for r in before.regions)
        _note_answers(review, reviews[-1] if reviews else None)
        if look is not None:
            made, started = evaluator.evaluations, time.perf_counter()
            check_mistake(review, game.board_at(number - 1, strict=False), look)
            review.evaluations += evaluator.evaluations - made
            review.seconds += time.perf_counter() - started
        reviews.append(review)
        before = after
        if progress:
            progress(number - start + 1, end - start + 1)
    return GameReview(reviews, start, reason, game.height, game.komi, game.rules.name,
                      evaluations=evaluator.evaluations - evaluations_before, seconds=time.perf_counter() - began,
                      region_hits=cache.hits if cache else 0, region_misses=cache.misses if cache else 0,
                      mistake_check=look.how if look is not None else "")


def check_mistake(review: MoveReview, board, look: MoveLook) -> None:
    """The mistake check of one reviewed move (`board`: the position before it): where the regions' values
    charge MISTAKE points or more, or give the move no value, the search's loss against the recommended move
    (`search_loss`); the reason says what the search found."""
    unvalued = review.loss is None
    if (not unvalued and review.loss < MISTAKE) or review.move == review.orthodox:
        return
    alternative = review.orthodox
    if alternative is not None and not board.is_legal(board.to_play, alternative):
        return
    played, best = look.leads_after(board, [review.move, alternative])
    review.search_loss = round(best - played, 2)
    review.search_how = look.how
    where = "passing" if alternative is None else to_gtp(alternative, board.height)
    ahead = (f"{where} is {review.search_loss:.1f} points ahead" if review.search_loss >= 0.05 else
             f"the move is {-review.search_loss:.1f} points ahead of {where}" if review.search_loss <= -0.05 else
             f"the move and {where} are even")
    if unvalued:
        review.reason += f"; valued by search alone: {ahead} {look.how}"
    elif review.refuted:
        review.reason += (f"; not a mistake by search: {ahead} {look.how} (a misread region, or a loss the "
                          f"search does not see)")
    else:
        review.reason += f"; confirmed by search: {ahead} {look.how}"


def _add(a: tuple[int, float], b: tuple[int, float]) -> tuple[int, float]:
    return a[0] + b[0], a[1] + b[1]


def _steps(a, b) -> int:
    """Manhattan distance between two points."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _near(points, move: Move, steps: int) -> bool:
    """Whether some point lies within `steps` of the move (never, for a pass)."""
    return move is not None and any(_steps(p, move) <= steps for p in points)


def _untouched(before: Analysis, move: Move) -> list[frozenset]:
    """The regions of `before` the move did not come near (more than KEEP points away): kept as they are."""
    return [r.region.points for r in before.regions if not _near(r.region.points, move, KEEP)]


def _analyze(game, moves_played: int, evaluator: CachedEvaluator, options: AnalysisOptions,
             cache: Optional[RegionCache], reuse: bool, keep: Optional[list]) -> tuple[Analysis, tuple[int, float]]:
    """The analysis after `moves_played` moves, with the network's score lead attached; (evaluations, s).
    Without `reuse` the position gets an evaluation cache of its own (what one `tengen analyze` has)."""
    board = game.board_at(moves_played, strict=False)
    own = evaluator if reuse else CachedEvaluator(evaluator.evaluator)
    made = own.evaluations
    started = time.perf_counter()
    analysis = analyze_board(board, own, options, region_cache=cache, keep_regions=keep)
    analysis.lead = own.evaluate([board])[0].score_lead  # the root's own evaluation: from the cache
    if not reuse:
        evaluator.evaluations += own.evaluations
    return analysis, (own.evaluations - made, time.perf_counter() - started)


def judge_move(number: int, color: int, move: Move, before: Analysis, after: Analysis, height: int) -> MoveReview:
    """What the move did, by the analyses before and after it (see the module's docstring)."""
    sign = 1 if color == BLACK else -1
    review = MoveReview(number, color, move, lead_before=before.lead, lead_after=after.lead,
                        at_stake=[g.sentence(height, before.evaluator_name) for g in before.critical_groups])
    if before.lead is not None and after.lead is not None:
        review.network_loss = round(sign * (before.lead - after.lead), 2)
    hot = _hottest(before)
    if hot is not None:
        review.hottest, review.hottest_temperature, review.hottest_kind = region_label(hot), \
            before.regions[hot].temperature, before.regions[hot].kind
        review.hottest_points = sorted(before.regions[hot].region.points)
    if before.recommended is not None:
        review.orthodox = before.recommended[1]
        review.orthodox_reason = before.recommended_reason
    played = _region_of(before, move)
    if played is not None:
        result = before.regions[played]
        review.region, review.region_temperature, review.region_kind = (region_label(played), result.temperature,
                                                                        result.kind)
        review.region_points = sorted(result.region.points)
    review.follow_up = _follow_up(after, move)
    area = _changed_area(before, after, move)
    review.count_before, review.count_after = _count_in(before, area), _count_in(after, area)
    if review.count_before is None or review.count_after is None:
        review.reason = "not valued: " + _why_unvalued(before if review.count_before is None else after, area)
        return review
    review.gain = round(sign * (review.count_after - review.count_before), 2)
    if move is not None and move == review.orthodox:
        review.loss = 0.0  # what the analysis recommended (orthodox, or the network's move where it overruled it)
        review.reason = _reason(review, height)
        return review
    others = max((r.temperature for i, r in enumerate(before.regions)
                  if i != played and r.temperature is not None), default=0.0)
    review.own_sente = review.region_kind == own_sente_kind(color) and review.gain > -FINE
    review.sente = move is not None and review.gain > -FINE and (review.follow_up > max(others, 0.0) + FINE
                                                                 or review.own_sente)
    hottest = max(review.hottest_temperature, 0.0)
    review.loss = round(max(0.0, -review.gain) if review.sente else max(0.0, hottest - review.gain), 2)
    review.reason = _reason(review, height)
    return review


def _changed_area(before: Analysis, after: Analysis, move: Move) -> set:
    """The points whose count the move may have changed: the regions of either analysis within NEAR points
    of the move, closed so that every region of either analysis lies inside the area or outside it (a
    region the move did not touch, reused unchanged, then cancels out; distant noise in the network's sure
    territory does not enter the move's gain)."""
    if move is None:
        return set()
    regions = [r.region.points for a in (before, after) for r in a.regions]
    area = {move}.union(*(points for points in regions if _near(points, move, NEAR)))
    changed = True
    while changed:
        changed = False
        for points in regions:
            if not points <= area and points & area:
                area |= points
                changed = True
    return area


# the notes that say why a region has no count, in the order a player is told them
_WHY_KINDS = ("declined", "ko", "threat", "repetition", "budget")


def _why_unvalued(analysis: Analysis, area: set) -> str:
    """Which region next to the move has no count, and why (its note saying so, else its kind)."""
    for i, result in enumerate(analysis.regions):
        if result.region.points & area and result.count is None:
            said = [n for kind in _WHY_KINDS for n in of_kind(result.notes, kind)]
            why = said[0] if said else result.declined or (result.notes[0] if result.notes else result.kind)
            return f"region {region_label(i)} next to the move has no value ({why})"
    return "the position's count is not known"


def _count_in(analysis: Analysis, area: set) -> Optional[float]:
    """The analysis's count (area, Black's side) over `area`: its regions' counts there and the rounded
    ownership of its sure points there; None when a region there has no count."""
    total = 0.0
    inside: set = set()
    for result in analysis.regions:
        if result.region.points & area:
            if result.count is None:
                return None
            total += result.count
            inside |= result.region.points
    if analysis.ownership is None:
        return total if not area - inside else None
    for p in area - inside:
        total += float(round(max(-1.0, min(1.0, float(analysis.ownership[p])))))
    return total


def _hottest(analysis: Analysis) -> Optional[int]:
    temps = [(r.temperature, -i) for i, r in enumerate(analysis.regions) if r.temperature is not None]
    if not temps:
        return None
    t, i = max(temps)
    return -i if t > 0 else None


def _region_of(analysis: Analysis, move: Move) -> Optional[int]:
    if move is None:
        return None
    for i, result in enumerate(analysis.regions):
        if move in result.region.points:
            return i
    return None


def _follow_up(after: Analysis, move: Move) -> float:
    """The hottest temperature of a region of `after` within NEAR points of the move (0 without one)."""
    return max((r.temperature for r in after.regions
                if r.temperature is not None and _near(r.region.points, move, NEAR)), default=0.0)


def own_sente_kind(color: int) -> str:
    """The region kind in which `color` holds the sente move (the opponent's move there is reverse sente)."""
    return BLACK_SENTE if color == BLACK else WHITE_SENTE


def describe_kind(kind: Optional[str], color: int) -> str:
    """A region's type as the mover sees it: gote, sente (its own), reverse sente (the opponent's), ko."""
    if kind == GOTE:
        return "gote"
    if kind == KO:
        return "ko"
    if kind in (BLACK_SENTE, WHITE_SENTE):
        return "sente" if (kind == BLACK_SENTE) == (color == BLACK) else "reverse sente"
    return "move"


def _reason(review: MoveReview, height: int) -> str:
    """The one line a player reads, from the review's figures."""
    t, where = review.hottest_temperature, to_gtp(review.orthodox, height) if review.orthodox else "?"
    best = f"a {t:.1f}-point {describe_kind(review.hottest_kind, review.color)} stood at {where}"
    if review.move is None:
        return f"passed while {best}" if t > FINE else "passed: nothing was left to gain"
    if review.sente and review.loss < FINE and review.own_sente and review.follow_up <= review.region_temperature:
        return (f"its own sente in region {review.region}: the count stays (gained {_points(review.gain)}) and it "
                f"takes away the opponent's {review.region_temperature:.1f}-point reverse sente")
    if review.sente and review.loss < FINE:
        return f"sente: its follow-up, worth {review.follow_up:.1f}, must be answered"
    if review.loss < FINE:
        if review.move == review.orthodox:
            return f"the orthodox move (the hottest temperature {t:.1f})"
        return f"as good as the orthodox move: gained {review.gain:.1f} (the hottest: {t:.1f})"
    if review.sente:
        return f"sente, but it gave away {review.loss:.1f} in the count"
    if review.region is None:
        return f"played where nothing was left to gain (gained {_points(review.gain)}) while {best}"
    if review.region == review.hottest:
        return f"the hottest region but not its best move: gained {review.gain:.1f} of {t:.1f} (best {where})"
    if review.region_kind not in (GOTE, KO, BLACK_SENTE, WHITE_SENTE):
        return f"a move in a region with nothing hot left (gained {_points(review.gain)}) while {best}"
    kind = describe_kind(review.region_kind, review.color)
    return f"{kind} {_points(review.gain)} points while {best}"


def _points(x: float) -> str:
    """A figure to one decimal, without a minus sign on zero."""
    return f"{x + 0.0 if abs(x) >= 0.05 else 0.0:.1f}"


def _note_answers(review: MoveReview, previous: Optional[MoveReview]) -> None:
    """Reasons that need the opponent's move before: answering a move that did not threaten, or playing
    elsewhere when it did (its follow-up stood and was the hottest)."""
    if previous is None or previous.move is None or review.move is None or review.loss is None:
        return
    near = _steps(previous.move, review.move) <= NEAR
    if near and not previous.sente and review.loss >= MISTAKE:
        review.reason = (f"answered a move that did not threaten (its follow-up was worth {previous.follow_up:.1f}) "
                         f"while a {review.hottest_temperature:.1f}-point move stood elsewhere")
    elif not near and previous.sente and review.loss >= MISTAKE:
        review.reason = (f"played elsewhere leaving a sente move's follow-up worth {previous.follow_up:.1f} "
                         f"(gained {review.gain:.1f})")


def find_endgame_start(game, evaluator, options: AnalysisOptions, step: int = 10) -> tuple[int, str]:
    """The first move after which every region has at most ENDGAME_REGION_POINTS points, found by the
    network's ownership alone (two evaluations a position): forward in steps of `step` from a third of the
    game, then back move by move; (move, how it was found)."""
    total = len(game.moves)

    def split(moves_played: int) -> bool:
        board = game.board_at(moves_played, strict=False)
        first, second = root_ownerships(board, evaluator)
        regions = find_regions(agreed_ownership(first, second), options.threshold, options.margin)
        return all(len(region) <= ENDGAME_REGION_POINTS for region in regions)

    rule = (f"the first move after which every region of the board (ownership below {options.threshold:g} for "
            f"either side to move) has at most {ENDGAME_REGION_POINTS} points")
    played = total // 3
    while played < total and not split(played):
        played = min(total, played + step)
    if played >= total and not split(total):
        return total, f"from the last move: no position of the record splits into small regions ({rule})"
    while played > 0 and split(played - 1):
        played -= 1
    return min(played + 1, total), f"from move {min(played + 1, total)}: {rule}"

