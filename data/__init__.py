"""Package data of the solver: the default word list and its licence (installed as solver.data).

``scowl-70.txt.gz`` is derived from SCOWL; ``SCOWL-COPYRIGHT`` is SCOWL's copyright and
permission notice, which must accompany it. See ``README.md`` here and
:mod:`solver.dictionary`.
"""
