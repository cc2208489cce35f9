"""KataGo's input features (version 7: 22 board planes, 19 globals) from a tengen `Board`.

The planes, in KataGo's order (`NNInputs::fillRowV7`, `cpp/neuralnet/nninputs.cpp`):
 0 on board        1 own stones      2 opponent stones   3-5 chains with 1, 2, 3 liberties
 6 ko / superko-banned points        7-8 encore ko marks (unused: no encore here)
 9-13 the last five moves (opponent's last move first), kept only while colors alternate
14 stones a ladder captures now      15, 16 the same one and two moves ago
17 where the side to move starts a working ladder against a two-liberty opponent chain
18-19 own / opponent area (pass-alive areas, big territories, stones; area scoring only)
20-21 second-encore start stones (unused)
Globals: 0-4 which of the last five moves were passes, 5 komi / 20 from the side to move's view
(handicap compensation and territory-scoring adjustments included), 6-7 ko rule, 8 suicide,
9 territory scoring, 10-11 tax, 12-13 encore, 14 "a pass now ends the phase", 15-16 playout doubling,
17 button, 18 komi parity wave (area scoring).

"Own" means the side to move. History is rebuilt from the board's move list the way KataGo's
`BoardHistory` sees it: passes, two-pass game ends (cleanup phase prevented, as KataGo's GTP does),
and the friendly-pass rule that hides history when one more pass would end an area-scored game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from tengen.eval.katago.area import kata_area
from tengen.eval.katago.ladder import ladder_features

NUM_SPATIAL = 22
NUM_GLOBAL = 19
KOMI_CLIP_RADIUS = 20.0
SUPPORTED_INPUT_VERSION = 7


@dataclass(frozen=True)
class KataRules:
    """The rule options KataGo's networks see."""

    scoring: str = "area"  # area | territory
    ko: str = "simple"  # simple | positional | situational
    suicide: bool = False  # multi-stone suicide legal
    tax: str = "none"  # none | seki | all
    button: bool = False
    white_handicap_bonus: str = "N"  # "0" | "N-1" | "N"
    friendly_pass_ok: bool = True

    @classmethod
    def from_rules(cls, rules) -> "KataRules":
        """Map a tengen `Rules` onto KataGo's options (KataGo's presets decide what Rules does not say)."""
        name = getattr(rules, "name", "").lower()
        scoring = getattr(rules, "scoring", "area")
        bonus = {0: "0", 1: "N-1", 2: "N"}.get(getattr(rules, "white_handicap_bonus", 0), "0")
        friendly = getattr(rules, "friendly_pass_ok", None)
        if friendly is None:
            friendly = scoring == "area" and name in ("chinese", "aga", "bga", "chinese-ogs", "chinese-kgs")
        tax = getattr(rules, "tax", "none")
        if scoring == "area" and tax != "none":
            raise ValueError(f"area scoring with tax {tax!r} is not supported")
        return cls(scoring, getattr(rules, "ko", "simple"), bool(getattr(rules, "suicide", False)), tax,
                   bool(getattr(rules, "button", False)), bonus, bool(friendly))


@dataclass
class History:
    """What KataGo's `BoardHistory` knows about the position, rebuilt from a board's move list."""

    moves: list  # [(color, point or None)] since setup (empty when the history was cleared)
    prev_grids: list  # stone arrays 1 and 2 moves ago (as many as exist)
    prev_kos: list
    valid_turns: int  # KataGo's numApproxValidTurnsThisPhase
    consecutive_passes: int  # consecutiveEndingPasses
    passes_before: dict  # color -> set of stone hashes seen before that color's passes
    game_finished: bool  # two passes ended an area-scored game
    past_phase_end: bool  # two passes ended the main phase of a territory-scored game
    white_bonus: float  # territory scoring: Black's moves minus White's (area -> territory)
    handicap_bonus: float
    cleared: bool = False


def _handicap_stones(initial: np.ndarray, moves: list) -> int:
    """KataGo's count of handicap stones: black setup stones plus leading black moves, if > 1."""
    if np.any(initial == -1):
        return 0
    count = 0
    for i, (color, point) in enumerate(moves):
        if color != 1:
            if i + 1 < len(moves) and moves[i + 1][0] != 1:
                count = 0
                break
            if point is None:
                continue
            break
        if point is not None:
            count += 1
    total = int(np.sum(initial == 1)) + count
    return total if total > 1 else 0


def _handicap_bonus(stones: int, rule: str) -> float:
    if rule == "N":
        return float(stones)
    if rule == "N-1":
        return float(stones - 1) if stones > 1 else 0.0
    return 0.0


