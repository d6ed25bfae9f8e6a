#!/usr/bin/env python3
"""merge_tuning_dbs.py OUT.db IN.db [IN.db ...]: one tuning database from
several (e.g. the tuning.db of each device run), to retrain the chooser on
all of them:

    python3 testsuite/bench/merge_tuning_dbs.py merged.db run1/tuning.db run2/tuning.db
    CL1CC_DB=merged.db cl1cc tune --retrain --chooser policy/data/chooser-prior.json

A kernel (by key) measured in several inputs is taken whole from the last
one that has it: later runs replace earlier ones, so no kernel counts twice.
OUT.db must not exist; its schema (and the application id and schema
version cl1cc checks) are copied from the first input."""
import os
import sqlite3
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out, inputs = argv[1], argv[2:]
    if os.path.exists(out):
        sys.stderr.write(f"{out}: exists; give a new file\n")
        return 2
    for path in inputs:
        if not os.path.isfile(path):
            sys.stderr.write(f"{path}: no such file\n")
            return 2
    owner = {}  # kernel key -> index of the last input that has it
    for i, path in enumerate(inputs):
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        for (key,) in con.execute("SELECT key FROM kernels"):
            owner[key] = i
        con.close()
    dst = sqlite3.connect(out)
    src = sqlite3.connect(f"file:{inputs[0]}?mode=ro", uri=True)
    for (sql,) in src.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"):
        dst.execute(sql)
    version = src.execute("PRAGMA user_version").fetchone()[0]
    app = src.execute("PRAGMA application_id").fetchone()[0]
    src.close()
    dst.execute(f"PRAGMA user_version = {int(version)}")
    dst.execute(f"PRAGMA application_id = {int(app)}")
    counts = [0] * len(inputs)
    for i, path in enumerate(inputs):
        dst.execute("ATTACH DATABASE ? AS src", (f"file:{path}?mode=ro",))
        keys = [k for k, o in owner.items() if o == i]
        for key in keys:
            dst.execute("INSERT INTO kernels SELECT * FROM src.kernels WHERE key = ?", (key,))
            cols = [r[1] for r in dst.execute("PRAGMA main.table_info(variants)") if r[1] != "id"]
            dst.execute(f"INSERT INTO variants({','.join(cols)}) SELECT {','.join(cols)} "
                        "FROM src.variants WHERE kernel_key = ?", (key,))
            cols = [r[1] for r in dst.execute("PRAGMA main.table_info(evaluations)") if r[1] != "id"]
            dst.execute(f"INSERT INTO evaluations({','.join(cols)}) SELECT {','.join(cols)} "
                        "FROM src.evaluations WHERE kernel_key = ?", (key,))
        counts[i] = len(keys)
        dst.commit()
        dst.execute("DETACH DATABASE src")
    dst.close()
    for path, n in zip(inputs, counts):
        print(f"{path}: {n} kernel(s) taken")
    print(f"{out}: {len(owner)} kernel(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
