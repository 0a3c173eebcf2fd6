"""``python -m ubongo_cp``: the command line (same as the ``ubongo-cp`` script)."""

from .cli import run

if __name__ == "__main__":
    run()
