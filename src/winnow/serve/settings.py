"""What ``winnow serve`` is told, and its defaults' one home.

:class:`Settings` (with :class:`~winnow.serve.intake.Limits` and
:class:`~winnow.serve.workers.JobLimits` inside it) holds every default of the
server: :mod:`winnow.serve.app` runs with it and ``winnow serve``'s options
default to its fields.  This module needs no aiohttp, so the CLI reads the
defaults (for ``--help``) without the ``serve`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from winnow.serve.intake import Limits
from winnow.serve.workers import JobLimits

#: The folder that keeps the jobs, their reports and the users' secrets when
#: ``--data`` is not given (relative to the working folder).
DEFAULT_DATA: Final = Path("winnow-serve")


@dataclass(frozen=True)
class Settings:
    """Everything ``winnow serve`` is told."""

    data: Path
    host: str = "127.0.0.1"  #: both ports bind here: this machine only
    moss_port: int = 7690
    http_port: int = 8080
    url: str | None = None  #: the reports' base URL (default: http://HOST:HTTP_PORT)
    workers: int = 2
    reply_wait: float = 600.0
    idle_timeout: float = 120.0
    retention_days: float = 0.0  #: 0 = keep every job
    users: frozenset[str] | None = None
    limits: Limits = field(default_factory=Limits)
    job_limits: JobLimits = field(default_factory=JobLimits)
    upload_deadline: float = 900.0
    max_connections: int = 1000
    max_per_address: int = 64
    failed_retention_hours: float = 24.0
