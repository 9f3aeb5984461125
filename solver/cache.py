"""The per-user cache folder, shared by the dictionary cache and the compiled kernels.

``$LETTERCHESS_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/letterchess``, else
``~/.cache/letterchess``. Nothing the project caches is ever written inside the installed
package: an installation may be read-only, and files pip did not install are left behind by
``pip uninstall`` (a leftover ``solver/__pycache__`` turns into a namespace package that hides a
later install).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir() -> Path:
    """The project's cache root (it may not exist yet)."""
    explicit = os.environ.get("LETTERCHESS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    # The XDG spec says to ignore a relative XDG_CACHE_HOME.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "letterchess"
