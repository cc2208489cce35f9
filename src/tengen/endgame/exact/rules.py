"""A region as an exact local game: its points, walls and stones as bitmasks, the rules of play
(captures, suicide by the board's `Rules.suicide`, simple ko: `tests/endgame/test_exhaustive.py` replays
random local sequences on `tengen.go.Board` and compares), and what a local position is worth when play
stops. The exhaustive solver (`tengen.endgame.exact.solve`) searches it; the sealed rules of predictor-grown
trees (`tengen.endgame.sealed`) end their lines by it. docs/LOCAL_GAME.md states the whole definition.

The game is given by a spec that `LocalRegion.__init__` builds and that the search (and its C port) reads:
`n` points, `nb` (each point's neighbour mask), `wall[color]` (points touching a wall of that color: a
chain there is safe), `breach[color]` (points touching the other color's outside territory), `start`
(the starting stones) and `suicide`. Every convention below is a choice of that spec.

The region is a set of points whose outside neighbours are walls: stones of safe chains (Benson pass-alive,
or trusted when the caller gives the mask; untrusted walls are noted) and empty outside points owned by
one color (its territory). Without a user's mask, a trusted wall chain with no liberty outside the region
is refused (RegionNotSealed): its life is what the region decides (only the sealed rules of
predictor-grown trees keep trusting it: `trust_enclosed_walls`), and so is an outside point whose area
borders both colors or no stone.

A marked diagram (`vouched=True`: a user's SQ[] mask, `source == "mask"`) is a local game by these rules
(tests/endgame/test_diagram_conventions.py):
- Who plays where: both colors, on the region's points only (and on the points of joined chains, below);
  the outside is never played. Area scoring over those points; no passes are counted.
- Walls: an outside chain next to the region is a wall, trusted alive, unless it is not Benson pass-alive
  and all its liberties lie inside the region: then its stones join the region (capturable, counted),
  repeatedly until no such chain is left. A mask that cuts through a chain is read the same way: the
  chain's outside part is a wall for its marked stones if it has a liberty outside, else it joins.
- Outside empty points: the outside empty area around a point (not crossing the region), bordered by the
  stones next to it (outside stones and the region's own starting stones), belongs to that color when
  only one borders it (Benson regions first); otherwise the point goes to the color of the nearest stones
  (walking outside empty points; outside and region stones count). Equally near both, or no stone at
  all: neutral, dame, owned by nobody and never filled: a region point next to it touches a wall of both
  colors (a chain there keeps that liberty, so it cannot be captured locally, and no area there is
  anyone's territory) and breaches nothing.
- Outside points of a fight (`open_outside`, what the analysis tries first): an outside empty point next to
  a region point that touches a chain in play, in an open outside area, is played too (the wider game);
  the count stays over the marked points (`offset`: an opened point counts its gain over its nearest-stone
  owner).
- Seals: a safe chain (touching its own wall) reaching an empty outside point the opponent owns breaks
  into the opponent's territory: a ±inf threat leaf (the dev set's "threat leaves stand for forced
  replies"). If the start position is one, or a threat stays unanswered, the region has no value
  (`unsolved`, tengen.endgame.cgt_bridge.solver_declined), never a number.
- Captures: walls are never captured; a joined chain is captured by the rules, its points then count for
  the side that owns them. Seki: the stones count, the shared liberties are dame (0) (cold unsettled
  positions count as they stand). Kos: simple ko, valued by the phantom rule (tengen.endgame.exact.solve).
Differences from a whole-board reading: walls may in truth die or be cut, outside points are never
filled (a neutral point is a permanent liberty), a break-in is worth ±inf instead of its real finite size,
nearest-stone ownership guesses where the open board's boundary lies, and ko threats elsewhere are not
seen (the phantom rule is the neutral-threat convention).

Local-game conventions (stated so that results can be checked):
- A chain touching a wall of its color is safe. An area of empty points and enemy unsafe stones,
  bordered only by one color's safe stones and walls, where every empty point touches them, belongs to
  that color (the enemy can never make an eye there; Benson's small region): its stones are dead.
- Settled (a leaf, valued by its area count over the region) = every chain safe or dead and every empty
  area territory of one color, or a single dame point between safe stones (counted 0, and never played: the
  territory-scoring dame, so that a region is the sum of its independent parts).
- Breaking the seal: a safe chain touching an empty outside point the opponent owns is a +-inf threat
  leaf (the hand-made variation trees do the same); such a point is never dame.
- Moves: none inside settled territory or dead areas; no filling of an own eye unless it saves a chain
  in atari; no "pointless sacrifice" (a move into atari that captures nothing and touches neither its
  own wall nor an enemy chain still in play). `moves="local"` (a speed heuristic, lossy: it misjudges
  dev-set problem P05) also requires a move to touch the opponent (stone or wall) or a chain still in
  play, and to lie within two steps of the player's own stones or wall (or touch an enemy chain in play).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from tengen.endgame.notes import Note
from tengen.go.benson import unconditional_life
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point, neighbours, to_gtp

# the largest enclosed area in which a group can never make two eyes: the smallest two-eyed group
# (in the corner: six stones around two eye points) needs eight points
NO_TWO_EYES = 7


class RegionNotSealed(ValueError):
    """The region has an outside neighbour that is neither a wall stone nor one color's territory."""


