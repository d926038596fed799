"""``winnow serve``: a self-hosted MOSS (the work is in :mod:`winnow.serve`)."""

from __future__ import annotations

import asyncio
import errno
import importlib.util
import logging
from pathlib import Path

import click

from winnow.errors import MissingExtra, WinnowError
from winnow.serve.intake import Limits
from winnow.serve.settings import DEFAULT_DATA, Settings
from winnow.serve.workers import JobLimits

_MIB = 1 << 20

#: The library's settings are the CLI's defaults (their module needs no aiohttp).
_DEFAULTS = Settings(DEFAULT_DATA)
_LIMITS, _JOB_LIMITS = _DEFAULTS.limits, _DEFAULTS.job_limits


@click.command("serve")
@click.option("--host", default=_DEFAULTS.host, show_default=True,
              help="Address both ports bind to (0.0.0.0: every interface).")
@click.option("--moss-port", type=click.IntRange(0, 65535), default=_DEFAULTS.moss_port,
              show_default=True,
              help="Port of the MOSS submission protocol (0 = any free port).")
@click.option("--http-port", type=click.IntRange(0, 65535), default=_DEFAULTS.http_port,
              show_default=True,
              help="Port of the reports, the JSON API and the upload page.")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path),
              default=DEFAULT_DATA, show_default=True,
              help="Folder keeping the jobs, their reports and the users' secrets.")
@click.option("--url", metavar="URL",
              help="Base URL of the reports in answers (default http://HOST:HTTP_PORT).")
@click.option("--workers", type=click.IntRange(1), default=_DEFAULTS.workers, show_default=True,
              help="Jobs compared at once (one process each).")
@click.option("--users", "users_file", type=click.Path(dir_okay=False, path_type=Path),
              help="File of the user ids allowed to submit, one per line, '#' starts a "
                   "comment (default: any).")
@click.option("--issue-secret", metavar="USER", multiple=True,
              help="Print a new secret for USER (replacing the old one) and exit; "
                   "winnow-admin is the admin.")
@click.option("--revoke-secret", metavar="USER", multiple=True,
              help="Remove USER's secret and exit.")
@click.option("--max-file-mb", type=click.FloatRange(0, min_open=True),
              default=_LIMITS.max_file_bytes / _MIB,
              show_default=True, help="Largest file accepted, in MiB.")
@click.option("--max-files", type=click.IntRange(1), default=_LIMITS.max_files,
              show_default=True,
              help="Most files in one job.")
@click.option("--max-job-mb", type=click.FloatRange(0, min_open=True),
              default=_LIMITS.max_job_bytes / _MIB,
              show_default=True, help="Most bytes in one job, in MiB.")
@click.option("--job-seconds", type=click.FloatRange(0),
              default=_JOB_LIMITS.wall_seconds, show_default=True,
              help="Wall time one job may take before it is failed (0 = no limit).")
@click.option("--job-memory-mb", type=click.IntRange(0),
              default=_JOB_LIMITS.memory_bytes // _MIB, show_default=True,
              help="Memory one job's worker may use before the job is failed (0 = no "
                   "limit).")
@click.option("--reply-wait", type=click.FloatRange(0), default=_DEFAULTS.reply_wait,
              show_default=True,
              help="Seconds a MOSS client's answer waits for the report before the URL "
                   "is sent anyway (its page then shows the job's progress).")
@click.option("--idle-timeout", type=click.FloatRange(0, min_open=True),
              default=_DEFAULTS.idle_timeout,
              show_default=True, help="Drop a connection silent for this many seconds.")
@click.option("--upload-deadline", type=click.FloatRange(0, min_open=True),
              default=_DEFAULTS.upload_deadline,
              show_default=True, help="Drop a connection whose upload takes longer than "
                                      "this many seconds in all.")
@click.option("--max-connections", type=click.IntRange(1),
              default=_DEFAULTS.max_connections, show_default=True,
              help="Open connections on both ports together (lowered to fit the "
                   "descriptor limit).")
@click.option("--max-per-address", type=click.IntRange(1),
              default=_DEFAULTS.max_per_address, show_default=True,
              help="Open connections from one client address.")
@click.option("--retention-days", type=click.FloatRange(0),
              default=_DEFAULTS.retention_days, show_default=True,
              help="Delete jobs older than this many days (0 = keep them).")
@click.option("--failed-retention-hours", type=click.FloatRange(0),
              default=_DEFAULTS.failed_retention_hours,
              show_default=True, help="Delete uploads that failed (never ran) after this "
                                      "many hours (0 = keep them).")
def serve_command(host: str, moss_port: int, http_port: int, data: Path, url: str | None,
                  workers: int, users_file: Path | None, issue_secret: tuple[str, ...],
                  revoke_secret: tuple[str, ...], max_file_mb: float, max_files: int,
                  max_job_mb: float, job_seconds: float, job_memory_mb: int,
                  reply_wait: float, idle_timeout: float, upload_deadline: float,
                  max_connections: int, max_per_address: int, retention_days: float,
                  failed_retention_hours: float) -> None:
    """Run a self-hosted MOSS: MOSS clients submit, reports are served over HTTP.

    Speaks MOSS's submission protocol (moss.pl, mosspy: change only the host
    name and port) and answers each query with the URL of its HTML report.
    Jobs are kept under --data and survive a restart.  Binds 127.0.0.1 unless
    --host says otherwise.  Listing a user's jobs needs the user's secret
    (--issue-secret).  Protocol, routes, limits and threat model:
    docs/serve.md.  Needs the serve extra: pip install -e '.[serve]' in winnow's
    source folder.
    """
    if importlib.util.find_spec("aiohttp") is None:
        raise MissingExtra.of("serve", "winnow serve")

    from winnow.serve.access import Secrets, read_users

    if issue_secret or revoke_secret:
        secrets = Secrets(data)
        for user in issue_secret:
            click.echo(f"{user} {secrets.issue(user)}")
        for user in revoke_secret:
            click.echo(f"{user} {'revoked' if secrets.revoke(user) else 'had no secret'}")
        return

    from winnow.serve.app import serve

    logging.basicConfig(level=logging.INFO, format="winnow serve: %(message)s")
    limits = Limits(int(max_file_mb * _MIB), max_files, int(max_job_mb * _MIB))
    settings = Settings(
        data, host, moss_port, http_port, url, workers, reply_wait, idle_timeout,
        retention_days, read_users(users_file) if users_file else None, limits,
        JobLimits(job_seconds, job_memory_mb * _MIB), upload_deadline, max_connections,
        max_per_address, failed_retention_hours)

    def ready(moss: int, http: int, base: str) -> None:
        click.echo(f"winnow serve: MOSS protocol on {host}:{moss}, reports on {base}/",
                   err=True)

    try:
        asyncio.run(serve(settings, ready))
    except OSError as error:  # the one likely cause named, with the fix
        if error.errno != errno.EADDRINUSE:
            raise
        raise WinnowError(f"{host}: port {moss_port} or {http_port} is in use (another "
                          "server?); choose others with --moss-port/--http-port") from error
