#!/usr/bin/env bash
# The GPU run that trains the local-move network from the committed KataGo labels, in one device call: no
# KataGo network travels (labels/localnet/ holds its ownership of every labelled game).
#   1. the dataset rebuilt from labels/localnet/ and the finished games' records (.carry/games);
#   2. the solver-taught lessons: carried in .carry/lessons when built here, else built on the machine's cores;
#   3. training for TRAIN_MINUTES on CUDA (bf16), with SOLVED_SHARE of each batch from the lessons; the 6x64
#      trunk starts from the committed weights, other trunks from scratch.
# Prepare here (no GPU needed), then check what travels:
#   python -m tengen.train.localdata games --out .carry/games          # the listed records only (~14 MB)
#   python -m tengen.train.localdata.lesson_shards --shapes 20000 --cache-dir .carry && mv .carry/solver-lessons-v1 .carry/lessons
#   python -m pip download --no-deps --only-binary=:all: -d .whl sgfmill==1.1.1
#   python tools/carry_size.py .carry/games .carry/lessons .whl
# Run through the device tool with carry [".carry/games", ".carry/lessons", ".whl"]:
#   bash scripts/device_localnet.sh $OUT [TRAIN_MINUTES=6] [SOLVED_SHARE=0.2] [BLOCKS=6] [CHANNELS=64] [SHAPES=20000]
# BUILD_ARGS are the dataset-build options (default "--cutouts 2,3,4": each local sequence also on its cut-out
# diagram; BUILD_ARGS="" leaves the cut-outs out; BUILD_ARGS="--archives fox_pro_featurecat_10348.tar.xz" with a
# small SHAPES and TRAIN_MINUTES=1 is the dry run on a machine without a GPU).
# Results in OUT: localnet.pt (best weights), dataset.json, build.err, lessons.err, train.log. Bring them home,
# then measure on the CPU: bench/localnet_accuracy.py --weights, bench/growth_sweep.py --local-model,
# bench/localnet_solved.py.
set -euo pipefail
out=${1:?usage: device_localnet.sh OUT_DIR [TRAIN_MINUTES] [SOLVED_SHARE] [BLOCKS] [CHANNELS] [SHAPES]}
train_min=${2:-6}
share=${3:-0.2}
blocks=${4:-6}
channels=${5:-64}
shapes=${6:-20000}
mkdir -p "$out"
source "$(dirname "$0")/device_setup.sh"
cache=/tmp/localnet-data
python3 -m tengen.train.localdata build --games-dir .carry/games --labels labels/localnet --workers "$workers" \
  --shard-games 1000 --cache-dir "$cache" ${BUILD_ARGS---cutouts 2,3,4} 2>"$out/build.err" | tee "$out/dataset.json" | tail -3
if [ -d .carry/lessons ]; then
  mkdir -p "$cache" && cp -r .carry/lessons "$cache/solver-lessons-v1"
else
  python3 -m tengen.train.localdata.lesson_shards --shapes "$shapes" --workers "$workers" --cache-dir "$cache" \
    2>"$out/lessons.err" | tail -3
fi
init=()
[ "$blocks" = 6 ] && [ "$channels" = 64 ] && init=(--init models/localnet/localnet.pt)
python3 -m tengen.train.localnet train --device auto --batch 1024 --lr 3e-3 --steps 100000 --minutes "$train_min" \
  --eval-every 400 --patience 8 --blocks "$blocks" --channels "$channels" --solved-share "$share" "${init[@]}" \
  --cache-dir "$cache" --out "$out/localnet.pt" --fresh 2>&1 | tee "$out/train.log" | tail -5
ls -la "$out"
