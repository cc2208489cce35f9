#!/usr/bin/env bash
# The analysis measured on a GPU, in one device call (about 6 minutes on an H200 with 16 cores):
#   1. bench/gpu_analysis.py: KataGo's and the local-move network's rows/s by batch size and whole-board
#      analysis seconds per position with its phases, CUDA against the same machine's CPU (last line
#      `gpu_seconds_per_position: X`);
#   2. bench/gpu_batch.py: `tengen batch --what endgame --turns last:60` over 200 KGS records on the GPU with
#      WORKERS worker processes, bounded to POSITIONS positions (last line `batch_seconds_per_position: X`).
# Prepare here (no GPU needed), then check what travels:
#   mkdir -p .carry && python -m tengen.eval.katago.transport ~/.cache/tengen/models/b10c384h6nbttflrs.bin.gz \
#       .carry/model-f16.bin.gz --compare      # the network with float16-rounded weights: 24 MB, not 38
#   python bench/gpu_analysis.py --export .carry/positions
#   python bench/gpu_batch.py --export .carry/records
#   python -m pip download --no-deps --only-binary=:all: -d .whl sgfmill==1.1.1
#   python tools/carry_size.py .carry/model-f16.bin.gz .carry/positions .carry/records .whl
# Run through the device tool with carry [".carry/model-f16.bin.gz", ".carry/positions", ".carry/records", ".whl"]:
#   bash scripts/device_gpu.sh $OUT [ANALYSIS_SECONDS=300] [BATCH_SECONDS=200] [WORKERS=8] [POSITIONS=400] [DEVICE=cuda]
# (DEVICE=cpu with few positions is the dry run on a machine without a GPU.)
# Results in OUT: machine.txt, gpu_analysis.out/.err, gpu_batch.out/.err. Paste each .out into
# docs/BENCHMARKS.md with bench/paste_output.py (the GPU named in machine.txt).
set -uo pipefail
out=${1:?usage: device_gpu.sh OUT_DIR [ANALYSIS_SECONDS] [BATCH_SECONDS] [WORKERS] [POSITIONS]}
analysis_s=${2:-300}
batch_s=${3:-200}
batch_workers=${4:-8}
positions=${5:-400}
batch_device=${6:-cuda}
mkdir -p "$out"
source "$(dirname "$0")/device_setup.sh"
machine_info "$out/machine.txt"
timeout -s INT "$analysis_s" python3 bench/gpu_analysis.py --positions .carry/positions --model "$katago_model" \
  > "$out/gpu_analysis.out" 2> "$out/gpu_analysis.err"
echo "gpu_analysis: exit $?"; tail -4 "$out/gpu_analysis.out"
timeout -s INT "$batch_s" python3 bench/gpu_batch.py --records .carry/records --model "$katago_model" --device "$batch_device" \
  --workers "$batch_workers" --positions "$positions" --out /tmp/gpu-batch > "$out/gpu_batch.out" 2> "$out/gpu_batch.err"
echo "gpu_batch: exit $?"; tail -3 "$out/gpu_batch.out"