def build_history(board, rules: KataRules, to_play: Optional[int] = None) -> History:
    """Rebuild KataGo's history view of `board`. A side to move (`to_play`, default the board's) other than
    the natural one (the opponent of the last mover) clears the history, as KataGo's `kata-raw-nn` does
    when asked for the other color."""
    moves = list(board.moves)
    natural = -moves[-1][0] if moves else board.to_play
    pla = board.to_play if to_play is None else to_play
    if pla != natural:
        grid = board.array()
        caps = board.captures
        white_bonus = 0.0
        if rules.scoring == "territory":
            white_bonus = float(np.sum(grid == 1) - np.sum(grid == -1)) - (caps[1] - caps[-1])
        return History([], [], [], 0, 0, {1: set(), -1: set()}, False, False, white_bonus,
                       _handicap_bonus(_handicap_stones(grid, []), rules.white_handicap_bonus), True)

    walker = board.copy()
    hashes_before = [0] * len(moves)
    prev_grids, prev_kos = [], []
    for i in range(len(moves) - 1, -1, -1):
        walker.undo()
        hashes_before[i] = walker.hash
        if len(prev_grids) < 2:
            prev_grids.append(walker.array())
            prev_kos.append(walker.ko_point)
    initial = walker.array()
    caps0 = walker.captures

    white_bonus = 0.0
    if rules.scoring == "territory":
        white_bonus = float(np.sum(initial == 1) - np.sum(initial == -1)) - (caps0[1] - caps0[-1])
        white_bonus += sum(1.0 if c == 1 else -1.0 for c, p in moves if p is not None)

    valid = consec = 0
    finished = past_end = False
    passes_before: dict = {1: set(), -1: set()}
    for (color, point), h in zip(moves, hashes_before):
        if finished or past_end:
            valid = min(valid, 1)
        finished = past_end = False
        spight = False
        if point is not None:
            consec = 0
        else:
            consec += 1
            spight = rules.ko == "simple" and h in passes_before[color]
            passes_before[color].add(h)
        valid += 1
        if consec >= 2 or spight:
            if rules.scoring == "area":
                finished = True
            else:
                past_end = True
                valid = min(valid, 1)
    bonus = _handicap_bonus(_handicap_stones(initial, moves), rules.white_handicap_bonus)
    return History(moves, prev_grids, prev_kos, valid, consec, passes_before, finished, past_end, white_bonus,
                   bonus)


def komi_parity_wave(self_komi: float, width: int, height: int) -> float:
    """KataGo's triangle wave telling the net how komi sits between drawable values."""
    if (width * height) % 2 == 0:
        floor = np.floor(self_komi / 2.0) * 2.0
    else:
        floor = np.floor((self_komi - 1.0) / 2.0) * 2.0 + 1.0
    delta = min(max(self_komi - floor, 0.0), 2.0)
    if delta < 0.5:
        return float(delta)
    if delta < 1.5:
        return float(1.0 - delta)
    return float(delta - 2.0)


@dataclass
class Encoded:
    """One position's network inputs plus what postprocessing needs."""

    spatial: np.ndarray  # float32 (height, width, 22)
    global_: np.ndarray  # float32 (19,)
    legal: np.ndarray  # bool (height * width + 1,): the last entry is pass
    to_play: int
    self_komi: float  # the komi input from the side to move's view (before / 20)


