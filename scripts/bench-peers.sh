#!/usr/bin/env bash
# bench-peers.sh — batchq's examples/simulate beside HPCOpt's Rust sim-runner, whole processes.
#
#   scripts/bench-peers.sh [PEER_BINARY]        # default $BENCH_PEER, else ../shared/peers/hpcopt/sim-runner
#
# A hand-run measurement, not a test (issue 34). For each log present in the traces directory
# (KTH-SP2, SDSC-SP2, CTC-SP2 at 338 and 512 processors, SDSC-BLUE, then LANL-CM5, LLNL-Atlas and
# CEA-Curie) it runs rounds of whole processes, alternating, on the same trace and machine size:
#
#   est    batchq `simulate -policy easy -machine P LOG.swf.gz` (parse of the gzip SWF + EASY with
#          the user estimates + the text report)
#   peer   `sim-runner --input LOG.json --policy EASY_BACKFILL_BASELINE --capacity-cpus P`
#          (JSON in, EASY with each job's actual run time as its estimate, five metrics out)
#   exact  batchq as `est`, on a copy of the log whose field 9 (requested time) is field 4 (run
#          time), gzipped like the archive's: the work the peer does, through the same SWF parse
#          (simulate has no exact-run-time option; PERFECT++ exists but backfills shortest first)
#   plain  batchq as `exact`, on the same copy uncompressed, prepared once as the peer's JSON is:
#          the peer's work with its kind of input (a file read without decompression)
#
# and prints, per log, the median CPU seconds (user + sys, from wait4's rusage via
# scripts/rusage.go), the median peak RSS and the medians of the per-round ratios batchq / peer.
# Then, batchq alone: conservative and EASY++ against EASY on SDSC-BLUE (rounds of the three), and
# peak memory and CPU per job on synthetic Lublin–Feitelson logs (examples/synth, modal estimates,
# load 0.7 on 128 nodes) of BENCH_SYNTH_SIZES jobs, and the first size's log repeated to each other
# size (the same workload at every size), beside the peer on the same log.
# With BENCH_CALLGRIND=1 (and valgrind installed) it also counts the instructions of one process of
# each kind under callgrind (est, peer, exact, plain per log; EASY, conservative and EASY++ on
# SDSC-BLUE): counts move by well under 1% between runs and not with the machine's load, where the
# CPU seconds of a 0.03-second process move by a third; about 10 minutes more.
# The machine (CPU model, cores, load average before and after) is printed first and last.
#
# Environment: BENCH_PEER (the peer binary), BENCH_TRACES (default ../shared/traces),
# BENCH_ROUNDS (default 7, at least 5), BENCH_SYNTH_SIZES (default "10000 100000 1000000"; add
# 5000000 for the 5 M cell, about 20 s and 3 GB per batchq run), BENCH_CACHE (the peer's JSON, the
# exact-run-time logs and the synthetic logs; default ${TMPDIR:-/tmp}/batchq-bench-peers, reused
# across runs), BENCH_LOGS (a space-separated subset of the log names below).
# Needs go, python3 (the peer's converter, swf2hpcopt.py beside its binary), gzip, awk.
# Without the traces or the peer it says so and runs what it can (exit status 0).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
peer=${1:-${BENCH_PEER:-$root/../shared/peers/hpcopt/sim-runner}}
traces=${BENCH_TRACES:-$root/../shared/traces}
rounds=${BENCH_ROUNDS:-7}
synth_sizes=${BENCH_SYNTH_SIZES:-10000 100000 1000000}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/batchq-bench-peers}

