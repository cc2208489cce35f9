"""`tengen analyze FILE.sgf`: the endgame analysis of a position (the main job)."""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import replace

from tengen.commands.base import CliError, command, finite_float
from tengen.commands.common import add_device_argument, add_position_arguments, position_from_args, progress_line
from tengen.endgame.leaves import DEFAULT_LEAF_CONFIDENCE
from tengen.endgame.move_check import DEFAULT_MARGIN
from tengen.endgame.options import DEFAULT_CHECK_VISITS, DEFAULT_MAX_NODES, DEFAULT_MAX_TOTAL_NODES


ABOUT = ("endgame analysis (`--device`: where every network of the analysis runs): per region the count (mean), "
         "temperature, miai / deiri values, gote / sente / reverse sente / ko, best local moves and sequences, "
         "what each side's first move leaves (the temperature after it: how much the follow-up is worth, so how "
         "urgent the answer is), and the orthodox whole-board move. `SQ[]` markup on the node names a region; "
         "`--predictor oracle` reads the node's child variations (enter the correct local lines in any SGF "
         "editor). The default predictor `auto` solves a sealed region (a marked local diagram, even on an "
         "otherwise empty board: what the marked points mean is [docs/LOCAL_GAME.md](docs/LOCAL_GAME.md)) exactly "
         "when the exhaustive solver (native C, about 5 µs a position on one core) finishes it within 2,000,000 "
         "positions, with no network, and prints its principal lines for both colors and its thermograph; a solve "
         "that gives no value is reported `unsolved` with its reason and the region's tree is grown instead. "
         "`auto` grows the other regions' trees with tengen's trained local-move network (`models/localnet/`, "
         "`--local-model FILE` for another; `--predictor kata` for KataGo's policy, the baseline); in a sealed "
         "region kata's lines are ended and counted by the exact rules (`--no-sealed-rules`: by the network, "
         "Frejlak's baseline). Leaves are scored by tengen's own value network (`models/valuenet/`, `--leaves "
         "auto`, the default) where it is sure how each region point rounds, and by KataGo where it is not "
         "(`--leaf-confidence`; `--leaves network`: KataGo for every leaf, the earlier default). Local trees are "
         "budgeted (800 nodes per tree, 1000 per position by default); lower budgets are faster and shallower, and "
         "a cut tree is flagged in the output. On a whole board, where the network's first choice differs, the "
         "orthodox move is checked against the network's 3 likeliest moves by a search of "
         f"{DEFAULT_CHECK_VISITS} visits after each (`--move-check-visits`); when it is more than half a point behind the "
         "best of them by the searches, the likeliest of those within half a point of the best replaces it (0 visits: against the policy move by the network one move ahead, replaced when it loses more "
         "than `--move-check` points, 3 by default; the report says so and why). The table says where each region lies (its box, and a map of the board in region "
         "letters) and what the numbers assume (rules and where they come from, komi, every setting by its flag; "
         "`--rules japanese` overrides a record's rules, records without RU are read as Chinese and say so); A "
         "group the side to move decides is said in words, not folded into a count: the (by default 2) groups "
         "whose ownership swings most with the side to move are read by the network one move deep, and each "
         "critical one gets a note on its region, \"the White group at D17 (6 stones) dies if Black plays C18 "
         "first; White saves it at C18 (judged by the network one move deep, not proved)\" (`--life-groups N`, 0: "
         "none; in the JSON report `critical_groups`, in the web UI's region table). `--explain` adds its terms in "
         "plain words; `--plots` draws each region's thermograph beside its diagram. The defaults are "
         "`AnalysisOptions()`, the same for the library, batch, GTP, the JSON protocol and the web UI (`python "
         "bench/front_ends.py` checks one position through all of them). Progress goes to stderr (a line every few "
         "seconds when it is not a terminal; `--quiet` silences it). `--evaluator classic` runs the whole analysis "
         "with no network at all: tengen's classic evaluator (Benson, small enclosed areas, life and death by "
         "search, atari, small sealed regions solved exactly, influence for the rest) gives the ownership, the "
         "leaf scores and the policy that grows the trees; much weaker than the network (figures in "
         "docs/BENCHMARKS.md)")


