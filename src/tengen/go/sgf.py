"""SGF reading: a `Game` (setup stones, moves, komi, rules, handicap, result) from a file or bytes made safe
by `tengen.go.sgf_bytes`. Writing analysis back (comments, markup, variations) lives with the adapters, in
`tengen.io.sgf_write`.

Real-world records are messy; we read leniently what has one obvious meaning (komi written x100 or in
Chinese "zi" units, an unreadable PL or HA), naming each such reading in the game's notes, and otherwise
raise `SgfError`, whose message is one line naming the file and the problem.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Optional

from tengen.go.board import MAX_RECORD_MOVES, Board, IllegalMove
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Move, Point, neighbours, to_gtp
from tengen.go.rules import Rules
from tengen.go.sgf_bytes import SgfError, one_line, parse_sgf_bytes, read_regular_file


@dataclass
class Event:
    """One main-line step: a move (`color`, `point`; point None = pass) or a setup node (AB/AW/AE)."""

    color: int = 0
    point: Move = None
    setup_black: tuple[Point, ...] = ()
    setup_white: tuple[Point, ...] = ()
    setup_empty: tuple[Point, ...] = ()
    node: object = None
    to_play: int = 0  # a setup node's PL (who moves next), 0 when it does not say

    @property
    def is_move(self) -> bool:
        return self.color != 0


@dataclass
class Game:
    """A game record: board size, rules (with komi), handicap, root setup, main-line events, result."""

    width: int
    height: int
    rules: Rules
    handicap: int = 0
    result: Optional[str] = None
    events: list[Event] = field(default_factory=list)
    sgf: object = None  # the sgfmill Sgf_game, kept for writing analysis back
    source: str = "<sgf>"
    first_player: int = BLACK
    forced: list[str] = field(default_factory=list)  # illegal moves the last lenient `board_at` placed anyway
    notes: list[str] = field(default_factory=list)  # what loading read leniently (an unreadable KM, unknown RU)
    repairs: list[str] = field(default_factory=list)  # fixes with one obvious meaning: 'komi_x100', 'komi_stones'
    komi_stated: bool = True  # False when the record gives no readable KM (`komi` is then 0, not the record's)
    rules_overridden: bool = False  # the user named the rules (`override_rules`), whatever RU says

    def forced_warnings(self) -> list[str]:
        """One line per illegal move the last lenient `board_at` placed anyway, naming the file."""
        return [f"{self.source}: {what}; placed as the record says" for what in self.forced]

    def load_warnings(self) -> list[str]:
        """One line per property the record gave that loading could not take as written, naming the file."""
        return [f"{self.source}: {what}" for what in self.notes]

    @property
    def names_rules(self) -> bool:
        """Whether the record states its rules (RU); without it `rules` is the Chinese default."""
        return self.sgf is not None and self.sgf.get_root().has_property("RU")

    def override_rules(self, name: str) -> None:
        """Play and score under the rules `name` (as RU or GTP write it), keeping the record's komi;
        ValueError (one line) for a name tengen does not know."""
        self.rules = Rules.from_name(name, self.rules.komi)
        self.rules_overridden = True

    def rules_said(self) -> str:
        """Where the rules and komi come from, in one line for a player: the record's RU and KM, the user's
        choice, or what tengen assumed and why."""
        rules = f"{self.rules.name} rules ({self.rules.scoring} scoring)"
        if self.rules_overridden:
            rules += " as asked"
        elif self.names_rules and not any(note.startswith("RU[") for note in self.notes):
            rules += " as the record says (RU)"
        elif self.names_rules:
            rules += " assumed: the record's RU names rules tengen does not know"
        else:
            rules += (" assumed: the record names no rules (RU); records without it were often played under "
                      "Japanese rules (--rules japanese)")
        komi = (f"komi {self.komi:g} as the record says (KM)" if self.komi_stated else
                f"komi {self.komi:g} assumed: the record gives no readable komi (KM)")
        return f"{rules}; {komi}"

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """The main line's moves (color, point)."""
        return [(e.color, e.point) for e in self.events if e.is_move]

    @property
    def komi(self) -> float:
        return self.rules.komi

    def board_at(self, move_number: Optional[int] = None, strict: bool = True) -> Board:
        """The position after `move_number` moves of the main line (None = the end).

        Setup nodes are applied where they stand. With `strict`, an illegal move raises SgfError naming
        the move; otherwise illegal moves are forced by setup (as many editors do; the board's own move
        history restarts there), listed in `forced`, and the game goes on.
        """
        total = len(self.moves)
        if move_number is None:
            move_number = total
        if not 0 <= move_number <= total:
            raise SgfError(self.source, f"move {move_number} is out of range (the game has {total} moves)")
        board = Board(self.width, self.height, rules=self.rules)
        board.to_play = self.first_player
        played = 0
        self.forced = []
        for event in self.events:
            if event.is_move:
                if played == move_number:
                    break
                try:
                    board.play(event.color, event.point)
                except IllegalMove as exc:
                    what = (f"move {played + 1} ({'B' if event.color == BLACK else 'W'} "
                            f"{to_gtp(event.point, self.height)}) is illegal: {exc.reason}")
                    if strict:
                        raise SgfError(self.source, what) from None
                    self.forced.append(what)
                    _force_move(board, event.color, event.point)
                played += 1
            else:
                to_play = board.to_play
                board.setup(event.setup_black, event.setup_white, event.setup_empty)
                _check_setup(board, event, self.source)
                board.to_play = event.to_play or to_play
        if played < move_number:
            raise SgfError(self.source, f"move {move_number} is out of range")
        return board

    def node_at(self, move_number: Optional[int] = None):
        """The sgfmill node holding the position `board_at(move_number)` gives: the last node before the
        next move (setup or markup nodes after move N belong to the position after N moves)."""
        nodes = self.sgf.get_main_sequence()
        if move_number is not None:
            count, last = 0, nodes[0]
            for node in nodes:
                if node.get_move()[0] is not None:
                    count += 1
                    if count > move_number:
                        break
                last = node
        else:
            last = nodes[-1]
        if len(nodes) > 1 and last is nodes[-1] and comment_text(last).startswith(SGF_END_MARK):
            return nodes[-2]  # the end marker tengen wrote is not a node of the record
        return last


