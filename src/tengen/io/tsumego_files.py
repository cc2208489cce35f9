"""Life-and-death problems as files: an SGF problem with its solution tree (gogameguru's weekly problems:
a first move is accepted when a comment starting "Correct" or "RIGHT", as problem editors write them, lies
in its subtree) and the sanderland/tsumego collection's JSON (`AB`, `AW`,
`SOL`: the accepted first moves), read straight from its tar.xz archive.
"""
from __future__ import annotations

import json
import os
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

from tengen.files import NotRegularFile, read_regular_file
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point
from tengen.go.rules import Rules
from tengen.go.sgf import comment_text, load_game
from tengen.go.sgf_bytes import one_line

TSUMEGO_LEVELS = ("1a. Tsumego Beginner", "1b. Tsumego Intermediate", "1c. Tsumego Advanced")
MAX_PROBLEM_BYTES = 1 << 20  # a sanderland problem is a few hundred bytes


class ProblemError(ValueError):
    """A problem file that cannot be read or holds no problem (one line naming the file)."""


@dataclass(frozen=True)
class Problem:
    """A problem: the position with its side to move (the solver) and the accepted first moves."""

    name: str
    board: Board
    accepted: frozenset[Point] = field(default_factory=frozenset)
    collection: str = ""


def load_problem(path: str | Path) -> Problem:
    """The problem in the file `path`: sanderland JSON (a .json name, read as a regular file of at most
    MAX_PROBLEM_BYTES) or else an SGF problem; ProblemError, NotRegularFile or SgfError in one line."""
    source = os.fspath(path)
    if Path(source).suffix.lower() != ".json":
        return load_sgf_problem(source)
    try:
        data = json.loads(read_regular_file(source, MAX_PROBLEM_BYTES, "problem file"))
    except FileNotFoundError:
        raise ProblemError(f"{source}: no such file") from None
    except OSError as exc:
        raise ProblemError(f"{source}: {exc.strerror or one_line(exc)}") from None
    except NotRegularFile as exc:  # a FIFO, a device, a directory, or past the bound: said as such
        raise ProblemError(str(exc)) from None
    except RecursionError:
        raise ProblemError(f"{source}: not a problem file (JSON nested too deep)") from None
    except ValueError as exc:  # not JSON, or not UTF-8
        raise ProblemError(f"{source}: not a problem file ({one_line(exc)})") from None
    try:
        problem = sanderland_problem(data, Path(source).name) if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError, IndexError, OverflowError) as exc:
        raise ProblemError(f"{source}: not a problem file ({one_line(exc)})") from None
    if problem is None:
        raise ProblemError(f"{source}: no problem in it (sanderland JSON needs AB/AW and SOL)")
    return problem


def load_sgf_problem(path: str | Path) -> Problem:
    """An SGF problem: the root's setup, the side to move (PL, else the first variation's colour, else
    Black) and the first moves whose subtree holds a comment saying correct (SgfError on a bad file)."""
    game = load_game(path)
    board = game.board_at(0)
    root = game.sgf.get_root()
    size = game.height
    accepted: set[Point] = set()
    first_colour: Optional[int] = None
    for child in root:
        colour, move = child.get_move()
        if colour is None or move is None:
            continue
        first_colour = first_colour or (BLACK if colour == "b" else WHITE)
        if _says_correct(child):
            accepted.add((size - 1 - move[0], move[1]))
    board.to_play = game.first_player if root.has_property("PL") else (first_colour or BLACK)
    return Problem(Path(path).name, board, frozenset(accepted), str(Path(path).parent.name))


def _says_correct(node) -> bool:
    """Whether a comment in `node`'s subtree marks a correct line."""
    todo = [node]
    while todo:
        current = todo.pop()
        text = comment_text(current).strip().lower()
        if text.startswith(("correct", "right")):
            return True
        todo.extend(current)
    return False


def sanderland_problems(archive: str | Path, levels: tuple[str, ...] = TSUMEGO_LEVELS,
                        per_collection: int = 0) -> Iterator[Problem]:
    """The problems of `levels` (folders of the archive's problems/), each collection's first
    `per_collection` by name (0: all), problems without an accepted first move skipped."""
    taken: dict[str, int] = {}
    with tarfile.open(archive) as tar:
        members = sorted((m for m in tar.getmembers() if m.isfile() and m.name.endswith(".json")),
                         key=lambda m: m.name)
        for member in members:
            parts = member.name.split("/")
            if len(parts) < 5 or parts[2] not in levels:
                continue
            collection = f"{parts[2]}/{parts[3]}"
            if per_collection and taken.get(collection, 0) >= per_collection:
                continue
            problem = sanderland_problem(json.load(tar.extractfile(member)), parts[-1], collection)
            if problem is not None:
                taken[collection] = taken.get(collection, 0) + 1
                yield problem


def sanderland_problem(data: dict, name: str = "", collection: str = "") -> Optional[Problem]:
    """One problem from the collection's JSON (None when it names no accepted first move)."""
    solutions = [s for s in data.get("SOL") or [] if len(s) > 1 and isinstance(s[1], str) and len(s[1]) == 2]
    if not solutions:
        return None
    size = int(data.get("SZ", 19))
    board = Board(size, rules=Rules.chinese(komi=0))
    board.setup(black=[_json_point(v) for v in data.get("AB", [])], white=[_json_point(v) for v in data.get("AW", [])])
    board.to_play = BLACK if solutions[0][0] == "B" else WHITE
    accepted = frozenset(_json_point(s[1]) for s in solutions if s[0] == solutions[0][0])
    return Problem(name, board, accepted, collection)


def _json_point(sgf: str) -> Point:
    """An SGF point ('ab': column a, row b, from the top) as (row, column)."""
    return ord(sgf[1]) - ord("a"), ord(sgf[0]) - ord("a")
