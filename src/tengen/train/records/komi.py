"""The records' komi: the record's own when it states one; for an even game that states none, or 0, in a
collection whose records are known to drop it, the collection's documented default.

Measured on the archives by ``python -m tengen.train.records komi`` (even = HA 0 and no stones set up; a
counted result is B+n / W+n with n > 0):

- yenw_ai (bot games, most of them played on the Fox server): 2,140 even games state KM[0] (2,132) or none
  (8), yet 234 of their 237 counted results end in a half point and the other 3 in a quarter (a count in
  Chinese 'zi' stones): impossible without komi. The even games that state a komi say 7.5 in 4,451 and
  6.5 in 650 (DeepZenGo's and Master's folders, the 11th UEC Cup). Default 7.5.
- fox_pro (Fox server games with a pro): 2,814 even games state KM[0], and 327 of their 335 counted results
  end in a half point (the other 8 in .02). Measured apart from the survey: 2,523 of the 2,875 KM[0]
  games with HA 0 or 1 are the server's own online games (no event name, most with 10 minutes' main time
  or less), and the online games that state a komi say 3.75 stones or 7.5 points (6 of 7). The
  stated-komi even games (569 at 6.5, 569 at 7.5) are broadcast events: Korean leagues at 6.5, Chinese
  ones at 7.5. Every KM[0] game says RU[Japanese], as do most stated 7.5 games, so RU does not decide it.
  Default 7.5, the same server's komi as in yenw_ai.
- HA[1] with KM[0] is a no-komi game, not an even one with the komi dropped: fox_pro's 61 such games have
  whole-point counted results (5) and draws (14). Kept as 0.
- pro_aeb: 9,174 even games state KM[0] and all 3,684 of their counted results are whole points: no komi
  (older professional games), kept as 0. 3,150 state no komi, and their counted results split 598 half /
  491 whole points: no default fits, the komi stays unknown (NaN).
- tom and kgs: every even game states its komi (kgs: KM[0] in 4 games with no counted result, kept).

Half points cannot tell 7.5 from 6.5 here: these results are not area counts (RU[Japanese], or a count in
stones), so the parity of the margin says nothing (measured apart: on KGS, where 7.5 goes with area
counting, 167 of the 198 counted 7.5-komi games have 7.5's parity; here it is about even).
"""
from __future__ import annotations

import math

from tengen.go.sgf import Game

# Collection -> komi for an even game that states none or 0 (see the measurements above).
UNSTATED_KOMI_DEFAULTS: dict[str, float] = {"yenw_ai": 7.5, "fox_pro": 7.5}


def record_komi(game: Game, collection: str, even: bool, notes: list[str]) -> float:
    """The komi the dataset stores for a game (NaN when unknown); appends what it did to `notes`: the
    reader's repairs ('komi_x100', 'komi_stones'), 'komi_default_<collection>', 'komi_missing',
    'komi_unreadable'."""
    notes.extend(game.repairs)
    if game.komi_stated and game.komi != 0:
        return game.komi
    default = UNSTATED_KOMI_DEFAULTS.get(collection)
    if even and default is not None:
        notes.append(f"komi_default_{collection}")
        return default
    if game.komi_stated:
        return 0.0
    stated_badly = game.sgf is not None and game.sgf.get_root().has_property("KM")
    notes.append("komi_unreadable" if stated_badly else "komi_missing")
    return math.nan
