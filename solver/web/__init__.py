"""Letter Chess in the browser: the self-contained HTML replay of a game
(``letterchess show RECORD --html OUT``, :mod:`.replay`), the JSON API (:mod:`.api`) and the
local web app built on it (``letterchess serve``, :mod:`.app`).

Only :mod:`.app` needs the ``[web]`` extra (Starlette and uvicorn); the replay and the API are
plain Python. The pages' JavaScript and CSS ship in ``static/``: they draw what the server
sends (SVG boards from :mod:`solver.svg`) and hold no game rules, which all run on the server.
"""
