"""The DQN example over several seeds: the figures of README.md's "DQN on CartPole" table.

Runs ``examples/dqn_cartpole.py --seed S`` with its defaults, one fresh process a seed (so no
seed's graph or random state reaches the next), and prints a Markdown table of the episode and
environment step at which each seed solved CartPole (the mean return over the last 100
episodes reaches 195), with the CPU seconds each run used::

    python tools/dqn_seeds.py                 # seeds 0-9
    python tools/dqn_seeds.py --seeds 0 1 2

Needs the ``rl`` extra (gymnasium). A seed that does not solve within the example's
``--max-steps`` shows as "not solved"; the script's exit status is 1 then.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "examples",
                       "dqn_cartpole.py")
SOLVED = re.compile(r"solved at episode (\d+), step (\d+)")


def run_seed(seed: int) -> dict:
    """One run of the example: the episode and step it solved at (None if it did not), its
    wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    out = subprocess.run([sys.executable, EXAMPLE, "--seed", str(seed)], capture_output=True,
                         text=True, check=False).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = SOLVED.search(out)
    return {"seed": seed, "episode": int(found.group(1)) if found else None,
            "step": int(found.group(2)) if found else None, "wall": time.time() - start,
            "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}


def table(results: list) -> str:
    """The README's Markdown table: a column a seed."""
    def cell(r: dict, key: str) -> str:
        return "not solved" if r[key] is None else f"{r[key]:,}"
    rows = [["seed"] + [str(r["seed"]) for r in results],
            ["---"] * (len(results) + 1),
            ["episodes"] + [cell(r, "episode") for r in results],
            ["steps"] + [cell(r, "step") for r in results],
            ["CPU s"] + ["%.0f" % r["cpu"] for r in results]]
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def main(argv: list | None = None) -> int:
    """Runs the seeds one after another and prints the table; 1 if any did not solve."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--seeds", type=int, nargs="+", default=list(range(10)),
                   help="the seeds to run")
    args = p.parse_args(argv)
    results = []
    for seed in args.seeds:
        results.append(run_seed(seed))
        r = results[-1]
        print("seed %d: %s (%.0f s wall, %.0f s CPU)" % (
            seed, "not solved" if r["step"] is None else "solved at episode %d, step %d"
            % (r["episode"], r["step"]), r["wall"], r["cpu"]), flush=True)
    print(table(results))
    return 0 if all(r["step"] is not None for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
