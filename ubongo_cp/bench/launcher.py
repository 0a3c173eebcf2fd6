"""Start one program and report what it used: the small process between :func:`.runner.measure` and the program.

On Linux a process's peak memory (``ru_maxrss``) counts the pages it held
before it loaded its program, which a forked child holds until then: a
program started straight from a large process reads as that process's size.
Started from this one (an interpreter without its site packages, about
6 MB), each program is measured from a small process, whatever the size of
the process that benchmarks it.

Run as ``python -I -S launcher.py FD PROGRAM [ARGUMENT ...]``, with its
standard streams the program's. It starts the program in a process group
of its own, waits for it and writes to file descriptor ``FD`` one line,
``exit WAITSTATUS USER_S SYS_S MAXRSS_KB`` (the program's ``wait4``), or
``error ERRNO`` when it could not be started. SIGTERM (a limit reached, or the benchmark's end: it
is this process's parent-death signal) kills the program's process group;
the line is still written.

Only the interpreter's built-in modules are imported: the file runs without
the package on the path, and what it imports it keeps in memory.
"""

import os
import sys

import _signal


def main(argv: list[str]) -> int:
    report, program = int(argv[0]), argv[1:]
    os.set_inheritable(report, False)   # the program does not hold the report open
    started: list[int] = []

    def stop(signum, frame) -> None:
        if started:
            try:
                os.killpg(started[0], _signal.SIGKILL)
            except OSError:
                os.kill(started[0], _signal.SIGKILL)

    # SIGTERM waits until the program's process id is known (a stop that comes before then kills it at once).
    held = _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGTERM})
    _signal.signal(_signal.SIGTERM, stop)
    pid = os.fork()
    if pid == 0:   # the program: its own process group, the signals as a program starts with them
        try:
            os.setpgid(0, 0)
            for kind in (_signal.SIGPIPE, _signal.SIGXFSZ, _signal.SIGTERM):
                _signal.signal(kind, _signal.SIG_DFL)
            _signal.pthread_sigmask(_signal.SIG_SETMASK, held)
            os.execvp(program[0], program)
        except OSError as exc:
            os.write(report, f"error {exc.errno or 0}\n".encode())
        os._exit(127)
    try:
        os.setpgid(pid, pid)   # as the program does: whichever runs first, the group exists before a stop
    except OSError:   # the program has already loaded (its group is set) or ended
        pass
    started.append(pid)
    _signal.pthread_sigmask(_signal.SIG_SETMASK, held)
    _, status, usage = os.wait4(pid, 0)
    try:
        os.write(report, f"exit {status} {usage.ru_utime!r} {usage.ru_stime!r} {usage.ru_maxrss}\n".encode())
    except OSError:   # the benchmark has ended: nobody reads it
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
