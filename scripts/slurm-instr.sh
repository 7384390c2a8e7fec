#!/usr/bin/env bash
# slurm-instr.sh — issue 33's ratio by instructions: the Slurm policy's run on SDSC-BLUE
# (BenchmarkBlueSlurm) over plain EASY's on the same jobs (BenchmarkBlueEASY), under callgrind.
#
#   BATCHQ_TRACES=/work/shared/traces scripts/slurm-instr.sh     # SLURM_INSTR_ROUNDS=N (default 1)
#
# A hand-run measurement, not a test. It builds sched/slurm's test binary and runs each benchmark
# once (-test.benchtime 1x) under callgrind with GOMAXPROCS=1 GOGC=off (no collection, no second
# processor), GODEBUG=asyncpreemptoff=1 (no preemption signals) and cpu.rdtscp=off (valgrind
# 3.19 does not know RDTSCP). The count is the instructions between the benchmark's two calls of
# cpuSeconds: one run (Policy.Run with slurm.New, or sched.Run) and b.Loop's few, the trace's parse
# left out. callgrind's inclusive figure of sched.Run is not used: goroutine switches and stack
# moves in the parse and in EASY's run confuse its call stack (it gave sched.Run 1,300 M, or 335 M
# with --toggle-collect, where the run is some 700 M); a dump at a function's entry needs no stack.
# Counts move by well under 0.1% between rounds; several rounds print each.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BATCHQ_TRACES:?set BATCHQ_TRACES to the traces directory}"
export BATCHQ_TRACES
rounds=${SLURM_INSTR_ROUNDS:-1}
command -v valgrind >/dev/null || { echo "slurm-instr.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd sched/slurm && go test -c -o "$tmp/slurm.test")
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' (modified)'), $(go version | cut -d' ' -f3), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"

# count BENCH: the instructions of the dump that ends at cpuSeconds' second call.
count() {
	rm -f "$tmp"/cg.out*
	(cd sched/slurm && GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off \
		valgrind --tool=callgrind --dump-instr=no \
		--dump-before='github.com/batchq/batchq/sched/slurm_test.cpuSeconds' \
		--callgrind-out-file="$tmp/cg.out" "$tmp/slurm.test" -test.run '^$' \
		-test.bench "^BenchmarkBlue$1\$" -test.benchtime 1x >"$tmp/log" 2>&1) ||
		{ cat "$tmp/log" >&2; exit 1; }
	# Dump 1 ends at the first call (start-up and parse), dump 2 at the second (the run).
	awk '/^summary:/ { print $2 }' "$tmp/cg.out.2"
}

for ((r = 1; r <= rounds; r++)); do
	easy=$(count EASY)
	slurm=$(count Slurm)
	awk -v r="$r" -v e="$easy" -v s="$slurm" 'BEGIN {
		printf "round %d: EASY %.1f M, Slurm policy %.1f M, ratio %.3f\n", r, e / 1e6, s / 1e6, s / e
	}'
done
