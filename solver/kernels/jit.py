"""``@kernel``: numba's ``njit``, cached in a per-user folder instead of the package.

numba's own ``cache=True`` writes the compiled code next to the source, into
``solver/__pycache__``. That breaks two kinds of installation: a read-only one (a system or
container image) recompiles every kernel on every run, silently, and a writable one is left with
files pip does not know about, which survive ``pip uninstall`` and turn ``solver/`` into a
namespace package that hides any later install. So every kernel is cached under
:func:`kernel_cache_dir` instead: ``$LETTERCHESS_KERNEL_CACHE_DIR`` if set, else a folder of
:func:`solver.cache.cache_dir` named after the package, Python and numba versions (a new release
never reads an old one's code). If that folder cannot be written, kernels are compiled in memory
on every run, and nothing is written anywhere.

Only our own kernels are affected: numba's ``config.CACHE_DIR`` is set while one of them is
decorated (numba fixes a function's cache folder then) and put back at once.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast, overload

import numba
from numba.core import config as numba_config

from ..cache import cache_dir

__all__ = ["kernel", "kernel_cache_dir"]

F = TypeVar("F", bound=Callable[..., object])


def _package_version() -> str:
    from .. import __version__

    return __version__


@cache
def kernel_cache_dir() -> Path | None:
    """The folder compiled kernels are cached in, or ``None`` if it cannot be written."""
    explicit = os.environ.get("LETTERCHESS_KERNEL_CACHE_DIR")
    if explicit:
        folder = Path(explicit)
    else:
        python = f"py{sys.version_info.major}{sys.version_info.minor}"
        name = f"kernels-{_package_version()}-{python}-numba{numba.__version__}"
        folder = cache_dir() / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return None
    return folder


@overload
def kernel(func: F, *, inline: bool = False, counted: bool = True) -> F: ...


@overload
def kernel(
    func: None = None, *, inline: bool = False, counted: bool = True
) -> Callable[[F], F]: ...


def kernel(
    func: F | None = None, *, inline: bool = False, counted: bool = True
) -> F | Callable[[F], F]:
    """Compile ``func`` with ``numba.njit``, cached in :func:`kernel_cache_dir`.

    ``@kernel(inline=True)`` makes numba inline the function into every kernel that calls it
    (``inline="always"``): for the small helpers of a hot loop.

    ``@kernel(counted=False)`` compiles without numba's reference counting of arrays. Numba
    otherwise counts a reference (an atomic increment and decrement, a call each) every time
    code takes an array out of a tuple, such as the bundles of arrays a search carries: in a
    hot loop that costs more than the search itself (play generation ran four times slower).
    Only for kernels that create no array and keep none: every array comes from the caller,
    which owns it for the whole call.
    """
    if func is None:
        return lambda f: kernel(f, inline=inline, counted=counted)
    options: dict[str, Any] = {"inline": "always"} if inline else {}
    if not counted:
        options["_nrt"] = False  # numba's switch for its reference counting (runtime)
    folder = kernel_cache_dir()
    if folder is None:
        return cast(F, numba.njit(**options)(func))
    with _numba_cache_dir(str(folder)):
        return cast(F, numba.njit(cache=True, **options)(func))


@contextlib.contextmanager
def _numba_cache_dir(folder: str) -> Iterator[None]:
    # (numba's config module sets its attributes at run time, from the environment.)
    config: Any = numba_config
    saved = config.CACHE_DIR
    config.CACHE_DIR = folder
    try:
        yield
    finally:
        config.CACHE_DIR = saved
