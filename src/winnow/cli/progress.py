"""The progress bars of the commands, and the first run's compiling note."""

from __future__ import annotations

import sys
from typing import Any

import click


class ProgressBar:
    """A tqdm bar per stage on standard error, only when it is a terminal;
    ``units`` names what each stage counts (default: files, and pairs for
    ``passages``)."""

    def __init__(self, enabled: bool, units: dict[str, str] | None = None) -> None:
        self.enabled = enabled
        self.units = {"passages": "pair"} if units is None else units
        self.stage: str | None = None
        self.bar: Any = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if stage != self.stage:
            from tqdm import tqdm

            tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked
            self.close()
            self.stage = stage
            self.bar = tqdm(total=total, desc=stage, unit=self.units.get(stage, "file"),
                            leave=False, file=sys.stderr)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def say_if_compiling() -> None:
    """On a first run, say that the compiled kernels are being built."""
    from winnow.compiled import uncached
    from winnow.engine._kernels import rolling_hashes, winnow_fused
    from winnow.matching._kernels import (
        claim_runs,
        extend_seeds,
        group_rows,
        hash_sorted,
    )
    from winnow.matching._prints_kernels import sorted_distinct
    from winnow.matching._span_kernels import shared_hashes
    from winnow.pairs._kernels import pair_sums

    if uncached(winnow_fused, rolling_hashes, pair_sums, extend_seeds, group_rows, claim_runs,
                hash_sorted, shared_hashes, sorted_distinct):
        click.echo("winnow: first run: compiling the fingerprinting kernels "
                   "(about 10 s; cached for later runs)", err=True)