def _check_setup(board: Board, event: Event, source: str) -> None:
    """SgfError when a chain the setup `event` placed or touched has no liberties (an impossible position)."""
    for p in (*event.setup_black, *event.setup_white):
        for q in (p, *neighbours(p, board.height, board.width)):
            if board.get(q) and board.liberties(q) == 0:
                color = "Black" if board.get(q) == BLACK else "White"
                at = to_gtp(min(board.chain(q)), board.height)
                raise SgfError(source, f"impossible setup: the {color} chain at {at} has no liberties")


def _force_move(board: Board, color: int, point: Move) -> None:
    """Put a stone where the record says even if the rules object (occupied/ko/suicide), then take off
    whatever has no liberties (opponent chains first, then the mover's own); keeps going."""
    if point is None:
        board.play(color, None)
        return
    grid = board.array()
    grid[point] = color
    board.set_array(grid)
    taken = 0
    for n in neighbours(point, board.height, board.width):
        if board.get(n) == -color and board.liberties(n) == 0:
            chain = board.chain(n)
            for q in chain:
                grid[q] = 0
            taken += len(chain)
            board.set_array(grid)
    lost = 0
    if board.liberties(point) == 0:
        chain = board.chain(point)
        for q in chain:
            grid[q] = 0
        lost = len(chain)
        board.set_array(grid)
    if taken or lost:
        black, white = board._native.captures
        gained = {BLACK: taken if color == BLACK else lost, WHITE: taken if color == WHITE else lost}
        board._native.set_captures(black + gained[BLACK], white + gained[WHITE])
    board.to_play = -color


def normalise_komi(raw: Optional[float], text: Optional[str] = None, notes: Optional[list[str]] = None) -> float:
    """Komi as points: x100 encodings (KM[750]) are divided; Chinese 'zi' (x.25 / x.75) are doubled.

    `text`, the KM value as written, keeps a real large komi such as KGS's KM[-100.00] (x100 encodings
    are written as integers). Each fix applied is appended to `notes` ('komi_x100', 'komi_stones')."""
    if raw is None:
        return 0.0
    komi = float(raw)
    if abs(komi) >= 100 and (text is None or "." not in text):
        komi /= 100.0
        if notes is not None:
            notes.append("komi_x100")
    if abs(komi * 4) % 2 == 1:  # quarter values: 3.75 zi = 7.5 points
        komi *= 2
        if notes is not None:
            notes.append("komi_stones")
    return komi


