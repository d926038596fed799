"""CPU time a worker spends fingerprinting one file, in one process.

What ``winnow compare`` does per file in its worker processes
(:func:`winnow.matching.prints.fingerprint_file`: read, sniff, decode, lex,
both fingerprint channels, the sorted distinct hashes), timed as a loop over
every file of the given folders, each entry one submission (``--each``), with
each front-end's default settings.  The kernels are warmed by a first pass;
the figure is the best ``time.process_time()`` of ``--passes`` further passes,
divided by the number of files.  A digest of every file's result is printed,
so two versions of the code can be checked to give the same hashes.

    python benchmarks/fingerprint_files.py FOLDER... [--passes 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import hashlib
import pstats
import signal
import time
from typing import Any


def _fingerprint_all(fingerprint_file: Any, files: list[Any], config: Any, literal: Any,
                     configs: Any) -> list[Any]:
    return [fingerprint_file(f, config, False, literal_config=literal, configs=configs)
            for f in files]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile one more pass")
    args = parser.parse_args(argv)

    from winnow.matching.batch import Batch
    from winnow.matching.options import CompareOptions, default_configs
    from winnow.matching.prints import fingerprint_file
    from winnow.sources.submissions import load_submissions

    signal.signal(signal.SIGTERM, signal.default_int_handler)  # as in a worker: both set
    for folder in args.folders:
        subs = load_submissions([folder], each=True)
        config, defaults = default_configs(subs)
        batch = Batch(subs, [])
        batch.set_configs(config, CompareOptions(top=0), defaults)
        files = [f for sub in subs for f in sub.files]
        run = functools.partial(_fingerprint_all, fingerprint_file, files, *batch.default,
                                batch.configs)
        digest = hashlib.sha256()
        for result in run():  # also warms the kernels
            if hasattr(result, "hashes"):
                digest.update(result.hashes.tobytes())
                digest.update(repr((result.units, result.size, result.warnings,
                                    result.frontend)).encode())
            else:
                digest.update(repr(result).encode())
        times = []
        for _ in range(args.passes):
            start = time.process_time()
            run()
            times.append(time.process_time() - start)
        print(f"{folder}: {len(files)} files, digest {digest.hexdigest()[:16]}, "
              f"CPU per file best {min(times) / len(files) * 1e3:.3f} ms "
              f"(passes: {', '.join(f'{t:.3f}' for t in times)} s)")
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            run()
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
