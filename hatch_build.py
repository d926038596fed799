"""The package build's one extra step: winnow's kernels compiled ahead of time.

Hatchling runs this hook when it builds a wheel, an editable one included
(``pip install -e .``).  It runs ``src/winnow/_aot_build.py`` in a process of
its own, with the build's Python (numba, numpy and setuptools are build
requirements), which writes the extension module and its manifest beside the
package's sources.  A failed compile (no C compiler, a numba without its
ahead-of-time compiler) does not fail the install: the build says so, and
winnow then compiles its kernels with numba's JIT on first use instead, with
the same results.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class KernelsBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        package = Path(self.root) / "src" / "winnow"
        print("winnow: compiling the kernels ahead of time (1-2 minutes)", file=sys.stderr)
        try:
            done = subprocess.run([sys.executable, str(package / "_aot_build.py")],
                                  capture_output=True, text=True, check=False, timeout=1800)
        except subprocess.TimeoutExpired:
            print("winnow: the kernels' compile took over 30 minutes and was stopped; they "
                  "will be compiled on first use instead", file=sys.stderr)
            return
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            print("winnow: the kernels were not compiled ahead of time; they will be "
                  f"compiled on first use instead:\n{tail}", file=sys.stderr)
            return
        if version == "editable":  # the sources' folder is the package's: nothing to add
            return
        for line in done.stdout.splitlines():
            built = Path(line)
            build_data["force_include"][str(built)] = f"winnow/{built.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
