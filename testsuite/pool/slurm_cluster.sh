#!/bin/sh
# slurm_cluster.sh TEST_POOL: starts a private single-node Slurm on this
# machine (slurm_lib.sh: munged, slurmctld and slurmd on free loopback ports,
# every file in one temporary folder), runs `TEST_POOL slurm` against it,
# then stops all it started and removes the folder.  Exit 77 (skipped) only
# when Slurm or munge is not installed.  Two runs at once do not meet: own
# ports, names, folders.
set -u
test_pool=$1
slurm_lib_name=slurm_cluster
. "$(dirname "$0")/slurm_lib.sh"

slurm_lib_have_tools || exit 77
trap slurm_lib_stop EXIT
trap 'exit 1' INT TERM HUP
slurm_lib_start || exit 1

# the backend finds the tools through CL1CC_SLURM_BIN_DIR here
CL1CC_SLURM_BIN_DIR=$(dirname "$(command -v sbatch)") CL1_TEST_NODE=$node CL1_TEST_CPUS=$cpus \
    "$test_pool" slurm
rc=$?
[ $rc -eq 0 ] || slurm_lib_show_logs
exit $rc
