"""The evidence behind the records' komi defaults (`records.komi`): per collection, the komi the even games
state, and for those that state none or 0, how their counted results end (a half point needs a komi) and
which rules they name. ``python -m tengen.train.records komi`` prints it."""
from __future__ import annotations

import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tengen.go.sgf import SgfError, load_game_bytes
from tengen.train.archives import collection_of, games_dir, iter_archive
from tengen.train.records.game import record_handicap
from tengen.train.records.komi import UNSTATED_KOMI_DEFAULTS

_MARGIN = re.compile(r"^\s*[BW]\s*\+\s*([0-9]+(?:\.[0-9]*)?)\s*$", re.I)


def margin_ending(result: str | None) -> str | None:
    """How a counted result's margin ends: 'half' (n.5), 'whole' (n), 'quarter' (n.25 / n.75, Chinese 'zi')
    or 'other'; None for a result that is not a count with a margin above 0."""
    m = _MARGIN.match(result or "")
    if not m or float(m.group(1)) == 0:
        return None
    fraction = float(m.group(1)) % 1
    return {0.5: "half", 0.0: "whole", 0.25: "quarter", 0.75: "quarter"}.get(fraction, "other")


def survey_archive(path: str) -> tuple[str, Counter]:
    """One archive's counts: 'even', 'stated <komi>', 'zero' / 'unstated' (even games with KM 0 / no readable
    KM) with '<group> counted <ending>', 'unstated RU <rules>' for both groups together; 'ha1' (HA[1], no
    stones set up), 'ha1 counted <ending>', 'ha1 draw'; 'unreadable'."""
    counts: Counter[str] = Counter()
    for name, data in iter_archive(path):
        try:
            game = load_game_bytes(data, name)
        except SgfError:
            counts["unreadable"] += 1
            continue
        handicap = record_handicap(game, [])
        if game.width != 19 or handicap > 1:
            continue
        if any(e.setup_black or e.setup_white for e in game.events if not e.is_move):
            continue
        if handicap == 1:
            counts["ha1"] += 1
            ending = margin_ending(game.result)
            if ending:
                counts[f"ha1 counted {ending}"] += 1
            elif (game.result or "").strip().lower() in ("draw", "jigo", "0", "b+0.0", "w+0.0"):
                counts["ha1 draw"] += 1
            continue
        counts["even"] += 1
        if game.komi_stated and game.komi != 0:
            counts[f"stated {game.komi:g}"] += 1
            continue
        group = "zero" if game.komi_stated else "unstated"
        counts[group] += 1
        ending = margin_ending(game.result)
        if ending:
            counts[f"{group} counted {ending}"] += 1
        root = game.sgf.get_root()
        counts[f"unstated RU {root.get_raw('RU').decode('latin-1') if root.has_property('RU') else '(none)'}"] += 1
    return collection_of(path), counts


def survey(data_dir: Path | None = None, workers: int = 2) -> dict[str, Counter]:
    """Counts per collection over every archive in the games folder."""
    paths = [str(p) for p in sorted((data_dir or games_dir()).glob("*.tar.xz"))]
    totals: dict[str, Counter] = {}
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for collection, counts in pool.map(survey_archive, paths):
            totals.setdefault(collection, Counter()).update(counts)
    return totals


def survey_lines(totals: dict[str, Counter]) -> list[str]:
    """The survey as text, one paragraph per collection, ending with the default the dataset uses."""
    lines = []
    for collection, c in sorted(totals.items()):
        stated = sorted(((n, k.split()[1]) for k, n in c.items() if k.startswith("stated ")), reverse=True)
        rules = sorted(((n, k[len("unstated RU "):]) for k, n in c.items() if k.startswith("unstated RU ")),
                       reverse=True)
        default = UNSTATED_KOMI_DEFAULTS.get(collection)
        lines += [
            f"{collection}: {c['even']} even games; stated komi " + ", ".join(f"{k} in {n}" for n, k in stated[:4]),
            f"  KM[0] in {c['zero']}; " + _counted(c, "zero"),
            f"  no readable KM in {c['unstated']}; " + _counted(c, "unstated"),
            "  their rules: " + (", ".join(f"RU {k} in {n}" for n, k in rules[:3]) or "-"),
            f"  HA[1] games (no stones set up, not even): {c['ha1']}; counted results ending in a whole point "
            f"{c['ha1 counted whole']}, a half point {c['ha1 counted half']}; draws {c['ha1 draw']}",
            f"  dataset komi for them: {default:g} (records.komi)" if default is not None else
            "  dataset komi for them: KM[0] kept as 0, none stated stays unknown (NaN)",
        ]
    return lines


def _counted(c: Counter, group: str) -> str:
    """'counted results: N, ending in a half point a, ...' for one group of even games."""
    endings = {e: c[f"{group} counted {e}"] for e in ("half", "whole", "quarter", "other")}
    return (f"counted results {sum(endings.values())}: ending in a half point {endings['half']}, a whole point "
            f"{endings['whole']}, a quarter {endings['quarter']}, other {endings['other']}")
