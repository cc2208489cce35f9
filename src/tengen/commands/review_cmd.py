"""`tengen review GAME.sgf`: the endgame review of a whole game, move by move."""
from __future__ import annotations

import argparse
import os

from tengen.commands.base import CliError, command
from tengen.endgame.options import DEFAULT_MISTAKE_CHECK_VISITS


def _start(text: str):
    if text == "auto":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a move number or 'auto', not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"move numbers start at 1, not {value}")
    return value


ABOUT = ("the endgame review of a whole game: from the start of the endgame (`auto`: the first move after which "
         "every region of the board has at most 120 points, the most the analysis values as a local game, by the "
         "network's ownership) to the end, for every move "
         "the region it was played in and its temperature before the move, the hottest region and the orthodox "
         "move then, the move's loss in points against orthodox play by the regions' values (the hottest "
         "temperature minus what the move gained in the count of the area it changed; 0 for a sente move whose "
         "follow-up is the hottest thing on the board), the network's point loss as KaTrain computes it beside it, "
         "and a reason in words (\"gote 3.0 points while a 6.0-point reverse sente stood at Q3\", \"answered a "
         "move that did not threaten\", \"played elsewhere leaving a sente move's follow-up worth 8.0\"); a "
         "mistakes list (2 points or more by the regions' values, each confirmed by a search after the move and after "
         "the recommended one, `--check-visits`; the moves the search does not confirm, and those only the search "
         "values, listed apart), totals per player; `--out DIR` writes `review.json`, `review.jsonl` (a "
         "line per move), `review.sgf` (a comment per move, the orthodox move marked with a triangle, KaTrain's "
         "`KT` analysis: KaTrain and Sabaki open it) and `temperature.png` (the hottest temperature before each "
         "move and the temperature of each move played); a progress line with ETA on stderr. Regions a move did "
         "not touch are reused from the previous position (`--fresh`: every position analyzed afresh); figures in "
         "docs/BENCHMARKS.md")


@command("review", "endgame review of a game: every move's region, loss against orthodox play, and why", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sgf", metavar="GAME.sgf", help="game record")
    parser.add_argument("--from", dest="start", type=_start, default=None, metavar="MOVE|auto",
                        help="first move to review (default auto: the first move after which every region of the "
                             "board has at most 120 points, the most the analysis values as a local game, found by "
                             "the network's ownership)")
    parser.add_argument("--to", dest="end", type=_start, default=None, metavar="MOVE",
                        help="last move to review (default: the record's last)")
    parser.add_argument("--out", metavar="DIR",
                        help="write review.json, review.jsonl, review.sgf and temperature.png into DIR")
    parser.add_argument("--sgf", dest="sgf_out", metavar="OUT",
                        help="write the record annotated with the review (comments, orthodox moves marked, KaTrain's "
                             "KT analysis)")
    parser.add_argument("--json", metavar="OUT", help="write the review as JSON")
    parser.add_argument("--model", help="KataGo network file (.bin.gz); default: the cached katrain network")
    parser.add_argument("--fresh", action="store_true",
                        help="analyze every position afresh (no region reused between moves; slower, for comparison)")
    parser.add_argument("--check-visits", type=int, default=None, metavar="N",
                        help="the mistake check: a move the regions' values charge 2 points or more is a mistake only "
                             "where an N-visit search after it and after the recommended move finds at least 1 point "
                             f"lost (default {DEFAULT_MISTAKE_CHECK_VISITS}; 0: no check)")
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    parser.add_argument("--rules", metavar="NAME",
                        help="review under these rules (chinese, japanese, ...) instead of the record's RU (Chinese "
                             "when it names none); the record's komi is kept")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.api import default_evaluator, review_options, search_look
    from tengen.commands.common import checked_rules, progress_line, warn_forced
    from tengen.endgame.evalcache import cached
    from tengen.endgame.options import MAX_CHECK_VISITS, AnalysisOptions
    from tengen.endgame.review import review_game
    from tengen.go.sgf import load_game
    from tengen.io.review_report import review_text

    outputs = _outputs(args)
    game = load_game(args.sgf)
    rules = checked_rules(args)
    if rules is not None:
        game.override_rules(rules)
    game.board_at(strict=False)  # the whole main line played once, so its illegal moves are warned of now
    warn_forced(game)
    total = len(game.moves)
    if total == 0:
        raise CliError(f"{args.sgf}: the record has no moves to review")
    for flag, value in (("--from", args.start), ("--to", args.end)):
        if value is not None and value > total:
            raise CliError(f"{flag} {value}: the record has {total} moves")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise CliError(f"--from {args.start} comes after --to {args.end}")
    if args.check_visits is not None and not 0 <= args.check_visits <= MAX_CHECK_VISITS:
        raise CliError(f"--check-visits {args.check_visits}: expected 0 to {MAX_CHECK_VISITS}")
    options = review_options(AnalysisOptions().resolved(), args.check_visits)
    check = search_look(options)
    evaluator = cached(default_evaluator(args.model))
    with progress_line(not args.quiet, "move", "reviewing", terminal_only=False, interval=3.0) as progress:
        review = review_game(game, evaluator, options, args.start, args.end, progress=progress, reuse=not args.fresh,
                             mistake_look=check)
    print(f"rules: {game.rules_said()}")
    print(review_text(review))
    _write(outputs, game, review, evaluator)
    return 0


def _outputs(args: argparse.Namespace) -> dict[str, str]:
    """The files to write, checked before the review's minutes of work."""
    from tengen.files import OutputError, check_distinct, check_output_dir, check_output_file

    files = {}
    try:
        if args.out is not None:
            check_output_dir("--out", args.out)
            files.update({name: os.path.join(args.out, name)
                          for name in ("review.json", "review.jsonl", "review.sgf", "temperature.png")})
        if args.sgf_out is not None:
            files["review.sgf"] = args.sgf_out
        if args.json is not None:
            files["review.json"] = args.json
        for name, path in files.items():
            in_out = bool(args.out) and os.path.dirname(path) == args.out
            check_output_file(f"--out ({name})" if in_out else name, path, inputs=[args.sgf],
                              folder_made_later=in_out)
        check_distinct(files)
    except OutputError as exc:
        raise CliError(str(exc)) from None
    return files


def _write(files: dict[str, str], game, review, evaluator) -> None:
    from tengen.files import write_atomic
    from tengen.io.report import write_json_atomic
    from tengen.io.review_report import annotate_review_sgf, review_json, review_json_lines, temperature_png
    from tengen.io.sgf_write import write_game

    if out_dir := os.path.dirname(files.get("review.jsonl", "")):  # --out DIR: checked, made now
        os.makedirs(out_dir, exist_ok=True)
    if "review.json" in files:
        write_json_atomic(review_json(review), files["review.json"])
    if "review.jsonl" in files:
        write_atomic(files["review.jsonl"], review_json_lines(review).encode())
    if "temperature.png" in files:
        write_atomic(files["temperature.png"], temperature_png(review))
    if "review.sgf" in files:
        annotate_review_sgf(game, review, _katrain_analyses(game, review, evaluator))
        write_game(game, files["review.sgf"])


def _katrain_analyses(game, review, evaluator) -> dict[int, dict]:
    """KaTrain's analysis of every reviewed position (the evaluations are the review's own, from the cache)."""
    from tengen.batch.compute import eval_result
    from tengen.batch.outputs import katrain_analysis

    out = {}
    for move in review.moves:
        board = game.board_at(move.number, strict=False)
        (evaluation,) = evaluator.evaluate([board])
        out[move.number] = katrain_analysis(eval_result(board, evaluation, maps=True))
    return out