def encode(board, to_play: Optional[int] = None, komi: Optional[float] = None,
           suicide_for_pass_alive: bool = False, rules: Optional[KataRules] = None) -> Encoded:
    """KataGo v7 inputs for `board` with `to_play` to move (default: the board's) and `komi`
    (default: the board's rules); `suicide_for_pass_alive` = the model's pass-alive featurisation flag."""
    krules = rules or KataRules.from_rules(board.rules)
    pla = board.to_play if to_play is None else to_play
    opp = -pla
    h, w = board.height, board.width
    grid = board.array()
    hist = build_history(board, krules, pla)
    spatial = np.zeros((h, w, NUM_SPATIAL), dtype=np.float32)
    glob = np.zeros(NUM_GLOBAL, dtype=np.float32)
    spatial[..., 0] = 1.0
    spatial[..., 1] = grid == pla
    spatial[..., 2] = grid == opp

    libs = np.zeros((h, w), dtype=np.int32)
    seen = np.zeros((h, w), dtype=bool)
    for r, c in zip(*np.nonzero(grid)):
        if not seen[r, c]:
            n = board.liberties((int(r), int(c)))
            for p in board.chain((int(r), int(c))):
                seen[p] = True
                libs[p] = n
    spatial[..., 3] = libs == 1
    spatial[..., 4] = libs == 2
    spatial[..., 5] = libs == 3

    ko = None if hist.cleared else board.ko_point
    if ko is not None:
        spatial[ko[0], ko[1], 6] = 1.0
    legal = np.zeros(h * w + 1, dtype=bool)
    legal[-1] = True
    for r in range(h):
        for c in range(w):
            if grid[r, c] != 0 or (r, c) == ko:
                continue
            reason = board.legality(pla, (r, c)) if not hist.cleared else _legality_ignoring_history(board, pla,
                                                                                                   (r, c))
            if reason is None:
                legal[r * w + c] = True
            elif reason == "superko" and not _lone_suicide(board, grid, pla, r, c):
                spatial[r, c, 6] = 1.0  # KataGo bans single-stone suicide as suicide, not as superko

    suicide_pa = krules.suicide or suicide_for_pass_alive
    komi_value = board.rules.komi if komi is None else float(komi)
    white_komi = komi_value + hist.white_bonus + hist.handicap_bonus
    self_komi = white_komi if pla == -1 else -white_komi

    if krules.scoring == "area":
        area = kata_area(grid, suicide_pa)
        spatial[..., 18] = area == pla
        spatial[..., 19] = area == opp

    pass_ends_phase = hist.consecutive_passes + 1 >= 2 or (
        krules.ko == "simple" and board.hash in hist.passes_before[pla])
    pass_ends_game = pass_ends_phase and krules.scoring == "area"
    suppress = (pass_ends_game and krules.friendly_pass_ok and krules.scoring == "area"
                and hist.consecutive_passes + 1 == 2
                and not (krules.ko == "simple" and board.hash in hist.passes_before[pla]))
    max_turns = 5
    if suppress:
        max_turns = 0
    elif hist.game_finished or hist.past_phase_end:
        max_turns = 1

    included = 0
    use = min(max_turns, hist.valid_turns)
    moves = hist.moves
    for k in range(use):
        if k >= len(moves):
            break
        color, point = moves[-1 - k]
        if color != (opp if k % 2 == 0 else pla):
            break
        included = k + 1
        if point is None:
            glob[k] = 1.0
        else:
            spatial[point[0], point[1], 9 + k] = 1.0

    laddered, working = ladder_features(grid, ko, pla)
    spatial[..., 14] = laddered
    spatial[..., 17] = working
    prev_grid, prev_ko = (hist.prev_grids[0], hist.prev_kos[0]) if included >= 1 else (grid, ko)
    spatial[..., 15] = laddered if included < 1 else ladder_features(prev_grid, prev_ko, pla)[0]
    if included >= 2:
        spatial[..., 16] = ladder_features(hist.prev_grids[1], hist.prev_kos[1], pla)[0]
    else:
        spatial[..., 16] = spatial[..., 15]

    area_pts = float(w * h)
    glob[5] = min(max(self_komi, -area_pts - KOMI_CLIP_RADIUS), area_pts + KOMI_CLIP_RADIUS) / 20.0
    if krules.ko in ("positional", "spight"):
        glob[6], glob[7] = 1.0, 0.5
    elif krules.ko == "situational":
        glob[6], glob[7] = 1.0, -0.5
    glob[8] = float(krules.suicide)
    glob[9] = float(krules.scoring == "territory")
    glob[10] = float(krules.tax in ("seki", "all"))
    glob[11] = float(krules.tax == "all")
    glob[14] = float(pass_ends_phase and not suppress)
    glob[17] = float(krules.button)
    if krules.scoring == "area":
        clipped = min(max(self_komi, -area_pts - KOMI_CLIP_RADIUS), area_pts + KOMI_CLIP_RADIUS)
        glob[18] = komi_parity_wave(clipped, w, h)
    return Encoded(spatial, glob, legal, pla, self_komi)


def _lone_suicide(board, grid: np.ndarray, color: int, r: int, c: int) -> bool:
    """Would a stone at (r, c) die alone: no empty or friendly neighbour, no neighbour chain in atari?"""
    h, w = grid.shape
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < h and 0 <= cc < w:
            v = grid[rr, cc]
            if v == 0 or v == color or board.liberties((rr, cc)) == 1:
                return False
    return True


def _legality_ignoring_history(board, color: int, point) -> Optional[str]:
    """Legality when the history is cleared: occupied / suicide only (no ko, no superko)."""
    reason = board.legality(color, point)
    return None if reason in ("ko", "superko") else reason
