"""A stand-in for Knuth's DLX1, for the benchmark tests: reads his plain format, prints as he does.

Usage: python fake_dlx.py [m1] [t<n>] [wrong] [fewer] [sleep=<s>] [allocate=<MB>] < file.dlx

It shares no code with ubongo-cp: a plain Algorithm X over Python sets (Knuth 7.2.2.1, Algorithm X
with the MRV heuristic). ``m1`` lists every solution on standard output ("<n>:" then one option
per line, its items and "(k of n)"), ``t<n>`` stops after n solutions, and the total goes to
standard error as "Altogether N solutions, ...". ``wrong`` reports one solution too many,
``fewer`` one too few (and lists one less);
``sleep=`` sleeps first; ``allocate=`` touches that many MB first.
"""

import sys
import time


def main(args):
    listing = "m1" in args
    most = next((int(a[1:]) for a in args if a.startswith("t") and a[1:].isdigit()), None)
    for a in args:
        if a.startswith("sleep="):
            time.sleep(float(a[6:]))
        if a.startswith("allocate="):
            blocks = [bytearray(b"x" * 2**20) for _ in range(int(a[9:]))]  # noqa: F841 - touched pages
    lines = [ln.strip() for ln in sys.stdin.read().splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("|")]
    head = lines[0].split("|")
    primary = head[0].split()
    options = [ln.split() for ln in lines[1:]]
    options = [o for o in options if any(i in primary for i in o)]
    count = 0
    chosen = []

    def search(uncovered, used):
        nonlocal count
        if not uncovered:
            count += 1
            if listing and not ("fewer" in args and count == 1):
                print(f"{count}:")
                for o in chosen:
                    print(" " + " ".join(options[o]) + " (1 of 1)")
            return most is None or count < most
        item = min(uncovered, key=lambda i: sum(1 for o in options if i in o and not used & set(o)))
        for k, o in enumerate(options):
            if item in o and not used & set(o):
                chosen.append(k)
                go = search(uncovered - set(o), used | set(o))
                chosen.pop()
                if not go:
                    return False
        return True

    search(set(primary), set())
    if "wrong" in args:
        count += 1
    if "fewer" in args:
        count -= 1
    print(f"Altogether {count} solution{'' if count == 1 else 's'}, 0+0 mems, 0 updates, 0 bytes, 0 nodes.",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