def _point(node_point, size: int) -> Move:
    """sgfmill (row from bottom, col) -> tengen (row from top, col)."""
    if node_point is None:
        return None
    row, col = node_point
    return size - 1 - row, col


def _rules_from_root(root, komi: float, notes: list[str]) -> Rules:
    """The record's rules (Chinese when RU is absent); an RU tengen does not know is noted, Japanese assumed."""
    try:
        ru = root.get("RU") if root.has_property("RU") else None
    except ValueError:  # several values, or bytes the record's charset cannot decode: the first, as read
        ru = root.get_raw("RU").decode("utf-8", "replace")
    if ru is None:
        return Rules.chinese(komi)
    try:
        return Rules.from_name(ru, komi)
    except ValueError:
        notes.append(f"RU[{ru}] is not a rule set tengen knows; Japanese rules (territory scoring) assumed")
        return Rules.japanese(komi)


def game_from_sgfmill(game, source: str = "<sgf>") -> Game:
    """Build a Game from a parsed sgfmill game (main line)."""
    try:
        size = game.get_size()
    except ValueError as exc:
        raise SgfError(source, one_line(exc)) from None
    if not 2 <= size <= 25:
        raise SgfError(source, f"board size {size} is not supported (2..25)")
    root = game.get_root()
    kind = root.get_raw("GM").decode("ascii", "replace").strip() if root.has_property("GM") else "1"
    if kind != "1":
        raise SgfError(source, f"not a Go record (GM[{kind}]; Go is GM[1])")
    notes: list[str] = []
    komi_stated = root.has_property("KM")
    try:
        raw_komi = game.get_komi()
    except ValueError:
        noted = len(notes)
        raw_komi = _lenient_float(root.get_raw("KM"), notes) if komi_stated else 0.0
        komi_stated = komi_stated and len(notes) == noted
    try:
        handicap = game.get_handicap() or 0
    except ValueError:
        handicap = 0
    if handicap < 0:
        notes.append(f"HA[{handicap}] is not a handicap; 0 assumed")
        handicap = 0
    result = None
    if root.has_property("RE"):
        try:
            result = root.get("RE")
        except ValueError:
            result = None
    komi_text = root.get_raw("KM").decode("ascii", "replace").strip() if root.has_property("KM") else None
    repairs: list[str] = []
    komi = normalise_komi(raw_komi, komi_text, repairs)
    if not math.isfinite(komi):
        raise SgfError(source, f"komi KM[{komi_text}] is not a finite number")
    rules = _rules_from_root(root, komi, notes)
    events: list[Event] = []
    first_player = BLACK
    try:
        nodes = game.get_main_sequence()
    except ValueError as exc:
        raise SgfError(source, one_line(exc)) from None
    stated_first: int = 0  # PL before the first move
    moved = False  # whether the main line has had a move before this node
    for index, node in enumerate(nodes):
        player = _player(node, notes)
        if player and not moved:
            stated_first = player
        try:
            b, w, e = node.get_setup_stones() if node.has_setup_stones() else (set(), set(), set())
            setup = [tuple(_point(p, size) for p in points) for points in (b, w, e)]
        except ValueError:
            raise SgfError(source, f"node {index}: bad setup point in {_raw_values(node, ('AB', 'AW', 'AE'))} "
                                   f"for a {size}x{size} board") from None
        if b & w:
            raise SgfError(source, f"node {index}: {to_gtp(_point(min(b & w), size), size)} is set up for both "
                                   "colors (AB and AW)")
        if b or w or e:
            both = sorted((b | w) & e)
            if both:
                notes.append(f"node {index}: {to_gtp(_point(both[0], size), size)} is set up twice (AB / AW / AE); "
                             "the last of AE, AB, AW wins")
            events.append(Event(setup_black=setup[0], setup_white=setup[1], setup_empty=setup[2], node=node,
                                to_play=player if moved else 0))
        try:
            letter, move = node.get_move()
        except ValueError:
            raise SgfError(source, f"node {index}: bad move {_raw_values(node, ('B', 'W'))} "
                                   f"for a {size}x{size} board") from None
        if letter is not None:
            color = BLACK if letter == "b" else WHITE
            if not moved:
                first_player = color
            events.append(Event(color=color, point=_point(move, size), node=node))
            moved = True
    if len(events) > MAX_RECORD_MOVES:  # each would be a board snapshot (tengen.go.board)
        raise SgfError(source, f"the main line is too long ({len(events)} moves and setup nodes; limit {MAX_RECORD_MOVES})")
    first_player = stated_first or first_player
    record = Game(size, size, rules, handicap, result, events, game, source, first_player, notes=notes,
                  repairs=repairs, komi_stated=komi_stated)
    setups = [i for i, event in enumerate(events) if not event.is_move]
    if setups:  # an impossible setup (a chain without liberties) is refused now: played up to the last setup
        record.board_at(sum(event.is_move for event in events[:setups[-1]]), strict=False)
    return record


