"""``winnow serve``: a self-hosted MOSS.

MOSS clients (``moss.pl``, ``mosspy`` ...) submit over MOSS's TCP protocol
(:mod:`winnow.serve.protocol`); each submission becomes a job kept on disk
(:mod:`winnow.serve.store`), compared by a pool of worker processes with the
same library calls as ``winnow compare`` (:mod:`winnow.serve.jobs`), and its
HTML report is served over HTTP with a small JSON API (:mod:`winnow.serve.http`).
:mod:`winnow.serve.app` runs both on one asyncio loop.
"""