class LocalRegion:
    """The region's points, adjacency and walls, and its starting stones, as bitmasks over point indices."""

    def __init__(self, board, region: Iterable[Point], require_benson: bool = False, vouched: bool = False,
                 trust_enclosed_walls: bool = False, open_outside: bool = False):
        """Build the local game's spec (points, nb, wall, breach, start) from the board and the region.
        `vouched`: a user's mask (a marked diagram): the conventions of a marked diagram apply (module
        docstring: enclosed wall chains join the region, open outside areas go to the nearest stones' color
        or are neutral). Otherwise the region must be sealed (RegionNotSealed names what is not).
        `open_outside` (with `vouched`): the outside empty points next to the region's empty points whose
        area the open board leaves undecided are played too (`opened`, the wider local game)."""
        region = set(region)
        if not region:
            raise ValueError("empty region")
        self.height, self.width = board.height, board.width
        self.suicide = bool(board.rules.suicide)
        self.notes: list[Note] = []
        grid = board.array()
        life = unconditional_life(board)
        self.opened: list[Point] = []  # outside points played too (open_outside)
        self.offset = 0  # added to every count: minus what the marked game's owners give the opened points
        if vouched and not trust_enclosed_walls:
            region = self._join_enclosed_chains(board, grid, life, region)
            if open_outside:
                region = self._open_outside_points(board, grid, life, region)
        self.points: list[Point] = sorted(region)
        self.index = {p: i for i, p in enumerate(self.points)}
        self.n = len(self.points)
        self.full = (1 << self.n) - 1
        self.nb = [0] * self.n
        self.wall = {BLACK: 0, WHITE: 0}
        # region points touching empty outside points owned by the other color: a stone there breaks
        # the seal of the opponent's territory (a threat leaf, as in hand-made variation trees)
        self.breach = {BLACK: 0, WHITE: 0}
        owners: dict[Point, int] = {}
        trusted: list[Point] = []  # wall stones taken on trust (not Benson pass-alive)
        neutral: list[Point] = []  # outside points owned by nobody (vouched diagrams only)
        for i, p in enumerate(self.points):
            for q in neighbours(p, self.height, self.width):
                if q in self.index:
                    self.nb[i] |= 1 << self.index[q]
                    continue
                color = int(grid[q])
                if color == EMPTY:
                    if q not in owners:
                        owners.update(self._owner_of_outside(grid, life, q, vouched))
                    color = owners[q]
                    if color == EMPTY:  # neutral (dame): a liberty nobody fills, bordering both colors
                        if q not in neutral:
                            neutral.append(q)
                        self.wall[BLACK] |= 1 << i
                        self.wall[WHITE] |= 1 << i
                        continue
                    self.breach[-color] |= 1 << i  # -color playing here reaches color's territory
                elif life[q] != color:
                    if require_benson:
                        raise RegionNotSealed(f"wall stone {to_gtp(q, self.height)} is not Benson pass-alive")
                    if q not in trusted:
                        trusted.append(q)
                self.wall[color] |= 1 << i
        if trusted and not trust_enclosed_walls:
            self._refuse_enclosed_walls(board, trusted)
        if trusted:
            self.notes.append(Note("diagram", "walls trusted, not Benson pass-alive: " +
                                   " ".join(to_gtp(q, self.height) for q in sorted(trusted))))
        if neutral:
            self.notes.append(Note("diagram", "neutral outside points (dame: owned by nobody, never filled): " +
                                   " ".join(to_gtp(q, self.height) for q in sorted(neutral))))
        self.start = {BLACK: 0, WHITE: 0}
        for i, p in enumerate(self.points):
            c = int(grid[p])
            if c != EMPTY:
                self.start[c] |= 1 << i
        # dilation tables: OR of neighbour masks for each byte of a mask
        self._chunks = (self.n + 7) // 8
        self._table = []
        for k in range(self._chunks):
            row = [0] * 256
            for byte in range(1, 256):
                low = byte & -byte
                j = 8 * k + low.bit_length() - 1
                row[byte] = row[byte ^ low] | (self.nb[j] if j < self.n else 0)
            self._table.append(row)

    def _join_enclosed_chains(self, board, grid, life, region: set[Point]) -> set[Point]:
        """The marked region plus every outside chain touching it (or cut by it) that is not Benson
        pass-alive and has no liberty outside the region: local play decides its life, so its stones join
        the local game (capturable). Repeated until no such chain is left (a joined chain's neighbours are
        new walls)."""
        region = set(region)
        joined: list[Point] = []
        changed = True
        while changed:
            changed = False
            seen: set[Point] = set()
            for p in sorted(region):
                for q in neighbours(p, self.height, self.width):
                    color = int(grid[q])
                    if q in region or q in seen or color == EMPTY or life[q] == color:
                        continue
                    chain = board.chain(q)
                    seen.update(chain)
                    if all(lib in region for lib in board.chain_liberties(q)):
                        region.update(chain)
                        joined.append(min(chain))
                        changed = True
        if joined:
            self.notes.append(Note("diagram", "joined to the region (a chain whose liberties all lie inside it: "
                                   "capturable): " + " ".join(to_gtp(q, self.height) for q in sorted(joined))))
        return region

    def _open_outside_points(self, board, grid, life, region: set[Point]) -> set[Point]:
        """The region plus the outside empty neighbours of its empty points next to a chain in play (a
        marked chain with no stone outside, not pass-alive) whose outside area is open (bordered by both
        colors or none: the nearest-stone rule would only guess their owner), one ring: local play decides
        who gets them (the liberty a fight inside runs out to, the one a cut needs)."""
        self.index = {p: i for i, p in enumerate(sorted(region))}
        in_play: dict[Point, bool] = {}

        def chain_in_play(q: Point) -> bool:
            if q not in in_play:
                chain = board.chain(q)
                flag = life[q] != grid[q] and all(r in region for r in chain)
                in_play.update((r, flag) for r in chain)
            return in_play[q]

        added = set()
        for p in sorted(region):
            if int(grid[p]) != EMPTY or not any(q in region and int(grid[q]) != EMPTY and chain_in_play(q)
                                                for q in neighbours(p, self.height, self.width)):
                continue
            for q in neighbours(p, self.height, self.width):
                if q in region or q in added or int(grid[q]) != EMPTY or life[q] in (BLACK, WHITE):
                    continue
                if len(self._outside_area(grid, q, vouched=True)[1]) != 1:
                    added.add(q)
        self.opened = sorted(added)
        # counted over the marked points as the marked game counts: an opened point's count is its gain
        # over the owner the nearest-stone rule gives it there
        self.offset = -sum(self._owner_of_outside(grid, life, q, vouched=True)[q] for q in self.opened)
        if added:
            self.notes.append(Note("diagram", "outside points played too (the open board leaves their owner "
                                   "undecided; counted in the region): " +
                                   " ".join(to_gtp(q, self.height) for q in self.opened)))
        return region | added

    def _refuse_enclosed_walls(self, board, trusted: list[Point]) -> None:
        """A trusted wall chain whose liberties all lie inside the region is not a wall: local play decides
        its life (a tesuji diagram's weak group), which the local game, taking walls as safe, cannot see.
        (A marked diagram joins such chains to the region instead: `_join_enclosed_chains`.)"""
        seen: set[Point] = set()
        for start in trusted:
            if start in seen:
                continue
            seen.update(board.chain(start))
            if all(q in self.index for q in board.chain_liberties(start)):
                raise RegionNotSealed(f"wall {to_gtp(start, self.height)} has no liberty outside the region: "
                                      "its life is decided inside")

    def _owner_of_outside(self, grid, life, start: Point, vouched: bool = False) -> dict[Point, int]:
        """Color owning the outside empty area containing `start`: its Benson region's color, else the one
        color of the stones bordering it. When the caller vouches for the surroundings (a marked diagram),
        the region's own starting stones border it too, and an area bordered by both colors or by none
        gives `start` to the color of the nearest stones (outside or the region's, walking outside empty
        points), and to nobody (EMPTY: neutral, dame) when both are equally near or no stone is."""
        if life[start] in (BLACK, WHITE):
            return {start: int(life[start])}
        seen, border = self._outside_area(grid, start, vouched)
        if len(border) != 1 and vouched:
            nearest = self._nearest_colors(grid, start)
            return {start: nearest.pop() if len(nearest) == 1 else EMPTY}
        if len(border) != 1:
            raise RegionNotSealed(f"outside point {to_gtp(start, self.height)} borders {'both colors' if border else 'no stone'}")
        owner = border.pop()
        return {p: owner for p in seen}

    def _outside_area(self, grid, start: Point, vouched: bool) -> tuple[set[Point], set[int]]:
        """The outside empty area around `start` (not crossing the region) and the colors bordering it
        (with `vouched`, the region's own stones border it too)."""
        seen, stack, border = {start}, [start], set()
        while stack:
            p = stack.pop()
            for q in neighbours(p, self.height, self.width):
                if q in seen or q in self.index and not vouched:
                    continue
                c = int(grid[q])
                if q in self.index:
                    if c != EMPTY:
                        border.add(c)  # a marked diagram's own stones border the area too
                elif c == EMPTY:
                    seen.add(q)
                    stack.append(q)
                else:
                    border.add(c)
        return seen, border

    def _nearest_colors(self, grid, start: Point) -> set[int]:
        """Colors of the stones nearest to `start` (outside stones and the region's starting stones),
        walking outside empty points."""
        seen, ring = {start}, [start]
        while ring:
            found, nxt = set(), []
            for p in ring:
                for q in neighbours(p, self.height, self.width):
                    if q in seen:
                        continue
                    seen.add(q)
                    if int(grid[q]) != EMPTY:
                        found.add(int(grid[q]))
                    elif q not in self.index:
                        nxt.append(q)
            if found:
                return found
            ring = nxt
        return set()

    def dilate(self, m: int) -> int:
        """Region points adjacent to any point of m."""
        out, k, t = 0, 0, self._table
        while m:
            out |= t[k][m & 255]
            m >>= 8
            k += 1
        return out

    def safe_and_unsafe(self, b: int, w: int) -> tuple[dict[int, int], dict[int, int]]:
        """Each color's stones split into safe chains (touching their own wall: never captured) and the rest."""
        safe = {BLACK: 0, WHITE: 0}
        unsafe = {BLACK: 0, WHITE: 0}
        for color, stones in ((BLACK, b), (WHITE, w)):
            rest = stones
            while rest:
                ch = self.chain(rest & -rest, stones)
                rest &= ~ch
                if ch & self.wall[color]:
                    safe[color] |= ch
                else:
                    unsafe[color] |= ch
        return safe, unsafe

    def independent_parts(self, b: int, w: int) -> int:
        """How many independent local games the position is (`independent_part_masks`)."""
        return len(self.independent_part_masks(b, w))

    def independent_part_masks(self, b: int, w: int) -> list[int]:
        """The independent local games of the position, as point masks: the 4-connected parts of the region
        left once the safe stones (chains touching their own wall, which can never be captured) are taken out.
        Moves in one part cannot change another, so a decomposition search could value them apart."""
        safe, _ = self.safe_and_unsafe(b, w)
        space = self.full & ~(safe[BLACK] | safe[WHITE])
        parts, rest = [], space
        while rest:
            part = self.chain(rest & -rest, space)
            rest &= ~part
            parts.append(part)
        return parts

    def chain(self, seed: int, stones: int) -> int:
        """The chain (bitmask) of `stones` containing the seed bit."""
        ch = seed
        frontier = seed
        while frontier:
            frontier = self.dilate(frontier) & stones & ~ch
            ch |= frontier
        return ch

    def play(self, b: int, w: int, color: int, i: int):
        """(b, w, ko_ban) after `color` plays point index i, or None if illegal (occupied, suicide).
        ko_ban is (point index, color barred) after a single-stone capture that could be retaken: a retake
        that would recreate the position, capturing the one stone alone (one that also captures another
        chain, whose only liberty in the local game is the same point, is an ordinary capture)."""
        bit = 1 << i
        if (b | w) & bit:
            return None
        own, opp = (b, w) if color == BLACK else (w, b)
        own |= bit
        opp_wall, own_wall = self.wall[-color], self.wall[color]
        empty = self.full & ~(own | opp)
        captured = 0
        adj = self.nb[i] & opp
        while adj:
            low = adj & -adj
            ch = self.chain(low, opp)
            adj &= ~ch
            if ch & opp_wall:
                continue
            if not (self.dilate(ch) & empty):
                captured |= ch
        if captured:
            opp &= ~captured
            empty |= captured
        mine = self.chain(bit, own)
        ban = None
        if not (mine & own_wall):
            libs = self.dilate(mine) & empty
            if not libs:
                if not self.suicide or mine == bit and not captured:
                    return None  # suicide (a lone stone's suicide is a pass-like no-op; forbid it)
                own &= ~mine
            elif mine == bit and captured and captured & (captured - 1) == 0 and libs == captured \
                    and not self._retake_takes_more(own, captured, bit, own_wall, empty):
                ban = (captured.bit_length() - 1, -color)
        return (own, opp, ban) if color == BLACK else (opp, own, ban)

    def _retake_takes_more(self, own: int, point: int, stone: int, own_wall: int, empty: int) -> bool:
        """Whether the opponent's retake at `point` would capture a chain of `own` besides `stone`."""
        around = self.nb[point.bit_length() - 1] & own & ~stone
        while around:
            ch = self.chain(around & -around, own)
            around &= ~ch
            if not ch & own_wall and self.dilate(ch) & empty == point:
                return True
        return False

    def analyze(self, b: int, w: int) -> "LocalAnalysis":
        """Settledness, count, open points, the count as it stands, count bounds, unsafe stones.

        Chains touching their own wall are safe. An area of empty points and the opponent's unsafe
        stones, bordered only by one color's safe stones and walls, in which every empty point touches
        those safe stones or walls, is that color's (the opponent can never make an eye there: Benson's
        small region): its stones are dead and nobody plays there. Empty areas bordered by one color's
        safe stones are its territory; a single empty point between safe stones of both colors is dame: it counts 0
        and is no move for either side, settled or not (a stone there changes nothing but its own point, so
        playing it while the rest of the region is unsettled would make a dame worth a point there and nothing
        once the rest has settled: a region would not be the sum of its independent parts).
        """
        empty = self.full & ~(b | w)
        safe, unsafe = self.safe_and_unsafe(b, w)
        breached = [c for c in (BLACK, WHITE) if safe[c] & self.breach[c]]
        if breached:  # a safe chain touches the opponent's outside territory: the seal is broken
            if len(breached) == 2:
                raise RegionNotSealed("both colors have broken into the other's territory")
            threat = breached[0]
            return LocalAnalysis(True, threat, 0, threat, (threat, threat), 0, threat)
        owned = {BLACK: safe[BLACK], WHITE: safe[WHITE]}
        for color in (BLACK, WHITE):
            prey = unsafe[-color]
            if not prey:
                continue
            space = empty | prey
            support = self.dilate(safe[color]) | self.wall[color]
            rest = prey
            while rest:
                area = self.chain(rest & -rest, space)
                rest &= ~area
                if self.dilate(area) & ~area & ~safe[color] or area & self.wall[-color]:
                    continue
                if area & empty & ~support and area.bit_count() > NO_TWO_EYES:
                    continue
                owned[color] |= area  # dead stones and their surroundings
                unsafe[-color] &= ~area
                empty &= ~area
        live_unsafe = unsafe[BLACK] | unsafe[WHITE]
        settled = not live_unsafe
        open_points = 0
        rest = empty
        stones_b, stones_w = owned[BLACK] | unsafe[BLACK], owned[WHITE] | unsafe[WHITE]
        count = stones_b.bit_count() - stones_w.bit_count()
        as_it_stands = count
        territory = {BLACK: 0, WHITE: 0}
        while rest:
            area = self.chain(rest & -rest, empty)
            rest &= ~area
            around = self.dilate(area)
            black = bool(around & stones_b or area & self.wall[BLACK])
            white = bool(around & stones_w or area & self.wall[WHITE])
            touches_unsafe = bool(around & live_unsafe)
            if black != white:
                as_it_stands += area.bit_count() if black else -area.bit_count()
            if black != white and not touches_unsafe:
                count += area.bit_count() if black else -area.bit_count()
                territory[BLACK if black else WHITE] |= area
                continue  # settled territory: no moves there
            if black and white and area & (area - 1) == 0 and not touches_unsafe \
                    and not area & (self.breach[BLACK] | self.breach[WHITE]):
                continue  # a single dame point between safe stones: 0, and nobody plays there (see the docstring)
            settled = False
            open_points |= area
        # what can never change hands: safe stones, dead areas and territory (bordered by safe stones only)
        sure_b, sure_w = owned[BLACK] | territory[BLACK], owned[WHITE] | territory[WHITE]
        bounds = (sure_b.bit_count() - (self.n - sure_b.bit_count()) + self.offset,
                  (self.n - sure_w.bit_count()) - sure_w.bit_count() + self.offset)
        return LocalAnalysis(settled, count + self.offset, open_points, as_it_stands + self.offset, bounds,
                             live_unsafe, 0)

    def pointless_sacrifice(self, b: int, w: int, color: int, i: int, nxt: tuple, info: "LocalAnalysis") -> bool:
        """A move into atari that captures nothing, whose chain touches neither the player's wall nor
        any unsafe enemy chain: it threatens nothing and only offers the opponent a capture."""
        own_after = nxt[0] if color == BLACK else nxt[1]
        opp_before = w if color == BLACK else b
        opp_after = nxt[1] if color == BLACK else nxt[0]
        if opp_after != opp_before:
            return False  # it captured
        mine = self.chain(1 << i, own_after)
        if mine & self.wall[color]:
            return False
        around = self.dilate(mine)
        if around & info.unsafe & opp_before:
            return False  # it attacks a chain still in play
        empty_after = self.full & ~(nxt[0] | nxt[1])
        return (around & empty_after).bit_count() == 1

    def candidates(self, b: int, w: int, color: int, info: "LocalAnalysis", moves: str) -> int:
        """Points `color` may play: every open point ('all'), or ('local') the open points that touch
        the opponent (stone or wall) or an unsafe chain, lie within two steps of the player's own
        stones or wall (or touch an opponent's unsafe chain), and are not the player's own eye."""
        own, opp = (b, w) if color == BLACK else (w, b)
        empty = self.full & ~(b | w)
        own_eye = empty & ~self.dilate(self.full & ~own) & ~self.wall[-color]
        rest = own_eye
        while rest:  # filling an eye is kept when it saves a chain in atari
            low = rest & -rest
            rest ^= low
            around = self.nb[low.bit_length() - 1] & own
            while around:
                ch = self.chain(around & -around, own)
                around &= ~ch
                if not ch & self.wall[color] and self.dilate(ch) & empty == low:
                    own_eye &= ~low
                    break
        if moves == "all":
            return info.open_points & ~own_eye
        near_own = self.dilate(own) | self.wall[color]
        contact = self.dilate(opp) | self.wall[-color] | self.dilate(info.unsafe)
        support = near_own | self.dilate(near_own & empty) | self.dilate(info.unsafe & opp)
        return info.open_points & contact & support & ~own_eye


@dataclass(frozen=True)
class LocalAnalysis:
    """What a local position is worth if play stopped, and where play can still go (`LocalRegion.analyze`)."""

    settled: bool
    count: int  # area count when settled
    open_points: int  # empty points outside settled territory and dead areas
    as_it_stands: int  # stones plus empty areas bordered by one color (the count if play stopped now)
    bounds: tuple[int, int]  # lowest and highest count any continuation can reach (from what can never change hands)
    unsafe: int  # stones of chains not connected to their wall (and not dead)
    threat: int  # BLACK / WHITE when that color has broken into the other's outside territory
