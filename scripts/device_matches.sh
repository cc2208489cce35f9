#!/usr/bin/env bash
# One GPU call that plays (or continues) a match bench: match_gnugo, dynamic_komi or pbn_play. The device has no
# GNU Go and reaches no registry, so its binary travels: prepare once here (Debian's /usr/games/gnugo and the two
# libraries it links beyond libc) with
#   mkdir -p .carry && tar -C / -chJf .carry/gnugo.tar.xz usr/games/gnugo \
#     $(ldd /usr/games/gnugo | awk '/libreadline|libtinfo/ {print substr($3, 2)}')
# and carry .carry/model.bin.gz (the KataGo network, for tengen's search) and .whl/ (sgfmill). Then:
#   bash scripts/device_matches.sh OUT_DIR SECONDS BENCH [bench args...]
# e.g. `bash scripts/device_matches.sh $OUT 540 match_gnugo --device cuda --threads 1 --parallel 15`.
# The bench runs under `timeout -s INT SECONDS` (a stopped match keeps every finished game); the match folders
# (TENGEN_CACHE/matches) come back as OUT_DIR/matches.tar and the log as OUT_DIR/BENCH.log. A .carry/matches.tar
# from an earlier call is unpacked first, so the next call continues the same matches. PYTHON (default python3)
# runs the bench: a match's identity holds the interpreter's path, so a match begun on another machine is
# continued (or shared out with --first, then --merge) only under a python at that same path.
set -uo pipefail
out=${1:?usage: device_matches.sh OUT_DIR SECONDS BENCH [args...]}
seconds=${2:?seconds}
bench=${3:?bench: match_gnugo, dynamic_komi or pbn_play}
shift 3
source "$(dirname "$0")/device_setup.sh"
if [ ! -x /usr/games/gnugo ] && [ -f .carry/gnugo.tar.xz ]; then
  mkdir -p /tmp/gnugo-root && tar -C /tmp/gnugo-root -xJf .carry/gnugo.tar.xz
  mkdir -p /usr/games
  libs=$(dirname "$(find /tmp/gnugo-root -name 'libtinfo.so*' | head -1)")
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$libs" /tmp/gnugo-root/usr/games/gnugo >/usr/games/gnugo
  chmod +x /usr/games/gnugo
fi
/usr/games/gnugo --version | head -1 || { echo "device_matches: GNU Go does not run here" >&2; exit 2; }
mkdir -p "$TENGEN_CACHE/matches"
[ -f .carry/matches.tar ] && tar -C "$TENGEN_CACHE/matches" -xf .carry/matches.tar
timeout -s INT "$seconds" "${PYTHON:-python3}" "bench/$bench.py" "$@" --out"$( [ "$bench" = dynamic_komi ] && echo -root)" \
  "$TENGEN_CACHE/matches/$bench" 2>&1 | tee "$out/$bench.log"
tar -C "$TENGEN_CACHE/matches" -cf "$out/matches.tar" .
echo "device_matches: $(tar -tf "$out/matches.tar" | grep -c '\.sgf$') games in matches.tar"
