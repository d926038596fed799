"""Shared by the benchmark scripts: run a command, measure its time and memory.

Memory is measured two ways, because the tools differ in how many processes
they start:

* ``tree_pss_mib``: the largest sum of proportional set sizes (PSS: each
  shared page divided among the processes sharing it) over the command's
  process tree, sampled every :data:`SAMPLE_S` from ``/proc`` -- the memory
  the command really occupies; ``tree_rss_mib``, the same with resident set sizes, counts
  shared pages (libraries, forked workers) once per process and overstates;
* ``max_rss_mib``: the kernel's ``ru_maxrss`` from ``wait4`` -- the peak of the
  largest single process of the tree.

Wall time is ``time.perf_counter`` around the whole command, start-up included.

Reading ``smaps_rollup`` walks a process's mappings under its memory lock, so
the sampling slows what it measures, the more the more processes a command
runs: every 50 ms, it added 15 % to a sharded ``winnow dedup`` of a million
records (42.1 s against 36.4 s sampled every 0.5 s, the same PSS to 1 %);
:data:`SAMPLE_S` sits between the two.
``VmHWM`` (``tree_hwm_mib``, the kernel's own peak per process) misses no
spike between samples.
"""

from __future__ import annotations

import os
import resource
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PEERS = Path(os.environ.get("WINNOW_PEERS_SCRIPTS", "/work/shared/peers"))
ROOT = Path(__file__).resolve().parent.parent
WINNOW = [str(Path(sys.executable).with_name("winnow"))]


@dataclass(frozen=True)
class Run:
    """One measured command."""

    command: list[str]
    returncode: int
    wall_s: float
    tree_pss_mib: float
    tree_rss_mib: float
    max_rss_mib: float
    load_before: float
    load_after: float
    stderr_tail: str
    #: The largest sum, over the samples, of the live processes' own peak RSS
    #: (``VmHWM``, kept by the kernel): an upper bound of the tree's peak RSS
    #: that a spike between two samples cannot escape, unlike the sums above.
    tree_hwm_mib: float = 0.0
    #: CPU seconds (user and system) of the process tree in the timed run.
    cpu_s: float = 0.0

    def line(self, label: str) -> str:
        """A one-line summary with the machine's load, for the printed report."""
        return (f"{label:<28} {self.wall_s:8.2f} s  PSS {self.tree_pss_mib:7.1f} MiB  "
                f"RSS {self.tree_rss_mib:7.1f} MiB (largest process {self.max_rss_mib:6.1f})"
                f"  load {self.load_before:.2f}"
                f"->{self.load_after:.2f}  rc {self.returncode}")


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(c) for c in handle.read().split())
    except OSError:
        pass
    return found


def _field_kib(path: str, name: str) -> int:
    try:
        with open(path) as handle:
            for line in handle:
                if line.startswith(name):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_memory_kib(pid: int) -> tuple[int, int]:
    """Sums of RSS and of PSS over ``pid`` and all its descendants, in KiB."""
    rss, pss, _ = tree_memory_and_peaks_kib(pid)
    return rss, pss


#: Seconds between two samples of a command's memory.
SAMPLE_S = 0.25


def tree_memory_and_peaks_kib(pid: int) -> tuple[int, int, int]:
    """Sums of RSS, of PSS and of peak RSS (``VmHWM``) over ``pid`` and all
    its descendants, in KiB."""
    rss = pss = hwm = 0
    todo = [pid]
    while todo:
        current = todo.pop()
        rss += _field_kib(f"/proc/{current}/status", "VmRSS:")
        hwm += _field_kib(f"/proc/{current}/status", "VmHWM:")
        pss += _field_kib(f"/proc/{current}/smaps_rollup", "Pss:")
        todo.extend(_children(current))
    return rss, pss, hwm


