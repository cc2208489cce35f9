"""Record KataGo's own raw network outputs (`kata-raw-nn`) for varied positions: tengen's golden data.

The katrain 1.20.0 wheel ships KataGo v1.18.1 (an AppImage using OpenCL). On a CPU-only Debian machine:

    apt-get install ocl-icd-libopencl1 pocl-opencl-icd
    python tools/katago_golden/make_golden.py --katago /tmp/katago/katago     # ~1-2 minutes

The script extracts the AppImage (`--appimage-extract`), writes an OpenCL tuning file with KataGo's default
parameters (the first-run tuner takes most of an hour on pocl and then crashed here), plays each case's
setup and moves over GTP, asks `kata-raw-nn 0 0.2` (symmetry 0 = none; policy optimism 0.2, KataGo's GTP
default), and writes
tests/data/katago/golden.json. `board_from_case` rebuilds the same position as a tengen Board.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from tengen.go import BLACK, WHITE, Board, Rules, coords  # noqa: E402

OUT = REPO / "tests" / "data" / "katago" / "golden.json"

TUNE_PARAMS = """VERSION=13
#canUseFP16Storage
0
#canUseFP16Compute
0
#canUseFP16TensorCores
0
#canUseFP16TensorCoresFor1x1
0
#shouldUseFP16Storage
0
#shouldUseFP16Compute
0
#shouldUseFP16TensorCores
0
#shouldUseFP16TensorCoresFor1x1
0
#xGemmDirect
WGD=8 MDIMCD=1 NDIMCD=1 MDIMAD=1 NDIMBD=1 KWID=1 VWMD=1 VWND=1 PADA=1 PADB=1
#xGemm
MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0
#xGemm16
MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0
#hGemmWmma
MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=2 VWN=2 SA=0 SB=0
#hGemmWmmaNCHW
MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=1 VWN=2 SB=0 PAD_ELTS_PER_THREAD=1 PAD_ROWS_PER_THREAD=1
#conv3x3
INTILE_XSIZE=4 INTILE_YSIZE=4 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1
#conv5x5
INTILE_XSIZE=6 INTILE_YSIZE=6 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1
#gPool
XYSTRIDE=1 CHANNELSTRIDE=1 BATCHSTRIDE=1
#transformer
ATTN_BLOCK_Q=32 ATTN_BLOCK_KV=32 Q_PER_THREAD=1 USE_TILED_ATTN=1
#transformerRMSNorm
WG_C_SIZE=64 WG_XY_SIZE=1 C_PER_THREAD=4
#pointWise
ELTS_PER_THREAD=1 LOCAL_SIZE=32
#addChannelBiasesNCHW
XY_ELTS_PER_THREAD=1 NC_ELTS_PER_THREAD=1
#spatialRMSNorm
TILE_SIZE=32 APPLY_ELTS_PER_THREAD=1
"""

GTP_CONFIG = """logToStderr = false
logDir = {logdir}
logAllGTPCommunication = false
logSearchInfo = false
logSearchInfoForChosenMove = false
numSearchThreads = 1
maxVisits = 1
nnMaxBatchSize = 1
nnCacheSizePowerOfTwo = 10
numNNServerThreadsPerModel = 1
openclDeviceToUseThread0 = 0
openclUseFP16 = false
rules = chinese
allowResignation = false
resignThreshold = -0.99
resignConsecTurns = 3
ponderingEnabled = false
lagBuffer = 1.0
searchFactorAfterOnePass = 1.0
searchFactorAfterTwoPass = 1.0
searchFactorWhenWinning = 1.0
searchFactorWhenWinningThreshold = 0.95
"""

# White K10 has two liberties; B K9 starts a ladder towards Black's Q16 (towards D4 it would fail)
LADDER_19 = ["B Q16", "W D4", "B K11", "W K10", "B J10", "W Q4", "B L9", "W D16"]


def _cases() -> list[dict]:
    """The positions. Moves are GTP vertices with colour; `selfplay` extends them with the network's moves."""
    c = []

    def add(name, size, rules, komi, moves=(), black=(), white=(), handicap=0, ask=None, selfplay=0, seed=0):
        c.append({"name": name, "size": size, "rules": rules, "komi": komi, "moves": list(moves),
                  "black": list(black), "white": list(white), "handicap": handicap, "ask": ask,
                  "selfplay": selfplay, "seed": seed})

    add("empty 19 chinese", 19, "chinese", 7.5)
    add("empty 19 japanese", 19, "japanese", 6.5)
    add("empty 9 chinese komi 7", 9, "chinese", 7.0)
    add("empty 13 tromp-taylor", 13, "tromp-taylor", 7.5)
    add("opening 19 chinese", 19, "chinese", 7.5, selfplay=14, seed=1)
    add("handicap 4 chinese", 19, "chinese", 0.5, handicap=4)
    add("handicap 9 aga after moves", 19, "aga", 0.5, handicap=9, selfplay=8, seed=2)
    add("handicap 3 japanese", 19, "japanese", 0.5, handicap=3, selfplay=5, seed=3)
    add("middle game 19 chinese", 19, "chinese", 7.5, selfplay=120, seed=4)
    add("late middle game 19 japanese", 19, "japanese", 6.5, selfplay=200, seed=5)
    add("endgame 19 tromp-taylor", 19, "tromp-taylor", 7.5, selfplay=260, seed=6)
    add("middle game 13 aga", 13, "aga", 7.5, selfplay=70, seed=7)
    add("endgame 9 chinese", 9, "chinese", 7.0, selfplay=55, seed=8)
    add("9 japanese territory", 9, "japanese", 6.5, selfplay=40, seed=9)
    add("pass under chinese (friendly pass)", 19, "chinese", 7.5, selfplay=60, seed=10, moves=["B pass"])
    add("pass under japanese", 19, "japanese", 6.5, selfplay=60, seed=10, moves=["B pass"])
    add("two passes end the game 9", 9, "tromp-taylor", 7.5, selfplay=50, seed=11, moves=["B pass", "W pass"])
    add("ko just taken", 9, "chinese", 7.5,
        moves=["B D5", "W E5", "B C4", "W F4", "B D3", "W E3", "B E4", "W D4"])
    add("superko after passes", 9, "tromp-taylor", 7.5,
        moves=["B D5", "W E5", "B C4", "W F4", "B D3", "W E3", "B E4", "W D4", "B pass", "W pass"])
    add("ladder works", 19, "chinese", 7.5, moves=LADDER_19)
    add("ladder broken", 19, "chinese", 7.5, moves=LADDER_19[:-1] + ["W N13"])
    add("ladder previous boards", 19, "chinese", 7.5, moves=LADDER_19 + ["B K9", "W L10"])
    add("setup stones", 13, "chinese", 6.5, black=["D4", "K10", "D10"], white=["K4", "G7"], moves=["W C3"])
    add("same colour twice", 19, "chinese", 7.5, moves=["B D4", "B Q16", "W Q4", "W D16", "B C3"])
    add("other side to move", 19, "chinese", 7.5, selfplay=30, seed=12, ask="other")
    add("big komi 19", 19, "chinese", 27.5, selfplay=40, seed=13)
    add("negative komi 13", 13, "japanese", -9.5, selfplay=20, seed=14)
    return c


