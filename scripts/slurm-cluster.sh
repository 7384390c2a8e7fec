#!/bin/bash
# slurm-cluster.sh — a Slurm cluster of one node (or a few) on loopback, in a private directory.
#
#   scripts/slurm-cluster.sh install        # Debian/Ubuntu packages (as root)
#   scripts/slurm-cluster.sh up   DIR       # start munged, mariadbd, slurmdbd, slurmctld, slurmd
#   eval "$(scripts/slurm-cluster.sh env DIR)"   # SLURM_CONF for sbatch, squeue, sacct, ...
#   scripts/slurm-cluster.sh down DIR       # stop exactly the daemons `up` started (by pid)
#
# Everything lives in DIR: slurm.conf (cluster "batchq", SlurmctldHost=localhost, node
# "localhost" at 127.0.0.1 with CPUS CPUs — more than the machine has is fine, slurmd runs with
# config_overrides — and GPUS GPUs, and two partitions, `short` (MaxTime=2 minutes, the
# default) and `long`), gres.conf (the GPUs, see gpu_devices),
# a munge key and socket, a MariaDB data directory (and temporary directory) served on 127.0.0.1
# (not the system's),
# slurmdbd for sacct, the jobcomp/filetxt log DIR/jobcomp.txt, the logs and the pid files
# DIR/pids/*.pid. CPUS is $SLURM_CLUSTER_CPUS (default 8), GPUS $SLURM_CLUSTER_GPUS (default
# 4; jobs ask for them with --gres=gpu:N or --gpus=N, and sacct records gres/gpu in their TRES).
# $SLURM_CLUSTER_NODES (default 1, at most 16) nodes: with more than one they are n1..nN, each with
# CPUS CPUs and GPUS GPUs, each its own slurmd on this host (slurmd -N nK) with its own NodeHostname
# (Slurm takes a NodeHostname once unless built with --enable-multiple-slurmd) and port
# (PORT+4...), all at 127.0.0.1; the partitions cover them all (n[1-N]; PartitionName lines of
# SLURM_CLUSTER_CONF name them so).
# $SLURM_CLUSTER_CONF may name a file of slurm.conf lines (priority weights, SchedulerParameters,
# partitions, ...): each key it sets replaces the script's lines of that key (its PartitionName
# lines replace `short` and `long`), and its lines are appended. DIR and the munge socket's
# directory are open to other local users (mode 711; the key stays 600), so that jobs may be
# submitted as other users (runuser -u USER -- sbatch ...) with the same SLURM_CONF.
# $SLURM_CLUSTER_SACCTMGR may name a file of sacctmgr commands, one a line ("add account chem
# fairshare=30", "add user bob account=chem"; '#' comments), run with -i once the cluster is in
# slurmdbd and before slurmctld starts: slurmctld then starts with the associations, and its first
# PriorityCalcPeriod run computes their fair-share factors (an association added later has a factor
# of 0 until the next run, up to a period later).
# Every daemon listens on 127.0.0.1 only, on ports PORT..PORT+3, and with several nodes their
# slurmd on PORT+4..PORT+3+N (PORT from $SLURM_CLUSTER_PORT, else a free block chosen at
# random). `up` waits (bounded) until each daemon answers and fails naming the one that did not,
# with the tail of its log, after stopping the daemons it started (their logs stay in DIR).
# $SLURM_CLUSTER_OWNER may name the pid of the process the cluster belongs to (a test binary):
# `up` then leaves a watchdog (pid file DIR/pids/watchdog.pid, log DIR/log/watchdog.log) that
# runs `down` once that process is gone — killed, timed out or crashed before its own `down` —
# and once `up` itself has ended, so that no daemon outlives its owner (or up) by more than a
# second plus the time `down` takes (TestWatchdog: at most 60 s; 11.5 s on Debian 12's Slurm and
# MariaDB, one node). `down` stops the watchdog first. Without it the cluster
# stays up until `down`, as for a cluster started by hand (whose `up` ends at once).
#
# Needs root (slurmd launches jobs as their user; munged and mariadbd run as root with
# --force/--user=root). Tested with Debian 12's Slurm 22.05.8, MUNGE 0.5.15, MariaDB 10.11.
set -euo pipefail

CPUS=${SLURM_CLUSTER_CPUS:-8}
GPUS=${SLURM_CLUSTER_GPUS:-4}
NODES=${SLURM_CLUSTER_NODES:-1}
CLUSTER=batchq
DBPASS=batchq-slurmdbd

