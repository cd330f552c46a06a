# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled prediction of :class:`extraction.forest.TreeEnsemble`: every row walks every tree
in C.  It gives what the numpy path gives, bit for bit (``tests/test_auto.py``): the same
tests (a float32 row is compared as the double it is, which the numpy path's float32
thresholds reproduce) and the leaf values summed tree by tree in the same order."""
import numpy as np

ctypedef fused real:
    float
    double


def tree_sums(const int[:, ::1] feature, const double[:, ::1] threshold,
              const int[:, ::1] left, const int[:, ::1] right,
              const unsigned char[:, ::1] leaf, const double[:, ::1] value,
              const real[:, ::1] x):
    """Per row of ``x``, the sum over trees of the value of the leaf it reaches (go left when
    ``x[feature] <= threshold``; NaN must already be +inf)."""
    cdef Py_ssize_t rows = x.shape[0], trees = feature.shape[0], r, t
    cdef int node
    out = np.zeros(rows, dtype=np.float64)
    cdef double[::1] sums = out
    cdef double acc
    with nogil:
        for r in range(rows):
            acc = 0.0
            for t in range(trees):
                node = 0
                while not leaf[t, node]:
                    if <double> x[r, feature[t, node]] <= threshold[t, node]:
                        node = left[t, node]
                    else:
                        node = right[t, node]
                acc = acc + value[t, node]
            sums[r] = acc
    return out
