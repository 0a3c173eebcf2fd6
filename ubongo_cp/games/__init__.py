"""Game engines sharing one contract (:mod:`ubongo_cp.games.base`): ``ubongo``, ``duel``, ``domino``, ``orion``.

Each engine is a sub-package with the same files (``state``, ``agents``,
``sim``, ``records``, ``render``, where the game has them); the rated task
decks and the solve-time model of both Ubongo games are in
:mod:`ubongo_cp.games.tasks`, the statistics of every study in
:mod:`ubongo_cp.games.stats`.
"""
