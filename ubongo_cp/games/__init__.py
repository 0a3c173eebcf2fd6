"""Game engines sharing one OpenSpiel-style state API (see :mod:`ubongo_cp.games.base`)."""
