"""The endgame quiz (issue 59, item 5): positions of a reviewed game where the biggest move is clear (the
hottest region leads the next by at least QUIZ_LEAD points of temperature, every region valued, no group's
life at stake, the analysis's move in the hottest region), kept from the review's own analyses so a quiz
costs no new analysis; a round of up to ROUND_SIZE of them; and the answer to a clicked move: the regions'
values, the move's loss (the hottest temperature minus the temperature of the region played in: what
orthodox play would have gained, less what the move's region offers), the best move and why, in words."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Optional

from tengen.endgame.results import KO, Analysis, region_label
from tengen.endgame.review import describe_kind
from tengen.go.colors import BLACK
from tengen.go.coords import Move, to_gtp

QUIZ_LEAD = 1.0  # the hottest region's temperature leads the next one's by at least this many points
ROUND_SIZE = 10  # positions in a round


@dataclass(frozen=True)
class QuizRegion:
    """One region of a quiz position, as its answer shows it (points as GTP vertices)."""

    label: str
    points: tuple[str, ...]
    temperature: float
    count: Optional[float]
    kind: str
    best: tuple[str, ...]  # its best moves for the side to move

    def as_json(self, color: int) -> dict[str, Any]:
        return {"id": self.label, "temperature": round(self.temperature, 2),
                "count": None if self.count is None else round(self.count, 2), "type": self.kind,
                "type_for_mover": describe_kind(self.kind, color), "best": list(self.best), "points": list(self.points)}


@dataclass(frozen=True)
class QuizPosition:
    """A position after `move` moves where the biggest move is clear: its regions hottest first."""

    move: int
    to_play: int
    height: int
    regions: tuple[QuizRegion, ...]
    reason: str  # the analysis's reason for its recommended move

    @property
    def hottest(self) -> QuizRegion:
        return self.regions[0]

    @property
    def lead(self) -> float:
        """How far the hottest region's temperature leads the next one's (or 0, where it stands alone)."""
        second = self.regions[1].temperature if len(self.regions) > 1 else 0.0
        return self.hottest.temperature - max(second, 0.0)


def quiz_position(analysis: Analysis, moves_played: int) -> Optional[QuizPosition]:
    """The analysed position as a quiz position, or None where its biggest move is not clear (see the module)."""
    if not analysis.regions or analysis.critical_groups or analysis.recommended is None:
        return None
    if any(r.temperature is None for r in analysis.regions):
        return None
    color, height = analysis.board.to_play, analysis.board.height
    order = sorted(range(len(analysis.regions)), key=lambda i: (-analysis.regions[i].temperature, i))
    regions = tuple(_region(analysis, i, color) for i in order)
    hot = analysis.regions[order[0]]
    best = hot.best_black if color == BLACK else hot.best_white
    position = QuizPosition(moves_played, color, height, regions, analysis.recommended_reason)
    if hot.kind == KO or position.hottest.temperature <= 0 or position.lead < QUIZ_LEAD:
        return None
    if analysis.recommended[1] not in best:  # the whole-board check overruled the orthodox move: not clear
        return None
    return position


def _region(analysis: Analysis, index: int, color: int) -> QuizRegion:
    r, height = analysis.regions[index], analysis.board.height
    best = r.best_black if color == BLACK else r.best_white
    return QuizRegion(region_label(index), tuple(to_gtp(p, height) for p in sorted(r.region.points)),
                      float(r.temperature), None if r.count is None else float(r.count), r.kind,
                      tuple(to_gtp(p, height) for p in best))


def quiz_round(positions: list[Any], size: int = ROUND_SIZE, round_number: int = 0) -> list[Any]:
    """`size` of `positions` (all where there are no more), in their order: round 0 spread evenly over them,
    a later round a sample drawn by its number (the same round, the same positions)."""
    if len(positions) <= size:
        return list(positions)
    if round_number == 0:
        picks = sorted({round(i * (len(positions) - 1) / (size - 1)) for i in range(size)})
    else:
        picks = sorted(random.Random(round_number).sample(range(len(positions)), size))
    return [positions[i] for i in picks]


def round_note(shown: int, available: int, size: int = ROUND_SIZE) -> str:
    """The round's size said plainly, with why it is smaller where the game has fewer positions."""
    rule = f"the hottest region leading the next by at least {QUIZ_LEAD:g} point of temperature"
    if available == 0:
        return f"no position of the reviewed moves has a clear biggest move ({rule}): no quiz from this review"
    if available < size:
        return (f"a round of {shown}, not {size}: only {available} position(s) of the reviewed moves have a clear "
                f"biggest move ({rule})")
    return f"a round of {shown} of the {available} positions with a clear biggest move ({rule})"