def board_from_case(case: dict) -> Board:
    """The tengen Board for a recorded case (setup, handicap, moves; `ask` = other side to move)."""
    size = case["size"]
    board = Board(size, rules=Rules.from_name(case["rules"], case["komi"]))
    black = [coords.from_gtp(v, size) for v in case.get("black", [])]
    white = [coords.from_gtp(v, size) for v in case.get("white", [])]
    black += [coords.from_gtp(v, size) for v in case.get("handicap_stones", [])]
    if black or white:
        board.setup(black=black, white=white)
        if case.get("handicap_stones"):
            board.to_play = WHITE
    for mv in case["moves"] + case.get("played", []):
        color, vertex = mv.split()
        board.play(BLACK if color == "B" else WHITE, coords.from_gtp(vertex, size))
    if case.get("to_play") is not None:
        board.to_play = BLACK if case["to_play"] == "b" else WHITE
    return board


class Gtp:
    def __init__(self, exe: Path, model: Path, config: Path):
        self.proc = subprocess.Popen([str(exe), "gtp", "-model", str(model), "-config", str(config)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)

    def ask(self, command: str) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"KataGo exited during {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip() or lines:
                lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(f"KataGo refused {command!r}: {text}")
        return text[1:].strip()

    def close(self) -> None:
        try:
            self.ask("quit")
        except RuntimeError:
            pass
        self.proc.wait(timeout=30)


def parse_raw_nn(text: str, size: int) -> dict:
    out: dict = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        parts = lines[i].split()
        if not parts:
            i += 1
            continue
        key = parts[0]
        if key in ("policy", "whiteOwnership"):
            grid = []
            for r in range(size):
                grid.append([None if t == "NAN" else float(t) for t in lines[i + 1 + r].split()])
            out[key] = grid
            i += size + 1
            continue
        if key == "policyPass":
            out[key] = float(parts[1])
        elif key != "symmetry" and len(parts) == 2:
            out[key] = float(parts[1])
        i += 1
    return out


def selfplay_moves(board: Board, n: int, seed: int, evaluator) -> list[str]:
    """Extend `board` by `n` moves chosen from tengen's policy (squared, sampled): realistic positions."""
    import numpy as np

    rng = np.random.default_rng(seed)
    moves = []
    for _ in range(n):
        ev = evaluator.evaluate([board])[0]
        p = ev.policy.astype(np.float64) ** 2
        total = p.sum()
        if total <= 0:
            break
        flat = (p / total).reshape(-1)
        idx = int(rng.choice(flat.size, p=flat))
        point = divmod(idx, board.width)
        color = board.to_play
        board.play(color, point)
        moves.append(f"{'B' if color == BLACK else 'W'} {coords.to_gtp(point, board.height)}")
    return moves


def prepare_katago(exe: Path, workdir: Path) -> Path:
    """Extract the AppImage (once) and install the default-parameter OpenCL tuning file."""
    runner = workdir / "squashfs-root" / "AppRun"
    if not runner.exists():
        subprocess.run([str(exe.resolve()), "--appimage-extract"], cwd=workdir, check=True,
                       stdout=subprocess.DEVNULL)
    return runner


def write_tune_file(gpu_name: str) -> None:
    tune_dir = Path.home() / ".katago" / "opencltuning"
    tune_dir.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9]", "", gpu_name)
    (tune_dir / f"tune13_gpu{name}_x19_y19_c384_m192_h32_mv15.txt").write_text(TUNE_PARAMS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--katago", type=Path, help="KataGo binary (default: extracted from the katrain wheel)")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/tengen-katago-golden"))
    ap.add_argument("--gpu-name", default="pthread-skylake-avx512-AMD EPYC",
                    help="OpenCL device name KataGo reports (for the tuning file name)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--policy-optimism", type=float, default=0.2,
                    help="kata-raw-nn's policy optimism (KataGo's GTP default, rootPolicyOptimism, is 0.2)")
    args = ap.parse_args()

    from tengen.eval.katago import KataGoEvaluator, default_model_path
    from tengen.eval.katago.weights import KATRAIN_REQUIREMENT

    args.workdir.mkdir(parents=True, exist_ok=True)
    exe = args.katago
    if exe is None:
        exe = args.workdir / "katago"
        if not exe.exists():
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", KATRAIN_REQUIREMENT, "-d",
                            str(args.workdir)], check=True)
            wheel = next(args.workdir.glob("katrain-*.whl"))
            with zipfile.ZipFile(wheel) as zf:
                exe.write_bytes(zf.read("katrain/KataGo/katago"))
            exe.chmod(0o755)
    runner = prepare_katago(exe, args.workdir)
    write_tune_file(args.gpu_name)
    config = args.workdir / "gtp.cfg"
    config.write_text(GTP_CONFIG.format(logdir=args.workdir / "logs"))
    model = default_model_path()
    tengen_eval = KataGoEvaluator(model)

    gtp = Gtp(runner, model, config)
    version = gtp.ask("version")
    cases = []
    for case in _cases():
        size = case["size"]
        gtp.ask(f"boardsize {size}")
        gtp.ask("clear_board")
        gtp.ask(f"kata-set-rules {case['rules']}")
        gtp.ask(f"komi {case['komi']}")
        if case["handicap"]:
            stones = gtp.ask(f"fixed_handicap {case['handicap']}").split()
            case["handicap_stones"] = stones
        if case["black"] or case["white"]:
            spec = " ".join([f"B {v}" for v in case["black"]] + [f"W {v}" for v in case["white"]])
            gtp.ask(f"set_position {spec}")
        board = board_from_case(dict(case, moves=[]))
        played = selfplay_moves(board, case["selfplay"], case["seed"], tengen_eval) if case["selfplay"] else []
        case["played"] = []
        case["moves"] = played + case["moves"]
        for mv in case["moves"]:
            color, vertex = mv.split()
            gtp.ask(f"play {color} {vertex}")
        board = board_from_case(case)
        ask = f"kata-raw-nn 0 {args.policy_optimism}"
        if case["ask"] == "other":
            other = "b" if board.to_play == WHITE else "w"
            case["to_play"] = other
            ask = f"kata-raw-nn {other} 0 {args.policy_optimism}"
        raw = parse_raw_nn(gtp.ask(ask), size)
        case["katago"] = raw
        case.pop("selfplay"), case.pop("seed"), case.pop("ask"), case.pop("played")
        cases.append(case)
        print(f"{case['name']:40s} whiteWin {raw['whiteWin']:.4f} whiteLead {raw['whiteLead']:+.2f}", flush=True)
    gtp.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"katago": version, "model": model.name, "symmetry": 0,
                                    "policy_optimism": args.policy_optimism, "cases": cases},
                                   separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} cases to {args.out} ({os.path.getsize(args.out) // 1024} KiB)")


if __name__ == "__main__":
    main()
