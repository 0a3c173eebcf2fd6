"""Statistics of simulation tables: confidence intervals and tests, one tested copy each.

Every game study (gem game, Duel, Orion tournaments, domino) summarises its
per-game table with these functions.

References
----------
.. [1] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", J. Amer. Statist. Assoc. 22 (1927) 209-212.
.. [2] SciPy, ``scipy.stats.chisquare`` (Pearson's chi-square goodness of fit).
"""

from __future__ import annotations

import math
from typing import Sequence

__all__ = ["Z95", "wilson_interval", "binomial_se", "mean_se", "chisquare_uniform"]

#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion [1]_.

    With ``p = successes / n``::

        centre = (p + z**2 / (2 n)) / (1 + z**2 / n)
        half   = z / (1 + z**2 / n) * sqrt(p (1 - p) / n + z**2 / (4 n**2))

    ``successes`` may be fractional (a win shared by k players counts 1/k).

    Parameters
    ----------
    successes : float
        Number of successes, ``0 <= successes <= n``.
    n : int
        Number of trials.
    z : float
        Normal quantile (default: 95 %).

    Returns
    -------
    (float, float)
        The interval, clipped to [0, 1]; ``(nan, nan)`` for ``n == 0`` (no
        trial, no estimate).

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> [round(x, 4) for x in wilson_interval(0, 20)]
    [0.0, 0.1611]
    >>> wilson_interval(0, 0)
    (nan, nan)
    """
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def binomial_se(p: float, n: int) -> float:
    """Standard error ``sqrt(p (1 - p) / n)`` of a proportion; NaN for ``n < 1``.

    Examples
    --------
    >>> round(binomial_se(0.5, 100), 3), binomial_se(0.5, 0)
    (0.05, nan)
    """
    if n < 1:
        return math.nan
    return math.sqrt(max(p * (1 - p), 0.0) / n)


def mean_se(values: Sequence[float]) -> float:
    """Standard error of a sample mean, ``std(values, ddof=1) / sqrt(n)``; NaN for ``n < 2``.

    For shares that are not 0/1 outcomes (a win shared by k players counts
    1/k), where :func:`binomial_se` does not apply. With one value the
    sample standard deviation, and so the error, is undefined.

    Examples
    --------
    >>> round(mean_se([0.0, 1.0, 0.5, 0.5]), 4), mean_se([1.0])
    (0.2041, nan)
    """
    n = len(values)
    if n < 2:
        return math.nan
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)


def chisquare_uniform(observed: Sequence[float]) -> dict:
    """Pearson's chi-square test of ``observed`` counts against equal shares [2]_.

    Returns
    -------
    dict
        ``chi2``, ``dof`` (categories - 1), ``p_value``; NaN statistics when
        there is nothing to test (no observation, or a single category).

    Examples
    --------
    >>> r = chisquare_uniform([30, 10])
    >>> r["chi2"], r["dof"], round(r["p_value"], 5)
    (10.0, 1, 0.00157)
    """
    obs = [float(x) for x in observed]
    dof = len(obs) - 1
    if dof < 1 or sum(obs) <= 0:
        return {"chi2": math.nan, "dof": max(dof, 0), "p_value": math.nan}
    from scipy.stats import chisquare

    res = chisquare(obs)
    return {"chi2": float(res.statistic), "dof": dof, "p_value": float(res.pvalue)}
