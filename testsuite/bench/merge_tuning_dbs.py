#!/usr/bin/env python3
"""merge_tuning_dbs.py OUT.db IN.db [IN.db ...]: kept for the commands in
docs/BENCHMARKS.md; the merge is `cl1cc db import --replace` now:

    CL1CC_DB=merged.db cl1cc db import --replace run1/tuning.db run2/tuning.db

A kernel (by key) measured in several inputs is taken whole from the last
one that has it.  OUT.db must not exist.  cl1cc is $CL1CC, else the one on
PATH, else build/release/bin/cl1cc of this checkout."""
import os
import shutil
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out, inputs = argv[1], argv[2:]
    if os.path.exists(out):
        sys.stderr.write(f"{out}: exists; give a new file\n")
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    cl1cc = (os.environ.get("CL1CC") or shutil.which("cl1cc")
             or os.path.join(here, "..", "..", "build", "release", "bin", "cl1cc"))
    env = dict(os.environ, CL1CC_DB=out)
    return subprocess.call([cl1cc, "db", "import", "--replace", *inputs], env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
