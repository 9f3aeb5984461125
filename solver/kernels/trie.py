"""The dictionary's trie as compiled kernels see it: the one module that knows a node's layout.

:class:`solver.dictionary.KernelDictionary` holds the trie of the words in *arc form*: one
``int64`` per node (per distinct prefix; the empty prefix is node :data:`ROOT` = 0), nodes in
breadth-first order, the children of a node contiguous and sorted by letter code. A node packs

* bits 0-25: the child mask, bit ``c`` set when the node has a child for letter code ``c``;
* bit 26: set when the node ends a word;
* bits 32-62: the index of the node's first child (0 when it has none),

so the child for letter ``c`` is ``first + popcount(mask & ((1 << c) - 1))``: one read, no
scan. ``word_ids`` (``int32``) gives the id of the word ending at each node, or -1. Every node
lies on the way to a word (no dead ends), so a walk may stop at the first missing child.

Code elsewhere uses the functions below, never the bits: :func:`child`, :func:`child_mask`,
:func:`first_child` (children are ``first_child`` onwards, one per bit of ``child_mask``, in
letter order), :func:`is_word`, :func:`word_id_at`; :func:`pack_nodes` builds the array and
:func:`node_summaries` derives, per node, what a search may prune with.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .bits import lowest_square, popcount
from .jit import kernel
from .letters import IS_VOWEL

__all__ = [
    "ROOT",
    "NodeSummaries",
    "child",
    "child_mask",
    "first_child",
    "is_word",
    "lookup",
    "node_summaries",
    "pack_nodes",
    "parents",
    "walk",
    "word_id_at",
]

#: Index of the root node (the empty prefix).
ROOT = 0
_MASK_BITS = (1 << 26) - 1
_WORD_BIT = 1 << 26
_FIRST_SHIFT = 32
#: Nodes are indexed with 31 bits.
MAX_NODES = 1 << 31


def pack_nodes(child_masks: np.ndarray, ends_word: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The ``int64`` node array from each node's child mask, whether it ends a word and the
    index of its first child (nodes in breadth-first order, children sorted by letter)."""
    if len(child_masks) >= MAX_NODES:
        raise ValueError(f"too many trie nodes for the layout: {len(child_masks)}")
    return (
        child_masks.astype(np.int64)
        | np.where(ends_word, _WORD_BIT, 0).astype(np.int64)
        | (first.astype(np.int64) << _FIRST_SHIFT)
    )


@kernel(inline=True)
def child(nodes, node, code):
    """The child of ``node`` along letter ``code`` (0..25, not checked), or -1 if none."""
    packed = nodes[node]
    bit = np.int64(1) << code
    if packed & bit == 0:
        return -1
    return (packed >> _FIRST_SHIFT) + popcount(packed & (bit - 1))


@kernel(inline=True)
def child_mask(nodes, node):
    """The letters that can follow ``node``'s prefix, as a 26-bit mask (bit 0 = ``a``)."""
    return nodes[node] & _MASK_BITS


@kernel(inline=True)
def first_child(nodes, node):
    """The index of ``node``'s first child (meaningless when its child mask is 0)."""
    return nodes[node] >> _FIRST_SHIFT


@kernel(inline=True)
def is_word(nodes, node):
    """Whether ``node``'s prefix is a word (reads only ``nodes``)."""
    return (nodes[node] & _WORD_BIT) != 0


@kernel(inline=True)
def word_id_at(word_ids, node):
    """The id of the word ending at ``node``, or -1 if its prefix is not a word."""
    return word_ids[node]


@kernel
def walk(nodes, codes):
    """The node reached from the root along ``codes`` (an int array of 0..25), or -1."""
    node = ROOT
    for i in range(codes.shape[0]):
        node = child(nodes, node, codes[i])
        if node < 0:
            return -1
    return node


@kernel
def lookup(nodes, word_ids, codes):
    """The id of the word spelt by ``codes``, or -1 if it is not in the dictionary."""
    node = walk(nodes, codes)
    if node < 0:
        return -1
    return word_id_at(word_ids, node)


class NodeSummaries(NamedTuple):
    """What lies below each node of a trie (``int64`` arrays indexed by node).

    :ivar max_tally: the highest tally of a word with the node's prefix (the prefix itself
        included), 0 if none: no play extending this prefix scores more.
    :ivar longest_below: the most letters a word may still add to the prefix.
    :ivar letters_below: the letters (26-bit mask) that occur after the prefix in some word.
    """

    max_tally: np.ndarray
    longest_below: np.ndarray
    letters_below: np.ndarray


@kernel
def parents(nodes):
    """``(parent, letter, depth)`` of every node: its parent (-1 for the root), the letter
    code leading to it and its depth (its prefix's length), as ``int64`` arrays."""
    count = nodes.shape[0]
    parent = np.full(count, -1, dtype=np.int64)
    letter = np.zeros(count, dtype=np.int64)
    depth = np.zeros(count, dtype=np.int64)
    # Nodes are in breadth-first order: a parent always comes before its children.
    for node in range(count):
        rest = child_mask(nodes, node)
        kid = first_child(nodes, node)
        while rest:
            parent[kid] = node
            letter[kid] = lowest_square(rest)
            depth[kid] = depth[node] + 1
            kid += 1
            rest &= rest - 1
    return parent, letter, depth


@kernel
def _summarise(nodes):
    count = nodes.shape[0]
    parent, letter, depth = parents(nodes)
    vowels = np.zeros(count, dtype=np.int64)
    for node in range(1, count):  # parents first
        vowels[node] = vowels[parent[node]] + IS_VOWEL[letter[node]]
    max_tally = np.zeros(count, dtype=np.int64)
    longest = np.zeros(count, dtype=np.int64)
    below = np.zeros(count, dtype=np.int64)
    # ... so in reverse order every child is summarised before its parent.
    for node in range(count - 1, -1, -1):
        best = (depth[node] + vowels[node]) * depth[node] if is_word(nodes, node) else 0
        rest = child_mask(nodes, node)
        kid = first_child(nodes, node)
        for _ in range(popcount(rest)):
            best = max(best, max_tally[kid])
            longest[node] = max(longest[node], longest[kid] + 1)
            below[node] |= below[kid] | (np.int64(1) << letter[kid])
            kid += 1
        max_tally[node] = best
    return max_tally, longest, below


def node_summaries(nodes: np.ndarray) -> NodeSummaries:
    """:class:`NodeSummaries` of the trie ``nodes`` (one linear pass, a few milliseconds)."""
    return NodeSummaries(*_summarise(nodes))
