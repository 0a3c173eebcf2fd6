"""A stand-in SAT solver for the benchmark tests: DIMACS CNF in, SAT-competition output out.

Usage: python fake_sat.py FILE.cnf. Solves with python-sat's MiniSat 2.2 (not the CaDiCaL the
toolkit's own 'sat' backend uses) and prints "s SATISFIABLE" with "v" lines, or
"s UNSATISFIABLE"; exits 10 or 20, as SAT solvers do.
"""

import sys

from pysat.formula import CNF
from pysat.solvers import Solver

with Solver(name="minisat22", bootstrap_with=CNF(from_file=sys.argv[1]).clauses) as solver:
    if solver.solve():
        print("s SATISFIABLE")
        print("v " + " ".join(str(v) for v in solver.get_model()) + " 0")
        sys.exit(10)
    print("s UNSATISFIABLE")
    sys.exit(20)
