"""Tree-growth thresholds swept on shared material only (issue 39 item 5): each setting through the endgame
dev set (`bench/endgame_dev.py --predictor net`, correct temperatures of 33) and both Lee Changho chapters
(`bench/endgame_problems.py --predictor net --anchor none`, the book's move of 71), one setting at a time
from the defaults (tengen.endgame.tree.GrowthConfig). Every setting tried is printed with its figures; the
last line names the best by the sum of the two counts (ties: the default first, then the listed order).

    python bench/growth_sweep.py [--local-model FILE] [--settings "answer_threshold=0.65;leaf_no_move=0.2"]
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DEFAULT_SETTINGS = ("", "answer_threshold=0.35", "answer_threshold=0.65", "answer_threshold=1",
                    "leaf_no_move=0.2", "leaf_no_move=0.45", "move_fraction=0.2", "move_fraction=0.5")


def _count(command: list[str], pattern: str) -> tuple[int, int]:
    """(right, of) from the line `pattern: N/M` a bench prints last; (-1, 0) when it did not run through."""
    out = subprocess.run([sys.executable, *command], capture_output=True, text=True).stdout
    match = re.search(pattern + r": (\d+)/(\d+)", out)
    return (int(match.group(1)), int(match.group(2))) if match else (-1, 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--local-model", default=None, help="local-move network weights (default: the committed)")
    parser.add_argument("--settings", default=None, help="';'-separated growth settings (default: the built-in list)")
    args = parser.parse_args(argv)
    settings = tuple(args.settings.split(";")) if args.settings is not None else DEFAULT_SETTINGS
    model = ["--local-model", args.local_model] if args.local_model else []
    print(f"local-move network: {args.local_model or 'models/localnet/localnet.pt (committed)'}")
    print(f"{'growth setting':<28} {'dev t':>7} {'problems':>9} {'seconds':>8}")
    best, best_score = None, -1
    for setting in settings:
        growth = ["--growth", setting] if setting else []
        start = time.monotonic()
        dev = _count([str(BENCH / "endgame_dev.py"), "--predictor", "net", *growth, *model], "correct_temperature")
        problems = _count([str(BENCH / "endgame_problems.py"), "--predictor", "net", "--anchor", "none", *growth, *model],
                          "endgame_problems")
        name = setting or "(defaults)"
        print(f"{name:<28} {dev[0]:>4}/{dev[1]:<2} {problems[0]:>5}/{problems[1]:<3} {time.monotonic() - start:8.0f}",
              flush=True)
        score = dev[0] + problems[0]
        if score > best_score:
            best, best_score = name, score
    print(f"best_setting: {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
