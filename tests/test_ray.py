"""Simulations and table sampling on a real local Ray cluster (extra ``ray``; CI installs it).

One cluster (2 CPUs, 127.0.0.1 only, no dashboard) serves the whole module: Ray's start-up
dominates the runtime. Skipped when Ray is not installed.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError
from typing import Any

import pytest

from vncards import cli
from vncards.maubinh.tables import sample
from vncards.parallel import WorkerError
from vncards.simulate import simulate

pytestmark = [
    pytest.mark.ray,
    pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="extra 'ray' not installed"),
]

RUN: dict[str, Any] = {
    "game_name": "samloc",
    "games": 30,
    "bot_names": ["greedy", "random", "random"],
    "seed": 5,
}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from vncards.ray_executor import RayExecutor

    ex = RayExecutor(
        None,
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=80 * 2**20,
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield ex
    finally:
        ex.shutdown(cancel_futures=True)
    import ray

    assert not ray.is_initialized()


def test_the_local_cluster_listens_on_loopback(cluster: Any) -> None:
    import ray

    assert cluster.cpus == 2
    assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")


def test_same_totals_as_local_processes(cluster: Any) -> None:
    here = simulate(**RUN, jobs=1).to_dict()
    assert simulate(**RUN, executor=cluster, batch_size=4).to_dict() == here
    assert simulate(**RUN, jobs=2, batch_size=7).to_dict() == here


def test_table_sampling_is_the_same_on_the_cluster(cluster: Any) -> None:
    here = sample(12, seed=3, objective="strongest")
    there = sample(12, seed=3, objective="strongest", executor=cluster, batch_size=5)
    assert (here.counts == there.counts).all() and here.header == there.header


def test_a_failing_task_is_a_clear_error_not_a_hang(cluster: Any) -> None:
    from vncards.parallel import run_batches

    def boom(_: object) -> None:  # local: Ray ships it by value (workers cannot import tests)
        raise ZeroDivisionError("no luck on the cluster")

    with pytest.raises(WorkerError, match=r"7 failed: .*ZeroDivisionError: no luck on the cluster"):
        list(run_batches(boom, [7], executor=cluster))


def test_cancelling_a_future_cancels_the_task(cluster: Any) -> None:
    future = cluster.submit(time.sleep, 60)
    time.sleep(0.5)
    assert future.cancel() and future.cancelled()
    with pytest.raises(CancelledError):
        future.result(timeout=30)
    # The cluster's CPUs are free again: a new task runs at once.
    assert cluster.submit(abs, -3).result(timeout=60) == 3


def test_cli_ray_flag_uses_the_cluster(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    argv = ["simulate", "samloc", "--games", "30", "--bots", "greedy,random,random", "--seed", "5"]
    assert cli.main([*argv, "--json", "--ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert cli.main([*argv, "--json", "--jobs", "1"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert on_ray.pop("seconds") > 0 and here.pop("seconds") > 0
    assert on_ray == here


def test_no_cluster_at_the_address_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    from vncards.errors import VncardsError
    from vncards.ray_executor import RayExecutor

    def refuse(address: str, **_: Any) -> None:
        raise ConnectionError(f"Could not find any running Ray instance at {address}")

    # What ray.init does when nothing listens there (without waiting for its timeouts).
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    with pytest.raises(VncardsError, match="no Ray cluster at 'auto': Could not find"):
        RayExecutor("auto")
