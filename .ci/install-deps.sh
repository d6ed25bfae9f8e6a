#!/bin/sh
# install-deps.sh: the Debian packages cl1cc builds and tests with.  The CUDA
# toolkit (nvcc 13 in /usr/local/cuda) comes with the machine image.
set -eu
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    cmake ninja-build gcc g++ make python3 git chromium pre-commit ccache \
    libclang-19-dev libcjson-dev libsqlite3-dev libcurl4-openssl-dev zlib1g-dev \
    slurm-wlm munge \
    >/dev/null
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "install-deps: no nvcc found: install the CUDA toolkit (nvcc 13) in /usr/local/cuda" >&2
    exit 1
fi
