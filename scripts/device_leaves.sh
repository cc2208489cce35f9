#!/usr/bin/env bash
# One GPU call for issue 21's leaf agreement: label the leaves of real analyses (the device's cores run the
# analyses, KataGo on the GPU labels them), then fine-tune the value network's ownership channel on them.
# Prepare here (the device has no shared data; the games travel as a small subset that leaves out the leaf
# bench's own positions):
#   B=$(python -c "import sys; sys.path.insert(0, 'bench'); from endgame_cost import late_positions; \
#       print(' '.join(n for n, *_ in late_positions(2, 1)))")
#   python -m tengen.train.valuedata.leaf_dataset --games 1500 --seed 7 --exclude $B --pack-subset .carry/leafgames
# and carry .carry/leafgames, .carry/model.bin.gz and .whl (not the whole .carry: 64 MiB per call). Then:
#   bash scripts/device_leaves.sh OUT_DIR BUILD_SECONDS STEPS
# OUT_DIR gets bvmlvn-leaves.pt (the tuned weights, with what was done in their metadata), leaves-tune.log,
# leaf_dataset.log and leaves.tar (the shards, to tune again here).
set -uo pipefail
out=${1:?usage: device_leaves.sh OUT_DIR BUILD_SECONDS STEPS}
build_s=${2:-360}
steps=${3:-3000}
source "$(dirname "$0")/device_setup.sh"
export TENGEN_SHARED_DATA=$PWD/.carry/leafgames
games=$(($(wc -l <"$TENGEN_SHARED_DATA/games/finished_19x19_scored_games.txt") - 1))
timeout -s INT "$build_s" python3 -m tengen.train.valuedata.leaf_dataset --games "$games" --seed 7 --workers "$workers" \
  --device cuda --chunk 20 --out /tmp/leaves 2>&1 | grep -v Warning | tee "$out/leaf_dataset.log"
python3 -m tengen.train.valuenet leaves --base models/valuenet/bvmlvn.pt --data /tmp/leaves --steps "$steps" \
  --batch 256 --device auto --out "$out/bvmlvn-leaves.pt" 2>&1 | tee "$out/leaves-tune.log"
tar -C /tmp/leaves -cf "$out/leaves.tar" .
ls -la "$out"
