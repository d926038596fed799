"""Compile winnow's kernels ahead of time into one extension module.

Run by the package build (``hatch_build.py``, when ``pip install`` builds
winnow) and by hand as ``python src/winnow/_aot_build.py`` from a checkout:
it compiles every kernel of ``kernel_signatures.json`` for the argument
types listed there with numba's ahead-of-time compiler (``numba.pycc``, for
this machine's CPU, as the JIT compiles), into ``_aot_kernels`` beside this
file, and writes ``_aot_kernels.json``: which exported function is which
kernel for which argument types, and the SHA-256 of every source file the
kernels were compiled from.  :mod:`winnow.compiled` uses the module only
while those sources are unchanged.

The kernels' modules are imported without the packages' ``__init__``
modules (which load the rest of winnow): the build needs numba and numpy
alone.  A kernel declared ``nogil=True`` releases the GIL while it runs, as
under the JIT (numba's ahead-of-time compiler offers no option for it: its
compile flags are given it here).  This file imports nothing from winnow at
its top, so that a build can load it by path.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

PACKAGE = "winnow"
MODULE = "_aot_kernels"
SIGNATURES = "kernel_signatures.json"


def build(package_dir: Path) -> list[Path]:
    """Compile the kernels of the package in ``package_dir`` (``.../winnow``);
    returns the files written there (the extension module, its manifest).

    The manifest names the module and holds its SHA-256, the CPU it was
    compiled for (``winnow.compiled.cpu_signature``: the module is compiled for
    this machine's CPU), numba's version, and the SHA-256 of every source the
    kernels were compiled from, read before compiling (a file edited meanwhile
    makes the build stale, not current).  The modules of earlier builds are
    deleted first: a manifest never sits beside another build's module."""
    package_dir = package_dir.resolve()
    spec = json.loads((package_dir / SIGNATURES).read_text(encoding="utf-8"))["kernels"]
    for earlier in package_dir.glob(f"{MODULE}.*"):
        earlier.unlink()
    os.environ["WINNOW_KERNELS"] = "jit"  # the kernels' modules decorate with numba here
    _bare_packages(package_dir, spec)
    modules = {name: importlib.import_module(name) for name in spec}
    compiled = sys.modules[f"{PACKAGE}.compiled"]
    sources = _sources(package_dir, compiled.source_digest)
    import numba
    from numba.core import types as nt

    exports: dict[str, list[Any]] = {}
    entries: list[tuple[str, Any, Any]] = []
    for module_name, kernels in spec.items():
        for name, signatures in kernels.items():
            dispatcher = getattr(modules[module_name], name)
            for signature in signatures:
                exported = f"k{len(entries)}_{name.lstrip('_')}"
                args = [_numba_type(nt, a) for a in signature["args"]]
                entries.append((exported, _numba_type(nt, signature["returns"])(*args),
                                dispatcher))
                exports.setdefault(f"{module_name}:{name}", []).append(
                    [exported, [_key(a) for a in signature["args"]]])
    cc = _compiler(package_dir, {d.py_func: bool(d.targetoptions.get("nogil"))
                                 for _, _, d in entries})
    for exported, signature, dispatcher in entries:
        cc.export(exported, signature)(dispatcher.py_func)
    with tempfile.TemporaryDirectory(prefix="winnow-aot-") as scratch:
        saved, tempfile.tempdir = tempfile.tempdir, scratch  # numba leaves folders there
        try:
            cc.compile()
        finally:
            tempfile.tempdir = saved
    written = [p for p in package_dir.glob(f"{MODULE}.*") if p.suffix != ".json"]
    if len(written) != 1:
        raise RuntimeError(f"expected one compiled module, found {written}")
    manifest = {"module": written[0].name, "module_sha256": compiled.source_digest(written[0]),
                "cpu": compiled.cpu_signature(), "numba": numba.__version__,
                "sources": sources, "exports": exports}
    target = package_dir / f"{MODULE}.json"
    target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [written[0], target]


def _bare_packages(package_dir: Path, spec: dict[str, Any]) -> None:
    """Empty modules for ``winnow`` and the subpackages that hold kernels,
    with their paths, so that importing a kernel module runs no ``__init__``."""
    root = package_dir.parent
    for module_name in spec:
        parts = module_name.split(".")[:-1]
        for depth in range(1, len(parts) + 1):
            name = ".".join(parts[:depth])
            if name not in sys.modules:
                bare = types.ModuleType(name)
                bare.__path__ = [str(root.joinpath(*parts[:depth]))]
                sys.modules[name] = bare


def _compiler(package_dir: Path, nogil: dict[Any, bool]) -> Any:
    """Numba's ahead-of-time compiler for :data:`MODULE` in ``package_dir``,
    for this machine's CPU.

    Numba compiles every export with one flags object, which holds the GIL
    around the call; each export is compiled here with a copy of it instead,
    releasing the GIL where the kernel was declared ``nogil`` (``nogil``:
    by function): with the one object, one export's compile changed how a
    later one was typed (the front-end's ``scan`` failed to type once
    ``_string_at`` had been compiled before it).
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc: pending deprecation, still the tool
        pycc: Any = importlib.import_module("numba.pycc")
        compiler: Any = importlib.import_module("numba.pycc.compiler")

    compile_extra = compiler.compile_extra

    def compile_alone(*args: Any, **kwargs: Any) -> Any:
        flags = args[5].copy()
        flags.release_gil = nogil.get(args[2], False)
        return compile_extra(*args[:5], flags, *args[6:], **kwargs)

    compiler.compile_extra = compile_alone  # how numba.pycc compiles each export
    cc = pycc.CC(MODULE)
    cc.output_dir = str(package_dir)
    cc.target_cpu = "host"
    cc.verbose = False
    return cc


def _numba_type(nt: Any, encoded: list[Any]) -> Any:
    kind = encoded[0]
    if kind == "array":
        _, dtype, ndim, layout, readonly = encoded
        return nt.Array(getattr(nt, _scalar(dtype)), ndim, layout, readonly=readonly)
    if kind == "tuple":
        return nt.Tuple([_numba_type(nt, t) for t in encoded[1]])
    if kind == "none":
        return nt.none
    return getattr(nt, _scalar(encoded[1]))


def _scalar(name: str) -> str:
    return "boolean" if name == "bool" else name


def _key(encoded: list[Any]) -> Any:
    """The runtime key of an argument type (``winnow.compiled.type_key``)."""
    if encoded[0] == "array":
        return encoded[1:]
    return encoded[1]


def _sources(package_dir: Path, digest: Any) -> dict[str, str]:
    """The digest (``winnow.compiled.source_digest``, what a run checks) of
    every file of the package imported to compile the kernels, of the
    signatures and of this build script."""
    paths = [Path(str(module.__file__)) for name, module in sorted(sys.modules.items())
             if (name == PACKAGE or name.startswith(PACKAGE + "."))
             and getattr(module, "__file__", None)]
    paths += [package_dir / SIGNATURES, Path(__file__)]
    return {str(path.resolve().relative_to(package_dir)): digest(path) for path in paths}


def main() -> None:
    here = Path(__file__).resolve().parent
    if sys.path and Path(sys.path[0] or ".").resolve() == here:
        del sys.path[0]  # the package's own modules (config, errors...) shadow nothing
    for path in build(here):
        print(path)


if __name__ == "__main__":
    main()