def measure(command: list[str], *, env: dict[str, str] | None = None,
            stdout_path: Path | None = None, cwd: Path | None = None,
            sample_s: float = SAMPLE_S) -> Run:
    """Run ``command`` to completion, sampling its process tree's memory every
    ``sample_s`` (a command of a few seconds and processes: 50 ms, so that
    a peak between samples is not missed)."""
    load_before = os.getloadavg()[0]
    out = stdout_path.open("wb") if stdout_path else subprocess.DEVNULL
    err_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"winnow-bench-{os.getpid()}.err"
    with err_path.open("wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=cwd)
        peak_rss = peak_pss = peak_hwm = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            rss, pss, hwm = tree_memory_and_peaks_kib(proc.pid)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            peak_hwm = max(peak_hwm, hwm)
            time.sleep(sample_s)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if stdout_path and not isinstance(out, int):
        out.close()
    tail = err_path.read_text(errors="replace")[-4000:]
    err_path.unlink()
    return Run(command, proc.returncode, wall, peak_pss / 1024, peak_rss / 1024,
               usage.ru_maxrss / 1024,
               load_before, os.getloadavg()[0], tail, peak_hwm / 1024)


def timed_then_measured(command: list[str], *, env: dict[str, str] | None = None,
                        sample_s: float = SAMPLE_S, output: Path | None = None,
                        reset: Callable[[], object] | None = None) -> Run:
    """``command`` run twice: once alone for its wall time, then under
    :func:`measure` for its memory.  Sampling ``/proc`` walks each process's
    mappings under its memory lock, which slows a short multi-process command
    (``winnow compare`` of 2,000 files: 3.0-3.3 s alone, 3.4-4.4 s sampled
    every 50 ms); the run that is timed is left alone.

    ``output``, the file the command writes, is removed before the timed run,
    so that no tool's time includes the file system dropping the previous
    run's output (a CSV of every pair of a class is 96 MB: replacing it cost
    0.03-0.10 s more than writing it anew, on ext4).  ``reset`` is called
    before each of the two runs (a work folder that a second run would
    otherwise resume from, so that the sampled run does the same work)."""
    if output is not None:
        output.unlink(missing_ok=True)
    if reset is not None:
        reset()
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    alone = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if reset is not None:
        reset()
    sampled = measure(command, env=env, sample_s=sample_s)
    return Run(command, alone.returncode or sampled.returncode, wall, sampled.tree_pss_mib,
               sampled.tree_rss_mib, sampled.max_rss_mib, load_before, sampled.load_after,
               sampled.stderr_tail, sampled.tree_hwm_mib,
               (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime))


def warm_up(command: list[str], *, env: dict[str, str] | None = None, times: int = 1) -> None:
    """Run ``command`` ``times`` times, untimed, output discarded (hyperfine's
    ``--warmup``).  On the machine these figures come from, a command that
    follows a long run of another tool starts with its libraries' pages and
    much of its fresh memory cold (the virtual machine gives back to its host
    the pages nobody touched for a minute): winnow's first every-pair run of
    a class came out 0.4-0.7 s slower than the two after it.  Every tool of a
    comparison gets the same warm-up."""
    for _ in range(times):
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)


def compile_winnow() -> int:
    """Compile winnow's modules to bytecode, as pip does when it installs a
    package (it did for the peers' virtual environments), and say how many
    were written.  An editable install compiles them on first use instead,
    and not at all where ``PYTHONDONTWRITEBYTECODE`` is set (it is on the
    machine these figures come from): every run would then compile about
    60 modules again (0.07 s of CPU or more), which an installed winnow
    never does.  Called before anything is timed."""
    import compileall

    import winnow

    before = sum(1 for _ in Path(winnow.__file__).parent.rglob("*.pyc"))
    compileall.compile_dir(Path(winnow.__file__).parent, quiet=1)
    return sum(1 for _ in Path(winnow.__file__).parent.rglob("*.pyc")) - before


def warm(folder: Path) -> int:
    """Read every file under ``folder`` once, so that the first tool timed on
    it does not pay for reading it from disk where the next ones would not
    (whoever comes first would otherwise be charged for a cold page cache).
    Returns the bytes read."""
    size = 0
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            size += len(path.read_bytes())
    return size


def check(run: Run, label: str) -> None:
    """Stop the benchmark when a measured command failed, showing its error output."""
    if run.returncode not in (0, 1) or "Traceback (most recent call last)" in run.stderr_tail:
        sys.exit(f"{label} failed (rc {run.returncode}): {shlex.join(run.command)}\n"
                 f"{run.stderr_tail}")


def uptime() -> str:
    """The machine's load averages, as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} CPUs)"
