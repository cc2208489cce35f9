"""The records' komi: the record's own when it states one; for an even game that states none, or 0, in a
collection whose records are known to drop it, the collection's documented default.

Measured on the archives (even = HA 0 or 1 and no setup stones; a counted result is B+n / W+n with n > 0;
`python -m tengen.train.records komi` prints the table):

- yenw_ai (bot games, most of them played on the Fox server): 2,144 even games state KM[0] or none, yet 234
  of their 238 counted results end in a half point (3 more in quarter points, Chinese 'zi'): impossible
  without komi. The same bots' games that state a komi say 7.5 in 4,451 of 5,101 even games (6.5 in 650,
  mostly DeepZenGo's and Master's, whose folders have no KM[0] games but DeepZenGo's 87). Default 7.5.
- fox_pro (Fox server games with a pro): 2,875 even games state KM[0], and 327 of their 340 counted results
  end in a half point. 2,523 of them are the server's own online games (no event name; 2,382 with at most
  10 minutes' main time), and the online games that state a komi say 3.75 stones or 7.5 points (6 of 7).
  The stated-komi even games (569 at 6.5, 569 at 7.5) are broadcast events: Korean leagues at 6.5, Chinese
  ones at 7.5. All KM[0] games say RU[Japanese], as do 477 of the 569 stated 7.5 games, so the RU does not
  decide it. Default 7.5.
- pro_aeb: 9,174 even games state KM[0] and all 3,685 of their counted results are whole points: no komi
  (older professional games), kept as 0. 3,150 state no komi, and their counted results split 598 half /
  491 whole points: no default fits, the komi stays unknown (NaN).
- tom and kgs: every game states its komi (kgs: KM[0] in 4 even games, kept).

Half points cannot tell 7.5 from 6.5 here: the results are not area counts (RU[Japanese], or a count in
'zi' stones), so the parity of the margin says nothing (KGS's Chinese-rules 7.5 games, area-counted, show it:
167 of 198 fit 7.5's parity).
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