die() { echo "slurm-cluster: $*" >&2; exit 1; }

usage() {
	sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

cmd_install() {
	# The line for CI (.ci/run) too.
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		slurmctld slurmd slurmdbd slurm-client munge mariadb-server
}

# port_free P: nothing listens on 127.0.0.1:P, and no socket in any state (an outgoing
# connection's local port, TIME_WAIT) holds P, which would make the daemon's bind fail.
port_free() {
	! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null || return 1
	local hex
	hex=$(printf ':%04X' "$1")
	! awk -v h="$hex" 'NR > 1 && substr($2, length($2) - 4) == h {found = 1} END {exit !found}' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

pick_port() {
	if [[ -n ${SLURM_CLUSTER_PORT:-} ]]; then
		echo "$SLURM_CLUSTER_PORT"
		return
	fi
	local p i try
	for try in $(seq 1 50); do
		p=$((20000 + (RANDOM % 600) * 20)) # below Linux's ephemeral ports (32768 on)
		for ((i = 0; i < 4 + (NODES > 1 ? NODES : 0); i++)); do port_free $((p + i)) || continue 2; done
		echo "$p"
		return
	done
	die "no free block of $((4 + (NODES > 1 ? NODES : 0))) ports found; set SLURM_CLUSTER_PORT"
}

# wait_for WHAT SECONDS LOG CMD...: run CMD until it succeeds, at most SECONDS seconds.
wait_for() {
	local what=$1 secs=$2 log=$3
	shift 3
	local deadline=$((SECONDS + secs))
	until timeout 10 "$@" >/dev/null 2>&1; do
		if ((SECONDS >= deadline)); then
			echo "slurm-cluster: $what did not come up within ${secs}s; last lines of $log:" >&2
			tail -n 20 "$log" >&2 || true
			exit 1
		fi
		sleep 0.5
	done
}

# start NAME CMD...: start a daemon in the foreground of its own session, record its pid.
start() {
	local name=$1
	shift
	setsid "$@" >"$D/log/$name.out" 2>&1 </dev/null &
	echo $! >"$D/pids/$name.pid"
}

# proc_start PID: the start time of process PID (/proc/PID/stat field 22, clock ticks after
# boot), which tells it apart from a later process given the same pid; nothing when there is
# no such process or it has exited and is not yet reaped (a zombie).
proc_start() {
	local stat f
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	# The fields after the command name, which may itself hold spaces and parentheses.
	read -ra f <<<"${stat##*) }"
	[[ ${f[0]} == [ZX] ]] || echo "${f[19]}"
}

# start_watchdog OWNER: the watchdog of $SLURM_CLUSTER_OWNER (see the top of the file), a
# process of its own session that holds none of the caller's descriptors (a caller that
# reads `up`'s output to its end would otherwise wait for it).
start_watchdog() {
	local owner=$1 ostart self
	[[ $owner =~ ^[1-9][0-9]*$ ]] || die "SLURM_CLUSTER_OWNER ($owner) must be a pid"
	ostart=$(proc_start "$owner")
	[[ -n $ostart ]] || die "SLURM_CLUSTER_OWNER ($owner): no such process"
	self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	setsid "$self" watch "$D" "$owner" "$ostart" "$$" "$(proc_start $$)" >>"$D/log/watchdog.log" 2>&1 </dev/null &
	echo $! >"$D/pids/watchdog.pid"
}

# cmd_watch OWNER OWNER_START UP UP_START: the watchdog's loop. Once the owner is gone it
# waits for `up` (bounded by up's own waits) to end, so that every daemon up starts has its
# pid file, then stops them all. It ends by itself when its pid file no longer names it.
cmd_watch() {
	local owner=$1 ostart=$2 up=$3 upstart=$4
	mine() { [[ $(cat "$D/pids/watchdog.pid" 2>/dev/null) == "$$" ]]; }
	echo "slurm-cluster: watchdog $$ of $D: owner $owner, up $up, from $(date -u +%FT%TZ)"
	# up writes the pid file just after starting this process, which may look first: until
	# then the file is absent, empty (being written) or an earlier up's. Wait while up runs.
	until mine || [[ $(proc_start "$up") != "$upstart" ]]; do sleep 0.1; done
	while [[ $(proc_start "$owner") == "$ostart" ]]; do
		mine || exit 0
		sleep 1
	done
	echo "slurm-cluster: owner $owner gone at $(date -u +%FT%TZ)"
	while [[ $(proc_start "$up") == "$upstart" ]]; do sleep 0.5; done
	mine || exit 0
	cmd_down
}

alive() { [[ -f $D/pids/$1.pid ]] && kill -0 "$(cat "$D/pids/$1.pid")" 2>/dev/null; }

# gpu_devices makes the GPUS "devices" DIR/dev/gpu0.. for gres.conf. Slurm 22.05's gres/gpu
# drops a GPU that gres.conf gives no File= for ("Removing file-less GPU"; a count-only GRES
# works for other names only), and a node with fewer GPUs than slurm.conf says is drained.
# So each GPU is a file: a character device with /dev/null's numbers (1:3), else, where mknod
# is not allowed, an empty file (slurmd then logs "not a valid character or block device" per
# GPU, and counts them all the same). Jobs see CUDA_VISIBLE_DEVICES; nothing opens the files.
gpu_devices() {
	local i
	mkdir -p "$D/dev"
	for ((i = 0; i < GPUS; i++)); do
		[[ -e $D/dev/gpu$i ]] || mknod "$D/dev/gpu$i" c 1 3 2>/dev/null || : >"$D/dev/gpu$i"
	done
}

# extra_conf FILE CONF: CONF without the lines whose key (before the first '=', any case) FILE
# sets, then FILE's lines. slurm.conf takes one value per key; partitions are lines of the key
# PartitionName, so FILE's partitions replace all of the script's.
extra_conf() {
	[[ -r $1 ]] || die "SLURM_CLUSTER_CONF: cannot read $1"
	local tmp=$2.tmp
	awk 'NR == FNR { if ($0 !~ /^[ \t]*(#|$)/) { k = $0; sub(/=.*/, "", k); gsub(/[ \t]/, "", k); keys[tolower(k)] = 1 }; next }
		{ k = $0; sub(/=.*/, "", k); gsub(/[ \t]/, "", k); if (!(tolower(k) in keys)) print }' "$1" "$2" >"$tmp"
	{ echo "# From SLURM_CLUSTER_CONF ($1):"; cat "$1"; } >>"$tmp"
	mv "$tmp" "$2"
}

# node_list: the nodes' names in Slurm's notation: localhost, or n[1-NODES].
node_list() { if ((NODES == 1)); then echo localhost; else echo "n[1-$NODES]"; fi; }

# slurmd_log NODE: the log file of NODE's slurmd (slurmd.log when there is one node).
slurmd_log() { if ((NODES == 1)); then echo slurmd.log; else echo "slurmd-$1.log"; fi; }

# node_lines PORT: the NodeName lines. Several nodes are several slurmd on this host, each
# with its own name (slurmd -N), NodeHostname (Slurm refuses a NodeHostname twice unless built
# with --enable-multiple-slurmd) and port (PORT+4...), all at 127.0.0.1.
node_lines() {
	local port=$1 i
	if ((NODES == 1)); then
		echo "NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$CPUS RealMemory=4000 Gres=gpu:$GPUS State=UNKNOWN"
		return
	fi
	for ((i = 1; i <= NODES; i++)); do
		echo "NodeName=n$i NodeAddr=127.0.0.1 NodeHostname=n$i Port=$((port + 3 + i)) CPUs=$CPUS RealMemory=4000 Gres=gpu:$GPUS State=UNKNOWN"
	done
}

write_conf() {
	local port=$1
	mkdir -p "$D/etc" "$D/log" "$D/pids" "$D/state" "$D/spool" "$D/munge" "$D/mysql"
	# Other users reach the socket and slurm.conf by their paths; nobody else lists or reads the key.
	chmod 711 "$D" "$D/munge"
	chmod 755 "$D/etc"
	cat >"$D/etc/slurm.conf" <<EOF
# Written by scripts/slurm-cluster.sh: a single-node cluster on loopback.
ClusterName=$CLUSTER
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.socket
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/state/slurmctld.pid.unused
SlurmdPidFile=$D/spool/slurmd-%n.pid.unused
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/$(slurmd_log %n)
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
LaunchParameters=use_interactive_step
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=2,bf_resolution=1
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
KillWait=2
OverTimeLimit=0
InactiveLimit=0
MessageTimeout=10
SlurmctldTimeout=30
SlurmdTimeout=60
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=5
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$((port + 2))
# Which munged signs messages to slurmdbd (slurm.conf(5), AccountingStoragePass).
AccountingStoragePass=$D/munge/munge.socket
# GPUs (gres.conf: stand-ins, no real device); sacct records gres/gpu in ReqTRES and AllocTRES.
AccountingStorageTRES=gres/gpu
GresTypes=gpu
JobCompType=jobcomp/filetxt
JobCompLoc=$D/jobcomp.txt
$(node_lines "$port")
PartitionName=short Nodes=$(node_list) Default=YES MaxTime=2 DefaultTime=1 State=UP
PartitionName=long Nodes=$(node_list) MaxTime=10 DefaultTime=5 State=UP
EOF
	if [[ -n ${SLURM_CLUSTER_CONF:-} ]]; then
		extra_conf "$SLURM_CLUSTER_CONF" "$D/etc/slurm.conf"
	fi
	gpu_devices
	cat >"$D/etc/gres.conf" <<EOF
# Written by scripts/slurm-cluster.sh: $GPUS GPUs that are copies of /dev/null (gpu_devices).
NodeName=$(node_list) Name=gpu File=$D/dev/gpu[0-$((GPUS - 1))]
EOF
	cat >"$D/etc/slurmdbd.conf" <<EOF
# Written by scripts/slurm-cluster.sh.
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$((port + 2))
SlurmUser=root
LogFile=$D/log/slurmdbd.log
PidFile=$D/state/slurmdbd.pid.unused
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((port + 3))
StorageUser=slurm
StoragePass=$DBPASS
StorageLoc=slurm_acct_db
EOF
	chmod 600 "$D/etc/slurmdbd.conf"
	echo "$port" >"$D/port"
}

cmd_up() {
	[[ $(id -u) == 0 ]] || die "up needs root (slurmd launches jobs as their user)"
	local b
	for b in slurmctld slurmd slurmdbd munged mungekey mariadbd mariadb-install-db mariadb sacctmgr scontrol; do
		command -v "$b" >/dev/null || die "$b not found: run '$0 install' first"
	done
	mkdir -p "$D"
	D=$(cd "$D" && pwd)
	if ls "$D"/pids/*.pid >/dev/null 2>&1; then
		for b in "$D"/pids/*.pid; do
			kill -0 "$(cat "$b")" 2>/dev/null && die "$D already runs a cluster (pid file $b); run '$0 down $D' first"
		done
	fi
	[[ $CPUS =~ ^[1-9][0-9]*$ && $GPUS =~ ^[1-9][0-9]*$ ]] ||
		die "SLURM_CLUSTER_CPUS ($CPUS) and SLURM_CLUSTER_GPUS ($GPUS) must be whole numbers ≥ 1"
	[[ $NODES =~ ^[1-9][0-9]*$ ]] && ((NODES <= 16)) || die "SLURM_CLUSTER_NODES ($NODES) must be a whole number from 1 to 16"
	local port
	port=$(pick_port)
	write_conf "$port"
	export SLURM_CONF=$D/etc/slurm.conf
	# From here a failure (die, wait_for, set -e) stops what this call started, by pid, so
	# that nothing is left running; the logs stay in DIR.
	trap 'rc=$?; ((rc == 0)) || cmd_down >&2 || true' EXIT
	[[ -z ${SLURM_CLUSTER_OWNER:-} ]] || start_watchdog "$SLURM_CLUSTER_OWNER"

	# MUNGE: a key of our own, a socket in DIR.
	[[ -f $D/munge/munge.key ]] || mungekey -c -k "$D/munge/munge.key" >/dev/null
	chmod 600 "$D/munge/munge.key"
	start munged munged -F --force --key-file="$D/munge/munge.key" --socket="$D/munge/munge.socket" \
		--pid-file="$D/munge/munged.pid" --seed-file="$D/munge/munged.seed" --log-file="$D/log/munged.log"
	wait_for munged 15 "$D/log/munged.log" bash -c "munge -n -S '$D/munge/munge.socket' | unmunge -S '$D/munge/munge.socket'"

	# MariaDB: a private data directory, TCP on 127.0.0.1 only, a socket in DIR for setup.
	local sock=$D/mysql/mysqld.sock
	# A temporary directory of its own: mariadb-install-db's bootstrap server
	# with /tmp as its tmpdir failed in 7 of 18 runs when six ran at once
	# ("Could not remove temporary table: '/tmp/#sql-temptable-…'", then
	# "Unknown table 'mysql.tmp_user_sys'"), and in none of 18 with one each
	# (2026-12-02, MariaDB 10.11); clusters of several tests, or of several
	# users of the machine, start side by side.
	mkdir -p "$D/mysql/tmp"
	if [[ ! -d $D/mysql/data/mysql ]]; then
		mariadb-install-db --no-defaults --datadir="$D/mysql/data" --tmpdir="$D/mysql/tmp" --user=root \
			--auth-root-authentication-method=socket --skip-test-db >"$D/log/mariadb-install.log" 2>&1 ||
			{ tail -n 20 "$D/log/mariadb-install.log" >&2; die "mariadb-install-db failed"; }
	fi
	start mariadbd mariadbd --no-defaults --datadir="$D/mysql/data" --tmpdir="$D/mysql/tmp" --socket="$sock" --port=$((port + 3)) \
		--bind-address=127.0.0.1 --user=root --pid-file="$D/mysql/mariadbd.pid" --log-error="$D/log/mariadbd.log" \
		--skip-name-resolve --innodb-buffer-pool-size=32M --innodb-log-file-size=16M --innodb-lock-wait-timeout=900 \
		--max-connections=50 --skip-log-bin
	wait_for mariadbd 60 "$D/log/mariadbd.log" mariadb --no-defaults --socket="$sock" -uroot -e 'SELECT 1'
	mariadb --no-defaults --socket="$sock" -uroot <<EOF
CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY '$DBPASS';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
EOF

	# slurmdbd, then the cluster in it, then slurmctld and slurmd.
	start slurmdbd slurmdbd -D
	wait_for slurmdbd 60 "$D/log/slurmdbd.log" sacctmgr -n list cluster
	sacctmgr -i add cluster "$CLUSTER" >/dev/null 2>&1 || true
	if [[ -n ${SLURM_CLUSTER_SACCTMGR:-} ]]; then
		[[ -r $SLURM_CLUSTER_SACCTMGR ]] || die "SLURM_CLUSTER_SACCTMGR: cannot read $SLURM_CLUSTER_SACCTMGR"
		local line out words
		while IFS= read -r line || [[ -n $line ]]; do
			read -ra words <<<"${line%%#*}"
			((${#words[@]} > 0)) || continue
			# Again after `down` and `up` in the same DIR: what exists is "Nothing new added".
			if ! out=$(sacctmgr -i "${words[@]}" 2>&1) && ! grep -q "Nothing new added" <<<"$out"; then
				echo "$out" >&2
				die "sacctmgr -i ${words[*]} failed"
			fi
			echo "$out" >>"$D/log/sacctmgr.log"
		done <"$SLURM_CLUSTER_SACCTMGR"
	fi
	start slurmctld slurmctld -D -i
	wait_for slurmctld 60 "$D/log/slurmctld.log" scontrol ping
	if ((NODES == 1)); then
		start slurmd slurmd -D -N localhost
	else
		local i
		for ((i = 1; i <= NODES; i++)); do
			mkdir -p "$D/spool/n$i"
			start "slurmd-n$i" slurmd -D -N "n$i"
		done
	fi
	# Every node up: as many idle (or busy) nodes as NODES.
	wait_for slurmd 60 "$D/log/$(slurmd_log n1)" \
		bash -c "[[ \$(sinfo -h -N -o '%N %T' | sort -u | grep -Ec ' (idle|mixed|allocated)') == $NODES ]]"
	wait_for "slurmctld's registration in slurmdbd" 30 "$D/log/slurmctld.log" \
		bash -c "sacctmgr -n -P list cluster format=cluster,controlport | grep -q '^$CLUSTER|$port\$'"
	trap - EXIT
	local last=$((port + 3 + (NODES > 1 ? NODES : 0)))
	echo "slurm-cluster: up in $D (cluster $CLUSTER, ports $port-$last on 127.0.0.1, $NODES node(s) of $CPUS CPUs); use:"
	echo "  export SLURM_CONF=$SLURM_CONF"
}

cmd_down() {
	[[ -d $D/pids ]] || die "$D has no pids directory: nothing started there"
	D=$(cd "$D" && pwd)
	local name f pid
	# The watchdog first (unless this is the watchdog), lest it run `down` beside this one.
	f=$D/pids/watchdog.pid
	if [[ -f $f ]]; then
		pid=$(cat "$f")
		if [[ $pid != "$$" ]] && kill -0 "$pid" 2>/dev/null; then
			kill -TERM "$pid" 2>/dev/null || true
			local deadline=$((SECONDS + 5))
			while [[ -n $(proc_start "$pid") ]] && ((SECONDS < deadline)); do sleep 0.1; done
		fi
		rm -f "$f"
	fi
	# Reverse order of start: slurmd, slurmctld, slurmdbd, mariadbd, munged.
	local names=()
	for f in "$D"/pids/slurmd-*.pid; do [[ -f $f ]] && names+=("$(basename "$f" .pid)"); done
	for name in "${names[@]}" slurmd slurmctld slurmdbd mariadbd munged; do
		f=$D/pids/$name.pid
		[[ -f $f ]] || continue
		pid=$(cat "$f")
		if kill -0 "$pid" 2>/dev/null; then
			kill -TERM "$pid" 2>/dev/null || true
			local deadline=$((SECONDS + 20))
			while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
			if kill -0 "$pid" 2>/dev/null; then
				# SIGKILL is not immediate (threads, memory): gone before down returns,
				# for a caller that checks (slurmtest's cleanup fails on a survivor)
				kill -KILL "$pid" 2>/dev/null || true
				deadline=$((SECONDS + 5))
				while [[ -n $(proc_start "$pid") ]] && ((SECONDS < deadline)); do sleep 0.1; done
			fi
		fi
		rm -f "$f"
	done
	echo "slurm-cluster: down ($D)"
}

# cmd_workload: the test workload (about two minutes on 8 CPUs): a job that hits its time
# limit, a failed job (exit 3), a job cancelled while running and one while pending, a job
# array, jobs that queue for the whole node, jobs on both partitions, and a second wave of
# arrivals after 30 s (so that the predictors have a history): first three GPU jobs, one
# holding all 4 GPUs for 12 s (--gres=gpu:4) and two that wait for it (--gpus=2 and
# --gpus-per-node=1), then CPU jobs. Prints "name id" per job.
cmd_workload() {
	D=$(cd "$D" && pwd)
	export SLURM_CONF=$D/etc/slurm.conf
	mkdir -p "$D/out"
	sub() { # NAME SBATCH-ARGS... -- COMMAND
		local name=$1 id
		shift
		id=$(sbatch --parsable -J "$name" -D "$D/out" -o "$D/out/%x-%j.out" "$@")
		echo "$name $id"
	}
	sub timeout -p short -c 1 -t 1 --wrap 'sleep 300'
	sub long-a -p long -c 3 -t 3 --wrap 'sleep 40'
	sub failed -p short -c 1 -t 1 --wrap 'sleep 3; exit 3'
	local running pending
	running=$(sub cancel-running -p short -c 1 -t 2 --wrap 'sleep 120')
	echo "$running"
	sub array -p short -a 0-5 -c 1 -t 1 --wrap 'sleep $((10 + SLURM_ARRAY_TASK_ID))'
	pending=$(sub cancel-pending -p long -c 8 -t 1 --wrap 'sleep 10')
	echo "$pending"
	sub wide-short -p short -c 6 -t 2 --wrap 'sleep 20'
	sub long-b -p long -c 2 -t 5 --wrap 'sleep 25'
	sub whole-node -p long -c 8 -t 2 --wrap 'sleep 10'
	sleep 8
	scancel "${running#* }" "${pending#* }"
	sleep 22
	sub gpu-all -p short -c 1 -t 1 --gres=gpu:4 --wrap 'sleep 12'
	sub gpu-wait -p short -c 1 -t 1 --gpus=2 --wrap 'sleep 3'
	sub gpu-node -p short -c 1 -t 1 --gpus-per-node=1 --wrap 'sleep 3'
	local i
	for i in 1 2 3 4; do sub "wave2-$i" -p short -c 2 -t 1 --wrap "sleep $((5 * i))"; done
	sub wave2-long -p long -c 4 -t 2 --wrap 'sleep 15'
}

[[ $# -ge 1 ]] || usage
case $1 in
install) cmd_install ;;
up | down | env | workload)
	[[ $# -eq 2 ]] || usage
	D=$2
	case $1 in
	up) cmd_up ;;
	down) cmd_down ;;
	workload) cmd_workload ;;
	env) echo "export SLURM_CONF=$(cd "$D" && pwd)/etc/slurm.conf" ;;
	esac
	;;
watch) # internal: the watchdog that `up` starts (start_watchdog)
	[[ $# -eq 6 ]] || usage
	D=$2
	shift 2
	cmd_watch "$@"
	;;
*) usage ;;
esac
