"""Where the time of ``winnow.matching.compare`` goes, stage by stage.

N standard-library ``.py`` files, one submission each, compared all against
all through the library with the defaults of ``winnow compare`` (the code
front-end's ``k`` and ``t``, :class:`CompareOptions`, top 250 with passages);
prints the wall time at the end of each stage (fingerprint, documents when
they are read again, passages), the counts, and the peak RSS of this process
and its workers.  Run: ``.venv/bin/python benchmarks/compare_stages.py
[N] [JOBS]`` (default 1000 files, 1 process).
"""

from __future__ import annotations

import glob
import resource
import sys
import sysconfig
import time


def main() -> None:
    """Compare N stdlib files and print the per-stage timings."""
    from winnow.config import WinnowConfig
    from winnow.frontends import default_params
    from winnow.matching import CompareOptions, compare
    from winnow.sources.submissions import load_submission

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    pattern = sysconfig.get_paths()["stdlib"] + "/**/*.py"
    files = sorted(glob.glob(pattern, recursive=True))[:n]
    start = time.perf_counter()
    ends: dict[str, float] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if done == total:
            ends[stage] = time.perf_counter() - start

    subs = [load_submission(f) for f in files]
    k, t = default_params("code")
    result = compare(subs, WinnowConfig(k=k, t=t), CompareOptions(), jobs=jobs,
                     progress=progress)
    total = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    stages = "  ".join(f"{stage} done at {at:.2f} s" for stage, at in ends.items())
    print(f"{len(files)} files, {jobs} process(es), k={k} t={t}: total {total:.2f} s; {stages}")
    print(f"stats {dict(result.stats)}; peak RSS {own} MB (largest worker {workers} MB)")


if __name__ == "__main__":
    main()
