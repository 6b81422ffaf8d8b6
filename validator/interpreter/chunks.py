"""A simulation's chunks and seeds, one rule for every simulation (``simulate``, banking and
Poker; the par sheet's figures): ``total`` rounds are cut into chunks, and chunk k draws from
``SeedSequence(seed, spawn_key=(k,))`` wherever it runs (in this process, on ``workers``
processes, or on a Dask cluster), so the same seed gives the same bytes on any number of
workers."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from validator.errors import RulesubError

if TYPE_CHECKING:
    from validator.interpreter.config import TableConfig

J = TypeVar("J")
R = TypeVar("R")


def chunk_seed(seed: int, k: int) -> np.random.SeedSequence:
    """The seed sequence chunk (or table) ``k`` of a simulation seeded ``seed`` draws from."""
    return np.random.SeedSequence(seed, spawn_key=(k,))


def chunk_rng(seed: int | np.random.SeedSequence, k: int = 0) -> np.random.Generator:
    """The generator chunk ``k`` of a simulation seeded ``seed`` draws from (a seed sequence
    given: its own); a session played alone with a seed is chunk 0, so that it deals what the
    simulation's first chunk deals."""
    seq = seed if isinstance(seed, np.random.SeedSequence) else chunk_seed(seed, k)
    return np.random.default_rng(seq)


def chunk_plan(total: int, size: int) -> list[tuple[int, int]]:
    """(index, rounds) of every chunk of ``total`` rounds cut in chunks of ``size``: chunk k
    is dealt from ``SeedSequence(seed, spawn_key=(k,))`` wherever it runs."""
    n = -(-total // size)
    return [(k, min(size, total - k * size)) for k in range(n)]


class ChunkedSpec:
    """What every par simulation's spec shares (this one's and the Poker house sheet's): the
    table's ``settings``, read once from ``submission`` where the spec is made (given, or
    read by the one reader, ``validator.interpreter.settings``), travel with the spec, so
    that no worker reads the submission again; ``total`` rounds (or hands) are cut in chunks
    of ``chunk``, and chunk k draws from ``SeedSequence(seed, spawn_key=(k,))`` wherever it
    runs. Each spec is a frozen dataclass that states these fields in its own order."""

    game: str
    submission: str | None
    seed: int
    chunk: int
    settings: Any

    def _settle_table(self, allow_findings: bool = False) -> None:
        """The submission's table settings (the defaults without one), where none were
        given: read now, once."""
        if self.settings is None:
            from validator.compiler import load_game
            from validator.interpreter.settings import read_settings

            game = load_game(self.game)
            table = read_settings(game, self.submission, allow_findings=allow_findings)
            object.__setattr__(self, "settings", table)

    @property
    def total(self) -> int:
        """The rounds (or hands) to simulate."""
        raise NotImplementedError

    def chunks(self) -> list[tuple[int, int]]:
        """(index, rounds) of every chunk."""
        return chunk_plan(self.total, self.chunk)

    def seed_sequence(self, k: int) -> np.random.SeedSequence:
        """The seed sequence chunk ``k`` draws from."""
        return chunk_seed(self.seed, k)


def run_jobs(
    job: Callable[[J], R],
    jobs: list[J],
    workers: int | None,
    scheduler: str | None,
    before_fork: Callable[[], object] | None = None,
) -> Iterable[R]:
    """Every job's result: on the Dask scheduler at ``scheduler`` (an address, or ``local``
    for a local cluster), else on ``workers`` processes (``None``: every core; one: in this
    process; a local Dask cluster: as many worker processes). Results come in any order: the
    callers sum integers, or put them back in chunk order. ``before_fork`` builds
    what forked workers should inherit. ``job`` is a module-level function (it is pickled)."""
    if scheduler is not None:
        yield from _dask(job, jobs, scheduler, workers)
        return
    n = worker_count(workers)
    n = max(1, min(n, len(jobs)))
    if n == 1:
        for j in jobs:
            yield job(j)
        return
    from concurrent.futures import ProcessPoolExecutor

    if before_fork is not None:
        before_fork()
    with ProcessPoolExecutor(max_workers=n, mp_context=pool_context()) as pool:
        yield from pool.map(job, jobs)


def worker_count(workers: int | None) -> int:
    """The processes ``--workers`` asks for: ``None`` is every core (``available_cores``)."""
    return workers if workers is not None else available_cores()


#: a container's CPU quota (cgroup v2): "max 100000", or e.g. "400000 100000" for 4 CPUs
CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def available_cores() -> int:
    """The cores this process may run on: the CPUs it is allowed (its affinity), lowered to
    its container's CPU quota where one is set. ``os.cpu_count()`` counts the host's CPUs,
    which in a container can be many more than the processes that would run at once."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        n = os.cpu_count() or 1
    try:
        quota, period = CGROUP_CPU_MAX.read_text().split()[:2]
        if quota != "max":
            n = min(n, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass
    return max(1, n)


#: a local Dask cluster (``--scheduler local``): a process a worker, one thread each, and no
#: dashboard; its scheduler's HTTP routes on a free port (on the default 8787, Dask warns on
#: stderr where another cluster holds it)
LOCAL_CLUSTER: dict[str, Any] = {
    "threads_per_worker": 1,
    "processes": True,
    "dashboard_address": ":0",
    "scheduler_kwargs": {"dashboard": False},
}


def _dask(
    job: Callable[[J], R], jobs: list[J], scheduler: str, workers: int | None = None
) -> Iterable[R]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as e:  # pragma: no cover - depends on the install
        raise SchedulerError("--scheduler needs Dask: pip install 'rulesub[dask]'") from e
    cluster = None
    try:
        if scheduler == "local":
            n = max(1, min(worker_count(workers), len(jobs)))
            cluster = LocalCluster(n_workers=n, **LOCAL_CLUSTER)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="3s")
    except (OSError, TimeoutError, ValueError) as e:
        raise SchedulerError(f"cannot reach the Dask scheduler {scheduler!r}: {e}") from e
    try:
        futures = client.map(job, jobs, pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def pool_context() -> Any:
    """Fork where the platform has it (workers start with everything loaded), else spawn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class SchedulerError(RulesubError, RuntimeError):
    """A Dask scheduler that cannot be used, and why."""


#: Rounds a chunk deals (its generator: ``SeedSequence(seed, spawn_key=(k,))``).
CHUNK = 20_000


@dataclass(frozen=True)
class SimSpec(ChunkedSpec):
    """What a worker needs to deal chunks of a banking simulation (``simulate`` and the par
    sheet alike): it rebuilds the table from the game id, the table's settings and the
    strategy; ``allow_findings`` lets a submission with errors through (a DRAFT)."""

    game: str
    submission: str | None
    strategy: str | None
    seats: int
    seed: int
    rounds: int
    chunk: int = CHUNK
    allow_findings: bool = False
    settings: TableConfig | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._settle_table(self.allow_findings)

    def table(self) -> TableConfig:
        """The table's settings (a banking game's)."""
        from validator.interpreter.config import TableConfig

        assert isinstance(self.settings, TableConfig)
        return self.settings

    @property
    def total(self) -> int:
        return self.rounds
