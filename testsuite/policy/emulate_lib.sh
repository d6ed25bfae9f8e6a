# emulate_lib.sh: what the emulation scripts (emulate*.sh) share, sourced
# once tool and src are set: $tmp, a work folder removed at exit; $cxx, the
# C++ compiler (none: the script fails); emu_run NAME [OPTIMISATION]:
# $tmp/NAME.cpp built with emulate.h's folder on the include path and run,
# 1 when it does not compile (the compiler's first lines shown) or the run
# fails.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cxx=${CXX:-g++}
command -v "$cxx" >/dev/null 2>&1 || { echo "FAIL: no C++ compiler ($cxx)"; exit 1; }
emu_run() {
    if ! "$cxx" -std=c++17 "${2:--O2}" -w -I"$src" -o "$tmp/$1" "$tmp/$1.cpp" 2>"$tmp/$1.err"; then
        echo "FAIL: $1: the emulation does not compile:"; head -n 20 "$tmp/$1.err"; return 1
    fi
    "$tmp/$1"
}
