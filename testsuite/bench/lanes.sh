# lanes.sh: sourced by the bench scripts that run programs one after
# another (tune_polybench.sh, devset_flow.sh).
#   bench_args ARGS...         PROGRAM... [-- OPTIONS]: sets $programs and $extra
#   bench_lanes N COMMAND...   deals $programs round-robin to N copies of
#                              COMMAND run at once (BENCH_IN_LANE=K set in
#                              each, lane K's output in $out/lane-K.log),
#                              called as COMMAND... PROGRAMS -- $extra;
#                              waits for all.  bench_lane_env, when the
#                              script defines it, prints lane K's extra
#                              environment (NAME=VALUE ...).
#                              BENCH_GPUS=G (G > 1): lane K runs on GPU
#                              (K-1) % G alone (CUDA_VISIBLE_DEVICES), with
#                              that GPU's lock (CL1CC_GPU_LOCK, GPU 0 the
#                              path as set, GPU g PATH.gpu<g>), so lanes on
#                              different GPUs never wait for one another.
bench_args() {
    programs="" extra=""
    while [ $# -gt 0 ]; do
        if [ "$1" = "--" ]; then shift; extra="$*"; break; fi
        programs="$programs $1"; shift
    done
}

bench_lanes() {
    _n=$1
    shift
    _pids=""
    for _lane in $(seq 1 "$_n"); do
        _mine="" _i=0
        for _p in $programs; do
            [ $((_i % _n + 1)) = "$_lane" ] && _mine="$_mine $_p"
            _i=$((_i + 1))
        done
        [ -n "$_mine" ] || continue
        _env=""
        command -v bench_lane_env >/dev/null 2>&1 && _env=$(bench_lane_env "$_lane")
        if [ "${BENCH_GPUS:-1}" -gt 1 ]; then
            _g=$(( (_lane - 1) % BENCH_GPUS ))
            _env="$_env CUDA_VISIBLE_DEVICES=$_g"
            if [ -n "${CL1CC_GPU_LOCK:-}" ]; then
                if [ "$_g" = 0 ]; then _env="$_env CL1CC_GPU_LOCK=$CL1CC_GPU_LOCK"
                else _env="$_env CL1CC_GPU_LOCK=$CL1CC_GPU_LOCK.gpu$_g"; fi
            fi
        fi
        # shellcheck disable=SC2086
        env BENCH_IN_LANE="$_lane" $_env "$@" $_mine -- $extra \
            >"$out/lane-$_lane.log" 2>&1 &
        _pids="$_pids $!"
    done
    # shellcheck disable=SC2086
    wait $_pids
}
