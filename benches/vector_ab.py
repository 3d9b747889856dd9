"""Two builds of vncards side by side in one run: ``VectorEnv(game, envs, copy=False)`` under
``sample_actions()`` for ``--seconds`` in a fresh process of each build, alternating, for
``--rounds`` rounds; steps per second, steps per CPU-second, the share of a core the process
got and the load beside each. The other build is a wheel installed into a directory:

    git worktree add /tmp/base 08151ab && (cd /tmp/base && maturin build --release -o /tmp/w)
    pip install --no-deps --target /tmp/base-site /tmp/w/*.whl
    python benches/vector_ab.py --base /tmp/base-site --game maubinh

"this" is the build the running interpreter imports (a ``maturin develop`` of the worktree).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CHILD = r"""
import os, sys, time
import vncards
from vncards.vector import VectorEnv
game, envs, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
env = VectorEnv(game, envs, seed=0, copy=False)
env.reset()
for _ in range(20):
    env.step(env.sample_actions())
steps = 0
start, cpu = time.perf_counter(), time.process_time()
while time.perf_counter() - start < seconds:
    env.step(env.sample_actions())
    steps += envs
wall, used = time.perf_counter() - start, time.process_time() - cpu
print(f"{steps / wall:>10,.0f} {steps / used:>12,.0f} {used / wall:>6.2f} {os.getloadavg()[0]:>6.2f}  {os.path.dirname(vncards.__file__)}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="site directory of the other build")
    parser.add_argument("--game", default="maubinh")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'build':<6} {'steps/s':>10} {'steps/CPU-s':>12} {'cores':>6} {'load':>6}  package")
    for _ in range(args.rounds):
        for name, path in (("base", args.base), ("this", "")):
            env = dict(os.environ)
            env.pop("PYTHONPATH", None)
            if path:
                env["PYTHONPATH"] = path
            argv = [sys.executable, "-c", CHILD, args.game, str(args.envs), str(args.seconds)]
            out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
            print(f"{name:<6} {out.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
