"""Board speed: random legal 19x19 games with tengen's native board and with sgfmill's boards.Board.

Both sides follow one policy (tengen.go.playout): uniform over legal moves that do not fill the mover's
own single-point eye, pass when none, two passes end, simple ko, suicide illegal, at most 3*361 moves.
Prints moves/s for each, measured in the same run; the last line is `ratio: <tengen / sgfmill>`.
Before it, the tree-search pattern: copy a position late in a game (move 170 of the bundled example) and
play one move on the copy, for each board, same run (tengen's copy keeps its undo history).
Usage: python bench/board_speed.py [--seconds S]
"""
from __future__ import annotations

import argparse
import platform
import random
import time

from sgfmill import boards

from tengen.go import Board
from tengen.go.playout import random_playout

SIZE = 19
MAX_MOVES = 3 * SIZE * SIZE


def sgfmill_game(rng: random.Random) -> int:
    """One random game on sgfmill's board under the same policy; returns moves played (passes included)."""
    board = boards.Board(SIZE)
    empties = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    ko = None
    color, other = "b", "w"
    passes = moves = 0

    def neighbours(r: int, c: int):
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE]

    while passes < 2 and moves < MAX_MOVES:
        candidates = list(empties)
        chosen = None
        while candidates:
            i = rng.randrange(len(candidates))
            p = candidates[i]
            candidates[i] = candidates[-1]
            candidates.pop()
            if p == ko:
                continue
            nbrs = neighbours(*p)
            colors = [board.get(*n) for n in nbrs]
            if all(c == color for c in colors):
                continue  # own single-point eye
            if None not in colors:
                trial = board.copy()  # no liberty next to it: legal only if it captures or joins a live chain
                trial.play(p[0], p[1], color)
                if trial.get(*p) is None:
                    continue  # suicide
            chosen = p
            break
        if chosen is None:
            passes += 1
            ko = None
        else:
            passes = 0
            enemy_before = [n for n in neighbours(*chosen) if board.get(*n) == other]
            ko = board.play(chosen[0], chosen[1], color)
            if any(board.get(*n) is None for n in enemy_before):
                empties = [(r, c) for r in range(SIZE) for c in range(SIZE) if board.get(r, c) is None]
            else:
                empties.remove(chosen)
        moves += 1
        color, other = other, color
    return moves


def measure(play_one, seconds: float) -> tuple[int, int, float]:
    """Play games until `seconds` have passed; returns (games, moves, elapsed)."""
    games = moves = 0
    start = time.perf_counter()
    while True:
        moves += play_one(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, moves, elapsed


def late_game_copies(seconds: float) -> tuple[float, float, int]:
    """Copy-and-play rates (per second) at move 170 of the bundled example: (tengen, sgfmill, moves behind)."""
    from pathlib import Path

    from tengen.go.sgf import load_game

    example = Path(__file__).resolve().parents[1] / "src" / "tengen" / "data" / "example.sgf"
    ours = load_game(example).board_at(170)
    theirs = boards.Board(SIZE)
    grid = ours.array()
    for r in range(SIZE):
        for c in range(SIZE):
            if grid[r, c]:
                theirs.play(r, c, "b" if grid[r, c] > 0 else "w")
    color = ours.to_play
    empties = ours.legal_moves(color)

    def tengen_copy(i: int) -> int:
        copy = ours.copy()
        copy.play(color, empties[i % len(empties)])
        return 1

    def sgfmill_copy(i: int) -> int:
        copy = theirs.copy()
        r, c = empties[i % len(empties)]
        copy.play(r, c, "b" if color > 0 else "w")
        return 1

    n_t, _, s_t = measure(tengen_copy, seconds)
    n_s, _, s_s = measure(sgfmill_copy, seconds)
    return n_t / s_t, n_s / s_s, len(ours.moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per implementation (default 5)")
    args = parser.parse_args()
    rng = random.Random(2026)
    empty = Board(SIZE)
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    g_t, m_t, s_t = measure(lambda i: random_playout(empty, seed=i + 1, max_moves=MAX_MOVES).moves, args.seconds)
    g_s, m_s, s_s = measure(lambda i: sgfmill_game(rng), args.seconds)
    tengen_rate, sgfmill_rate = m_t / s_t, m_s / s_s
    print(f"tengen:  {g_t} games, {m_t} moves in {s_t:.2f} s -> {tengen_rate:,.0f} moves/s ({m_t / g_t:.0f} moves/game)")
    print(f"sgfmill: {g_s} games, {m_s} moves in {s_s:.2f} s -> {sgfmill_rate:,.0f} moves/s ({m_s / g_s:.0f} moves/game)")
    copy_t, copy_s, behind = late_game_copies(args.seconds)
    print(f"copy + one move at move {behind} (the tree-search pattern): tengen {copy_t:,.0f}/s, sgfmill {copy_s:,.0f}/s, "
          f"ratio {copy_t / copy_s:.1f}")
    print(f"ratio: {tengen_rate / sgfmill_rate:.1f}")


if __name__ == "__main__":
    main()
