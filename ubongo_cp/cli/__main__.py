"""``python -m ubongo_cp.cli``: the command line (same as the ``ubongo-cp`` script)."""

from . import run

if __name__ == "__main__":
    run()
