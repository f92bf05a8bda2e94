"""Builds the compiled modules of ``meeple/_build.py`` with Cython from their ``.py`` source
(the rest of the install is declared in ``pyproject.toml``).

With ``MEEPLE_PURE_PYTHON=1``, without Cython, or where the C compiler fails, it installs the
pure-Python package instead: the same source, the same behaviour, slower.
"""

from __future__ import annotations

import os
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

BUILD = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "meeple",
                                    "_build.py"))
PURE = os.environ.get(BUILD["PURE_ENV"], "") not in ("", "0")


class OptionalBuildExt(build_ext):
    """``build_ext`` that translates the sources with Cython first, and falls back to the
    pure-Python package when Cython or the C compiler is missing or fails."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            from Cython.Build import cythonize

            translated = cythonize(
                self.extensions,
                build_dir="build/cython",  # the generated C, out of the source tree
                language_level=3,
                # the annotations are checked by mypy and never change what the code does:
                # an int annotation still takes a numpy integer, as the pure source does
                compiler_directives={"annotation_typing": False, "infer_types": False,
                                     "binding": True},
                quiet=True,
            )
            for ext, c in zip(self.extensions, translated, strict=True):
                ext.sources = c.sources  # the C files, on the extensions setuptools prepared
            super().run()
        except Exception as exc:  # no Cython, no compiler: the pure package still works
            print(f"meeple: the compiled modules were not built ({exc}); "
                  "installing the pure-Python package", file=sys.stderr)

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"meeple: {ext.name} was not compiled ({exc}); meeple runs as pure Python",
                  file=sys.stderr)


EXTENSIONS = [] if PURE else [
    # no debug symbols, and -O1: a third of the compile time of Python's -O3 -g (built once
    # per interpreter on every install), for code that spends its time in CPython's calls
    Extension(BUILD["module_name"](source), [source], extra_compile_args=["-O1", "-g0"])
    for source in BUILD["COMPILED"]
]

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": OptionalBuildExt})
