"""Eye space for the life-and-death search: a group's dragon (its chains joined by shared small enclosed
areas and solid links), the areas it encloses, their eye values by shape (nakade shapes, false eyes) and
the group's outside liberties. Flat indices (row * width + col) on a native board, for speed."""
from __future__ import annotations

from dataclasses import dataclass, field

def neighbor_table(width: int, height: int) -> tuple[list[list[int]], list[list[int]]]:
    """Orthogonal and diagonal neighbours of every flat index (computed once per board size)."""
    orth: list[list[int]] = []
    diag: list[list[int]] = []
    for r in range(height):
        for c in range(width):
            orth.append([(r + dr) * width + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                         if 0 <= r + dr < height and 0 <= c + dc < width])
            diag.append([(r + dr) * width + c + dc for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1))
                         if 0 <= r + dr < height and 0 <= c + dc < width])
    return orth, diag


@dataclass
class EyeSpace:
    """One node's view of the group: stones, liberties, enclosed areas with their eye values."""

    dragon: set[int] = field(default_factory=set)
    liberties: set[int] = field(default_factory=set)
    outside_liberties: set[int] = field(default_factory=set)
    regions: list[list[int]] = field(default_factory=list)
    values: list[tuple[int, int]] = field(default_factory=list)  # (eyes if attacker first, if defender first)
    vital: set[int] = field(default_factory=set)  # cut points of nakade-size areas (the eye-shape key points)
    weak_attackers: list[list[int]] = field(default_factory=list)  # liberties of short-of-liberty outside chains
    rescue: set[int] = field(default_factory=set)  # liberties of short defender chains next to weak attackers
    occupied: bool = False  # an enclosed area holds attacker stones (captures may still make eyes)
    open_points: int = 0  # empty points 2-3 steps out from the outside liberties with no attacker beside them

    @property
    def eyes_attacker_first(self) -> int:
        """Eyes the group keeps when the attacker moves first (it spoils the most valuable area)."""
        if not self.values:
            return 0
        return sum(d for _, d in self.values) - max(d - a for a, d in self.values)

    @property
    def eyes_defender_first(self) -> int:
        """Eyes the group can make when it moves first (it settles the most valuable area)."""
        if not self.values:
            return 0
        return sum(a for a, _ in self.values) + max(d - a for a, d in self.values)


def _components(points: set[int], orth: list[list[int]]) -> int:
    """Number of 4-connected components of a small point set."""
    seen: set[int] = set()
    count = 0
    for p in points:
        if p in seen:
            continue
        count += 1
        stack = [p]
        seen.add(p)
        while stack:
            q = stack.pop()
            for n in orth[q]:
                if n in points and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return count


def shape_value(region: list[int], orth: list[list[int]]) -> tuple[tuple[int, int], set[int]]:
    """(eyes if the attacker plays first, if the defender does) of an enclosed area by its shape, and its
    vital points: one eye for 1-2 points; a single cut point (straight / bent three, pyramid four, bulky
    and crossed five, rabbity six) is the nakade key, two or more cut points are miai for two eyes; no cut
    point in four or five points (the square) stays one eye; seven points and more are two eyes."""
    size = len(region)
    if size <= 2:
        return (1, 1), set()
    if size >= 7:
        return (2, 2), set()
    points = set(region)
    cuts = {p for p in region if _components(points - {p}, orth) >= 2}
    if not cuts:
        return ((2, 2) if size == 6 else (1, 1)), set()
    if len(cuts) == 1:
        return (1, 2), cuts
    return (2, 2), cuts


def single_eye_value(point: int, stones: bytes, defender: int, diag: list[list[int]]) -> tuple[int, int]:
    """A one-point area: a real eye, a false one (enough diagonals held by the attacker), or one the side
    to move decides (the attacker can still take the last diagonal it needs)."""
    attacker = (-defender) & 0xFF
    held = sum(1 for q in diag[point] if stones[q] == attacker)
    empty = sum(1 for q in diag[point] if stones[q] == 0)
    limit = 1 if len(diag[point]) < 4 else 2
    if held >= limit:
        return (0, 0)
    if held + empty >= limit:
        return (0, 1) if held + 1 >= limit else (1, 1)
    return (1, 1)


