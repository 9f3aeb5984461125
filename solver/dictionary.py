"""Word lists: loading, validation, an on-disk cache, and a flat form for numba kernels.

A :class:`Dictionary` holds one word list in two forms:

* a :class:`marisa_trie.Trie` for the Python side (membership, prefixes, word ids), and
* a :class:`KernelDictionary` of flat numpy arrays for the numba side, built lazily.

Word lists
----------
The default list, ``scowl-70``, ships as package data (``solver.data``, the top-level
``data/`` folder of the repository): SCOWL's ``english-words.N`` and ``american-words.N``
for every size N up to 70, keeping only words of lower-case letters a-z with at least three
letters, deduplicated and sorted, gzip-compressed. ``python -m solver.dictionary
build-default`` rebuilds it byte for byte from the Debian package ``scowl``.

A user list is a text file (UTF-8, optionally gzip-compressed) with one word per line, in
any case. Surrounding whitespace is stripped; blank lines and lines whose first character is
``#`` are ignored. A line with any character other than the letters a-z / A-Z is skipped and
remembered, with its line number, in :attr:`Dictionary.skipped`. Words are stored
lower-case and duplicates collapse. Words of any length >= 1 are kept: the minimum word
length is a rule option, applied elsewhere.

The identity of a list is :attr:`Dictionary.sha256`: the hex SHA-256 of its words, sorted
(Python's code-point order, which for a-z is plain alphabetical order), each followed by a
newline, encoded as UTF-8, i.e. ``sha256(("\\n".join(sorted_words) + "\\n").encode())``. It
does not depend on the file's comments, case, order, duplicates or compression, and is what
game records store.

Cache
-----
Building the trie is cheap, but parsing, sorting and hashing the list and building the
kernel arrays are not free, so both forms are cached on disk, in
``$LETTERCHESS_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/letterchess``, else
``~/.cache/letterchess``. A cache entry is keyed by the SHA-256 of the list file's raw bytes
(compressed bytes for a ``.gz`` file) together with :data:`CACHE_FORMAT`, so that a warm
load reads and hashes the small file but never parses or sorts it. An entry is three files:

* ``dictionary-<key>.marisa``: the trie, as written by marisa-trie;
* ``dictionary-<key>.json``: the list's sha256, word count, skipped lines and the sha256 of
  the trie file (checked on load, so a damaged or mismatched trie file is rebuilt);
* ``dictionary-<key>.arrays.npz``: the kernel arrays, written on first use of
  :attr:`Dictionary.arrays`, carrying the sha256 of the trie they were built from (word ids
  are the trie's, so arrays must never be paired with another trie).

Every file is written to a temporary file in the same directory and moved into place with
:func:`os.replace`, which is atomic: a concurrent reader sees the old file, the new file or
no file, never half a file. Two processes building the same entry at once both write
identical content. If the cache directory cannot be created or written, the dictionary lives
in memory only (:attr:`Dictionary.cache_path` is ``None``). Entries are never evicted; one
costs about 4 MB for the default list.

Kernel form
-----------
:class:`KernelDictionary` is the uncompressed trie of the words in *arc form*, one packed
``int64`` per node (per distinct prefix), nodes in breadth-first order with the children of
each node contiguous and sorted by letter, and beside it ``word_ids`` (``int32``), the id of
the word ending at each node or -1; the ids are marisa-trie's (``trie[word]``), so a kernel
can report an id and Python maps it back with :meth:`Dictionary.word`. The node layout and
every function that reads it live in :mod:`solver.kernels.trie`, and only there.

Why an uncompressed trie and not a DAWG/KWG: merging common suffixes would shrink the
default list from 274,624 nodes to 46,313 (about six times fewer), but then a terminal node
no longer identifies one word: word ids would have to be accumulated along the walk
(perfect-hash style) and carried through the kernel's DFS, and mapped to marisa-trie's ids
by one more array. The plain trie takes 12 bytes a node, 3.3 MB for the default list: small
enough to sit in the CPU's caches for the hot upper levels, and the simplest thing for a
kernel to carry. A walk costs about 2 ns per letter on this machine (see
``benchmarks/DICTIONARY.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import hashlib
import io
import json
import os
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import marisa_trie
import numpy as np

from .cache import cache_dir
from .inputs import MAX_WORD_LIST_BYTES, read_bytes
from .kernels.trie import ROOT, NodeSummaries, lookup, node_summaries, pack_nodes

__all__ = [
    "CACHE_FORMAT",
    "DEFAULT_NAME",
    "DEFAULT_SHA256",
    "DEFAULT_WORDS",
    "ROOT",
    "Dictionary",
    "DictionaryError",
    "KernelDictionary",
    "build_default_list",
    "cache_dir",
    "load_dictionary",
    "lookup_word_id",
]

#: Name of the default list, as written in game records.
DEFAULT_NAME = "scowl-70"
#: File name of the default list inside the ``solver.data`` package.
DEFAULT_FILE = "scowl-70.txt.gz"
#: File name of SCOWL's copyright and permission notice inside ``solver.data``.
DEFAULT_COPYRIGHT_FILE = "SCOWL-COPYRIGHT"
#: Number of words in the default list.
DEFAULT_WORDS = 111_474
#: :attr:`Dictionary.sha256` of the default list.
DEFAULT_SHA256 = "2334c24413a74ad41c054fba2e0e7ce7b43a5c06d7519d54976c939eec5d64dc"

#: Where the Debian package ``scowl`` puts its lists and its copyright file.
SCOWL_DIR = "/usr/share/dict/scowl"
SCOWL_COPYRIGHT = "/usr/share/doc/scowl/copyright"
#: The SCOWL lists and sizes that make up the default list.
SCOWL_LISTS = ("english-words", "american-words")
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70)
#: Shortest word kept in the default list (user lists keep every length).
DEFAULT_MIN_LENGTH = 3

#: Version of the cache layout and of the kernel array layout: bump it whenever either
#: changes, so that old cache entries are ignored instead of misread.
CACHE_FORMAT = 1


class DictionaryError(ValueError):
    """A word list cannot be used; the message is one line naming the file."""


class KernelDictionary(NamedTuple):
    """The words as flat arrays for numba kernels (see the module docstring).

    :ivar nodes: ``int64[n]``, one packed node per distinct prefix; node :data:`ROOT` is
        the empty prefix.
    :ivar word_ids: ``int32[n]``, the marisa-trie id of the word ending at each node, or -1.
    """

    nodes: np.ndarray
    word_ids: np.ndarray

    @property
    def nbytes(self) -> int:
        """Memory taken by the arrays, in bytes."""
        return int(self.nodes.nbytes + self.word_ids.nbytes)


def _letter_codes(word: str) -> np.ndarray | None:
    """Letter codes 0..25 of ``word`` (any case), or ``None`` if it has other characters."""
    if not (word.isascii() and word.isalpha()):
        return None
    return np.frombuffer(word.lower().encode("ascii"), dtype=np.uint8).astype(np.int64) - 97


def lookup_word_id(arrays: KernelDictionary, word: str) -> int:
    """Look ``word`` up (any case) by walking the kernel arrays, as a kernel would.

    :return: its word id (the marisa-trie id), or -1 if it is not in the dictionary.
    """
    codes = _letter_codes(word)
    if codes is None:
        return -1
    return int(lookup(arrays.nodes, arrays.word_ids, codes))


def _build_kernel(sorted_words: list[str], trie: marisa_trie.Trie) -> KernelDictionary:
    """Lay the words (sorted, as in ``trie``) out as a :class:`KernelDictionary`."""
    # Walking the sorted words and creating a node for each letter past the common prefix
    # with the previous word creates the nodes in lexicographic (depth-first) order, so the
    # nodes of any one depth come out in lexicographic order too: concatenating the depths
    # gives the breadth-first order, in which the children of each node are contiguous and
    # sorted by letter, with no sorting at all. Per depth k we record, for each node, its
    # parent's position within depth k-1, its letter and its word id (-1 if none).
    parents: list[list[int]] = [[]]
    letters: list[list[int]] = [[]]
    ids: list[list[int]] = [[-1]]
    path = [0]  # position, within each depth, of the current word's prefix nodes
    previous = ""
    for word in sorted_words:
        common = 0
        limit = min(len(previous), len(word))
        while common < limit and previous[common] == word[common]:
            common += 1
        for depth in range(common + 1, len(word) + 1):
            if depth == len(parents):
                parents.append([])
                letters.append([])
                ids.append([])
                path.append(0)
            parents[depth].append(path[depth - 1])
            letters[depth].append(ord(word[depth - 1]) - 97)
            ids[depth].append(-1)
            path[depth] = len(ids[depth]) - 1
        ids[len(word)][path[len(word)]] = trie.key_id(word)
        previous = word

    # Global index = offset of the depth + position within it.
    offsets = np.cumsum([0] + [len(level) for level in ids])
    count = int(offsets[-1])
    word_ids = np.concatenate([np.asarray(level, dtype=np.int32) for level in ids])
    parent = np.concatenate(
        [np.asarray(parents[d], dtype=np.int64) + offsets[d - 1] for d in range(1, len(ids))]
    )
    letter = np.concatenate([np.asarray(level, dtype=np.int64) for level in letters[1:]])
    mask = np.zeros(count, dtype=np.int64)
    np.bitwise_or.at(mask, parent, np.int64(1) << letter)
    # Node i (i >= 1) has parent[i - 1]; parents never decrease along the order, so a
    # node's first child is where it first appears as a parent.
    first = np.zeros(count, dtype=np.int64)
    with_children, start = np.unique(parent, return_index=True)
    first[with_children] = start + 1
    try:
        nodes = pack_nodes(mask, word_ids >= 0, first)
    except ValueError as error:
        raise DictionaryError(f"word list too large for the kernel layout: {error}") from None
    return KernelDictionary(nodes=nodes, word_ids=word_ids)


# ---------------------------------------------------------------------------------------
# Parsing and hashing


def _parse_lines(lines: Iterable[str], comments: bool) -> tuple[set[str], list[tuple[int, str]]]:
    """Valid words (lower-case) and skipped lines ``(line number, text)`` of a word list."""
    words: set[str] = set()
    skipped: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or (comments and text.startswith("#")):
            continue
        # isascii() and isalpha() together accept exactly a-z and A-Z.
        if text.isascii() and text.isalpha():
            words.add(text.lower())
        else:
            skipped.append((number, text))
    return words, skipped


def _decode(raw: bytes, origin: str) -> str:
    """Text of a word-list file: gunzip if gzip-compressed, UTF-8 (with or without BOM)."""
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unzipped:
                # Read one byte past the cap, so that a gzip bomb cannot fill the memory.
                raw = unzipped.read(MAX_WORD_LIST_BYTES + 1)
        except (OSError, EOFError) as error:
            raise DictionaryError(f"{origin}: not a valid gzip file ({error})") from None
        if len(raw) > MAX_WORD_LIST_BYTES:
            raise DictionaryError(f"{origin}: unzips to more than a word list can hold")
    # Undecodable bytes become U+FFFD, so such a line is skipped and reported like any
    # other line with a character outside a-z, instead of failing the whole file.
    return raw.decode("utf-8-sig", errors="replace")


def _words_sha256(sorted_words: list[str]) -> str:
    """:attr:`Dictionary.sha256` of a sorted word list."""
    return hashlib.sha256(("\n".join(sorted_words) + "\n").encode("utf-8")).hexdigest()


def _skipped_summary(skipped: list[tuple[int, str]], limit: int = 3) -> str:
    shown = ", ".join(f"line {number} {text[:40]!r}" for number, text in skipped[:limit])
    more = f" and {len(skipped) - limit} more" if len(skipped) > limit else ""
    plural = "s" if len(skipped) != 1 else ""
    return f"{len(skipped)} line{plural} with characters other than a-z skipped: {shown}{more}"


# ---------------------------------------------------------------------------------------
# Cache


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and :func:`os.replace`."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        # Leave no temporary file behind, whatever went wrong.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class _Cached(NamedTuple):
    """What a cache entry holds."""

    trie: marisa_trie.Trie
    sha256: str
    skipped: list[tuple[int, str]]
    trie_sha256: str


class _CacheEntry:
    """The files of one cache entry (see the module docstring)."""

    def __init__(self, directory: Path, key: str) -> None:
        stem = f"dictionary-{key}"
        self.trie = directory / f"{stem}.marisa"
        self.meta = directory / f"{stem}.json"
        self.arrays = directory / f"{stem}.arrays.npz"

    def read(self) -> _Cached | None:
        """The cached entry, or ``None`` if it is absent or unusable (then it is rebuilt)."""
        try:
            meta = json.loads(self.meta.read_text(encoding="utf-8"))
            data = self.trie.read_bytes()
        except (OSError, ValueError):
            return None
        trie_sha = hashlib.sha256(data).hexdigest()
        if not isinstance(meta, dict) or meta.get("format") != CACHE_FORMAT:
            return None
        if meta.get("trie_sha256") != trie_sha:
            return None
        try:
            trie = marisa_trie.Trie().frombytes(data)
            skipped = [(int(number), str(text)) for number, text in meta["skipped"]]
            sha256 = str(meta["sha256"])
        except Exception:  # marisa raises bare RuntimeErrors; bad JSON fields, Key/TypeError
            return None
        if len(trie) != meta.get("words"):
            return None
        return _Cached(trie, sha256, skipped, trie_sha)

    def write(self, trie_bytes: bytes, meta: dict) -> bool:
        """Store an entry; the trie goes first, so the metadata always finds it."""
        try:
            self.trie.parent.mkdir(parents=True, exist_ok=True)
            _atomic_write(self.trie, trie_bytes)
            _atomic_write(self.meta, json.dumps(meta, indent=1).encode("utf-8"))
        except OSError:
            return False
        return True

    def read_arrays(self, trie_sha: str) -> KernelDictionary | None:
        try:
            with np.load(self.arrays, allow_pickle=False) as npz:
                if str(npz["trie_sha256"]) != trie_sha or int(npz["format"]) != CACHE_FORMAT:
                    return None
                nodes, word_ids = npz["nodes"], npz["word_ids"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            # Absent, truncated or not ours (zipfile checks the members' CRCs as it reads).
            return None
        if nodes.dtype != np.int64 or word_ids.dtype != np.int32 or nodes.shape != word_ids.shape:
            return None
        return KernelDictionary(nodes=nodes, word_ids=word_ids)

    def write_arrays(self, arrays: KernelDictionary, trie_sha: str) -> bool:
        buffer = io.BytesIO()
        np.savez(
            buffer,
            nodes=arrays.nodes,
            word_ids=arrays.word_ids,
            trie_sha256=np.array(trie_sha),
            format=np.array(CACHE_FORMAT),
        )
        try:
            _atomic_write(self.arrays, buffer.getvalue())
        except OSError:
            return False
        return True


# ---------------------------------------------------------------------------------------
# Dictionary


class Dictionary:
    """A word list: membership, prefixes and word ids, plus the kernel arrays.

    Build one with :meth:`default`, :meth:`from_file` or :meth:`from_words`, not directly.

    :ivar name: ``"scowl-70"`` for the default list, else the file's stem (``.gz`` and
        one more suffix removed) or the name given to :meth:`from_words`.
    :ivar sha256: hex SHA-256 of the sorted word list (see the module docstring).
    :ivar source: where the list came from: a path, ``"package data: ..."`` or ``"memory"``.
    :ivar skipped: ``(line number, text)`` of each line skipped for having characters
        other than letters (1-based line numbers; for :meth:`from_words`, positions).
    :ivar cache_path: path of the cached trie file, or ``None`` when memory-only.
    :ivar loaded_from_cache: whether the trie came from the disk cache.
    """

    name: str
    sha256: str
    source: str
    skipped: list[tuple[int, str]]
    cache_path: str | None
    loaded_from_cache: bool

    def __init__(
        self,
        *,
        name: str,
        source: str,
        trie: marisa_trie.Trie,
        sha256: str,
        skipped: list[tuple[int, str]],
        cache: _CacheEntry | None,
        trie_sha256: str,
        loaded_from_cache: bool,
        sorted_words: list[str] | None = None,
    ) -> None:
        self.name = name
        self.source = source
        self.sha256 = sha256
        self.skipped = skipped
        self.cache_path = str(cache.trie) if cache is not None else None
        self.loaded_from_cache = loaded_from_cache
        self._trie = trie
        self._cache = cache
        self._trie_sha256 = trie_sha256
        self._sorted_words = sorted_words
        self._arrays: KernelDictionary | None = None
        self._summaries: NodeSummaries | None = None

    # --- construction ------------------------------------------------------------------

    @classmethod
    def default(cls) -> Dictionary:
        """The default list, ``scowl-70``, loaded once per process."""
        return _default_dictionary()

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Dictionary:
        """Load a word-list file (see the module docstring for the format).

        :raises DictionaryError: if the file cannot be read or has no usable word.
        """
        try:
            raw = read_bytes(path, "word list", MAX_WORD_LIST_BYTES)
        except OSError as error:
            raise DictionaryError(str(error)) from None
        path = Path(path)
        name = path.name.removesuffix(".gz")
        name = Path(name).stem or name
        return cls._load(raw, name=name, source=str(path))

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "custom") -> Dictionary:
        """A dictionary of the given words, in memory only (no disk cache).

        The words follow the file rules (any case, letters only; others are skipped and
        listed in :attr:`skipped` by 1-based position), except that ``#`` has no meaning.

        :raises DictionaryError: if there is no usable word.
        """
        found, skipped = _parse_lines(words, comments=False)
        return cls._build(found, skipped, name=name, source="memory", origin=name, cache=None)

    @classmethod
    def _load(cls, raw: bytes, *, name: str, source: str) -> Dictionary:
        """Load a list from its file's bytes, through the disk cache."""
        key = hashlib.sha256(f"letterchess-dictionary-{CACHE_FORMAT}\n".encode() + raw)
        cache = _CacheEntry(cache_dir(), key.hexdigest())
        cached = cache.read()
        if cached is not None:
            return cls(
                name=name,
                source=source,
                trie=cached.trie,
                sha256=cached.sha256,
                skipped=cached.skipped,
                cache=cache,
                trie_sha256=cached.trie_sha256,
                loaded_from_cache=True,
            )
        # split("\n"), not splitlines(): line numbers must match an editor's, and splitlines()
        # also breaks at form feeds, U+0085 and other rare separators.
        words, skipped = _parse_lines(_decode(raw, source).split("\n"), comments=True)
        return cls._build(words, skipped, name=name, source=source, origin=source, cache=cache)

    @classmethod
    def _build(
        cls,
        words: set[str],
        skipped: list[tuple[int, str]],
        *,
        name: str,
        source: str,
        origin: str,
        cache: _CacheEntry | None,
    ) -> Dictionary:
        """Build the trie from parsed words and store it in ``cache`` if possible."""
        if not words:
            detail = f"; {_skipped_summary(skipped)}" if skipped else ""
            raise DictionaryError(f"{origin}: no usable word in the word list{detail}")
        sorted_words = sorted(words)
        sha256 = _words_sha256(sorted_words)
        trie = marisa_trie.Trie(sorted_words)
        trie_bytes = trie.tobytes()
        trie_sha = hashlib.sha256(trie_bytes).hexdigest()
        if cache is not None:
            meta = {
                "format": CACHE_FORMAT,
                "sha256": sha256,
                "words": len(sorted_words),
                "trie_sha256": trie_sha,
                "skipped": skipped,
            }
            if not cache.write(trie_bytes, meta):
                cache = None  # not writable: memory only
        return cls(
            name=name,
            source=source,
            trie=trie,
            sha256=sha256,
            skipped=skipped,
            cache=cache,
            trie_sha256=trie_sha,
            loaded_from_cache=False,
            sorted_words=sorted_words,
        )

    # --- queries -------------------------------------------------------------------------

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` (any case) is in the list."""
        # The ASCII test keeps str.lower() from mapping e.g. the Kelvin sign to "k".
        return isinstance(word, str) and word.isascii() and word.lower() in self._trie

    def __len__(self) -> int:
        return len(self._trie)

    def __iter__(self) -> Iterator[str]:
        """The words, lower-case, in sorted order."""
        if self._sorted_words is None:
            self._sorted_words = sorted(self._trie.keys())
        return iter(self._sorted_words)

    def __repr__(self) -> str:
        return f"<Dictionary {self.name}: {len(self)} words, sha256 {self.sha256[:12]}>"

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with ``prefix`` (any case; a word is its own prefix)."""
        if not prefix.isascii():
            return False
        return next(self._trie.iterkeys(prefix.lower()), None) is not None

    def word_id(self, word: str) -> int:
        """The id of ``word`` (any case): its marisa-trie key id, in ``range(len(self))``.

        :raises KeyError: if the word is not in the list.
        """
        if not word.isascii():
            raise KeyError(word)
        return self._trie.key_id(word.lower())

    def word(self, word_id: int) -> str:
        """The word with id ``word_id``.

        :raises KeyError: if there is no such id.
        """
        return self._trie.restore_key(int(word_id))

    def info(self) -> dict:
        """The dictionary's entry in a game record: ``{"name", "words", "sha256"}``."""
        return {"name": self.name, "words": len(self), "sha256": self.sha256}

    def skipped_summary(self, limit: int = 3) -> str | None:
        """A one-line warning about skipped lines, or ``None`` if none was skipped."""
        if not self.skipped:
            return None
        return f"{self.source}: {_skipped_summary(self.skipped, limit)}"

    @property
    def arrays(self) -> KernelDictionary:
        """The kernel arrays, built on first use and cached on disk beside the trie."""
        if self._arrays is None:
            arrays = None
            if self._cache is not None:
                arrays = self._cache.read_arrays(self._trie_sha256)
            if arrays is None:
                arrays = _build_kernel(list(self), self._trie)
                if self._cache is not None:
                    self._cache.write_arrays(arrays, self._trie_sha256)
            self._arrays = arrays
        return self._arrays

    @property
    def summaries(self) -> NodeSummaries:
        """What lies below each node of :attr:`arrays` (best tally, longest continuation,
        letters to come; :func:`solver.kernels.trie.node_summaries`), built on first use."""
        if self._summaries is None:
            self._summaries = node_summaries(self.arrays.nodes)
        return self._summaries


@functools.cache
def _default_dictionary() -> Dictionary:
    resource = resources.files("solver.data").joinpath(DEFAULT_FILE)
    try:
        raw = resource.read_bytes()
    except OSError as error:
        raise DictionaryError(f"package data {DEFAULT_FILE}: cannot read: {error}") from None
    return Dictionary._load(
        raw, name=DEFAULT_NAME, source=f"package data: solver.data/{DEFAULT_FILE}"
    )


def load_dictionary(path: str | os.PathLike[str] | None) -> Dictionary:
    """The default dictionary if ``path`` is ``None``, else the word list at ``path``."""
    if path is None:
        return Dictionary.default()
    return Dictionary.from_file(path)


# ---------------------------------------------------------------------------------------
# Building the default list from SCOWL


def _gzip_bytes(data: bytes) -> bytes:
    """Gzip ``data`` reproducibly: no file name and mtime 0 in the header."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as out:
        out.write(data)
    return buffer.getvalue()


def build_default_list(scowl_dir: str | os.PathLike[str] = SCOWL_DIR) -> tuple[bytes, int, str]:
    """The default list's file content, derived from SCOWL's lists in ``scowl_dir``.

    :return: ``(gzip bytes, word count, sha256 of the sorted list)``.
    :raises DictionaryError: if a SCOWL list is missing.
    """
    words: set[str] = set()
    for kind in SCOWL_LISTS:
        for size in SCOWL_SIZES:
            path = Path(scowl_dir) / f"{kind}.{size}"
            try:
                # SCOWL's lists are ISO-8859-1 (accented letters are single bytes).
                text = path.read_text(encoding="iso-8859-1")
            except OSError as error:
                raise DictionaryError(f"{path}: cannot read SCOWL list: {error.strerror}") from None
            for line in text.split("\n"):
                word = line.strip()
                # Lower-case a-z only: drops proper nouns, abbreviations, anything with
                # a capital, an apostrophe or an accent.
                if (
                    len(word) >= DEFAULT_MIN_LENGTH
                    and word.isascii()
                    and word.isalpha()
                    and word.islower()
                ):
                    words.add(word)
    sorted_words = sorted(words)
    content = "".join(word + "\n" for word in sorted_words).encode("ascii")
    return _gzip_bytes(content), len(sorted_words), _words_sha256(sorted_words)


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solver.dictionary", description="Maintain the default word list."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser(
        "build-default",
        help=f"rebuild {DEFAULT_FILE} and {DEFAULT_COPYRIGHT_FILE} from the Debian package scowl",
    )
    build.add_argument("--scowl-dir", default=SCOWL_DIR, help="SCOWL's lists (%(default)s)")
    build.add_argument("--copyright", default=SCOWL_COPYRIGHT, help="SCOWL's notice (%(default)s)")
    build.add_argument(
        "--output-dir",
        default=None,
        help="where to write (default: the solver.data package folder, data/ in a checkout)",
    )
    build.add_argument(
        "--check", action="store_true", help="write nothing; fail if the files differ"
    )
    args = parser.parse_args(argv)

    out_dir = Path(args.output_dir or str(resources.files("solver.data")))
    try:
        data, count, sha256 = build_default_list(args.scowl_dir)
        notice = Path(args.copyright).read_bytes()
    except (DictionaryError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{DEFAULT_NAME}: {count} words, sha256 {sha256}")
    if (count, sha256) != (DEFAULT_WORDS, DEFAULT_SHA256):
        print(
            f"note: differs from the recorded default ({DEFAULT_WORDS} words, sha256 "
            f"{DEFAULT_SHA256}); update DEFAULT_WORDS and DEFAULT_SHA256 if this is intended",
            file=sys.stderr,
        )
    targets = [(out_dir / DEFAULT_FILE, data), (out_dir / DEFAULT_COPYRIGHT_FILE, notice)]
    if args.check:
        stale = [str(p) for p, content in targets if not p.is_file() or p.read_bytes() != content]
        for name in stale:
            print(f"differs from a rebuild: {name}", file=sys.stderr)
        return 1 if stale else 0
    for path, content in targets:
        path.write_bytes(content)
        print(f"wrote {path} ({len(content)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
