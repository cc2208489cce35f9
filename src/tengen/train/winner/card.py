"""The winner models' card (``models/winner/MODEL_CARD.md``), written from what was measured: index.json, the
dataset's summary and the GNU Go reference."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tengen.eval.influence import MODELS as INFLUENCE_MODELS
from tengen.train.records.store import PHASES, dataset_dir, load_split
from tengen.train.splits import split_note
from tengen.train.winner.features import CLEAN_SOURCES, cached_board_features, clean_features, is_clean
from tengen.train.winner.metrics import SEED_ACCURACY, naive_count
from tengen.train.winner.model import MODELS_DIR, load_index, split_name



def _read(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.exists() else None


def write_model_card(models_dir: Path | str = MODELS_DIR, cache_dir: Path | str | None = None) -> Path:
    """Write MODEL_CARD.md from index.json, the dataset summary and gnugo_reference.json (all measured)."""
    models_dir = Path(models_dir)
    index = load_index(models_dir)
    summary_path = dataset_dir(cache_dir) / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else None
    gnugo = _read(models_dir / "gnugo_reference.json")
    dead = _read(models_dir / "dead_stones.json")
    nets = _read(models_dir / "net_reference.json")
    lines = [
        "# Winner prediction from influence maps (`models/winner/`)",
        "",
        "Predicts P(Black wins) of a 19x19 position at moves 30, 80, 130 and 180 from an influence map",
        "(`tengen.eval.influence`: zobrist, bouzy 5/21, cross) plus the two prisoner counts: NN-Influence's MLP",
        "363-200-1 with sigmoid units (`mlp-<map>-<phase>`), one network over all phases with the move number",
        "as a 364th input (`mlp-<map>-all`), and logistic-regression baselines (`logreg-*`, also on the raw",
        "stones). Inputs are standardized with training statistics stored in each file. Weights are float16",
        "in `.npz` files (`tengen.train.winner.model.load_model`); `index.json` holds every model's metadata,",
        "validation and test metrics, and the model validation picked per phase (used by `predict_winner`).",
        "",
        "The `*-clean-*` models read the influence map computed after removing the stones that tengen's value",
        "network (`tengen.eval.valuenet`) calls dead, plus the game's komi (/10, unknown = 0) and handicap (/9) as",
        "two more inputs (365 inputs, 366 for `-all`); see *Dead stones* below.",
        "",
        "## Data",
        "",
        "The five game-record archives in `../shared/data/games` (see its MANIFEST.md), streamed by",
        "`tengen.train.records`: 19x19 games with a recorded winner (B+/W+ by score, resignation, time or",
        "winner only; skipped: no result, draws/Jigo, Void, B+0.0, forfeits, odd strings, illegal moves),",
        "duplicates by move sequence removed across all collections, split by a hash of the moves",
        f"({split_note()}). Positions are the board after exactly N moves, so a game contributes",
        "a position at move 180 only if it lasted at least 180 moves.",
        "",
        "Komi is no input of the plain models (it is one of the clean ones); it enters the counting baseline,",
        "the GNU Go reference and the networks' win rates below. A game keeps the komi it states; an even game",
        "that states none or 0 takes its collection's default where the records are known to drop it: 7.5 for yenw_ai and fox_pro, whose counted results end in a half",
        "point (`komi_default_<collection>` below; the evidence: `tengen.train.records.komi`).",
        "",
    ]
    if summary:
        lines += ["| split | games | pos. 30 | pos. 80 | pos. 130 | pos. 180 | Black wins |", "|---|---|---|---|---|---|---|"]
        for name, sp in summary["splits"].items():
            pos = sp["positions"]
            lines.append(f"| {name} | {sp['games']} | " + " | ".join(str(pos[str(q)]) for q in PHASES)
                         + f" | {100 * sp['black_wins']:.1f} % |")
        skips = {k: v for k, v in summary["counts"].items() if k.startswith(("skip_", "duplicate", "komi", "fixed"))}
        lines += ["", "Counted quirks and skips: " + ", ".join(f"{k} {v}" for k, v in sorted(skips.items())) + ".", ""]
    lines += [
        "The data licences are mixed (MANIFEST.md): only the Fox set carries a licence (GPL-3.0); the others are",
        "research-only until the project decides. These weights are derived from all five.",
        "",
        "## Commands",
        "",
        "```",
        "python -m tengen.train.records build            # ~6 min on 2 cores; cache in ~/.cache/tengen/datasets",
        "python -m tengen.train.winner train --max-epochs 30 --patience 4 --threads 1   # ~35 min, 35 models",
        "python -m tengen.train.winner gnugo --per-phase 500   # ~70 min: GNU Go on 2,000 test positions",
        "python -m tengen.train.winner valuenet          # value net on test + val/train subsamples, KataGo on GNU Go's",
        "python -m tengen.train.winner dead-stones       # ownership head and threshold, chosen on validation",
        "python -m tengen.train.winner train --sources zobrist-clean bouzy-clean cross-clean --kinds mlp --threads 1",
        "python -m tengen.train.winner card              # this file",
        "python bench/winner_by_phase.py                 # the held-out table (~20-45 s with cached features)",
        "```",
        "",
        "Training: Adam, binary cross-entropy, batch 256 (1024 for `-all`), lr 1e-3 (MLP) / 3e-3 (logistic), both x2 for `-all`,",
        "random board symmetry per example, early stopping on validation log loss (patience "
        f"{next(iter(index['models'].values()))['config']['patience'] if index['models'] else '?'}), best epoch kept.",
        "",
        "## Held-out test metrics (accuracy %, log loss in nats)",
        "",
        "| model | " + " | ".join(f"move {q}" for q in PHASES) + " |",
        "|---|" + "---|" * len(PHASES),
        "| seed (original) | " + " | ".join(f"{SEED_ACCURACY[q]:.1f}" for q in PHASES) + " |",
    ]
    prior = index.get("prior", {})
    def order(n: str) -> tuple:
        kind, source, phase = split_name(n)
        return (kind != "logreg", is_clean(source), source, int(phase) if phase.isdigit() else 999)

    counts_row = _naive_count_row(cache_dir, dead)
    if counts_row:
        lines += counts_row
    for name in sorted(index["models"], key=order):
        test = index["models"][name].get("test", {})
        lines.append(f"| {name} | " + " | ".join(
            f"{test[str(q)]['accuracy']:.1f} / {test[str(q)]['log_loss']:.3f}" if str(q) in test else ""
            for q in PHASES) + " |")
    best = index.get("best", {})
    lines.append("| **best on validation** | " + " | ".join(
        f"**{index['models'][best[str(q)]]['test'][str(q)]['accuracy']:.1f}** ({best[str(q)]})" if str(q) in best
        else "" for q in PHASES) + " |")
    if gnugo:
        lines.append("| GNU Go estimate_score (n per phase) | " + " | ".join(
            f"{gnugo['accuracy'][str(q)]['accuracy']:.1f} (n={gnugo['accuracy'][str(q)]['n']})"
            if str(q) in gnugo["accuracy"] else "" for q in PHASES) + " |")
    lines += _net_rows(nets)
    if prior:
        lines += ["", "Training-set Black win rate per phase: " + ", ".join(
            f"{q}: {100 * prior[str(q)]:.1f} %" for q in PHASES) + "."]
    lines += ["", "GNU Go: `" + (" ".join(["gnugo"] + gnugo["argv"]) if gnugo else "gnugo --mode gtp --chinese-rules")
              + "`, position set up stone by stone over GTP with the game's komi, sign of `estimate_score`;",
              "same test positions (a fixed random sample per phase).", ""]
    lines += _dead_stones_section(dead, nets, index)
    lines += _why_below_seed(index, gnugo, nets)
    path = models_dir / "MODEL_CARD.md"
    path.write_text("\n".join(lines))
    return path


def _naive_count_row(cache_dir: Path | str | None, dead: dict[str, Any] | None = None) -> list[str]:
    """Card rows for the counting baseline on the test split (only when the dataset cache is present), also
    after dead-stone removal when the value network's test cache matches ``dead``'s weights."""
    try:
        test = load_split("test", cache_dir)
    except FileNotFoundError:
        return []
    komi = test.games["game_komi"][test.game]
    rows = []
    sources: tuple[str, ...] = INFLUENCE_MODELS
    own = None
    if dead is not None:
        from tengen.train.winner.netcache import ValueNetCache

        vc = ValueNetCache("test", cache_dir)
        if vc.sha == dead["sha256"] and len(vc.index) == len(test):
            own = vc.ownership(vc.index, int(dead["channel"]))
            sources = sources + CLEAN_SOURCES
    for source in sources:
        maps = (clean_features("test", test.boards, own, source, int(dead["channel"]), float(dead["threshold"]),
                               dead["sha256"], cache_dir) if is_clean(source) and dead is not None
                else cached_board_features("test", test, source, cache_dir))
        count = naive_count(maps, komi)
        cells = []
        for q in PHASES:
            sel = test.phase == q
            cells.append(f"{((count[sel] > 0) == (test.winner[sel] > 0)).mean() * 100:.1f}")
        rows.append(f"| count {source} - komi (no training) | " + " | ".join(cells) + " |")
    return rows


def _networks_bullet(nets: dict[str, Any] | None, index: dict[str, Any] | None = None) -> list[str]:
    """One bullet on what the networks read from the same positions (``net_reference.json``)."""
    if not nets or "gnugo" not in nets.get("valuenet", {}):
        return []
    vn = nets["valuenet"]["gnugo"]
    text = ("- On GNU Go's positions tengen's value network (its win rate at the game's komi) gets " +
            ", ".join(f"{vn[str(q)]['accuracy']:.1f}%" for q in PHASES if str(q) in vn))
    if "katago" in nets:
        kg = nets["katago"]["gnugo"]
        text += (" and KataGo's raw network " + ", ".join(f"{kg[str(q)]['accuracy']:.1f}%" for q in PHASES
                                                         if str(q) in kg))
    text += (" at moves " + ", ".join(map(str, PHASES)) + ": the clean models take only the dead stones from the "
             "value network and read the rest from influence.")
    vn_all, best = nets["valuenet"].get("all", {}), (index or {}).get("best", {}).get("180")
    if "180" in vn_all and best and "180" in index["models"][best].get("test", {}):
        text += (f" At move 180 on every test position the best model ({best}) gets "
                 f"{index['models'][best]['test']['180']['accuracy']:.1f}%, the value network itself "
                 f"{vn_all['180']['accuracy']:.1f}%.")
    words, lines, line = text.split(" "), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 106:
            lines.append(line)
            line = "  " + w
        else:
            line = f"{line} {w}" if line else w
    return [*lines, line]


def _net_rows(nets: dict[str, Any] | None) -> list[str]:
    """Table rows for the networks' win rates at the game's komi (``net_reference.json``)."""
    if not nets:
        return []

    def cells(d: dict[str, Any]) -> str:
        return " | ".join(f"{d[str(q)]['accuracy']:.1f} (n={d[str(q)]['n']})" if str(q) in d else ""
                          for q in PHASES)

    vn = nets["valuenet"]
    rows = [f"| value network `{vn['weights']}` win rate at the game's komi, all test positions | {cells(vn['all'])} |"]
    if "gnugo" in vn:
        rows.append(f"| value network, GNU Go's positions | {cells(vn['gnugo'])} |")
    if "katago" in nets:
        rows.append(f"| KataGo `{nets['katago']['model']}` (raw network) win rate, GNU Go's positions | "
                    f"{cells(nets['katago']['gnugo'])} |")
    return rows


def _dead_stones_section(dead: dict[str, Any] | None, nets: dict[str, Any] | None, index: dict[str, Any]
                         ) -> list[str]:
    """How dead stones are found (``dead_stones.json``) and which positions the clean models saw."""
    if not dead:
        return []
    head = {0: "0 (predicted final owner)", 1: "1 (distilled KataGo ownership)"}[int(dead["channel"])]
    lines = ["## Dead stones", "",
             f"A stone is removed before influence when the value network's ownership head {head} gives its point",
             f"to the other colour beyond {dead['threshold']:g} (colour x ownership < "
             f"{-dead['threshold'] if dead['threshold'] else 0:g}). Weights "
             f"`{dead['weights']}` (sha256 {dead['sha256'][:12]}...). Chosen by {dead['criterion']}; validation "
             "positions per phase: " + ", ".join(f"{q}: {n}" for q, n in dead["val_positions"].items()) + ".",
             "Positions are rebuilt from the stored stones with the recorded side to move and no ko (the dataset keeps",
             "none); the value network sees no move history.", "",
             "| setting | " + " | ".join(f"count {m} at 180" for m in INFLUENCE_MODELS) + " |",
             "|---|" + "---|" * len(INFLUENCE_MODELS)]
    for key, row in dead["table"].items():
        mark = " (chosen)" if key == f"c{dead['channel']}-t{dead['threshold']:g}" else ""
        lines.append(f"| {key}{mark} | " + " | ".join(f"{row[m]['180']:.1f}" for m in INFLUENCE_MODELS) + " |")
    lines += ["", "(`none` = no removal; `cH-tT` = head H, threshold T; no-training count accuracy, %.) Stones removed "
              "with the chosen setting: " + ", ".join(f"{100 * f:.1f} % at {q}" for q, f in dead["dead_fraction"].items())
              + " of the stones on the board.", ""]
    clean = [m for n, m in index["models"].items() if is_clean(split_name(n)[1])]
    if nets and clean:
        cp = nets.get("cached_positions", {})
        total = index.get("data", {}).get("test", {}).get("positions", {})
        every = bool(total) and all(cp.get("test", {}).get(q) == n for q, n in total.items())
        lines += ["The value network is slow on one CPU core (`python -m tengen.train.winner valuenet` logs its rate), so",
                  "the clean models train on a subsample of the training split and are chosen on a subsample of validation (positions per phase: " +
                  "; ".join(f"{s} " + ", ".join(f"{q}: {n}" for q, n in c.items()) for s, c in cp.items()) +
                  ("); they are tested on every test position." if every else
                   "); they are tested on the test positions the value network evaluated."),
                  "The map the clean models read is the sign of the influence (which side controls each point, what",
                  "the count adds up), not its raw value.", ""]
    return lines


def _why_below_seed(index: dict[str, Any], gnugo: dict[str, Any] | None, nets: dict[str, Any] | None = None
                    ) -> list[str]:
    """The model card's note when the best model does not reach NN-Influence's figures: where it falls short, and why."""
    best = index.get("best", {})
    got = {q: index["models"][best[str(q)]]["test"][str(q)]["accuracy"] for q in PHASES if str(q) in best}
    short = [q for q in PHASES if q in got and got[q] < SEED_ACCURACY[q]]
    if not short:
        return ["## Against NN-Influence", "", "The best model reaches NN-Influence's figure at every phase.", ""]
    g = gnugo["accuracy"] if gnugo else {}
    gtxt = ", ".join(f"{g[str(q)]['accuracy']:.1f} % at {q}" for q in PHASES if str(q) in g)
    return [
        "## Why the best model stays below NN-Influence's figures",
        "",
        "Below NN-Influence at moves " + ", ".join(map(str, short)) + " (best: " +
        ", ".join(f"{got[q]:.1f} %" for q in PHASES if q in got) + "). The numbers above say why:",
        "",
        "- These are strong players' games (professionals, Tom.com 9d, KGS 6d+, top bots), and a position at",
        "  move N exists only if the game lasted N moves: games still going at move 180 are the close ones",
        "  (lopsided games end by resignation earlier). The Black win rate is 48-49 % at every phase.",
        "- The board carries little that an influence map can see. GNU Go 3.8, which reads life and death,",
        f"  gets only {gtxt} on a fixed sample of the same test positions (its estimate_score sign),",
        "  below NN-Influence's 61.8 / 76.7 / 89.3 % from move 80 on.",
        "- Influence models treat every stone as alive, so a dead group still on the board counts for its",
        "  owner: simple counting (sign of the summed influence minus komi, rows `count ...` above) is at",
        "  chance for zobrist and bouzy at every phase, and the plain trained models get only a few points more.",
        "  Game records keep dead stones to the end (the loser leaves more). Removing the stones the value",
        "  network calls dead (`count *-clean` rows, `*-clean` models, *Dead stones* above) is what lifts them;",
        "  what is left is unsettled boundaries and territory in close games, which influence does not read.",
        *_networks_bullet(nets, index),
        "- NN-Influence's data are not documented; they were presumably easier (weaker players, games decided by",
        "  large captures, which the prisoner inputs see).",
        "",
    ]
