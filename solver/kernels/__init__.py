"""The compiled-kernel layer: numba kernels and what they share.

Kernels are private ``@kernel`` functions (:func:`solver.kernels.jit.kernel`, numba's
``njit`` with its on-disk cache in the per-user cache folder) behind public functions that
validate their input.
"""
