"""A game record replayed by tengen's rules core, snapshotting the position (stones, prisoners, side to move)
after the phase moves (30, 80, 130, 180)."""
from __future__ import annotations

import numpy as np

from tengen.go import BLACK, WHITE, Board, IllegalMove, Rules
from tengen.train.records.game import GameRecord, SkipGame
from tengen.train.records.store import BOARD_SIZE, PHASES


def record_board(komi: float, setup_black=(), setup_white=()) -> Board:
    """A record's empty 19x19 board under the records' rules (area scoring, simple ko, no suicide, `komi`) with
    its setup stones: where every replay of a game record starts."""
    board = Board(BOARD_SIZE, rules=Rules("records", komi, "area", "simple", False))
    if setup_black or setup_white:
        board.setup(black=list(setup_black), white=list(setup_white))
    return board


def extract_positions(record: GameRecord, phases: tuple[int, ...] = PHASES
                      ) -> list[tuple[int, np.ndarray, int, int, int]]:
    """Replay with tengen's rules core; (move number, stones, captured by Black, by White, to play) per phase.

    A phase is recorded when the game has at least that many moves (passes count as moves). Raises
    SkipGame('illegal_move_<reason>') when the record breaks the rules (simple ko, no suicide).
    """
    board = record_board(0.0, record.setup_black, record.setup_white)
    wanted = set(p for p in phases if p <= len(record.moves))
    out: list[tuple[int, np.ndarray, int, int, int]] = []
    last = max(wanted, default=0)
    for n, (color, point) in enumerate(record.moves[:last], start=1):
        try:
            board.play(color, point)
        except IllegalMove as exc:
            raise SkipGame(f"illegal_move_{exc.reason.replace(' ', '_')}", f"move {n}") from None
        if n in wanted:
            caps = board.captures
            out.append((n, board.array(), caps[BLACK], caps[WHITE], -color))
    return out
