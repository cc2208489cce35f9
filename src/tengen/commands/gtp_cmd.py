"""`tengen gtp`: a GTP v2 engine on stdin/stdout."""
from __future__ import annotations

import argparse
import sys

from tengen.commands.base import CliError, command, finite_float
from tengen.commands.common import add_device_argument

DYNAMIC_KOMI = ("none", "ss", "vs", "mldk")  # tengen.search.dynamic_komi.DYNAMIC_KOMI_NAMES (not imported: GTP starts fast)
# tengen.search.native_uct's MAX_THREADS and MAX_PLAYOUTS (not imported: the parser builds fast; a test keeps
# them equal)
NATIVE_MAX_THREADS, NATIVE_MAX_PLAYOUTS = 16, 1 << 24
NATIVE_DYNAMIC_KOMI = ("none", "vs")  # tengen.io.gtp_uct_player's (not imported either; the same test keeps it equal)
NATIVE_KNOWLEDGE, NATIVE_KNOWLEDGE_DEFAULT = ("none", "classic"), "classic"  # native_uct's KNOWLEDGE (the same test)
LIZZIE_NAME = "KataGo-compatible tengen"  # Lizzie uses kata-analyze when `name` starts with "KataGo"


ABOUT = ("a GTP v2 engine that plays through tengen's Monte Carlo tree search (PUCT, batched KataGo evaluation, "
         "tree reuse; the network loads on the first command that needs it): genmove within visits / seconds / the "
         "GTP clock (time_settings, time_left), kgs-genmove_cleanup, set_random_seed (seeded early-move variety: a "
         "draw by visits ** (1/T), T halving every M moves scaled by board area, as KataGo's), final_score and "
         "final_status_list from the search's ownership, dynamic komi for handicap games (Baudiš's SS and VS, Wu "
         "et al.'s ML-DK); the analysis commands GUIs speak (`kata-analyze`, `lz-analyze`, `kata-genmove_analyze`, "
         "Sabaki's `analyze` / `genmove_analyze`, in KataGo's and Leela Zero's line formats; `--lizzie` makes "
         "Lizzie use kata-analyze), GoGui's `gogui-analyze_commands` (tengen's endgame analysis as gfx: "
         "temperatures, ownership, regions, best local lines, the move and why) and `tengen-endgame` (the region "
         "table; `tengen-endgame json` the JSON report); plus the required commands, undo, loadsgf and handicaps. "
         "`--player simple` is the rule-based player (no network); `--evaluator playouts` plays with no network "
         "through the native playout engine (C: UCT with RAVE, Mogo-style heavy playouts with atari answers, 3x3 "
         "patterns and no big self-atari, root-parallel threads, tree reuse; `--playouts-per-move` a move, "
         "`--threads`, RAVE's equivalence `--rave-equivalence`, `--fpu` the first-play urgency of an unvisited "
         "move without AMAF samples, `--knowledge` new nodes' prior knowledge (Fuego's and "
         "Pachi's), stated in `version`; `python bench/playout_speed.py` measures it); "
         "`--evaluator classic`: tengen's classic evaluator; `--prior pbn` adds the PBN's corner and side move "
         "probabilities to the selection (`--prior-weight W`: W * p / (1 + n)). GNU Go's life-and-death commands "
         "`dragon_status`, `owl_attack`, `owl_defend` answer in its formats: proved by df-pn where the proof "
         "finishes without a ko, else judged by the network one move deep, "
         "with a ko and its code (2: the mover takes it first, 3: the other side does) told by tengen's search "
         "(`--evaluator classic`: the search alone, without the network); `tengen-dragon_status VERTEX` adds how "
         "the answer is known (`proved`: pass-alive by Benson or the df-pn proof; `judged`: the network; "
         "`searched`: the search) and the positions it took")


