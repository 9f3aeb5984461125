"""Tests of solver.dictionary: the default list, user lists, the cache and the kernel arrays."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from solver import dictionary as dictmod
from solver.dictionary import (
    DEFAULT_SHA256,
    DEFAULT_WORDS,
    ROOT,
    Dictionary,
    DictionaryError,
    KernelDictionary,
    build_default_list,
    cache_dir,
    load_dictionary,
    lookup_word_id,
)
from solver.kernels.trie import child, child_mask, first_child, is_word, node_summaries, word_id_at

REPO = Path(__file__).resolve().parent.parent
#: Distinct non-empty prefixes of the default list's words (= kernel nodes minus the root).
DEFAULT_PREFIXES = 274_623


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets an empty cache directory of its own."""
    monkeypatch.setenv("LETTERCHESS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def default(tmp_path_factory) -> Dictionary:
    """The default dictionary, cached (if this process loads it first) in a temporary
    directory rather than the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LETTERCHESS_CACHE_DIR", str(tmp_path_factory.mktemp("default-cache")))
        return Dictionary.default()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------
# Bulk kernel walks, compiled: a Python loop calling the kernel per string would dominate
# the run time. Not cache=True: numba's cache does not notice changes to functions called
# from another file, so a cached walk_all could keep testing an old ``child``.


def pack(strings: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Letter codes of all strings, concatenated, and the start offset of each string."""
    codes = np.frombuffer("".join(strings).encode("ascii"), dtype=np.uint8).astype(np.int64)
    starts = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in strings], out=starts[1:])
    return codes - 97, starts


@njit
def walk_all(nodes, word_ids, codes, starts):
    """For each packed string: the node reached (-1: no word has that prefix), and the word
    id there (-1: not a word) as told by ``is_word`` and ``word_id_at``, which must agree."""
    count = starts.shape[0] - 1
    reached = np.full(count, -1, dtype=np.int64)
    ids = np.full(count, -1, dtype=np.int64)
    agree = True
    for i in range(count):
        node = ROOT
        for j in range(starts[i], starts[i + 1]):
            node = child(nodes, node, codes[j])
            if node < 0:
                break
        reached[i] = node
        if node >= 0:
            ids[i] = word_id_at(word_ids, node)
            agree = agree and (is_word(nodes, node) == (ids[i] >= 0))
    return reached, ids, agree


def check_against_trie(d: Dictionary, strings: list[str]) -> np.ndarray:
    """Assert that kernel and trie agree on each string (prefix-ness and word id)."""
    arrays = d.arrays
    reached, ids, agree = walk_all(arrays.nodes, arrays.word_ids, *pack(strings))
    assert agree, "terminal bit and word_ids disagree"
    expected_ids = np.array([d.word_id(s) if s in d else -1 for s in strings])
    expected_prefix = np.array([d.has_prefix(s) for s in strings])
    mismatched = np.flatnonzero(ids != expected_ids)
    assert mismatched.size == 0, [strings[i] for i in mismatched[:10]]
    mismatched = np.flatnonzero((reached >= 0) != expected_prefix)
    assert mismatched.size == 0, [strings[i] for i in mismatched[:10]]
    return ids


# ---------------------------------------------------------------------------------------
# The default list


def test_default_list_identity(default):
    assert len(default) == DEFAULT_WORDS == 111_474
    assert default.sha256 == DEFAULT_SHA256
    assert default.info() == {"name": "scowl-70", "words": 111_474, "sha256": DEFAULT_SHA256}
    assert default.name == "scowl-70"
    assert default.source == "package data: solver.data/scowl-70.txt.gz"
    assert default.skipped == []
    assert Dictionary.default() is default  # memoised
    assert load_dictionary(None) is default


