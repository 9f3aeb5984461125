"""The compiled-kernel layer: numba kernels and what they share.

* :mod:`~solver.kernels.jit`: the ``@kernel`` decorator (numba's ``njit``, cached in the
  per-user cache folder; ``inline=True`` for small helpers of hot loops, ``counted=False`` for
  kernels that create no array and must not pay numba's reference counting);
* :mod:`~solver.kernels.trie`: the dictionary trie's node layout, the one module that knows
  it, and the walkers every kernel uses (child, child mask, word end, word id), with the
  per-node summaries a search prunes with (best tally, letters and length still to come);
* :mod:`~solver.kernels.letters`: letter codes (``A`` = 0), the vowel table, letter points;
* :mod:`~solver.kernels.bits`: popcount and lowest set square of an ``int64`` bitboard;
* :mod:`~solver.kernels.paths`: the squares that may follow on a word's path, the step both
  path walks take (play generation, :mod:`solver.movegen`, and the formable-words walk,
  :mod:`solver.formable`).

Kernels are private ``@kernel`` functions behind public functions that validate their input,
and each has a plain-Python reference beside it that the tests compare it with
(:mod:`solver.reference` for play generation, the plain searches of ``tests/test_bound.py``
for :mod:`solver.formable`, the trie itself for :mod:`~solver.kernels.trie`). A kernel that
works through many arrays takes them bundled in a ``NamedTuple`` (the position, the trie and
the rules; the search stack; the play table) rather than one parameter each.
"""