@command("analyze", "endgame analysis: regions, counts, temperatures, move values, the orthodox move", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)
    parser.add_argument("--region", help="analyze only this region: GTP vertices, e.g. C1,D1,E1 (one point is enough)")
    parser.add_argument("--predictor", default="auto", choices=["auto", "kata", "oracle", "exhaustive", "net"],
                        help="local-move predictor (default auto: the exact solver for sealed regions it can finish "
                             "quickly, such as marked local diagrams, net for the rest (kata when no trained "
                             "local-move network exists); net: tengen's local-move network, with its answer head "
                             "for sente; kata: KataGo's policy, the baseline; oracle reads the SGF node's child "
                             "variations)")
    parser.add_argument("--threshold", type=finite_float, default=0.9,
                        help="|ownership| below this is undecided (default 0.9; between 0 and 1)")
    parser.add_argument("--margin", type=int, default=0, help="grow regions by this many points")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                        help=f"node budget per local tree (default {DEFAULT_MAX_NODES})")
    parser.add_argument("--max-total-nodes", type=int, default=DEFAULT_MAX_TOTAL_NODES,
                        help=f"node budget shared by all trees of the position (default {DEFAULT_MAX_TOTAL_NODES}; 0: no shared cap)")
    parser.add_argument("--missing", choices=["probe", "threat"], default="probe",
                        help="when a color is missing below the root: probe its best move, or a ±inf threat leaf")
    parser.add_argument("--leaves", choices=["auto", "network", "exact", "valuenet", "solver"], default="auto",
                        help="leaf scores: valuenet: tengen's value network's rounded ownership, KataGo's where it is "
                             "unsure (many times faster); network: KataGo's rounded ownership; exact: an exact local "
                             "area count (settled leaves of sealed regions and local diagrams); solver: in a marked region "
                             "(SQ[] or --region) each leaf's local game solved exactly, its mean (e.g. with --predictor oracle: a book's lines with exact "
                             "counts; other leaves get KataGo's rounded ownership where a network is loaded, else the "
                             "exact area count); auto (default): "
                             "valuenet when the trained value network exists, else network")
    parser.add_argument("--value-model", metavar="FILE",
                        help="value network weights for --leaves valuenet; default: models/valuenet/bvmlvn.pt")
    parser.add_argument("--leaf-confidence", type=finite_float, default=None, metavar="C",
                        help="--leaves valuenet: KataGo scores a leaf where some region point's |ownership| by the value "
                             "network lies within C of 0.5, where its rounding flips (default 0.2; 0: the value network "
                             "scores every leaf)")
    parser.add_argument("--no-sealed-rules", action="store_true",
                        help="in sealed regions (local diagrams) let the network end lines and count leaves too "
                             "(Frejlak 2024's KataGo baseline); by default the exact rules do where they can")
    parser.add_argument("--move-check", type=finite_float, default=DEFAULT_MARGIN, metavar="POINTS",
                        help="on a whole board, recommend the network's policy move instead of the orthodox one when "
                             f"the orthodox move is worse by more than POINTS one move later (default {DEFAULT_MARGIN:g}; a negative "
                             "value turns the check off); with a search look (--move-check-visits) the margin is half a point")
    parser.add_argument("--move-check-visits", type=int, default=DEFAULT_CHECK_VISITS, metavar="N",
                        help="the move check's look: an MCTS of N visits over the network after the orthodox move "
                             f"and after each of the network's 3 likeliest moves (default {DEFAULT_CHECK_VISITS}; 0: the network's score "
                             "one move later, against its first choice)")
    parser.add_argument("--life-groups", type=int, default=2, metavar="N",
                        help="on a whole board, read the N groups whose life swings most with the side to move "
                             "(the network, one move deep) and say which are critical (default 2; 0: none)")
    parser.add_argument("--model", help="KataGo network file (.bin.gz); default: the cached katrain network")
    add_device_argument(parser, "every network of the analysis (KataGo, the local-move and value networks)")
    parser.add_argument("--evaluator", choices=["katago", "classic"], default="katago",
                        help="what gives ownership, leaf scores and the policy: the KataGo network (default), or "
                             "classic (no network: Benson, life and death by search, atari, small sealed regions "
                             "solved exactly, influence; trees grown by its policy (predictor kata; in sealed regions "
                             "the exact rules end and count lines), leaves scored by its ownership)")
    parser.add_argument("--local-model", metavar="FILE",
                        help="local-move network weights for --predictor net (and auto); default: the trained "
                             "models/localnet/localnet.pt")
    parser.add_argument("--explain", action="store_true",
                        help="after the table, what its terms mean (count, temperature, gote, sente, ...) in plain words")
    parser.add_argument("--json", metavar="OUT", help="write the full analysis (trees included) as JSON")
    parser.add_argument("--sgf", metavar="OUT", dest="sgf_out",
                        help="write the game back with the analysis as comments and variations")
    parser.add_argument("--plots", metavar="DIR", help="write one thermograph PNG per region")
    parser.add_argument("--quiet", "--no-progress", dest="no_progress", action="store_true",
                        help="no progress on stderr (shown otherwise, a line every few seconds when stderr is not "
                             "a terminal)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.api import analyze, classic_evaluator, region_points
    from tengen.io.report import annotate_sgf, json_report, text_report, write_json_atomic

    if args.local_model == "":
        raise CliError("--local-model: an empty file name")
    if args.evaluator == "classic":
        classic_flags(args)
    if args.local_model is not None and args.predictor not in ("net", "auto"):
        raise CliError(f"--local-model applies to --predictor net or auto, not {args.predictor}")
    if args.evaluator != "classic":
        from tengen.eval.devices import DeviceUnavailable, pick_device

        try:
            pick_device(args.device)  # a device this machine lacks: one line, before any work
        except DeviceUnavailable as exc:
            raise CliError(f"--device: {exc}") from None
    if args.predictor == "net" or args.local_model is not None:
        from tengen.endgame.predictors import LocalNetPredictor

        LocalNetPredictor(weights=args.local_model)  # a missing or bad weights file: one line, before any work
    evaluator = classic_evaluator() if args.evaluator == "classic" else None
    options = options_from_args(args).resolved(evaluator)  # what `auto` means here, as the analysis will read it
    if (args.value_model is not None or args.leaf_confidence is not None) and options.leaf_scoring != "valuenet":
        raise CliError("--value-model and --leaf-confidence go with --leaves valuenet (or auto)")
    if options.leaf_scoring == "valuenet":
        from tengen.endgame.analysis import value_net_for
        from tengen.eval.valuenet.weights import ValueNetWeightsError

        try:
            value_net_for(args.value_model)  # a missing or bad weights file: one line, before any work
        except ValueNetWeightsError as exc:
            raise CliError(str(exc)) from None
    if args.region is not None and not args.region.strip():
        raise CliError("--region: no points given")
    position = position_from_args(args)
    points = region_points(args.region, position.board, position.node)
    if args.predictor == "exhaustive" and points is None:
        raise CliError("--predictor exhaustive needs a region (--region or SQ[] markup on the node)")
    check_outputs(args)
    if args.sgf_out:
        warn_other_games(args.sgf)
    with progress_line(not args.no_progress, "region", "analyzing", terminal_only=False, interval=3.0) as update:
        progress = None if update is None else (lambda stage, done, total: update(done, total, _evaluations_note()))
        analysis = analyze(position, region=points, model=args.model, device=args.device, options=options,
                           progress=progress, evaluator=evaluator)
    print(f"rules: {position.game.rules_said()}")
    print(text_report(analysis, explain=args.explain))
    if args.json:
        write_json_atomic(json_report(analysis), args.json)
    if args.sgf_out:
        from tengen.io.sgf_write import write_game

        game = position.game
        annotate_sgf(game, position.node, analysis)
        repaired = write_game(game, args.sgf_out)
        if repaired:
            print(f"tengen: warning: {args.sgf_out}: {repaired} value(s) of the record held bytes its charset "
                  f"({game.sgf.get_charset()}) cannot decode; written with replacement characters (U+FFFD) "
                  "in their place", file=sys.stderr)
    if args.plots:
        write_plots(analysis, args.plots)
    return 0


def classic_flags(args: argparse.Namespace) -> None:
    """`--evaluator classic` needs no network: flags that need one are refused in one line (`auto` means its
    own policy and ownership there: `AnalysisOptions.resolved`)."""
    if args.predictor == "net" or args.local_model is not None:
        raise CliError("--evaluator classic uses no network: --predictor net and --local-model do not apply")
    if args.leaves == "valuenet" or args.value_model is not None or args.leaf_confidence is not None:
        raise CliError("--evaluator classic uses no network: --leaves valuenet, --value-model and --leaf-confidence "
                       "do not apply")
    if args.model is not None or args.device != "cpu":
        raise CliError("--evaluator classic uses no network: --model and --device do not apply")


# the flag of each AnalysisOptions field that `tengen analyze` sets (its checks live in AnalysisOptions)
FLAG_OF_FIELD = {"predictor": "--predictor", "threshold": "--threshold", "margin": "--margin",
                 "max_nodes": "--max-nodes", "max_total_nodes": "--max-total-nodes", "leaf_scoring": "--leaves",
                 "leaf_confidence": "--leaf-confidence", "move_check_margin": "--move-check",
                 "life_groups": "--life-groups", "move_check_visits": "--move-check-visits"}


def options_from_args(args: argparse.Namespace):
    """The analysis settings the flags give (one AnalysisOptions); a setting out of range is refused by
    AnalysisOptions and said here with its flag's name."""
    from tengen.endgame.options import AnalysisOptions, OptionError, leaf_scoring_of_flag
    from tengen.endgame.tree import GrowthConfig

    if args.max_total_nodes < 0:  # 0 is the flag's "no shared cap" (None in the options)
        raise CliError("--max-total-nodes must be at least 0 (0: no shared cap)")
    try:
        growth = GrowthConfig(max_nodes=args.max_nodes, max_total_nodes=args.max_total_nodes or None,
                              missing_color=args.missing)
        return replace(AnalysisOptions(), predictor=args.predictor, threshold=args.threshold, margin=args.margin,
                       growth=growth, leaf_scoring=leaf_scoring_of_flag(args.leaves),
                       value_model=args.value_model,
                       leaf_confidence=DEFAULT_LEAF_CONFIDENCE if args.leaf_confidence is None else args.leaf_confidence,
                       sealed_rules=not args.no_sealed_rules,
                       move_check_margin=None if args.move_check < 0 else args.move_check,
                       local_model=args.local_model, life_groups=args.life_groups,
                       move_check_visits=args.move_check_visits)
    except OptionError as exc:
        raise CliError(exc.flag_message(FLAG_OF_FIELD)) from None


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse output paths that cannot be written before the analysis runs, not after its minutes of work:
    missing or read-only folders, directories, devices, the input record itself, one file named twice."""
    from tengen.files import check_distinct, check_output_dir, check_output_file

    files = {flag: path for flag, path in (("--json", args.json), ("--sgf", args.sgf_out)) if path is not None}
    for flag, path in files.items():
        check_output_file(flag, path, inputs=[args.sgf])
    check_distinct(files)
    if args.plots is not None:
        check_output_dir("--plots", args.plots)


def warn_other_games(path: str) -> None:
    """A file holding several games (an SGF collection): tengen analyzes the first, and --sgf writes it alone."""
    from sgfmill import sgf_grammar

    try:
        with open(path, "rb") as f:
            games = len(sgf_grammar.parse_sgf_collection(f.read()))
    except (OSError, ValueError):
        return  # the game itself loaded; nothing more to say
    if games > 1:
        print(f"tengen: warning: {path}: the file holds {games} games; the first is analyzed and --sgf writes "
              "it alone", file=sys.stderr)


PLOT_NAME = re.compile(r"region_[A-Z]+\.png")


def write_plots(analysis, directory: str) -> None:
    """One PNG per region with a game (its thermograph beside its diagram on the board); plots of an earlier
    analysis in the same folder (`region_X.png` files that name no plot of this one) are removed, so the
    folder matches the table."""
    from tengen.endgame.results import region_label
    from tengen.files import write_png_atomic
    from tengen.io.region_plot import region_figure

    os.makedirs(directory, exist_ok=True)
    written = set()
    for i, r in enumerate(analysis.regions):
        if r.game is None:
            continue
        fig = region_figure(analysis, i)
        name = f"region_{region_label(i)}.png"
        write_png_atomic(fig, os.path.join(directory, name))
        written.add(name)
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        if PLOT_NAME.fullmatch(name) and name not in written and os.path.isfile(path) and not os.path.islink(path):
            os.remove(path)


def _evaluations_note() -> str:
    """The network evaluations the running analysis has made so far, for its progress line."""
    from tengen.phases import running_clock

    clock = running_clock()
    stat = clock.by_leaf_name().get("katago") if clock is not None else None
    return f"{stat.rows if stat else 0} network evaluations"