def test_default_words_are_sorted_lowercase_and_long(default):
    words = list(default)
    assert words == sorted(words)
    assert all(re.fullmatch(r"[a-z]{3,}", word) for word in words)
    digest = hashlib.sha256(("\n".join(words) + "\n").encode("utf-8")).hexdigest()
    assert digest == DEFAULT_SHA256
    for word in ("cat", "murals", "ten", "aardvark", "zoo"):
        assert word in default
    # Proper nouns, abbreviations, contractions and accented words are out.
    for word in ("paris", "nasa", "don't", "café", "cafe's"):
        assert word not in default


def test_package_data_is_installed():
    data = resources.files("solver.data")
    raw = data.joinpath("scowl-70.txt.gz").read_bytes()
    # Reproducible gzip: no file name (FNAME flag, bit 3) and mtime 0 in the header.
    assert raw[:3] == b"\x1f\x8b\x08"
    assert raw[3] & 0x08 == 0
    assert raw[4:8] == b"\0\0\0\0"
    lines = gzip.decompress(raw).decode("ascii").splitlines()
    assert len(lines) == DEFAULT_WORDS
    notice = data.joinpath("SCOWL-COPYRIGHT").read_text(encoding="utf-8")
    assert "Kevin Atkinson" in notice
    assert "Permission to use, copy, modify, distribute and sell" in notice


def test_pyproject_lists_every_subpackage():
    # packages are listed by hand (for the solver.data mapping), so a new subpackage must
    # be added there or it would be missing from installs.
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for init in (REPO / "solver").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found | {"solver.data"} <= listed
    assert config["tool"]["setuptools"]["package-dir"]["solver.data"] == "data"


# ---------------------------------------------------------------------------------------
# The kernel arrays


def test_kernel_agrees_with_trie_on_every_word(default):
    words = list(default)
    ids = check_against_trie(default, words)
    assert sorted(ids) == list(range(len(words)))  # every id once: a bijection


def test_kernel_agrees_with_trie_on_every_prefix(default):
    prefixes = sorted({word[:i] for word in default for i in range(1, len(word))})
    assert len(set(prefixes) | set(default)) == DEFAULT_PREFIXES
    ids = check_against_trie(default, prefixes)
    # Every prefix is reachable; those that are words have their ids.
    assert ((ids >= 0) == np.array([p in default for p in prefixes])).all()


def test_kernel_agrees_with_trie_on_random_strings(default):
    rng = np.random.default_rng(20240603)
    # Uniformly random strings of 1 to 9 letters (nearly all non-words, most short ones
    # are prefixes), and one-letter mutations of real words (near misses that stay deep
    # in the trie before falling off).
    lengths = rng.integers(1, 10, size=120_000)
    letters = bytes((rng.integers(0, 26, size=int(lengths.sum())) + 97).astype(np.uint8))
    ends = np.cumsum(lengths)
    strings = [letters[e - n : e].decode() for e, n in zip(ends, lengths, strict=True)]
    words = list(default)
    for index, op, pos, letter in zip(
        rng.integers(0, len(words), 100_000),
        rng.integers(0, 4, 100_000),
        rng.integers(0, 1 << 30, 100_000),
        rng.integers(0, 26, 100_000),
        strict=True,
    ):
        word, char = words[index], chr(97 + letter)
        i = pos % (len(word) + 1)
        if op == 0:
            strings.append(word[:i] + char + word[i:])  # insert
        elif op == 1:
            strings.append(word[:i] + char + word[i + 1 :])  # substitute
        elif op == 2:
            strings.append(word[:i] + word[i + 1 :])  # delete
        else:
            strings.append(word + char)  # extend
    ids = check_against_trie(default, strings)
    assert (ids < 0).sum() >= 100_000  # at least 100,000 non-words were checked