def eye_space(nb, target: int, defender: int, width: int, orth: list[list[int]], diag: list[list[int]],
              max_region: int) -> EyeSpace:
    """The group through `target` on native board `nb`: its dragon, liberties and enclosed areas (areas of
    non-defender points of at most `max_region` points bordered by the group only) with eye values."""
    stones = nb.stones()
    dcode = defender & 0xFF
    acode = (-defender) & 0xFF
    space = EyeSpace()
    dragon = space.dragon
    visited_open: set[int] = set()
    in_region: set[int] = set()
    pending = [target]
    while pending:
        start = pending.pop()
        if start in dragon:
            continue
        chain = [r * width + c for r, c in nb.chain(start // width, start % width)]
        dragon.update(chain)
        libs_of_chain = {r * width + c for r, c in nb.chain_liberties(start // width, start % width)}
        for p in chain:
            for n in orth[p]:
                if stones[n] == dcode or n in in_region or n in visited_open:
                    continue
                region, border, closed = _flood(n, stones, dcode, orth, max_region)
                if closed:
                    space.regions.append(region)
                    in_region.update(region)
                    pending.extend(b for b in border if b not in dragon)
                else:
                    visited_open.update(region)
        # solid links: another chain sharing two liberties, or a diagonal with both crossing points empty
        for lib in libs_of_chain:
            for n in orth[lib]:
                if stones[n] == dcode and n not in dragon:
                    other = {r * width + c for r, c in nb.chain_liberties(n // width, n % width)}
                    if len(other & libs_of_chain) >= 2:
                        pending.append(n)
        for p in chain:
            for q in diag[p]:
                if stones[q] == dcode and q not in dragon:
                    a, b = (p // width) * width + q % width, (q // width) * width + p % width
                    if stones[a] == 0 and stones[b] == 0:
                        pending.append(q)
    for p in dragon:
        for n in orth[p]:
            if stones[n] == 0:
                space.liberties.add(n)
    space.outside_liberties = space.liberties - in_region
    for region in space.regions:
        empties = [p for p in region if stones[p] == 0]
        if len(region) == 1 and empties:
            value, vital = single_eye_value(region[0], stones, defender, diag), set()
        else:
            value, vital = shape_value(region, orth)
            if len(empties) < len(region):  # attacker stones inside: the area can still be reduced
                space.occupied = True  # the stones inside must be captured first: an eye at most in gote
                value = (1, 2) if len(region) >= 7 else (0, min(value[1], 1))
        space.values.append(value)
        space.vital.update(p for p in vital if stones[p] == 0)
    space.open_points = _open_points(space.outside_liberties, stones, acode, orth)
    seen_chains: set[int] = set()
    for p in dragon:
        for n in orth[p]:
            if stones[n] == acode and n not in in_region and n not in seen_chains:
                chain = [r * width + c for r, c in nb.chain(n // width, n % width)]
                seen_chains.update(chain)
                libs = [r * width + c for r, c in nb.chain_liberties(n // width, n % width)]
                if len(libs) <= max(2, len(space.liberties)):
                    space.weak_attackers.append(libs)
                    if len(libs) <= 2:
                        _rescue(space, chain, stones, dcode, nb, width, orth)
    return space


def _flood(start: int, stones: bytes, dcode: int, orth: list[list[int]],
           limit: int) -> tuple[list[int], set[int], bool]:
    """The area of non-defender points through `start`, its defender border, and whether it closed within
    `limit` points (an open area is cut off at limit + 1 points)."""
    region = [start]
    seen = {start}
    border: set[int] = set()
    i = 0
    while i < len(region):
        p = region[i]
        i += 1
        for n in orth[p]:
            if stones[n] == dcode:
                border.add(n)
            elif n not in seen:
                seen.add(n)
                region.append(n)
                if len(region) > limit:
                    return region, border, False
    return region, border, True


def _open_points(start: set[int], stones: bytes, acode: int, orth: list[list[int]]) -> int:
    """How open the group's surroundings are: empty points 2 or 3 steps out from its outside liberties
    (through empty points) with no attacker stone beside them: the room it has to run into."""
    seen = set(start)
    frontier = list(start)
    count = 0
    for step in range(1, 4):
        nxt = []
        for p in frontier:
            for n in orth[p]:
                if n not in seen and stones[n] == 0:
                    seen.add(n)
                    nxt.append(n)
                    if step >= 2 and all(stones[m] != acode for m in orth[n]):
                        count += 1
        frontier = nxt
    return count


def _rescue(space: EyeSpace, chain: list[int], stones: bytes, dcode: int, nb, width: int,
            orth: list[list[int]]) -> None:
    """Moves that save a short attacker chain by capturing or pressing the defender stones beside it."""
    done: set[int] = set()
    for p in chain:
        for n in orth[p]:
            if stones[n] == dcode and n not in space.dragon and n not in done:
                done.update(r * width + c for r, c in nb.chain(n // width, n % width))
                libs = nb.chain_liberties(n // width, n % width)
                if len(libs) <= 2:
                    space.rescue.update(r * width + c for r, c in libs)