# name  file  processors
logs_all="KTH-SP2 KTH-SP2-1996-2.1-cln.swf.gz 100
SDSC-SP2 SDSC-SP2-1998-4.2-cln.swf.gz 128
CTC-SP2/338 CTC-SP2-1996-3.1-cln.swf.gz 338
CTC-SP2/512 CTC-SP2-1996-3.1-cln.swf.gz 512
SDSC-BLUE SDSC-BLUE-2000-4.2-cln.swf.gz 1152
LANL-CM5 LANL-CM5-1994-4.1-cln.swf.gz 1024
LLNL-Atlas LLNL-Atlas-2006-2.1-cln.swf.gz 9216
CEA-Curie CEA-Curie-2011-2.1-cln.swf.gz 93312"

die() { echo "bench-peers: $*" >&2; exit 1; }
note() { echo "bench-peers: $*" >&2; }

((rounds >= 5)) || die "BENCH_ROUNDS=$rounds: at least 5 rounds"
for tool in go gzip awk; do
	command -v "$tool" >/dev/null || die "$tool not found"
done

machine() {
	local model
	model=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
	echo "- machine: ${model:-unknown CPU}, $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
	echo "- load average $1: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
}

mkdir -p "$cache"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

echo "bench-peers $(date -u '+%Y-%m-%d %H:%M UTC'), batchq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $rounds rounds:"
echo
machine "at start"

# Built once; the runs below are the binaries, never `go run`.
(cd "$root/examples" && go build -o "$bin/simulate" ./simulate && go build -o "$bin/synth" ./synth)
go build -o "$bin/rusage" "$root/scripts/rusage.go"

have_peer=1
if [[ ! -x $peer ]]; then
	note "no peer binary at $peer (pass it as the argument or BENCH_PEER): batchq's columns only"
	have_peer=0
elif ! command -v python3 >/dev/null || [[ ! -f $(dirname "$peer")/swf2hpcopt.py ]]; then
	note "python3 or $(dirname "$peer")/swf2hpcopt.py missing: cannot prepare the peer's input; batchq's columns only"
	have_peer=0
fi

((have_peer)) && echo "- peer: $("$peer" --version 2>/dev/null || basename "$peer")"

# measure CMD...: one whole process; prints "cpu_s rss_kib wall_s".
measure() { "$bin/rusage" "$@"; }

# median: the median of the numbers on standard input, one per line.
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# prepare LOG.swf.gz BASE: the per-log inputs, made once per file (CTC-SP2's two machine sizes
# share them; the instruction counts below reuse them) and kept in the cache across runs: the log
# with field 9 := field 4, plain (BASE.exact.swf) and gzipped (BASE.exact.swf.gz), and the peer's
# JSON (BASE.json), made with its own converter. The log is decompressed once, and only when one of
# them is missing or older than it; its job lines are counted on the plain copy (the same lines).
# Sets exact_of[BASE] (the gzipped copy's path), n_of[BASE] (the job lines), json_of[BASE] and
# pj_of[BASE] (the jobs the peer's JSON holds; 0 without the peer).
declare -A exact_of=() n_of=() json_of=() pj_of=()
prepare() {
	local log=$1 base=$2
	[[ -n ${exact_of[$base]:-} ]] && return
	local out="$cache/$base.exact.swf" json="$cache/$base.json" plain="$cache/$base.swf.tmp"
	local need_exact=0 need_json=0
	[[ ! -s $out.gz || ! -s $out || $log -nt $out.gz ]] && need_exact=1
	((have_peer)) && [[ ! -s $json || $log -nt $json ]] && need_json=1
	if ((need_exact || need_json)); then
		gzip -dcf "$log" >"$plain"
	fi
	if ((need_exact)); then
		awk '/^[;#]/ || NF < 18 {print; next} {$9 = $4; print}' "$plain" >"$out.tmp"
		gzip -6 -c "$out.tmp" >"$out.gz.tmp"
		mv "$out.tmp" "$out"
		mv "$out.gz.tmp" "$out.gz"
	fi
	if ((need_json)); then
		python3 "$(dirname "$peer")/swf2hpcopt.py" "$plain" "$json.tmp" 2>/dev/null
		mv "$json.tmp" "$json"
	fi
	rm -f "$plain"
	exact_of[$base]=$out.gz
	n_of[$base]=$(awk '$0 !~ /^[;#]/ && NF > 0' "$out" | wc -l)
	json_of[$base]="" pj_of[$base]=0
	if ((have_peer)); then
		json_of[$base]=$json
		pj_of[$base]=$(grep -o '"job_id"' "$json" | wc -l || true)
	fi
}

