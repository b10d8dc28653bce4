#!/usr/bin/env bash
# Re-create every ns-2 ground-truth number of docs/ns2-reference.md from scratch.
#
#   benchmarks/ns2/run_reference.sh [--json OUT] [--skip-long-basic2] [--keep]
#
# Installs ns-2 (Debian package ns2, 2.35) and GNU time if missing, runs the chapter's
# scripts (basic1.tcl, basic1-long.tcl, basic2.tcl) and analysis scripts (dup_counter.py,
# queuesize.py, countpeaks.py) in a scratch directory, prints the results and writes
# them as JSON if --json is given (--json benchmarks/ns2/reference.json refreshes the
# committed copy). Needs about 2 GB of free space in $TMPDIR for the 3000 s basic2 trace
# and takes about 2-3 minutes (about 1 minute with --skip-long-basic2).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
json=""
keep=0
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --json) json="$2"; shift 2 ;;
        --skip-long-basic2) extra+=(--skip-long-basic2); shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

need=()
command -v ns >/dev/null 2>&1 || need+=(ns2)
[ -x /usr/bin/time ] || need+=(time)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${need[*]}" >&2
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/ns2ref.XXXXXX")"
if [ "$keep" -eq 0 ]; then
    trap 'rm -rf "$work"' EXIT
else
    echo "scratch directory kept: $work" >&2
fi
if [ -n "$json" ]; then
    case "$json" in /*) ;; *) json="$PWD/$json" ;; esac
    extra+=(--json "$json")
fi

python3 "$here/reference.py" --workdir "$work" ${extra[@]+"${extra[@]}"}
