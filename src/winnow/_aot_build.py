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
alone.  Each compiled function releases the GIL while it runs, as
``nogil=True`` kernels do under the JIT (numba's ahead-of-time compiler
offers no option for it: its compile flags are given it here).  This file
imports nothing from winnow at its top, so that a build can load it by path.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import types
from pathlib import Path
from typing import Any

PACKAGE = "winnow"
MODULE = "_aot_kernels"
SIGNATURES = "kernel_signatures.json"


def build(package_dir: Path) -> list[Path]:
    """Compile the kernels of the package in ``package_dir`` (``.../winnow``);
    returns the files written there (the extension module, its manifest)."""
    package_dir = package_dir.resolve()
    spec = json.loads((package_dir / SIGNATURES).read_text(encoding="utf-8"))["kernels"]
    os.environ["WINNOW_KERNELS"] = "jit"  # the kernels' modules decorate with numba here
    _bare_packages(package_dir, spec)
    from numba.core import types as nt

    cc = _compiler(package_dir)
    exports: dict[str, list[Any]] = {}
    number = 0
    for module_name, kernels in spec.items():
        module = importlib.import_module(module_name)
        for name, signatures in kernels.items():
            dispatcher = getattr(module, name)
            for signature in signatures:
                args = [_numba_type(nt, a) for a in signature["args"]]
                exported = f"k{number}_{name.lstrip('_')}"
                number += 1
                cc.export(exported, _numba_type(nt, signature["returns"])(*args))(
                    dispatcher.py_func)
                exports.setdefault(f"{module_name}:{name}", []).append(
                    [exported, [_key(a) for a in signature["args"]]])
    cc.compile()
    manifest = {"sources": _sources(package_dir), "exports": exports}
    written = [Path(p) for p in package_dir.glob(f"{MODULE}.*") if p.suffix != ".json"]
    target = package_dir / f"{MODULE}.json"
    target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [*written, target]


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


def _compiler(package_dir: Path) -> Any:
    """Numba's ahead-of-time compiler for :data:`MODULE` in ``package_dir``,
    for this machine's CPU, its functions releasing the GIL.

    Two of numba's defaults are replaced for this: the flags each export is
    compiled with (its ``Flags()``) say to release the GIL, and each export
    is compiled with a copy of them: with the one object numba passes every
    export, one export's compile changed how a later one was typed (the
    front-end's ``scan`` then failed to type once ``_string_at`` had been
    compiled before it).
    """
    import warnings

    numba_compiler: Any = importlib.import_module("numba.core.compiler")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc: pending deprecation, still the tool
        pycc: Any = importlib.import_module("numba.pycc")
        compiler: Any = importlib.import_module("numba.pycc.compiler")

    def flags_without_gil() -> Any:
        flags = numba_compiler.Flags()
        flags.release_gil = True
        return flags

    compile_extra = compiler.compile_extra

    def compile_alone(*args: Any, **kwargs: Any) -> Any:
        return compile_extra(*args[:5], args[5].copy(), *args[6:], **kwargs)

    compiler.Flags = flags_without_gil  # its only use: the flags of the exports
    compiler.compile_extra = compile_alone
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


def _sources(package_dir: Path) -> dict[str, str]:
    """SHA-256 of every file of the package imported to compile the kernels."""
    out = {}
    for name, module in sorted(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path and (name == PACKAGE or name.startswith(PACKAGE + ".")):
            relative = Path(path).resolve().relative_to(package_dir)
            out[str(relative)] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    out[SIGNATURES] = hashlib.sha256((package_dir / SIGNATURES).read_bytes()).hexdigest()
    return out


def main() -> None:
    for path in build(Path(__file__).resolve().parent):
        print(path)


if __name__ == "__main__":
    main()