def _player(node, notes: Optional[list[str]] = None) -> int:
    """A node's PL property as BLACK / WHITE (0 when absent or unreadable: noted)."""
    if not node.has_property("PL"):
        return 0
    try:
        return BLACK if node.get("PL") == "b" else WHITE
    except ValueError:
        if notes is not None:
            notes.append(f"{_raw_values(node, ('PL',))} is not a color; ignored")
        return 0


def _raw_values(node, props: tuple[str, ...]) -> str:
    """'B[zz]' style text of the given properties of a node, for error messages (truncated)."""
    parts = []
    for prop in props:
        if node.has_property(prop):
            values = "".join(f"[{v.decode('utf-8', 'replace')}]" for v in node.get_raw_list(prop))
            parts.append(prop + values)
    text = " ".join(parts)
    return text if len(text) <= 40 else text[:37] + "..."


def _lenient_float(raw: bytes, notes: list[str]) -> float:
    """A KM value sgfmill refused: a decimal comma is read as a point; anything else is komi 0, noted."""
    text = raw.decode("ascii", "replace").strip()
    try:
        return float(text.replace(",", ".") or 0)
    except ValueError:
        notes.append(f"KM[{text}] is not a number; komi 0 assumed")
        return 0.0


def load_game_bytes(data: bytes, source: str = "<sgf>") -> Game:
    """Parse SGF bytes into a Game (SgfError on any problem)."""
    return game_from_sgfmill(parse_sgf_bytes(data, source), source)


def load_game(path: str | os.PathLike) -> Game:
    """Read an SGF file into a Game. Raises SgfError with a one-line message naming the file."""
    source = os.fspath(path)
    return load_game_bytes(read_regular_file(source), source)


SGF_HEADING = "tengen endgame analysis"  # starts the comment tengen adds to an analyzed node
SGF_LINE_MARK = "tengen: region "  # starts the comment on the first node of each variation tengen adds
SGF_END_MARK = "tengen: the record ends here"  # an empty node that keeps a record's main line its own


def is_tengen_line(node) -> bool:
    """Whether a node starts a best local sequence that tengen wrote (not a line a person entered)."""
    return comment_text(node).startswith(SGF_LINE_MARK)


def comment_text(node) -> str:
    """A node's comment ('' when none); bytes its charset cannot decode become U+FFFD instead of failing."""
    if not node.has_property("C"):
        return ""
    try:
        return node.get("C")
    except ValueError:
        return node.get_raw("C").decode("utf-8", "replace")


def markup_points(node, prop: str, size: int) -> list[Point]:
    """Points of a point-list property (e.g. SQ) on a node, in tengen coordinates, compressed rectangles
    (`aa:cc`) included; an empty value is no point (`SQ[]` alone: no markup, `SQ[][cc]`: cc)."""
    from sgfmill.sgf_properties import interpret_go_point

    points: set = set()
    for raw in node.get_raw_list(prop) if node.has_property(prop) else ():
        if not raw:
            continue
        try:
            corners = [interpret_go_point(part, size) for part in raw.split(b":")]
            (top, left), (bottom, right) = corners[0], corners[-1]  # a pass (None) is no point: TypeError
            if len(corners) > 2 or bottom > top or left > right:
                raise ValueError
        except (ValueError, TypeError):  # a point off the board or not a point at all
            raise ValueError(f"{prop}[] on the analyzed node holds a value that is not a point of the board") from None
        points.update((row, col) for row in range(bottom, top + 1) for col in range(left, right + 1))
    return sorted(_point(p, size) for p in points)
