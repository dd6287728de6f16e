# shellcheck shell=bash
# A single-node Slurm cluster of the tests' own, sourced by the tests that need one
# (shards_test.sh, ladder_slurm_test.sh): munged with a fresh key, slurmctld and slurmd in the
# foreground from a generated slurm.conf (proctrack/linuxproc, task/none, no systemd), every
# file under the folder given, on free local ports; started and stopped by process id.
#
#   source tests/slurm_cluster.sh
#   slurm_need_root_and_packages   # exits 77 (SKIP) if it cannot be had
#   slurm_cluster_start DIR        # exports SLURM_CONF; the node is idle when it returns
#   slurm_cluster_stop             # cancels the cluster's jobs, stops the daemons
#   trap 'slurm_test_exit $? "$work" "$work/out/*.out"' EXIT
#                                  # at the test's end: the cluster stopped, the logs' last
#                                  # lines shown on a failure, the folder removed
#
# It needs log(), fail() and need() of tests/script_support.sh, sourced first.

slurm_pids=()
slurm_daemon_pids=() # the daemons being started

slurm_need_root_and_packages() {
  need "slurm-wlm munge" slurmctld slurmd sbatch squeue scancel scontrol munged munge
  if [ "$(id -u)" -ne 0 ]; then
    echo "SKIPPED: slurmd must run as root to start jobs (this is uid $(id -u))"
    exit 77
  fi
}

slurm_cluster_start() {
  local cluster=$1
  mkdir -p "$cluster"/{munge,state,spool,log}
  chmod 700 "$cluster/munge"
  dd if=/dev/urandom of="$cluster/munge/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$cluster/munge/munge.key"
  munged --foreground --force --socket="$cluster/munge/socket" \
    --key-file="$cluster/munge/munge.key" --pid-file="$cluster/munge/munged.pid" \
    --seed-file="$cluster/munge/seed" --log-file="$cluster/log/munged.log" \
    >"$cluster/log/munged.out" 2>&1 &
  slurm_pids+=($!)
  for _ in $(seq 50); do [ -S "$cluster/munge/socket" ] && break; sleep 0.1; done
  munge -S "$cluster/munge/socket" -n | unmunge -S "$cluster/munge/socket" >/dev/null ||
    fail "munged does not answer"

  # Another process may take a port between its choice and the daemons' start (tests run
  # beside each other): the daemons are then started again on two new ones.
  local attempt
  for attempt in 1 2 3; do
    slurm_daemons_start "$cluster" && return 0
    log "Slurm's daemons did not come up (attempt $attempt):" \
      "$(tail -n 1 "$cluster/log/slurmctld.out" 2>/dev/null)"
    slurm_daemons_stop
  done
  fail "the node did not come up: $(tail -n 3 "$cluster"/log/slurm*.out)"
}

# Starts slurmctld and slurmd on two free ports (bound to port 0, then released for them);
# status 1 unless the node is idle within 30 s. A `sinfo` waits at most 5 s for an absent
# controller.
slurm_daemons_start() {
  local cluster=$1 ctld_port slurmd_port host deadline
  read -r ctld_port slurmd_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
  host=$(hostname -s)
  cat >"$cluster/slurm.conf" <<EOF
ClusterName=divercite-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
KillWait=2
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$cluster/slurm.conf
  slurmctld -D -c -f "$SLURM_CONF" >"$cluster/log/slurmctld.out" 2>&1 &
  slurm_daemon_pids=($!)
  slurmd -D -f "$SLURM_CONF" >"$cluster/log/slurmd.out" 2>&1 &
  slurm_daemon_pids+=($!)
  deadline=$((SECONDS + 30))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "${slurm_daemon_pids[0]}" 2>/dev/null || return 1 # slurmctld gave up
    if timeout 5 sinfo -h -o %T 2>/dev/null | grep -q idle; then
      slurm_pids+=("${slurm_daemon_pids[@]}")
      slurm_daemon_pids=()
      log "single-node Slurm cluster up: $(sinfo -h -o '%P %D %c %T')"
      return 0
    fi
    sleep 0.2
  done
  return 1
}

slurm_daemons_stop() {
  local pid
  for pid in "${slurm_daemon_pids[@]}"; do
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  slurm_daemon_pids=()
}

slurm_cluster_stop() {
  slurm_daemons_stop # a start cut short
  if [ -n "${SLURM_CONF:-}" ] && [ ${#slurm_pids[@]} -gt 0 ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null || true  # this cluster's jobs only
    for _ in $(seq 50); do squeue -h 2>/dev/null | grep -q . || break; sleep 0.2; done
  fi
  local i
  for ((i = ${#slurm_pids[@]} - 1; i >= 0; i--)); do  # slurmd, slurmctld, then munged
    kill "${slurm_pids[i]}" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "${slurm_pids[i]}" 2>/dev/null || break; sleep 0.1; done
    kill -9 "${slurm_pids[i]}" 2>/dev/null || true
  done
  slurm_pids=()
}

# slurm_test_exit STATUS WORK [LOG_PATTERN...]: a test's end, as its EXIT trap calls it with $?:
# the cluster stopped, the test's children waited for; on a failure the last lines of the
# logs (the patterns, globbed here) and of the cluster's; WORK removed; exits with STATUS.
slurm_test_exit() {
  local status=$1 work=$2 pattern
  shift 2
  slurm_cluster_stop
  wait 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    for pattern in "$@"; do
      # shellcheck disable=SC2086 # a pattern, globbed on purpose
      tail -n 30 $pattern >&2 2>/dev/null || true
    done
    tail -n 20 "$work"/cluster/log/* >&2 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