def test_kernel_size_and_layout(default):
    arrays = default.arrays
    assert isinstance(arrays, KernelDictionary)
    assert arrays.nodes.dtype == np.int64 and arrays.word_ids.dtype == np.int32
    assert len(arrays.nodes) == DEFAULT_PREFIXES + 1
    assert arrays.nbytes == 12 * len(arrays.nodes) < 16 * 2**20
    assert default.arrays is arrays  # built once
    # Breadth-first layout: first-child indices never decrease, children after parents.
    first = np.array([first_child(arrays.nodes, n) for n in range(len(arrays.nodes))])
    has_children = np.array([child_mask(arrays.nodes, n) != 0 for n in range(len(arrays.nodes))])
    assert (np.diff(first[has_children]) > 0).all()
    assert (first[has_children] > np.flatnonzero(has_children)).all()


def test_kernel_walkers_on_a_small_list():
    d = Dictionary.from_words(["cat", "cats", "car", "dog", "a"])
    nodes, word_ids = d.arrays
    code = {c: ord(c) - 97 for c in "abcdgorstz"}
    assert child_mask(nodes, ROOT) == (1 << code["a"]) | (1 << code["c"]) | (1 << code["d"])
    assert child(nodes, ROOT, code["b"]) == -1
    assert child(nodes, ROOT, code["z"]) == -1
    a, c, dd = (child(nodes, ROOT, code[x]) for x in "acd")
    assert (a, c, dd) == (1, 2, 3)  # the root's children are contiguous, in letter order
    assert is_word(nodes, a) and word_id_at(word_ids, a) == d.word_id("a")
    assert not is_word(nodes, c) and word_id_at(word_ids, c) == -1
    ca = child(nodes, c, code["a"])
    assert child_mask(nodes, ca) == (1 << code["r"]) | (1 << code["t"])
    cat = child(nodes, ca, code["t"])
    assert word_id_at(word_ids, cat) == d.word_id("cat")
    assert child(nodes, cat, code["s"]) >= 0 and child(nodes, cat, code["a"]) == -1
    assert len(nodes) == 1 + len({"a", "c", "ca", "cat", "cats", "car", "d", "do", "dog"})
    for word in d:
        assert lookup_word_id(d.arrays, word) == d.word_id(word)
        assert lookup_word_id(d.arrays, word.upper()) == d.word_id(word)
    # What lies below each node: best tally, letters still to come, longest continuation.
    summary = node_summaries(nodes)
    assert summary.max_tally[ROOT] == 20 and summary.max_tally[c] == 20  # CATS: (4 + 1) x 4
    assert summary.max_tally[dd] == 12 and summary.max_tally[a] == 2
    assert summary.longest_below[ROOT] == 4 and summary.longest_below[ca] == 2
    assert summary.letters_below[ca] == sum(1 << code[x] for x in "rst")
    assert summary.letters_below[cat] == 1 << code["s"] and summary.longest_below[a] == 0
    for other in ("", "ca", "cab", "catsup", "do g", "d0g", "dög"):
        assert lookup_word_id(d.arrays, other) == -1


# ---------------------------------------------------------------------------------------
# Python-side queries


def test_membership_prefixes_and_ids():
    d = Dictionary.from_words(["Cat", "cat", "CATS", "dog"], name="pets")
    assert len(d) == 3 and list(d) == ["cat", "cats", "dog"]
    assert d.name == "pets" and d.source == "memory" and d.cache_path is None
    assert "cat" in d and "CaT" in d and "ca" not in d
    assert 3 not in d
    assert "kat" in Dictionary.from_words(["kat"])
    assert "\u212aat" not in Dictionary.from_words(["kat"])  # Kelvin sign lower-cases to k
    assert d.has_prefix("CA") and d.has_prefix("cats") and d.has_prefix("")
    assert not d.has_prefix("cx") and not d.has_prefix("é")
    assert sorted(d.word_id(w) for w in d) == [0, 1, 2]
    for word in d:
        assert d.word(d.word_id(word)) == word
    assert d.word_id("DOG") == d.word_id("dog")
    with pytest.raises(KeyError, match="cow"):
        d.word_id("cow")
    with pytest.raises(KeyError, match="dög"):
        d.word_id("dög")
    with pytest.raises(KeyError, match="3"):
        d.word(3)
    with pytest.raises(KeyError, match="-1"):
        d.word(-1)
    expected = hashlib.sha256(b"cat\ncats\ndog\n").hexdigest()
    assert d.sha256 == expected and d.info()["sha256"] == expected