# rounds_of LABEL... -- then one command per label separated by "--": runs $rounds rounds of the
# commands in the order given and leaves "label cpu rss wall" lines in $bin/runs.
run_rounds() {
	local -a labels=() cmds=()
	while [[ $1 != -- ]]; do labels+=("$1"); shift; done
	shift
	local cmd=""
	for a in "$@"; do
		if [[ $a == -- ]]; then cmds+=("$cmd"); cmd=""; else cmd+="${cmd:+ }$(printf '%q' "$a")"; fi
	done
	cmds+=("$cmd")
	((${#labels[@]} == ${#cmds[@]})) || die "run_rounds: ${#labels[@]} labels, ${#cmds[@]} commands"
	: >"$bin/runs"
	local r i
	for ((r = 1; r <= rounds; r++)); do
		for i in "${!labels[@]}"; do
			echo "${labels[i]} $r $(eval "measure ${cmds[i]}")" >>"$bin/runs"
		done
	done
}

# col LABEL FIELD: a column of $bin/runs (2 round, 3 cpu, 4 rss, 5 wall).
col() { awk -v l="$1" -v f="$2" '$1 == l {print $f}' "$bin/runs"; }
# ratio A B FIELD: the per-round ratios A / B.
ratio() { paste <(col "$1" "$3") <(col "$2" "$3") | awk '{print ($2 > 0 ? $1 / $2 : "nan")}'; }

# simulated ARGS...: the jobs batchq simulates (its -json report's jobs_simulated).
simulated() { "$bin/simulate" -json "$@" | awk -F'[:,]' '/"jobs_simulated"/ {gsub(/ /, "", $2); print $2}'; }

# Figures for the summary against issue 34's goals.
# The issue's cells are its five logs; the others are given beside them.
goal_est=() goal_exact=() goal_plain=() goal_all=() goal_kb=() goal_synth=() goal_cons="" goal_pp=""
goal_iest=() goal_iexact=() goal_iplain=() goal_icons="" goal_ipp=""
issue_cells=" KTH-SP2 SDSC-SP2 CTC-SP2/338 CTC-SP2/512 SDSC-BLUE "

# span NUMBER...: "lo–hi" (format %.2f), or one value, or "–".
span() {
	(($# > 0)) || { echo "–"; return; }
	printf '%s\n' "$@" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {a = sprintf("%.2f", lo); b = sprintf("%.2f", hi); print (a == b ? a : a "–" b)}'
}

# join_items ITEM...: the items separated by "; ", or "–".
join_items() { local out="" x; for x in "$@"; do out+="${out:+; }$x"; done; echo "${out:-–}"; }

# ---- batchq vs the peer ----
if [[ ! -d $traces ]]; then
	note "no traces at $traces (BENCH_TRACES): the per-log tables are skipped"
else
	echo
	echo "### EASY, whole process, median of $rounds rounds (est, peer, exact, plain alternating); CPU = user + sys; ratios: medians of the per-round ratios"
	echo
	echo "| log | job lines | jobs batchq / peer | P | peer CPU s | est CPU s | est / peer | exact CPU s | exact / peer | plain CPU s | plain / peer | peer RSS MiB | est RSS MiB | RSS est / peer | est KB per job line |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	while read -r name file procs; do
		if [[ -n ${BENCH_LOGS:-} && " $BENCH_LOGS " != *" $name "* ]]; then continue; fi
		log="$traces/$file"
		[[ -f $log ]] || { note "$name: $log absent, skipped"; continue; }
		base=${file%.swf.gz}
		prepare "$log" "$base"
		n=${n_of[$base]} exact=${exact_of[$base]} json=${json_of[$base]} pj=${pj_of[$base]}
		sim=$(simulated -policy easy -machine "$procs" "$log")
		if ((have_peer && pj == 0)); then
			note "$name: the peer's converter keeps no job of $log (it drops lines without a wait time): batchq's columns only"
		fi
		if ((pj > 0)); then
			run_rounds est peer exact plain -- \
				"$bin/simulate" -policy easy -machine "$procs" "$log" -- \
				"$peer" --input "$json" --policy EASY_BACKFILL_BASELINE --capacity-cpus "$procs" --output /dev/null -- \
				"$bin/simulate" -policy easy -machine "$procs" "$exact" -- \
				"$bin/simulate" -policy easy -machine "$procs" "${exact%.gz}"
		else
			run_rounds est exact plain -- \
				"$bin/simulate" -policy easy -machine "$procs" "$log" -- \
				"$bin/simulate" -policy easy -machine "$procs" "$exact" -- \
				"$bin/simulate" -policy easy -machine "$procs" "${exact%.gz}"
		fi
		est_cpu=$(col est 3 | median)
		exact_cpu=$(col exact 3 | median)
		plain_cpu=$(col plain 3 | median)
		est_rss=$(col est 4 | median)
		goal_kb+=("$(awk -v k="$est_rss" -v n="$n" 'BEGIN {print k * 1.024 / n}')")
		if ((pj > 0)); then
			peer_cpu=$(col peer 3 | median)
			peer_rss=$(col peer 4 | median)
			r_est=$(ratio est peer 3 | median)
			r_exact=$(ratio exact peer 3 | median)
			r_plain=$(ratio plain peer 3 | median)
			if [[ $issue_cells == *" $name "* ]]; then
				goal_est+=("$r_est") goal_exact+=("$r_exact") goal_plain+=("$r_plain")
			else
				goal_all+=("$name est $(printf '%.2f' "$r_est"), exact $(printf '%.2f' "$r_exact") ($(printf '%.2f' "$r_plain"))")
			fi
			r_rss=$(ratio est peer 4 | median)
			printf '| %s | %d | %d / %d | %d | %.3f | %.3f | %.2f | %.3f | %.2f | %.3f | %.2f | %.1f | %.1f | %.2f | %.2f |\n' \
				"$name" "$n" "$sim" "$pj" "$procs" "$peer_cpu" "$est_cpu" "$r_est" "$exact_cpu" "$r_exact" "$plain_cpu" "$r_plain" \
				"$(awk -v k="$peer_rss" 'BEGIN {print k / 1024}')" "$(awk -v k="$est_rss" 'BEGIN {print k / 1024}')" \
				"$r_rss" "$(awk -v k="$est_rss" -v n="$n" 'BEGIN {print k * 1.024 / n}')"
		else
			printf '| %s | %d | %d / – | %d | – | %.3f | – | %.3f | – | %.3f | – | – | %.1f | – | %.2f |\n' \
				"$name" "$n" "$sim" "$procs" "$est_cpu" "$exact_cpu" "$plain_cpu" \
				"$(awk -v k="$est_rss" 'BEGIN {print k / 1024}')" "$(awk -v k="$est_rss" -v n="$n" 'BEGIN {print k * 1.024 / n}')"
		fi
	done <<<"$logs_all"

	blue="$traces/SDSC-BLUE-2000-4.2-cln.swf.gz"
	if [[ -f $blue && (-z ${BENCH_LOGS:-} || " $BENCH_LOGS " == *" SDSC-BLUE "*) ]]; then
		echo
		echo "### batchq alone on SDSC-BLUE (1152 processors), median of $rounds rounds (EASY, conservative, EASY++ alternating)"
		echo
		run_rounds easy cons easypp -- \
			"$bin/simulate" -policy easy "$blue" -- \
			"$bin/simulate" -policy conservative "$blue" -- \
			"$bin/simulate" -policy easy++ "$blue"
		echo "| policy | CPU s | / EASY (per round) | RSS MiB |"
		echo "|---|---:|---:|---:|"
		goal_cons=$(printf '%.2f' "$(ratio cons easy 3 | median)")
		goal_pp=$(printf '%.2f' "$(ratio easypp easy 3 | median)")
		for p in easy:EASY cons:conservative easypp:EASY++; do
			printf '| %s | %.3f | %.2f | %.1f |\n' "${p#*:}" "$(col "${p%%:*}" 3 | median)" \
				"$(ratio "${p%%:*}" easy 3 | median)" "$(col "${p%%:*}" 4 | median | awk '{print $1 / 1024}')"
		done
	fi
fi

# ---- instructions under callgrind (BENCH_CALLGRIND=1) ----
# instr CMD...: the instructions one whole process executes (callgrind's "Collected"), "nan" if it
# fails. GODEBUG=asyncpreemptoff=1: the Go runtime's preemption signals trip callgrind; it changes
# no work. GOMAXPROCS=1 and GOGC=off: valgrind runs one thread at a time on a clock some 50 times
# slower, and the runtime's time-paced work (idle threads spinning for work with two Ps, the
# collector's background workers) then made the counts vary from run to run: EASY++ on SDSC-BLUE
# 2.2 G and 9.8 G with two Ps; with one P and the collector on, SDSC-BLUE's exact run 1,482 M and
# 3,829 M. So batchq's counts leave out the collector's work (two collections on SDSC-BLUE), which
# its CPU seconds above include. The peer (Rust, no collector) ignores both. cpu.rdtscp=off: on AMD
# CPUs the runtime reads the clock with RDTSCP, which valgrind 3.19 does not decode (the process dies
# of SIGILL, now and then: LANL-CM5's plain run on 2026-12-01); RDTSC in its place changes no work.
instr() {
	if GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file="$bin/cg.out" "$@" >/dev/null 2>"$bin/cg.err"; then
		awk '/Collected :/ {n = $NF} END {print (n == "" ? "nan" : n)}' "$bin/cg.err"
	else
		note "callgrind failed on: $*"
		echo nan
	fi
	rm -f "$bin/cg.out"
}
# mi N: N instructions in millions, one decimal.
mi() { awk -v n="$1" 'BEGIN {printf (n == "nan" ? "–" : "%.1f M"), n / 1e6}'; }
# iratio A B: A / B, two decimals ("nan" when either is).
iratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "nan" || b == "nan" || b == 0) print "nan"; else printf "%.2f", a / b}'; }

if [[ ${BENCH_CALLGRIND:-0} == 1 && -d $traces ]]; then
	if ! command -v valgrind >/dev/null; then
		note "BENCH_CALLGRIND=1 but no valgrind (apt install valgrind): the instruction counts are skipped"
	else
		echo
		echo "### Instructions (callgrind), one process of each kind; est, exact, plain and the peer as in the first table; batchq with GOMAXPROCS=1 GOGC=off"
		echo
		echo "| log | P | peer | est | est / peer | exact | exact / peer | plain | plain / peer |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		while read -r name file procs; do
			if [[ -n ${BENCH_LOGS:-} && " $BENCH_LOGS " != *" $name "* ]]; then continue; fi
			log="$traces/$file"
			[[ -f $log ]] || continue
			base=${file%.swf.gz}
			prepare "$log" "$base" # (done for the first table: nothing is made again)
			exact=${exact_of[$base]} json=${json_of[$base]}
			p=nan
			if ((${pj_of[$base]} > 0)); then
				p=$(instr "$peer" --input "$json" --policy EASY_BACKFILL_BASELINE --capacity-cpus "$procs" --output /dev/null)
			fi
			e=$(instr "$bin/simulate" -policy easy -machine "$procs" "$log")
			x=$(instr "$bin/simulate" -policy easy -machine "$procs" "$exact")
			l=$(instr "$bin/simulate" -policy easy -machine "$procs" "${exact%.gz}")
			re=$(iratio "$e" "$p") rx=$(iratio "$x" "$p") rl=$(iratio "$l" "$p")
			if [[ $issue_cells == *" $name "* && $re != nan ]]; then
				goal_iest+=("$re") goal_iexact+=("$rx") goal_iplain+=("$rl")
			fi
			echo "| $name | $procs | $(mi "$p") | $(mi "$e") | ${re/nan/–} | $(mi "$x") | ${rx/nan/–} | $(mi "$l") | ${rl/nan/–} |"
		done <<<"$logs_all"
		if [[ -f $blue && (-z ${BENCH_LOGS:-} || " $BENCH_LOGS " == *" SDSC-BLUE "*) ]]; then
			e=$(instr "$bin/simulate" -policy easy "$blue")
			c=$(instr "$bin/simulate" -policy conservative "$blue")
			q=$(instr "$bin/simulate" -policy easy++ "$blue")
			goal_icons=$(iratio "$c" "$e") goal_ipp=$(iratio "$q" "$e")
			echo
			echo "| SDSC-BLUE (1152) | instructions | / EASY |"
			echo "|---|---:|---:|"
			echo "| EASY | $(mi "$e") | 1.00 |"
			echo "| conservative | $(mi "$c") | ${goal_icons/nan/–} |"
			echo "| EASY++ | $(mi "$q") | ${goal_ipp/nan/–} |"
		fi
	fi
fi

# ---- memory and CPU per job on synthetic logs ----
# synth_row LABEL LOG N prints one row. The mean wait says how long the queue is: a longer
# synthetic log is not the shorter one's workload (its waits grow), so CPU per job there mixes
# the engine's cost with the workload's; the repeated rows hold the workload fixed.
synth_row() {
	local label=$1 log=$2 n=$3 json cpu rss wait row pc pk
	if ((have_peer)); then
		json="$log.json"
		if [[ ! -s $json || $log -nt $json ]]; then
			# The generator leaves field 3 (wait) at -1, a line the converter drops: 0 instead.
			awk '/^[;#]/ || NF < 18 {print; next} {$3 = 0; print}' "$log" >"$log.peer"
			python3 "$(dirname "$peer")/swf2hpcopt.py" "$log.peer" "$json.tmp" 2>/dev/null
			rm -f "$log.peer"
			mv "$json.tmp" "$json"
		fi
		run_rounds est peer -- \
			"$bin/simulate" -policy easy "$log" -- \
			"$peer" --input "$json" --policy EASY_BACKFILL_BASELINE --capacity-cpus 128 --output /dev/null
	else
		run_rounds est -- "$bin/simulate" -policy easy "$log"
	fi
	cpu=$(col est 3 | median)
	rss=$(col est 4 | median)
	wait=$("$bin/simulate" -json -policy easy "$log" | awk -F'[:,]' '/"mean_wait_s"/ {gsub(/ /, "", $2); printf "%.0f", $2}')
	row=$(awk -v l="$label" -v w="$wait" -v n="$n" -v c="$cpu" -v k="$rss" 'BEGIN {printf "| %s | %d | %d | %.3f | %.2f | %.1f | %.3f", l, n, w, c, c * 1e6 / n, k / 1024, k * 1.024 / n}')
	if ((have_peer)); then
		pc=$(col peer 3 | median)
		pk=$(col peer 4 | median)
		row+=$(awk -v n="$n" -v c="$pc" -v k="$pk" 'BEGIN {printf " | %.3f | %.1f | %.3f |", c, k / 1024, k * 1.024 / n}')
	else
		row+=" | – | – | – |"
	fi
	echo "$row"
	goal_synth+=("$(awk -v l="$label" -v n="$n" -v c="$cpu" -v k="$rss" 'BEGIN {printf "%s %s jobs %.2f µs, %.3f KB", l, (n >= 1e6 ? n / 1e6 " M" : n / 1e3 " k"), c * 1e6 / n, k * 1.024 / n}')")
}

echo
echo "### EASY per job on synthetic logs (examples/synth -load 0.7 -estimates -seed 1, 128 processors), median of 5 rounds"
echo
echo "Generated: a log of that many jobs. Repeated: the first size's log, copied end to end (each copy 3,000,000 s"
echo "after the last, when the queue has drained), so every size has the same workload."
echo
echo "| log | jobs | mean wait s | batchq CPU s | batchq µs per job | batchq RSS MiB | batchq KB per job | peer CPU s | peer RSS MiB | peer KB per job |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
saved_rounds=$rounds
rounds=5
first=""
for n in $synth_sizes; do
	log="$cache/synth-$n.swf"
	[[ -s $log ]] || { "$bin/synth" -jobs "$n" -load 0.7 -estimates -seed 1 -out "$log.tmp" >/dev/null && mv "$log.tmp" "$log"; }
	synth_row generated "$log" "$n"
	if [[ -z $first ]]; then
		first=$n
	elif ((n % first == 0)); then
		rep="$cache/synth-$first-x$((n / first)).swf"
		if [[ ! -s $rep || "$cache/synth-$first.swf" -nt $rep ]]; then
			awk -v copies=$((n / first)) -v base="$first" '
				/^;/ { if ($2 == "MaxJobs:" || $2 == "MaxRecords:") $3 = $3 * copies; print; next }
				NF >= 18 { line[k++] = $0 }
				END {
					for (c = 0; c < copies; c++)
						for (i = 0; i < k; i++) {
							split(line[i], f, " ")
							# %.0f: mawk prints a number past 2^31 as 3e+09.
							out = sprintf("%.0f %.0f", c * base + i + 1, f[2] + c * 3000000)
							for (j = 3; j <= 18; j++) out = out " " f[j]
							print out
						}
				}' "$cache/synth-$first.swf" >"$rep.tmp"
			mv "$rep.tmp" "$rep"
		fi
		synth_row repeated "$rep" "$n"
	fi
done
rounds=$saved_rounds

echo
echo "### issue 34's goals beside this run"
echo
echo "| goal | target | this run |"
echo "|---|---|---|"
echo "| EASY with user estimates, whole process, gzip SWF parse included: batchq / peer CPU (the issue's five cells) | ≤ 0.5 | $(span "${goal_est[@]}") |"
echo "| EASY with exact run times (the peer's work): batchq / peer CPU, gzip (plain) SWF (the issue's five cells) | ≤ 0.4 | $(span "${goal_exact[@]}") ($(span "${goal_plain[@]}")) |"
echo "| the same on the other logs | ≤ 0.5, ≤ 0.4 | $(join_items "${goal_all[@]}") |"
echo "| peak memory per job: the logs (per job line); synthetic (CPU and memory per job) | ≤ 0.15 KB, flat from 10 k to 5 M | $(span "${goal_kb[@]}") KB; $(join_items "${goal_synth[@]}") |"
echo "| conservative / EASY CPU on SDSC-BLUE | ≤ 3 | ${goal_cons:-–} |"
echo "| EASY++ / EASY CPU on SDSC-BLUE | ≤ 1.3 | ${goal_pp:-–} |"
if ((${#goal_iest[@]} > 0)) || [[ -n $goal_icons ]]; then
	echo "| the same by instructions (callgrind): est / peer; exact (plain) / peer; conservative, EASY++ / EASY | ≤ 0.5; ≤ 0.4; ≤ 3, ≤ 1.3 | $(span "${goal_iest[@]}"); $(span "${goal_iexact[@]}") ($(span "${goal_iplain[@]}")); ${goal_icons:-–}, ${goal_ipp:-–} |"
fi

echo
machine "at end"
