#!/usr/bin/env bash
# Whole-run benchmarks: the Facebook coflow trace in network mode under per-flow
# fair sharing and under a coflow priority policy (tcf, 8 classes), and as jobs on 50 servers
# x 4 slots with a 1 Gbps big switch. Prints wall time, events per second and peak memory
# (GNU time) for each.
#   bench/whole_run.sh [path/to/slotflow] [path/to/FB2010-1Hr-150-0.txt]
set -euo pipefail
bin=${1:-./build/slotflow}
trace=${2:-../shared/traces/FB2010-1Hr-150-0.txt}
if [ ! -f "$trace" ]; then
  echo "whole_run.sh: trace not found at $trace (see README: download FB2010-1Hr-150-0.txt)" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # name, args...
  local name=$1
  shift
  /usr/bin/time -f "%M" -o "$out/$name.mem" "$bin" run --trace "$trace" --quiet --out "$out/$name" "$@"
  python3 - "$out/$name/summary.json" "$out/$name.mem" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
mem_mb = int(open(sys.argv[2]).read().split()[-1]) / 1024
print(f"{sys.argv[3]:<34} wall {s['wall_s']:7.2f} s   events {s['events']:>8}   "
      f"events/s {s['events'] / s['wall_s']:>9.0f}   peak RSS {mem_mb:6.0f} MiB   "
      f"mean JCT {s['mean_jct_s']:9.3f} s   jobs {s['jobs']}")
PY
}
run "fb-network-fair" --mode network --network fair
run "fb-network-tcf" --mode network --network tcf
run "fb-jobs-50x4-greedy-fair" --servers 50 --slots 4 --nic 1Gbps --topology big-switch \
  --map-input-ratio 1
