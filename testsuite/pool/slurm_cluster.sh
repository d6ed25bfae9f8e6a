#!/bin/sh
# slurm_cluster.sh TEST_POOL: starts a private single-node Slurm on this
# machine (munged, slurmctld and slurmd on free loopback ports, every file in
# one temporary folder), runs `TEST_POOL slurm` against it, then stops all it
# started and removes the folder.  Exit 77 (skipped) only when Slurm or munge
# is not installed.  Two runs at once do not meet: own ports, names, folders.
set -u
test_pool=$1
PATH=$PATH:/usr/sbin:/sbin
export PATH

for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIPPED: $tool is not installed (Debian: apt-get install slurm-wlm munge)"
        exit 77
    fi
done

base=$(mktemp -d "${TMPDIR:-/tmp}/cl1cc-slurm-XXXXXX") || exit 1
chmod 755 "$base" # munged wants its socket's folders searchable by all
tag=$$
node=cl1n$tag
user=$(id -un)
cpus=$(nproc 2>/dev/null || echo 1)
mkdir -p "$base/munge" "$base/state" "$base/spool" "$base/log"
chmod 755 "$base/munge"

# free loopback ports: bound then released by python3 where it is, else a
# pick from this run's pid (two runs at once get different ones)
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' 2>/dev/null) ||
    ports="$((20000 + tag % 20000)) $((40001 + tag % 20000))"
set -- $ports
ctld_port=$1
slurmd_port=$2

stop_pid_file() { # PIDFILE: SIGTERM, wait up to 10 s, then SIGKILL
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || return 0
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
    return 0
}

cleanup() {
    if [ -s "$base/ctld.pid" ]; then
        # no job may outlive the cluster: cancel all, wait for the queue to drain
        scancel --quiet --full $(squeue -h -o %i 2>/dev/null) 2>/dev/null
        i=0
        while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    fi
    stop_pid_file "$base/slurmd.pid"
    stop_pid_file "$base/ctld.pid"
    stop_pid_file "$base/munge/munged.pid"
    rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

dd if=/dev/urandom of="$base/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$base/munge/munge.key"
if ! munged --socket="$base/munge/socket" --key-file="$base/munge/munge.key" \
        --pid-file="$base/munge/munged.pid" --log-file="$base/munge/munged.log" \
        --seed-file="$base/munge/munged.seed" </dev/null >"$base/log/munged.out" 2>&1; then
    echo "slurm_cluster: munged did not start:"; cat "$base/log/munged.out" "$base/munge/munged.log"
    exit 1
fi

cat >"$base/slurm.conf" <<EOF
ClusterName=cl1t$tag
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$base/munge/socket
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/ctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/log/slurmctld.log
SlurmdLogFile=$base/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=0
KillWait=2
MinJobAge=300
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=cl1test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$base/slurm.conf
export SLURM_CONF

show_logs() {
    for f in "$base"/log/*.log; do echo "--- $f"; tail -n 20 "$f"; done
}
if ! slurmctld -f "$SLURM_CONF" -i </dev/null >"$base/log/slurmctld.out" 2>&1; then
    echo "slurm_cluster: slurmctld did not start"; cat "$base/log/slurmctld.out"; show_logs; exit 1
fi
if ! slurmd -f "$SLURM_CONF" -N "$node" </dev/null >"$base/log/slurmd.out" 2>&1; then
    echo "slurm_cluster: slurmd did not start"; cat "$base/log/slurmd.out"; show_logs; exit 1
fi
i=0
while :; do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
    [ "$state" = idle ] && break
    i=$((i + 1))
    if [ $i -ge 300 ]; then
        echo "slurm_cluster: node $node not idle after 30 s (state '$state')"; show_logs; exit 1
    fi
    sleep 0.1
done
echo "slurm_cluster: node $node idle after $((i / 10)).$((i % 10)) s (ports $ctld_port, $slurmd_port, $cpus CPUs)"

# the backend finds the tools through CL1CC_SLURM_BIN_DIR here
CL1CC_SLURM_BIN_DIR=$(dirname "$(command -v sbatch)") CL1_TEST_NODE=$node CL1_TEST_CPUS=$cpus \
    "$test_pool" slurm
rc=$?
[ $rc -eq 0 ] || show_logs
exit $rc