def answer(position: QuizPosition, play: Move, game_move: Optional[dict] = None) -> dict[str, Any]:
    """The answer to `play` (None: a pass) in `position`: correct or not, its loss in points (None where the
    regions' values cannot say: another move of the hottest region than its best), whether that loss is a
    lower bound, the best moves, the regions and the reason in words. `game_move`: the review's line for the
    move the game played here (move, loss, reason), said where the player chose that move."""
    hot, color = position.hottest, position.to_play
    where = "pass" if play is None else to_gtp(play, position.height)
    # a best move counts as the hottest region's even where it stands just outside its points (a tree's move
    # on the region's border)
    region = hot if where in hot.best else next((r for r in position.regions if where in r.points), None)
    loss: Optional[float]
    at_least = False
    best = "/".join(hot.best)
    hot_words = f"the hottest region, {hot.label} (temperature {hot.temperature:.1f}, {describe_kind(hot.kind, color)})"
    if region is hot and where in hot.best:
        loss = 0.0
        cooler = (f"the next region is {position.lead:.1f} point(s) cooler" if len(position.regions) > 1
                  else "no other region is hot")
        reason = f"Right: {where} is the best move of {hot_words}; {cooler}."
    elif region is hot:
        loss, reason = None, (f"{where} is in {hot_words}, but its best move is {best}; the regions' values do not "
                              f"say what {where} loses (try it in the workbench).")
    elif region is None:
        loss = hot.temperature
        said = "Passing" if play is None else f"{where} is in no undecided region: it"
        reason = f"{said} gains nothing while {hot_words} stands: it loses {loss:.1f} point(s) against {best}."
    else:
        loss = hot.temperature - region.temperature
        at_least = where not in region.best
        reason = (f"{where} plays in region {region.label} (temperature {region.temperature:.1f}, "
                  f"{describe_kind(region.kind, color)}) while {hot_words} stands: it loses "
                  f"{hot.temperature:.1f} - {region.temperature:.1f} = {loss:.1f} point(s) against {best}")
        reason += (f", and at least that: it is not {region.label}'s best move ({'/'.join(region.best) or 'none'})."
                   if at_least else ".")
    if game_move and game_move.get("move") == where:
        lost = game_move.get("loss")
        reason += (f" It is the game's move: the review, which saw the position after it, found it lost "
                   f"{'an unknown amount' if lost is None else f'{lost:.1f} point(s)'} ({game_move.get('reason', '')}).")
    return {"play": where, "correct": loss == 0.0, "loss": None if loss is None else round(loss, 2),
            "loss_at_least": at_least, "best": list(hot.best), "hottest": hot.label,
            "region": None if region is None else region.label, "reason": reason,
            "best_reason": position.reason, "regions": [r.as_json(color) for r in position.regions],
            "game_move": game_move}


def position_json(position: QuizPosition, review_id: str, record_id: str) -> dict[str, Any]:
    """A quiz position as the page is given it: where it is, without its numbers."""
    return {"review": review_id, "record": record_id, "move": position.move,
            "to_play": "B" if position.to_play == BLACK else "W"}

