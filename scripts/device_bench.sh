#!/usr/bin/env bash
# One device call that runs a CPU-bound bench on the machine's cores (its CPU, not its GPU): the long endgame
# benches re-run with `--workers`, e.g. issue 19's `bench/endgame_problems.py --chapter 6.3 --predictor kata`.
# Prepare here: the KataGo network as .carry/model.bin.gz, sgfmill in .whl/, and the shared data the bench
# reads under .carry/shared/ (the same layout as ../shared/data), e.g.
#   mkdir -p .carry/shared/problems && cp ../shared/data/problems/sanderland_tsumego.tar.xz .carry/shared/problems/
# then carry .carry/model.bin.gz, .carry/shared and .whl and run
#   bash scripts/device_bench.sh $OUT 540 endgame_problems --chapter 6.3 --predictor kata --workers 15
# The bench runs under `timeout -s INT SECONDS`; its output comes back as OUT/BENCH.out (stdout) and
# OUT/BENCH.err, with OUT/machine.txt (CPU model, cores, AVX-512 flags: figures are compared by host type).
set -uo pipefail
out=${1:?usage: device_bench.sh OUT_DIR SECONDS BENCH [args...]}
seconds=${2:?seconds}
bench=${3:?bench name (a file in bench/ without .py)}
shift 3
source "$(dirname "$0")/device_setup.sh"
[ -d .carry/shared ] && export TENGEN_SHARED_DATA=$PWD/.carry/shared
machine_info "$out/machine.txt"
timeout -s INT "$seconds" python3 "bench/$bench.py" "$@" > "$out/$bench.out" 2> "$out/$bench.err"
echo "device_bench: exit $?; $(wc -l < "$out/$bench.out") lines in $bench.out"
tail -3 "$out/$bench.out"
