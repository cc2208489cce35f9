"""GNU Go as a reference winner predictor: the sign of ``estimate_score`` on held-out test positions.

Positions are set up stone by stone with GTP ``play`` (a legal position never captures while it is being
built; the player to move places its stones first so that the right side is on move), under Chinese rules
with the game's komi as the dataset stores it (0 where unknown). Results go to ``models/winner/gnugo_reference.json``
so the benchmark can compare on exactly the same positions without running GNU Go again.
"""

from __future__ import annotations

import json
import logging
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.gtp_client import GtpClient, find_gnugo
from tengen.train.records.store import PHASES, load_split
from tengen.train.winner.metrics import metrics
from tengen.train.winner.model import MODELS_DIR

log = logging.getLogger("tengen.train.reference")

_SCORE = re.compile(r"^([BW])\+([0-9.]+)")


def parse_estimate(text: str) -> float:
    """'W+7.5 (upper bound: ...)' -> -7.5 (Black's side); '0' -> 0."""
    m = _SCORE.match(text.strip())
    if not m:
        if text.strip().startswith("0"):
            return 0.0
        raise ValueError(f"unexpected estimate_score answer {text!r}")
    value = float(m.group(2))
    return value if m.group(1) == "B" else -value


def gnugo_komi(komi: float) -> float:
    """The komi GNU Go is given for a game: the dataset's, 0 where it is unknown (NaN)."""
    return komi if math.isfinite(komi) else 0.0


def gnugo_estimate(engine: GtpClient, stones: np.ndarray, to_play: int, komi: float) -> float:
    """Set up ``stones`` on a fresh board and return GNU Go's estimate_score from Black's side."""
    from tengen.go import coords

    h, w = stones.shape
    commands = [f"boardsize {h}", "clear_board", f"komi {gnugo_komi(komi)}"]
    for color in (to_play, -to_play):  # the side NOT to move plays last, so `to_play` is on move
        letter = "B" if color == 1 else "W"
        for r, c in zip(*np.nonzero(stones == color)):
            commands.append(f"play {letter} {coords.to_gtp((int(r), int(c)), h)}")
    for command, answer in zip(commands, engine.query_many(commands)):
        if not answer.ok:
            raise RuntimeError(f"GNU Go refused {command!r}: {answer.text}")
    return parse_estimate(engine.send("estimate_score"))


def select_positions(per_phase: int, cache_dir: Path | str | None = None, seed: int = 0
                     ) -> tuple[Any, np.ndarray]:
    """The test split and a fixed random sample of ``per_phase`` position indices per phase."""
    test = load_split("test", cache_dir)
    rng = np.random.default_rng(seed)
    chosen = []
    for phase in PHASES:
        idx = np.flatnonzero(test.phase == phase)
        chosen.append(np.sort(rng.choice(idx, min(per_phase, len(idx)), replace=False)))
    return test, np.concatenate(chosen)


def gnugo_reference(cache_dir: Path | str | None = None, models_dir: Path | str | None = None,
                    per_phase: int = 500, seed: int = 0, gnugo: str | None = None) -> Path:
    """Run GNU Go on the sample and write ``gnugo_reference.json``; resumes from an earlier file, keeping the
    scores of positions measured with the komi the dataset now gives them (each position stores its komi)."""
    from tqdm import tqdm

    gnugo = gnugo or find_gnugo()
    if gnugo is None:
        raise SystemExit("GNU Go not found: apt-get install -y gnugo")
    out = Path(models_dir or MODELS_DIR) / "gnugo_reference.json"
    test, chosen = select_positions(per_phase, cache_dir, seed)
    keys = test.games["game_key"]
    done: dict[str, tuple[float, float]] = {}  # "key:phase" -> (komi given to GNU Go, score)
    if out.exists():
        old = json.loads(out.read_text())
        if old.get("per_phase") == per_phase and old.get("seed") == seed:
            done = {f"{p['game_key']}:{p['phase']}": (p["komi"], p["score"]) for p in old["positions"] if "komi" in p}
    argv = [gnugo, "--mode", "gtp", "--chinese-rules"]
    positions = []
    t0 = time.time()
    with GtpClient(argv, timeout=600.0) as engine:
        version = engine.send("version")
        for n, i in enumerate(tqdm(chosen, desc="gnugo", unit="pos")):
            key = f"{int(keys[test.game[i]])}:{int(test.phase[i])}"
            komi = gnugo_komi(float(test.games["game_komi"][test.game[i]]))
            if done.get(key, (None,))[0] != komi:
                done[key] = (komi, gnugo_estimate(engine, test.boards[i], int(test.to_play[i]), komi))
            positions.append({"game_key": str(int(keys[test.game[i]])), "phase": int(test.phase[i]),
                              "komi": komi, "score": done[key][1], "winner": int(test.winner[i])})
            if n % 100 == 99:
                _write(out, positions, per_phase, seed, version, argv)
    result = _write(out, positions, per_phase, seed, version, argv)
    log.info("gnugo reference: %s in %.0f s", json.dumps(result["accuracy"]), time.time() - t0)
    return out


def _write(out: Path, positions: list[dict], per_phase: int, seed: int, version: str, argv: list[str]) -> dict:
    acc = {}
    for phase in PHASES:
        rows = [p for p in positions if p["phase"] == phase]
        if rows:
            score = np.array([p["score"] for p in rows])
            m = metrics((score > 0).astype(float), np.array([p["winner"] for p in rows]))
            acc[str(phase)] = {"accuracy": m["accuracy"], "n": m["n"]}
    result = {"engine": f"GNU Go {version}", "argv": argv[1:], "command": "estimate_score",
              "per_phase": per_phase, "seed": seed, "accuracy": acc,
              "made_by": "python -m tengen.train.winner gnugo --per-phase %d" % per_phase,
              "python": sys.version.split()[0], "positions": positions}
    tmp = out.with_suffix(".tmp")
    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text(json.dumps(result, indent=0))
    tmp.replace(out)
    return result
