# slurm_lib.sh: sourced (`. slurm_lib.sh`) by the tests that need a private
# single-node Slurm on this machine: munged with its own key and socket,
# slurmctld and slurmd on free loopback ports, every file in one temporary
# folder.  Two runs at once do not meet: own ports, names, folders.
#
#   slurm_lib_name=NAME       prefix of its messages (default slurm_lib)
#   slurm_lib_have_tools      0, or prints "SKIPPED: ..." and returns 1 when
#                             Slurm or munge is not installed
#   slurm_lib_start           starts the cluster and waits until its node is
#                             idle; 0, or 1 after printing why (the caller
#                             exits; its EXIT trap should call slurm_lib_stop)
#   slurm_lib_stop            cancels every job, stops the daemons, removes
#                             the folder; safe to call more than once
#   slurm_lib_show_logs       the tail of every daemon's log
#
# After slurm_lib_start: $base (the folder; whatever the caller puts there
# goes with it), $node, $cpus, $ctld_port, $slurmd_port, and SLURM_CONF
# exported so that sbatch, squeue... talk to this cluster.  The node runs
# jobs as this user, in the submitter's working directory, on this
# machine's file system.
PATH=$PATH:/usr/sbin:/sbin
export PATH
: "${slurm_lib_name:=slurm_lib}"
base=

slurm_lib_have_tools() {
    for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "SKIPPED: $tool is not installed (Debian: apt-get install slurm-wlm munge)"
            return 1
        fi
    done
    return 0
}

slurm_lib_stop_pid_file() { # PIDFILE: SIGTERM, wait up to 10 s, then SIGKILL
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || return 0
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
    return 0
}

slurm_lib_stop() {
    [ -n "$base" ] || return 0
    if [ -s "$base/ctld.pid" ]; then
        # no job may outlive the cluster: cancel all, wait for the queue to drain
        scancel --quiet --full $(squeue -h -o %i 2>/dev/null) 2>/dev/null
        i=0
        while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    fi
    slurm_lib_stop_pid_file "$base/slurmd.pid"
    slurm_lib_stop_pid_file "$base/ctld.pid"
    slurm_lib_stop_pid_file "$base/munge/munged.pid"
    rm -rf "$base"
    base=
}

slurm_lib_show_logs() {
    [ -n "$base" ] || return 0
    for f in "$base"/log/*.log; do echo "--- $f"; tail -n 20 "$f"; done
}

slurm_lib_start() {
    base=$(mktemp -d "${TMPDIR:-/tmp}/cl1cc-slurm-XXXXXX") || { base=; return 1; }
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

    dd if=/dev/urandom of="$base/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$base/munge/munge.key"
    if ! munged --socket="$base/munge/socket" --key-file="$base/munge/munge.key" \
            --pid-file="$base/munge/munged.pid" --log-file="$base/munge/munged.log" \
            --seed-file="$base/munge/munged.seed" </dev/null >"$base/log/munged.out" 2>&1; then
        echo "$slurm_lib_name: munged did not start:"; cat "$base/log/munged.out" "$base/munge/munged.log"
        return 1
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

    if ! slurmctld -f "$SLURM_CONF" -i </dev/null >"$base/log/slurmctld.out" 2>&1; then
        echo "$slurm_lib_name: slurmctld did not start"; cat "$base/log/slurmctld.out"; slurm_lib_show_logs
        return 1
    fi
    if ! slurmd -f "$SLURM_CONF" -N "$node" </dev/null >"$base/log/slurmd.out" 2>&1; then
        echo "$slurm_lib_name: slurmd did not start"; cat "$base/log/slurmd.out"; slurm_lib_show_logs
        return 1
    fi
    i=0
    while :; do
        state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
        [ "$state" = idle ] && break
        i=$((i + 1))
        if [ $i -ge 300 ]; then
            echo "$slurm_lib_name: node $node not idle after 30 s (state '$state')"; slurm_lib_show_logs
            return 1
        fi
        sleep 0.1
    done
    echo "$slurm_lib_name: node $node idle after $((i / 10)).$((i % 10)) s (ports $ctld_port, $slurmd_port, $cpus CPUs)"
    return 0
}