def test_from_words_skips_and_rejects():
    d = Dictionary.from_words(["ox", "x-ray", "", "#zebra", "ab"])
    assert list(d) == ["ab", "ox"]
    assert d.skipped == [(2, "x-ray"), (4, "#zebra")]  # '#' is not a comment here
    with pytest.raises(DictionaryError, match="no usable word"):
        Dictionary.from_words([])
    with pytest.raises(DictionaryError, match="no usable word"):
        Dictionary.from_words(["a b", "1"])


# ---------------------------------------------------------------------------------------
# User word-list files


def test_from_file_parses_a_list(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_bytes(
        b"\xef\xbb\xbf# my words\r\n"  # BOM, a comment, Windows line ends
        b"Apple\r\n"
        b"\r\n"
        b"  banana \r\n"
        b"   # indented comment\r\n"
        b"don't\r\n"
        b"caf\xc3\xa9\r\n"  # UTF-8 e-acute
        b"bad\xffbyte\r\n"  # not UTF-8
        b"APPLE\r\n"
        b"two words\r\n"
        b"I\r\n"
    )
    d = Dictionary.from_file(path)
    assert list(d) == ["apple", "banana", "i"]  # one-letter words are kept
    assert d.name == "mine" and d.source == str(path)
    assert d.skipped == [(6, "don't"), (7, "café"), (8, "bad\ufffdbyte"), (10, "two words")]
    summary = d.skipped_summary()
    assert summary.startswith(f"{path}: 4 lines with characters other than a-z skipped: ")
    assert 'line 6 "don\'t"' in summary and "and 1 more" in summary
    assert "\n" not in summary
    assert Dictionary.from_words(["x"]).skipped_summary() is None
    assert load_dictionary(path).sha256 == d.sha256


def test_line_numbers_count_newlines_only(tmp_path):
    # A form feed is not a line break for an editor, so it must not shift the numbering.
    path = write(tmp_path / "ff.txt", "one\ntw\x0co\nthree\nfo ur\n")
    assert Dictionary.from_file(path).skipped == [(2, "tw\x0co"), (4, "fo ur")]


def test_from_file_reads_gzip(tmp_path):
    path = tmp_path / "words.txt.gz"
    path.write_bytes(gzip.compress(b"one\ntwo\nthree\n"))
    d = Dictionary.from_file(path)
    assert d.name == "words" and list(d) == ["one", "three", "two"]
    assert d.sha256 == Dictionary.from_words(["two", "one", "three"]).sha256


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no usable word in the word list$"),
        (b"\n  \n", "no usable word in the word list$"),
        (b"# only\n#comments\n\n", "no usable word in the word list$"),
        (
            b"# header\nit's\n3d\nx y\n\xe2\x82\xac\n",
            r"no usable word in the word list; 4 lines with characters other than a-z "
            r"skipped: line 2 \"it's\", line 3 '3d', line 4 'x y' and 1 more$",
        ),
        (b"\x1f\x8bnot really gzip", "not a valid gzip file"),
    ],
)
def test_bad_word_lists_are_errors(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(DictionaryError, match=message) as caught:
        Dictionary.from_file(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and "\n" not in text


def test_missing_or_unreadable_files_are_errors(tmp_path):
    with pytest.raises(DictionaryError, match=r"nope\.txt: no such word list") as caught:
        Dictionary.from_file(tmp_path / "nope.txt")
    assert str(caught.value).startswith(str(tmp_path / "nope.txt"))
    with pytest.raises(DictionaryError, match="a directory, not a word list"):
        load_dictionary(tmp_path)
    assert issubclass(DictionaryError, ValueError)


# ---------------------------------------------------------------------------------------
# The disk cache


def test_cache_dir_resolution(monkeypatch, tmp_path):
    monkeypatch.setenv("LETTERCHESS_CACHE_DIR", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("LETTERCHESS_CACHE_DIR")
    assert cache_dir() == tmp_path / "xdg" / "letterchess"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "letterchess"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == tmp_path / "home" / ".cache" / "letterchess"


def test_cache_is_used_and_rebuilt_when_the_list_changes(tmp_path, private_cache):
    path = write(tmp_path / "w.txt", "alpha\nbeta\nga-mma\n")
    first = Dictionary.from_file(path)
    assert not first.loaded_from_cache
    assert first.cache_path is not None and Path(first.cache_path).parent == private_cache
    assert Path(first.cache_path).is_file()
    first_arrays = first.arrays
    assert len(list(private_cache.glob("*.arrays.npz"))) == 1

    second = Dictionary.from_file(path)
    assert second.loaded_from_cache and second.cache_path == first.cache_path
    assert (second.sha256, second.skipped, list(second)) == (
        first.sha256,
        [(3, "ga-mma")],
        ["alpha", "beta"],
    )
    assert all(map(np.array_equal, second.arrays, first_arrays))

    write(path, "alpha\nbeta\ngamma\n")
    third = Dictionary.from_file(path)
    assert not third.loaded_from_cache and third.cache_path != first.cache_path
    assert list(third) == ["alpha", "beta", "gamma"] and third.skipped == []
    assert third.sha256 != first.sha256
    assert lookup_word_id(third.arrays, "gamma") == third.word_id("gamma")
    assert Dictionary.from_file(path).loaded_from_cache
    # Atomic writes leave no temporary files behind.
    assert not list(private_cache.glob("*.tmp"))


def test_damaged_cache_files_are_rebuilt(tmp_path, private_cache):
    path = write(tmp_path / "w.txt", "alpha\nbeta\n")
    d = Dictionary.from_file(path)
    d.arrays  # noqa: B018 - writes the arrays cache file
    trie_file = Path(d.cache_path)
    arrays_file = trie_file.with_suffix(".arrays.npz")
    trie_file.write_bytes(b"garbage")
    arrays_file.write_bytes(b"garbage too")
    again = Dictionary.from_file(path)
    assert not again.loaded_from_cache and list(again) == ["alpha", "beta"]
    assert lookup_word_id(again.arrays, "beta") == again.word_id("beta")
    assert Dictionary.from_file(path).loaded_from_cache
    # Metadata that is valid JSON but not an entry; a truncated arrays file.
    trie_file.with_suffix(".json").write_text('{"format": 1, "words": 2}')
    arrays_file.write_bytes(arrays_file.read_bytes()[:1000])
    again = Dictionary.from_file(path)
    assert not again.loaded_from_cache and again.sha256 == d.sha256
    assert lookup_word_id(again.arrays, "alpha") == again.word_id("alpha")
    # Arrays built for another trie (here: another list's) are not used with this one.
    other = Dictionary.from_file(write(tmp_path / "v.txt", "beta\nzeta\n"))
    other.arrays  # noqa: B018
    other_arrays = Path(other.cache_path).with_suffix(".arrays.npz")
    arrays_file.write_bytes(other_arrays.read_bytes())
    fresh = Dictionary.from_file(path)
    assert lookup_word_id(fresh.arrays, "alpha") == fresh.word_id("alpha")


def test_concurrent_cold_loads_share_one_cache(tmp_path, private_cache):
    # Processes racing to build the same entry must all succeed and agree.
    path = write(
        tmp_path / "w.txt", "".join(f"{a}{b}{c}\n" for a in "abc" for b in "de" for c in "xyz")
    )
    script = (
        "import sys; from solver.dictionary import Dictionary, lookup_word_id\n"
        "d = Dictionary.from_file(sys.argv[1])\n"
        "print(d.sha256, sum(lookup_word_id(d.arrays, w) == d.word_id(w) for w in d))\n"
    )
    env = dict(os.environ, LETTERCHESS_CACHE_DIR=str(private_cache))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path)], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    outputs = [proc.communicate(timeout=120)[0].split() for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    expected = Dictionary.from_file(path)
    assert expected.loaded_from_cache
    assert outputs == [[expected.sha256, "18"]] * 3
    # trie, metadata, arrays; no temp files (the compiled kernels have a folder of their own)
    assert len(list(private_cache.glob("dictionary-*"))) == 3


def test_unwritable_cache_falls_back_to_memory(tmp_path, monkeypatch):
    # A cache "directory" below a regular file cannot be created, even by root.
    blocker = write(tmp_path / "file", "")
    monkeypatch.setenv("LETTERCHESS_CACHE_DIR", str(blocker / "cache"))
    path = write(tmp_path / "w.txt", "alpha\nbeta\n")
    d = Dictionary.from_file(path)
    assert d.cache_path is None and not d.loaded_from_cache
    assert "alpha" in d and lookup_word_id(d.arrays, "alpha") == d.word_id("alpha")
    assert not Dictionary.from_file(path).loaded_from_cache


# ---------------------------------------------------------------------------------------
# Rebuilding the default list


def fake_scowl(directory: Path) -> Path:
    """A miniature SCOWL tree with the same file names and encoding."""
    directory.mkdir()
    content = {
        "english-words.10": ["the", "cat", "ox", "Paris", "don't", "NASA"],
        "american-words.35": ["color", "caf\xe9", "zebra", "cat", "  dog  "],
        "english-words.70": ["colour", "x-ray", "aardvark"],
    }
    for kind in dictmod.SCOWL_LISTS:
        for size in dictmod.SCOWL_SIZES:
            name = f"{kind}.{size}"
            lines = content.get(name, [])
            (directory / name).write_bytes("".join(f"{w}\n" for w in lines).encode("latin-1"))
    (directory / "english-words.80").write_bytes(b"toolargeasize\n")  # not a size we use
    return directory


def test_build_default_list_filters_and_is_reproducible(tmp_path):
    scowl = fake_scowl(tmp_path / "scowl")
    data, count, sha256 = build_default_list(scowl)
    words = gzip.decompress(data).decode("ascii").splitlines()
    assert words == ["aardvark", "cat", "color", "colour", "dog", "the", "zebra"]
    assert count == 7 and sha256 == Dictionary.from_words(words).sha256
    assert build_default_list(scowl)[0] == data  # byte for byte
    (scowl / "american-words.60").unlink()
    with pytest.raises(DictionaryError, match=r"american-words\.60: cannot read SCOWL list"):
        build_default_list(scowl)


def test_build_default_command(tmp_path, capsys):
    scowl = fake_scowl(tmp_path / "scowl")
    notice = write(tmp_path / "copyright", "Copyright Kevin Atkinson\n")
    out = tmp_path / "out"
    out.mkdir()
    args = ["build-default", "--scowl-dir", str(scowl), "--copyright", str(notice)]
    args += ["--output-dir", str(out)]
    assert dictmod._main([*args, "--check"]) == 1  # nothing there yet
    assert dictmod._main(args) == 0
    assert (out / "SCOWL-COPYRIGHT").read_text() == notice.read_text()
    assert Dictionary.from_file(out / "scowl-70.txt.gz").sha256 == build_default_list(scowl)[2]
    assert dictmod._main([*args, "--check"]) == 0
    printed = capsys.readouterr()
    assert "scowl-70: 7 words, sha256 " in printed.out
    assert "differs from the recorded default" in printed.err
    missing = ["build-default", "--scowl-dir", str(tmp_path / "missing"), "--output-dir", str(out)]
    assert dictmod._main(missing) == 2
