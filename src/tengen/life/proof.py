"""Life and death proved by df-pn (the C search `tengen.life._proof`: Nagai 2002; Kishimoto and Mueller,
"Search versus knowledge for solving life and death problems in Go", AAAI 2005) over a local problem.

`prove(board, target, attacker)` answers whether the target chain lives, with the board's side to move
first: alive / dead / ko (`ko_for`: the colour that must win it) / seki / unknown. The local game (the C
module's doc has the rules): moves only in `region`; stones outside it are walls, taken as safe (the usual
tsumego assumption); kos by komaster, each attack searched twice (the defender komaster, then the
attacker komaster) as GNU Go's result codes need: 1 unconditionally, 2 only by winning a ko, 0 not at all.
`proved` is False where the answer rests on a judgement: the target escaping (a liberty outside the region,
or joined to a wall of its colour), the outside's empty points (the defender's win is read again with every
empty point outside the region the attacker's, since the attacker could fill them and the local game lets
nobody play there), the depth cap or a repetition on the path, or where the budget ran out.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional

from tengen.go.board import Board
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point, neighbours
from tengen.life import _proof
from tengen.life.frame import problem_box
from tengen.life.net import dragon

MAX_REGION = 128  # the C search's limit on the region's points
DEFAULT_NODES = 20_000  # per search (up to three a question: two focused, one full; a defender's win read
# again with escapes the attacker's and with the outside framed)
TT_BITS = 18  # the transposition table: 2**18 entries of 24 bytes (6 MiB) per search
WEAK_LIBERTIES = 2  # an attacker chain touching the area with this few liberties is capturable, not a wall
MAX_REACH = 6  # steps (Manhattan) from the target's dragon a default region reaches where the box is too large

ATTACKER_WINS, DEFENDER_WINS, UNKNOWN = 1, 0, -1
FLAG_ESCAPE, FLAG_DEPTH, FLAG_REPEAT = 1, 2, 4


@dataclass(frozen=True)
class Search:
    """One df-pn search: `winner` ATTACKER_WINS / DEFENDER_WINS / UNKNOWN, `proved` (False where it rests
    on an escape, the depth cap, a repetition, or the budget), its line (None: a pass) and nodes."""

    winner: int
    proved: bool
    line: tuple[Optional[Point], ...]
    nodes: int
    end: int  # the line's last position: 0 open, 1 captured, 2 pass-alive, 3 escaped
    outside: bool = False  # a defender's win that did not hold with the outside's empty points the attacker's


@dataclass(frozen=True)
class ProofResult:
    """The target's status with `first` to move, whether it is proved, GNU Go's codes and moves for the
    side moving first (`code`, `move`: 1 it succeeds, 2 only by winning a ko, 0 it fails, None unknown),
    the principal line from the position (None: a pass), the nodes of every search together."""

    status: str  # alive / dead / ko / seki / unknown
    proved: bool
    first: int  # the colour moving first
    attacker: int
    code: Optional[int]
    move: Optional[Point]
    line: tuple[Optional[Point], ...]
    nodes: int
    ko_for: Optional[int] = None  # status ko: the colour that must win the ko
    basis: str = "proved"  # proved / escape judged / outside judged / depth or repetition / budget
    framed: bool = False  # the empty points outside the region were the attacker's (see `prove`)
    reach: Optional[int] = None  # proved on the points within this many steps of the group (`prove_near`)

    @property
    def attacking(self) -> bool:
        return self.first == self.attacker


def prove(board: Board, target: Point, attacker: Optional[int] = None, region: Optional[Iterable[Point]] = None,
          max_nodes: int = DEFAULT_NODES, seconds: Optional[float] = None, first: Optional[int] = None,
          group: Optional[Iterable[Point]] = None, framed: bool = False, costs: Optional[bytes] = None) -> ProofResult:
    """The status of the target's group with `first` (default: the board's side to move) moving first, by
    df-pn within `region` (default: `default_region`); `max_nodes` and `seconds` bound each search. The
    group (default: the target's dragon, `tengen.life.net.dragon`, in the region) is dead only when none
    of its stones is left; it lives where one of its chains is pass-alive or escapes. `framed`: the empty
    points outside the region count as the attacker's safe stones (a tsumego's frame: nothing escapes; a
    proof is then a proof of the framed problem, `ProofResult.framed`). `costs`: move costs that order the
    search (`tengen.life.prior.move_costs`: a network's policy), or None."""
    points = _checked(board, target, attacker, region, max_nodes, seconds)
    attacker = -board.get(target) if attacker is None else attacker
    first = board.to_play if first is None else first
    if first not in (BLACK, WHITE):
        raise ValueError("first must be Black (1) or White (-1)")
    inside = set(points)
    stones = dragon(board, target) if group is None else set(group) | set(board.chain(target))
    stones = {p for p in stones if p in inside and board.on_board(p) and board.get(p) == board.get(target)}
    problem = _Problem(board, target, attacker, points, max_nodes, seconds, stones, framed, costs)
    if first == attacker:
        code, search, nodes = attack_code(problem)
    else:
        code, search, nodes = defence_code(problem)
    return _result(problem, first, code, search, nodes)


NEAR_REACHES = (2, 3, 4)  # the smaller regions `prove_near` tries, in steps from the group


def prove_near(board: Board, target: Point, region: Iterable[Point], first: int, winner: Optional[int] = None,
               max_nodes: int = DEFAULT_NODES, seconds: Optional[float] = None,
               group: Optional[Iterable[Point]] = None, costs: Optional[bytes] = None
               ) -> tuple[Optional[ProofResult], int]:
    """(A proof, with `first` to move, of the best result for `winner` (default `first`: its group alive, or
    the opponent's dead), found on the points within a few steps of the target's group (`NEAR_REACHES`),
    that holds on `region` too; or None. A smaller region favours one side, so only the other side's best
    result carries over: for life the points left out are the attacker's (framed, as a tsumego frame), for a
    kill they are the defender's way out (an escape is the defender's); and no chain of the winner's may be
    a wall there unless it is one in `region` as well (`_nested`). A kill so proved takes the defender's
    stones near the group (those farther away are reached only through an escape). Kos and seki do not carry
    over (the whole region may give more). `group`: the stones at stake (default: every stone of the
    target's colour in the smaller region, a tsumego's group; GTP's owl commands pass the dragon); `costs` as
    `prove`'s. With the nodes of every search tried.)"""
    winner = first if winner is None else winner
    nodes = 0
    color = board.get(target)
    killing = winner != color
    at_stake = None if group is None else set(group) | set(board.chain(target))
    whole = set(region)
    for steps in NEAR_REACHES:
        small = set(default_region(board, target, reach=steps))
        if not small < whole:
            break  # the group's whole region is this small: the caller's proof over it decides
        if not _nested(board, small, whole, winner):
            continue
        stones = [p for p in small if board.get(p) == color and (at_stake is None or p in at_stake)]
        result = prove(board, main_stone(board, stones), region=sorted(small), group=stones, max_nodes=max_nodes, seconds=seconds,
                       first=first, framed=not killing, costs=costs)
        nodes += result.nodes
        if (result.proved and result.status == ("dead" if killing else "alive")
                and (result.move is not None or first != winner)):
            return replace(result, reach=steps, nodes=nodes), nodes
    return None, nodes


def prove_near_first(board: Board, target: Point, region: Iterable[Point], first: int, winner: Optional[int] = None,
                     max_nodes: int = DEFAULT_NODES, seconds: Optional[float] = None, near: bool = True,
                     near_group: Optional[Iterable[Point]] = None, group: Optional[Iterable[Point]] = None,
                     framed: bool = False, costs: Optional[bytes] = None) -> ProofResult:
    """`prove_near`'s proof where it finds one (with `near`; `near_group` its stones at stake), else `prove`
    over `region` (with `group` and `framed`); `costs` order both; the nodes count every search tried."""
    spent = 0
    if near:
        found, spent = prove_near(board, target, region, first, winner, max_nodes, seconds, near_group, costs)
        if found is not None:
            return found
    result = prove(board, target, region=region, group=group, max_nodes=max_nodes, seconds=seconds, first=first,
                   framed=framed, costs=costs)
    return replace(result, nodes=result.nodes + spent)


def main_stone(board: Board, stones: Iterable[Point]) -> Point:
    """The stone that names a group to the search: one of its chain with the most liberties, then the largest
    (the search orders its moves near that chain)."""
    return min(stones, key=lambda p: (-board.liberties(p), -len(board.chain(p)), min(board.chain(p))))


def _nested(board: Board, small: set[Point], whole: set[Point], color: int) -> bool:
    """Whether every chain of `color` in or next to `small` is either wholly inside it or a wall over
    `whole` too (it holds a point outside it): then no such chain is a wall only in the smaller problem."""
    seen: set[Point] = set()
    for p in small:
        for q in (p, *neighbours(p, board.height, board.width)):
            if q in seen or board.get(q) != color:
                continue
            chain = set(board.chain(q))
            seen |= chain
            if not chain <= small and chain <= whole:
                return False
    return True


def attack(board: Board, target: Point, **kwargs) -> ProofResult:
    """`prove` with the target's opponent moving first."""
    return prove(board, target, first=-board.get(target) if board.on_board(target) else None, **kwargs)


def defend(board: Board, target: Point, **kwargs) -> ProofResult:
    """`prove` with the target's owner moving first."""
    return prove(board, target, first=board.get(target) if board.on_board(target) else None, **kwargs)


def default_region(board: Board, target: Point, reach: Optional[int] = None) -> list[Point]:
    """The target's area: from the target through empty points and its colour's stones, inside the
    problem's box (`tengen.life.frame.problem_box`, where it holds the target) and, where `reach` is given
    or the area would pass 128 points, within that many steps (Manhattan; 6 down to 0) of its dragon
    (`tengen.life.net.dragon`), with the attacker's chains whose liberties all lie in it (they can be
    captured); the attacker's other stones are walls."""
    chain = board.chain(target)
    if len(chain) > MAX_REGION:
        raise ValueError(f"the target chain alone holds more than {MAX_REGION} points")
    group = dragon(board, target)
    try:
        box = problem_box(board)
        inside = set(box.points()) if target in box else None
    except ValueError:
        inside = None
    steps_tried = [None] if reach is None else []
    steps_tried += list(range(reach if reach is not None else MAX_REACH, -1, -1))
    for steps in steps_tried:
        if steps is None and inside is None:
            continue
        near = inside if steps is None else {q for p in group for q in _diamond(board, p, steps)}
        container = (near & inside if inside is not None else near) | set(chain)
        area = _area(board, target, container)
        if len(area) <= MAX_REGION:
            return sorted(area)
    return sorted(set(chain))


def _diamond(board: Board, point: Point, steps: int) -> list[Point]:
    r0, c0 = point
    return [(r, c) for r in range(max(0, r0 - steps), min(board.height, r0 + steps + 1))
            for c in range(max(0, c0 - steps), min(board.width, c0 + steps + 1)) if abs(r - r0) + abs(c - c0) <= steps]


def _area(board: Board, target: Point, container: set[Point]) -> set[Point]:
    """The points reached from `target` within `container` through all but the attacker's stones, the
    attacker's chains inside it whose liberties all lie in what was reached, and the attacker's chains
    touching it with at most `WEAK_LIBERTIES` liberties, all in `container`, with those liberties and the
    defender's chains next to them (else a weak stone on the area's edge would be an uncapturable wall, and
    a defender's chain beyond its liberties another); repeated until it holds."""
    owner = board.get(target)
    area: set[Point] = set()
    frontier = [target]
    while True:
        while frontier:
            p = frontier.pop()
            if p in area:
                continue
            area.add(p)
            for q in neighbours(p, board.height, board.width):
                if q in container and q not in area and board.get(q) != -owner:
                    frontier.append(q)
        if len(area) > MAX_REGION:
            return area
        grown = False
        for p in sorted(area):
            for q in neighbours(p, board.height, board.width):
                if board.get(q) != -owner or q in area:
                    continue
                stones = board.chain(q)
                libs = set(board.chain_liberties(q))
                if set(stones) <= container and libs <= area:
                    area |= set(stones)
                    frontier += [n for s in stones for n in neighbours(s, board.height, board.width)
                                 if n in container and n not in area and board.get(n) != -owner]
                    grown = True
                elif set(stones) <= container and len(libs) <= WEAK_LIBERTIES and libs <= container:
                    # a weak stone the defender may capture: its liberties too, and the defender's chains next
                    # to them (else such a chain would be a wall, never captured, next to the fight)
                    area |= set(stones) | libs
                    frontier += [n for lib in sorted(libs) for n in neighbours(lib, board.height, board.width)
                                 if n in container and n not in area and board.get(n) == owner]
                    grown = True
        if not grown:
            return area


class _Problem:
    """The arguments the C search takes, made once."""

    def __init__(self, board: Board, target: Point, attacker: int, points: list[Point], max_nodes: int,
                 seconds: Optional[float], group: set[Point], framed: bool = False,
                 costs: Optional[bytes] = None) -> None:
        self.board, self.target, self.attacker = board, target, attacker
        self.width, self.height = board.width, board.height
        cells = bytearray(self.width * self.height)
        region = bytearray(self.width * self.height)
        code = {BLACK: 1, WHITE: 2, EMPTY: 0}
        for r in range(self.height):
            for c in range(self.width):
                cells[r * self.width + c] = code[board.get((r, c))]
        for p in points:
            region[p[0] * self.width + p[1]] = 1
        self.framed = framed
        for i in range(len(cells)):
            if framed and not region[i] and cells[i] == 0:
                cells[i] = code[attacker]
        stones = bytearray(self.width * self.height)
        for p in group:
            stones[p[0] * self.width + p[1]] = 1
        self.cells, self.region, self.group = bytes(cells), bytes(region), bytes(stones)
        self.max_nodes, self.seconds = max_nodes, seconds
        self.costs = costs or b""
        self.points = points

    def framed_twin(self) -> "_Problem":
        """The same problem with the empty points outside the region the attacker's stones (the worst case of
        the outside for the defender: the check of a defender's win)."""
        return _Problem(self.board, self.target, self.attacker, self.points, self.max_nodes, self.seconds,
                        {(i // self.width, i % self.width) for i, v in enumerate(self.group) if v}, True, self.costs)

    def colour(self, color: int) -> int:
        return 1 if color == BLACK else 2

    def point(self, index: int) -> Optional[Point]:
        return None if index < 0 else (index // self.width, index % self.width)

    def search(self, first: int, komaster: int) -> Search:
        """Can the attacker capture the target with `first` to move and `komaster` winning every ko? Searched
        first with the attacker's moves focused near the group (the C search's `relevant`: a capture found so is proved), then
        with the defender's focused (a defence found so is proved), then in full. An answer for the defender
        is read again with escapes counted as the attacker's and, unless the problem is framed already, every
        empty point outside the region the attacker's (`framed_twin`): in the local game nobody plays there, so
        a defender's chain touching the outside keeps a liberty the attacker could fill. Proved where it stands."""
        nodes = 0
        for focus in (self.attacker, -self.attacker, 0):
            winner, more, line, end, flags = self._run(first, komaster, escape_attacker=False, focus=focus)
            nodes += more
            if focus and winner != (ATTACKER_WINS if focus == self.attacker else DEFENDER_WINS):
                continue  # a focused search proves only its own side's goal
            proved = winner == ATTACKER_WINS or (winner == DEFENDER_WINS and not flags & (FLAG_DEPTH | FLAG_REPEAT))
            outside = False
            if proved and winner == DEFENDER_WINS and flags & FLAG_ESCAPE:
                again, more, _, _, flags2 = self._run(first, komaster, escape_attacker=True, focus=focus)
                nodes += more
                proved = again == DEFENDER_WINS and not flags2 & (FLAG_DEPTH | FLAG_REPEAT)
            if proved and winner == DEFENDER_WINS and not self.framed:
                again, more, _, _, flags2 = self.framed_twin()._run(first, komaster, escape_attacker=True, focus=focus)
                nodes += more
                proved = again == DEFENDER_WINS and not flags2 & (FLAG_DEPTH | FLAG_REPEAT)
                outside = not proved
            return Search(winner, proved, tuple(self.point(i) for i in line), nodes, end, outside)
        raise AssertionError("the full search always answers")

    def _run(self, first: int, komaster: int, escape_attacker: bool, focus: int = 0) -> tuple:
        index = self.target[0] * self.width + self.target[1]
        return _proof.solve(self.width, self.height, self.cells, self.region, index, self.colour(self.attacker),
                            self.colour(first), self.colour(komaster), int(escape_attacker), self.max_nodes,
                            float(self.seconds or 0.0), TT_BITS, self.group, self.colour(focus) if focus else 0,
                            self.costs)


def attack_code(problem: _Problem) -> tuple[Optional[int], Search, int]:
    """GNU Go's attack code with the attacker first (1, 2 ko, 0; None unknown), the deciding search, nodes."""
    return _code(problem, problem.attacker, ATTACKER_WINS)


def defence_code(problem: _Problem) -> tuple[Optional[int], Search, int]:
    """GNU Go's defence code with the defender first (1, 2 ko, 0; None unknown), the deciding search, nodes."""
    return _code(problem, -problem.attacker, DEFENDER_WINS)


def _code(problem: _Problem, first: int, goal: int) -> tuple[Optional[int], Search, int]:
    """1 where `first` reaches `goal` with its opponent as komaster, 2 where only as komaster itself (a ko:
    proved only where the first search is), 0 where not even then; None where a budget ran out."""
    strict = problem.search(first, komaster=-first)
    if strict.winner == goal:
        return 1, strict, strict.nodes
    if strict.winner == UNKNOWN:
        return None, strict, strict.nodes
    with_ko = problem.search(first, komaster=first)
    nodes = strict.nodes + with_ko.nodes
    if with_ko.winner == goal:
        return 2, replace(with_ko, proved=with_ko.proved and strict.proved), nodes
    if with_ko.winner == UNKNOWN:
        return None, with_ko, nodes
    return 0, with_ko, nodes


def _result(problem: _Problem, first: int, code: Optional[int], search: Search, nodes: int) -> ProofResult:
    attacker = problem.attacker
    if code is None:
        return ProofResult("unknown", False, first, attacker, None, None, search.line, nodes, basis="budget",
                           framed=problem.framed)
    attacking = first == attacker
    if code == 2:
        status, ko_for = "ko", first
    elif (code == 1) == attacking:
        status, ko_for = "dead", None
    else:
        status, ko_for = ("seki" if _looks_like_seki(problem, first, search) else "alive"), None
    move = search.line[0] if search.line and code != 0 else None
    basis = "proved" if search.proved else ("outside judged" if search.outside else
                                            "escape judged" if search.end == 3 or status in ("alive", "seki", "ko")
                                            else "depth or repetition")
    return ProofResult(status, search.proved, first, attacker, code, move, search.line, nodes, ko_for, basis,
                       problem.framed)


def _looks_like_seki(problem: _Problem, first: int, search: Search) -> bool:
    """Read before the line's first capture: the target, not pass-alive, has at most two liberties and
    shares one with an attacker chain wholly inside the region that has at most two (neither side can
    approach without self-atari)."""
    if search.end == 3:
        return False
    board = problem.board.copy()
    color = first
    try:
        for move in search.line:
            if move is not None:
                trial = board.copy()
                if trial.play(color, move):
                    break
                board = trial
            color = -color
    except Exception:  # a ko capture the board's own ko rule refuses: no seki reading
        return False
    if board.get(problem.target) != -problem.attacker:
        return False
    region = {(i // problem.width, i % problem.width) for i, v in enumerate(problem.region) if v}
    libs = set(board.chain_liberties(problem.target))
    if len(libs) > 2:
        return False
    for chain in board.chains(problem.attacker):
        theirs = set(board.chain_liberties(chain[0]))
        if set(chain) <= region and len(theirs) <= 2 and libs & theirs:
            return True
    return False


def _checked(board: Board, target, attacker, region, max_nodes, seconds) -> list[Point]:
    """The region's points, every argument checked (one-line ValueErrors)."""
    if not (isinstance(target, tuple) and len(target) == 2 and all(isinstance(v, int) for v in target)):
        raise ValueError("the target must be a (row, col) point")
    if not board.on_board(target):
        raise ValueError(f"the target {target} is off the board")
    if board.get(target) == EMPTY:
        raise ValueError(f"the target {target} is not a stone")
    if attacker is not None and attacker != -board.get(target):
        raise ValueError("the attacker must be the target's opponent")
    if max_nodes < 1:
        raise ValueError("max_nodes must be at least 1")
    if seconds is not None and seconds <= 0:
        raise ValueError("seconds must be positive")
    if region is None:
        return default_region(board, target)
    points = sorted(set(tuple(p) for p in region))
    if not points:
        raise ValueError("the region is empty")
    for p in points:
        if len(p) != 2 or not board.on_board(p):
            raise ValueError(f"the region's point {p} is off the board")
    points = sorted(set(points) | set(board.chain(target)))
    if len(points) > MAX_REGION:
        raise ValueError(f"the region holds {len(points)} points, more than {MAX_REGION}")
    return points
