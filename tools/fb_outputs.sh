#!/usr/bin/env bash
# Writes every output of the Facebook-trace runs (network mode under six network policies, jobs
# mode under six schedulers and systems) into OUT_DIR, one folder per run, with the decision
# log and utilisation.csv; summary.json without its wall time, command line and commit, which
# differ between any two runs. Two builds give the same outputs when `diff -r` finds nothing:
#   tools/fb_outputs.sh ./build/slotflow /tmp/before
#   tools/fb_outputs.sh ./build/slotflow /tmp/after && diff -r /tmp/before /tmp/after
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 SLOTFLOW_BINARY OUT_DIR" >&2
  exit 2
fi
bin=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
trace=${SLOTFLOW_FB_TRACE:-$here/../shared/traces/FB2010-1Hr-150-0.txt}
mkdir -p "$out"
run() {
  local name=$1
  shift
  "$bin" run --trace "$trace" --quiet --utilisation --out "$out/$name" --log "$out/$name/log.jsonl" "$@"
  python3 - "$out/$name/summary.json" <<'PY'
import json, sys
path = sys.argv[1]
s = json.load(open(path))
s.pop("command_line", None)
s.pop("slotflow", None)
s.get("summary", {}).pop("wall_s", None)
s.pop("wall_s", None)
json.dump(s, open(path, "w"), indent=1, sort_keys=True)
PY
}
for policy in fair tcf varys aalo las srpt; do
  run "network-$policy" --mode network --network "$policy" &
  [[ $(jobs -r | wc -l) -ge ${JOBS:-2} ]] && wait -n
done
for system in duopoly neat aalo; do
  run "jobs-$system" --system "$system" &
  [[ $(jobs -r | wc -l) -ge ${JOBS:-2} ]] && wait -n
done
for scheduler in greedy tcds jtpw; do
  run "jobs-$scheduler" --scheduler "$scheduler" &
  [[ $(jobs -r | wc -l) -ge ${JOBS:-2} ]] && wait -n
done
wait
for name in network-{fair,tcf,varys,aalo,las,srpt} jobs-{duopoly,neat,aalo,greedy,tcds,jtpw}; do
  [[ -s $out/$name/summary.json ]] || { echo "$0: the run $name failed" >&2; exit 1; }
done