@command("gtp", "speak GTP v2 on stdin/stdout", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=19, help="initial board size (default 19)")
    parser.add_argument("--rules", default="chinese", help="rules preset: chinese, japanese, tromp-taylor, aga")
    parser.add_argument("--komi", type=finite_float, default=None, help="komi (default: the preset's)")
    parser.add_argument("--player", choices=("search", "simple"), default="search",
                        help="genmove by the Monte Carlo tree search over the KataGo network (default; also "
                             "brings the analysis commands kata-analyze, lz-analyze, analyze and their genmove "
                             "variants; with --evaluator playouts: the native playout search), or by the "
                             "rule-based policy (simple: no network)")
    parser.add_argument("--visits", type=int, default=64, help="search visits per move (default 64)")
    parser.add_argument("--seconds", type=finite_float, default=None,
                        help="at most this many seconds per move (default: visits alone; a GTP clock, "
                             "time_settings / time_left, can shorten it)")
    parser.add_argument("--batch", type=int, default=16, help="positions per network call (default 16)")
    parser.add_argument("--threads", type=int, default=None,
                        help="CPU threads for the network (default: torch's), or with --evaluator playouts the "
                             f"native search's threads (root parallelism, default 1; at most {NATIVE_MAX_THREADS}: "
                             "each thread reserves a tree of about 128 MB)")
    add_device_argument(parser)
    parser.add_argument("--dynamic-komi", choices=DYNAMIC_KOMI, default="none",
                        help="komi of each search: none (the game's, default), ss (score-situational), vs "
                             "(value-situational), mldk (multi-labelled, from the komi curve); with --evaluator "
                             "playouts none or vs")
    parser.add_argument("--temperature-early", type=finite_float, default=0.5, metavar="T",
                        help="after set_random_seed, early moves are drawn with probability ~ visits ** (1/T) "
                             "(default 0.5; 0: always the most visited)")
    parser.add_argument("--temperature-halflife", type=finite_float, default=19.0, metavar="M",
                        help="the draw's temperature halves every M moves of a 19x19 board, scaled by the "
                             "board's area as KataGo's (default 19: about 4 moves on 9x9)")
    parser.add_argument("--resign-threshold", type=finite_float, default=None, metavar="X",
                        help="resign after 3 searches in a row with the win rate below X (default 0.05; 0: never)")
    parser.add_argument("--name", default=None, help="what `name` answers (default tengen)")
    parser.add_argument("--lizzie", action="store_true",
                        help=f"answer `name` with '{LIZZIE_NAME}' (so Lizzie sends kata-analyze and shows "
                             "score leads and ownership) and `version` with tengen's version; without it "
                             "`name` answers 'tengen'")
    parser.add_argument("--dead-stones", choices=("auto", "benson", "network", "search"), default="auto",
                        help="final_score's and final_status_list's dead stones: auto (default: the search's "
                             "ownership with --player search, Benson with --player simple), Benson's proof "
                             "only, the network's raw ownership, or the search's ownership")
    parser.add_argument("--model", default=None, help="KataGo model file (default: the cached katrain network)")
    parser.add_argument("--evaluator", choices=("katago", "playouts", "classic"), default="katago",
                        help="the search's evaluator: the KataGo network (default), playouts (no network: the "
                             "native playout search tengen.search.native_uct, UCT with RAVE over Mogo-style "
                             "heavy playouts in C, --playouts-per-move a move), or classic (no network: Benson, "
                             "life and death by search, atari, sealed regions solved exactly, influence; "
                             "tengen.api.classic_evaluator)")
    parser.add_argument("--playouts-per-move", type=int, default=10_000, metavar="N",
                        help="with --evaluator playouts: playouts a move (default 10000, at most "
                             f"{NATIVE_MAX_PLAYOUTS}; --seconds can cut it short)")
    parser.add_argument("--rave-equivalence", type=finite_float, default=1000.0, metavar="E",
                        help="with --evaluator playouts: RAVE's equivalence parameter, beta = na / (n + na + n na / E) "
                             "(default 1000)")
    parser.add_argument("--expand-threshold", type=int, default=4, metavar="K",
                        help="with --evaluator playouts: visits before a leaf is expanded (default 4)")
    parser.add_argument("--fpu", type=finite_float, default=1.0, metavar="V",
                        help="with --evaluator playouts: first-play urgency, the value of an unvisited move without "
                             "AMAF samples (one with samples takes its AMAF value; default 1.0: each move tried once)")
    parser.add_argument("--knowledge", choices=NATIVE_KNOWLEDGE, default=NATIVE_KNOWLEDGE_DEFAULT,
                        help="with --evaluator playouts: the prior knowledge new tree nodes start with (classic: "
                             "virtual games from the playout policy's moves, self-ataris, 3x3 patterns and, on large boards, "
                             "the line of a move in an empty area, after Fuego's and Pachi's; none: without; "
                             f"default {NATIVE_KNOWLEDGE_DEFAULT})")
    parser.add_argument("--playouts", type=int, default=None,
                        help="(removed: random games per leaf of the former Python playout search; use "
                             "--playouts-per-move)")
    parser.add_argument("--prior", choices=("none", "pbn"), default="none",
                        help="an additive move prior in the search's selection (pbn: the pyramidal Bayes nets of "
                             "models/pbn/, 19x19 only; default none)")
    parser.add_argument("--prior-weight", type=finite_float, default=None, metavar="W",
                        help="weight of --prior's term W * p / (1 + n) (default 1.0 with --prior pbn)")
    parser.add_argument("--prior-depth", type=int, default=None, metavar="D",
                        help="with --evaluator playouts and --prior pbn: ask the prior for every node expanded within D "
                             "plies of the root (0: the root alone, -1: no node by depth) and for deeper nodes once "
                             "they have 200 visits (default 2)")
    parser.add_argument("--prior-decay", type=finite_float, default=None, metavar="K",
                        help="with --evaluator playouts and --prior pbn: the prior term fades as W * p * sqrt(K / (n + K)), "
                             "Fuego's additive knowledge (its default K is 5), instead of W * p / (1 + n) (default: the "
                             "latter)")
    parser.add_argument("--fpu-reduction", type=finite_float, default=None, metavar="X",
                        help="an unvisited child's value: the parent's minus X (default 0.2)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.rules import Rules
    from tengen.go.scoring import benson_dead_stones
    from tengen.io.engines import gtp_engine
    from tengen.io.gtp import ENGINE_NAME

    if args.visits < 1:
        raise CliError("--visits must be at least 1")
    if not 1 <= args.batch <= 1024:
        raise CliError("--batch must be 1..1024")
    if args.threads is not None and args.threads < 1:
        raise CliError("--threads must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        raise CliError("--seconds must be positive")
    if not 0 <= args.temperature_early <= 10:
        raise CliError("--temperature-early must lie in [0, 10]")
    if not args.temperature_halflife > 0:
        raise CliError("--temperature-halflife must be positive")
    if args.resign_threshold is not None and not 0 <= args.resign_threshold < 0.5:
        raise CliError("--resign-threshold must lie in [0, 0.5)")
    if args.dead_stones == "search" and args.player != "search":
        raise CliError("--dead-stones search needs --player search")
    if args.playouts is not None:
        raise CliError("--playouts is gone: --evaluator playouts runs the native search, --playouts-per-move N")
    native = args.evaluator == "playouts" and args.player == "search"
    if native and args.fpu_reduction is not None:
        raise CliError("--fpu-reduction is the network search's; the native search takes --fpu")
    if args.playouts_per_move < 1 or args.expand_threshold < 0 or not args.rave_equivalence > 0:
        raise CliError("--playouts-per-move must be at least 1, --expand-threshold at least 0, "
                       "--rave-equivalence positive")
    if args.prior_weight is not None and (args.prior == "none" or args.prior_weight < 0):
        raise CliError("--prior-weight needs --prior pbn and must be at least 0")
    if args.prior_depth is not None and (args.prior == "none" or not native or args.prior_depth < -1):
        raise CliError("--prior-depth needs --evaluator playouts and --prior pbn, and must be at least -1")
    if args.prior_decay is not None and (args.prior == "none" or not native or not args.prior_decay > 0):
        raise CliError("--prior-decay needs --evaluator playouts and --prior pbn, and must be positive")
    if native:
        _check_native_limits(args)
        if args.dynamic_komi not in NATIVE_DYNAMIC_KOMI:
            raise CliError(f"--dynamic-komi {args.dynamic_komi} needs the network search's score or komi curve; "
                           "with --evaluator playouts use none or vs")
    rules = Rules.from_name(args.rules, args.komi)
    load = _once(lambda: _katago_evaluator(args))
    search_load = {"katago": load, "playouts": load, "classic": _once(lambda: _classic_evaluator(args))}[args.evaluator]
    version = None
    if native:
        player = _uct_player(args)
        version = _uct_version(player.config, args.dynamic_komi)
    else:
        player = _search_player(args, search_load) if args.player == "search" else None
    dead = args.dead_stones
    if dead == "auto":
        dead = "search" if player is not None else "benson"
    finder = {"benson": benson_dead_stones, "network": lambda: _lazy_network_finder(args.model),
              "search": lambda: player.dead_stones}[dead]
    finder = finder if dead == "benson" else finder()
    name = args.name or (LIZZIE_NAME if args.lizzie else ENGINE_NAME)
    engine = gtp_engine(life_network=load if args.evaluator == "katago" else None, size=args.size, rules=rules,
                        dead_stones=finder, player=player, name=name, load_evaluator=load, version=version)
    protocol = sys.stdout
    sys.stdout = sys.stderr  # stdout carries GTP responses only: whatever else the session prints goes to stderr
    try:
        engine.run(sys.stdin, protocol)
    finally:
        sys.stdout = protocol
    return 0


def _once(make):
    """A loader that calls `make` on its first call and returns that result ever after (the evaluators load on
    the first command that needs them, so GTP starts at once)."""
    loaded = []

    def load():
        if not loaded:
            loaded.append(make())
        return loaded[0]
    return load


def _katago_evaluator(args):
    """The KataGo evaluator of the flags."""
    from tengen.api.evaluators import make_evaluator

    return make_evaluator("katago", model=args.model, device=args.device, threads=args.threads, batch_size=args.batch)


def _classic_evaluator(args):
    """The classic evaluator (no network)."""
    from tengen.api.evaluators import make_evaluator

    return make_evaluator("classic")


def _search_player(args, load):
    from tengen.io.gtp_player import PlayerSettings, SearchPlayer

    settings = {"visits": args.visits, "batch_size": args.batch}  # a SearchConfig, made with the search
    if args.resign_threshold is not None:
        settings["resign_threshold"] = args.resign_threshold
    if args.fpu_reduction is not None:
        settings["fpu_reduction"] = args.fpu_reduction
    factory = None
    if args.prior == "pbn":
        settings["prior_weight"] = 1.0 if args.prior_weight is None else args.prior_weight
        factory = _pbn_search_factory
    return SearchPlayer(load, settings,
                        PlayerSettings(seconds=args.seconds, dynamic_komi=args.dynamic_komi,
                                       temperature_early=args.temperature_early,
                                       temperature_halflife=args.temperature_halflife),
                        search_factory=factory)


def _check_native_limits(args) -> None:
    """The native playout engine's limits (`tengen.search.native_uct`) checked at startup: a CliError naming
    the flag."""
    from tengen.search.native_uct import C_INT_MAX, MAX_PLAYOUTS, MAX_SIDE, MAX_THREADS

    if args.playouts_per_move > MAX_PLAYOUTS:
        raise CliError(f"--playouts-per-move must be 1..{MAX_PLAYOUTS} with --evaluator playouts (the search's win "
                       "sums are exact to 2^24 playouts)")
    if args.expand_threshold > C_INT_MAX:
        raise CliError(f"--expand-threshold must be 0..{C_INT_MAX} with --evaluator playouts")
    if args.prior_depth is not None and args.prior_depth > C_INT_MAX:
        raise CliError(f"--prior-depth must be -1..{C_INT_MAX}")
    if args.threads is not None and args.threads > MAX_THREADS:
        raise CliError(f"--threads must be 1..{MAX_THREADS} with --evaluator playouts (each thread reserves a tree "
                       "of about 128 MB)")
    if not 2 <= args.size <= MAX_SIDE:
        raise CliError(f"--size must be 2..{MAX_SIDE} with --evaluator playouts (the native engine's board)")


def _uct_player(args):
    """The native playout player of the flags (`tengen.io.gtp_uct_player`; nothing loads until genmove)."""
    from tengen.io.gtp_uct_player import UctPlayer
    from tengen.search.native_uct import UctConfig

    config = UctConfig(playouts=args.playouts_per_move, threads=args.threads or 1,
                       rave_equivalence=args.rave_equivalence, expand_threshold=args.expand_threshold, fpu=args.fpu,
                       knowledge=args.knowledge, prior_weight=1.0 if args.prior_weight is None else args.prior_weight,
                       **({} if args.prior_depth is None else {"prior_depth": args.prior_depth}),
                       **({} if args.prior_decay is None else {"prior_decay": args.prior_decay}))
    factory = _pbn_board_prior if args.prior == "pbn" else None
    resign = {} if args.resign_threshold is None else {"resign_threshold": args.resign_threshold}
    return UctPlayer(config, prior_factory=factory, seconds=args.seconds, verbose=True,
                     dynamic_komi=args.dynamic_komi, **resign)


def _uct_version(config, dynamic_komi: str = "none") -> str:
    """GTP `version` of the native player: tengen's version and the search's settings (FPU and a dynamic komi
    stated)."""
    from tengen import __version__

    komi = f" dynamic-komi={dynamic_komi}" if dynamic_komi != "none" else ""
    return f"{__version__} {config.describe()}{komi}"


def _pbn_board_prior():
    """The PBN's move prior as the native search's callback (the models loaded once, on the first genmove)."""
    from tengen.search.native_uct import board_move_prior
    from tengen.search.pbn_prior import pbn_move_prior

    return board_move_prior(pbn_move_prior())


def _pbn_search_factory(evaluator, config):
    """A search with the PBN's move prior (the models loaded once, with the search)."""
    from tengen.search.mcts import Search
    from tengen.search.pbn_prior import pbn_move_prior

    return Search(evaluator, config, move_prior=pbn_move_prior())


def _lazy_network_finder(model):
    """A network dead-stone finder that loads the network on the first final_score (GTP starts fast)."""
    loaded = []

    def find(board):
        if not loaded:
            from tengen.api import default_evaluator
            from tengen.eval.katago.final_score import network_dead_stones
            from tengen.io.gtp_base import GtpError

            try:
                evaluator = default_evaluator(model)
            except (OSError, ValueError) as e:  # offline with no cached network, a corrupt model file
                raise GtpError(f"cannot load the network: {' '.join(str(e).split())}") from None
            loaded.append(network_dead_stones(evaluator))
        return loaded[0](board)
    return find
