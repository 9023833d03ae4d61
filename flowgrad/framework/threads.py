"""flowgrad's thread budget: how many threads its kernels keep busy at once.

TensorFlow runs each op on an intra-op pool and independent ops on an inter-op pool, both
sized to the cores it may use. flowgrad's kernels are NumPy's, so its intra-op pool is
NumPy's BLAS pool (sized through threadpoolctl, an optional dependency) and its inter-op
pool is the Session plans' worker thread (``flowgrad.runtime.plan``). The budget keeps

    BLAS threads <= free cores, and BLAS threads x kernels running at once <= cores,

where the free cores are the cores this process may use (its CPU affinity, capped by a
cgroup CPU quota) less those other processes kept busy over the last fraction of a second
(read from ``/proc/stat``, and checked at most every ``CHECK_INTERVAL`` seconds, by the
kernels that call BLAS). A BLAS pool with more threads than free cores makes every GEMM
wait for its slowest thread, which shares a core with someone else: programs ran 5-10x
slower with one core of two taken by another process.

The inter-op worker runs beside the calling thread only where the BLAS pool has one
thread, so a plan keeps at most two threads busy, on two or more usable cores.

The BLAS pool's size is capped by ``tf.config.threading.set_intra_op_parallelism_threads``
(or the first Session config's ``intra_op_parallelism_threads``; 0 leaves it to flowgrad)
and by ``OPENBLAS_NUM_THREADS``, ``GOTO_NUM_THREADS``, ``OMP_NUM_THREADS`` or
``MKL_NUM_THREADS`` where the user set one. Without threadpoolctl flowgrad cannot resize the
pool and leaves it as it is (still keeping the worker thread off a busy machine)."""
from __future__ import annotations

import os
import threading
import time
from typing import Any

CHECK_INTERVAL = 0.25   # seconds between two looks at the machine's load
_BLAS_RESCAN = 10.0     # seconds between two scans for newly loaded BLAS libraries
_STALE = 2.0            # a load sample older than this is not averaged over
_ENV_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS",
                "MKL_NUM_THREADS")


class _Budget:
    next_check = 0.0        # monotonic time of the next look at the load
    sample: Any = None      # (monotonic time, busy CPU seconds of our cores, our CPU seconds)
    free = 0                # free cores found at the last look (0: not looked yet)
    intra_op = 0            # tf.config.threading's intra-op thread count (0: default)
    session_intra_op = 0    # the first Session config's intra_op_parallelism_threads
    blas: Any = None        # threadpoolctl's BLAS controllers ([] without threadpoolctl)
    blas_scan = 0.0         # monotonic time of the next scan for BLAS libraries loaded since
    blas_threads = 0        # the BLAS pool size flowgrad last set (0: none set)
    cores = 0               # usable cores (0: not computed yet)
    lock = threading.Lock()  # one thread looks at a time (the worker's kernels check too)


_b = _Budget()


def _forget_sample() -> None:
    """In a forked child: look at the load afresh (the parent's sample is not ours)."""
    _b.next_check, _b.sample, _b.lock = 0.0, None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_sample)


def _cpu_quota(root: str = "/sys/fs/cgroup") -> float | None:
    """The cgroup CPU quota in cores (cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``), or
    None when there is none."""
    try:
        with open(os.path.join(root, "cpu.max")) as f:
            quota, period = f.read().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        with open(os.path.join(root, "cpu", "cpu.cfs_quota_us")) as f:
            quota = int(f.read())
        with open(os.path.join(root, "cpu", "cpu.cfs_period_us")) as f:
            period = int(f.read())
        return None if quota <= 0 else quota / period
    except (OSError, ValueError):
        return None


def _affinity() -> set:
    """The CPUs this process may run on."""
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


def usable_cores() -> int:
    """The cores this process may keep busy: its CPU affinity, capped by a cgroup CPU
    quota (rounded down, at least 1)."""
    if not _b.cores:
        cores = len(_affinity())
        quota = _cpu_quota()
        if quota is not None:
            cores = min(cores, max(1, int(quota)))
        _b.cores = max(1, cores)
    return _b.cores


def _env_threads() -> int:
    """The BLAS thread count the user set in the environment (0: none)."""
    for name in _ENV_THREADS:
        value = os.environ.get(name, "").strip()
        if value:
            try:
                return max(0, int(value.split(",")[0]))
            except ValueError:
                return 0
    return 0


def intra_op_cap() -> int:
    """The most BLAS threads one kernel may use: the intra-op setting
    (``tf.config.threading``, else the first Session config's), the environment's thread
    count, and the usable cores, whichever is least."""
    cap = usable_cores()
    for limit in (_b.intra_op or _b.session_intra_op, _env_threads()):
        if limit > 0:
            cap = min(cap, limit)
    return cap


def set_intra_op_threads(num_threads: int) -> None:
    """``tf.config.threading.set_intra_op_parallelism_threads``: 0 lets flowgrad choose."""
    _b.intra_op = int(num_threads)
    _b.next_check = 0.0


def intra_op_threads() -> int:
    """``tf.config.threading.get_intra_op_parallelism_threads``."""
    return _b.intra_op


def session_intra_op_threads(num_threads: int) -> None:
    """A Session config's ``intra_op_parallelism_threads``: as in TensorFlow, whose sessions
    share the process's pools, the first config that sets it sizes the pool."""
    if num_threads > 0 and not _b.session_intra_op:
        _b.session_intra_op = int(num_threads)
        _b.next_check = 0.0


def _busy_seconds(cpus: set) -> float | None:
    """CPU seconds the CPUs ``cpus`` spent busy since boot (all processes), from
    /proc/stat; None where it cannot be read."""
    try:
        with open("/proc/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    ticks = 0
    for line in text.split(b"\n"):
        if not line.startswith(b"cpu"):
            break
        name, *fields = line.split()
        if name == b"cpu" or int(name[3:]) not in cpus:
            continue
        # user nice system idle iowait irq softirq steal: all but idle and iowait are busy
        ticks += sum(int(v) for v in fields[:8]) - int(fields[3]) - int(fields[4])
    return ticks / os.sysconf("SC_CLK_TCK")


def _running_now() -> int:
    """Runnable tasks on the machine now (/proc/loadavg), this thread included; 1 where
    it cannot be read."""
    try:
        with open("/proc/loadavg") as f:
            return int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 1


def others_load() -> float:
    """About how many of this process's cores other processes kept busy since the last
    look (the runnable tasks now, on the first look or after a long pause)."""
    now, ours = time.monotonic(), time.process_time()
    busy = _busy_seconds(_affinity())
    prev, _b.sample = _b.sample, (now, busy, ours)
    if prev is not None and busy is not None and prev[1] is not None \
            and 0.05 <= now - prev[0] <= _STALE:
        return max(0.0, (busy - prev[1] - (ours - prev[2])) / (now - prev[0]))
    return float(max(0, _running_now() - 1))


def _blas_controllers() -> list:
    """threadpoolctl's controllers of the loaded BLAS libraries; [] without threadpoolctl
    (``pip install flowgrad[threads]``). Rescanned every ``_BLAS_RESCAN`` seconds, so a BLAS
    loaded later (SciPy's, another extension's) joins the pool's budget."""
    now = time.monotonic()
    if _b.blas is None or now >= _b.blas_scan:
        try:
            import threadpoolctl
        except ImportError:
            _b.blas, _b.blas_scan = [], float("inf")
        else:
            _b.blas = [lc for lc in threadpoolctl.ThreadpoolController().lib_controllers
                       if lc.user_api == "blas"]
            _b.blas_scan = now + _BLAS_RESCAN
    return _b.blas


def _refresh() -> None:
    """Looks at the load and sizes the BLAS pool: the intra-op cap, at most the free cores
    (nothing when another thread is looking already)."""
    if not _b.lock.acquire(blocking=False):
        return
    try:
        _resize()
    finally:
        _b.lock.release()


def _resize() -> None:
    cores = usable_cores()
    _b.free = max(1, cores - int(others_load() + 0.5))
    _b.next_check = time.monotonic() + CHECK_INTERVAL
    n = min(intra_op_cap(), _b.free)
    controllers = _blas_controllers()
    if n != _b.blas_threads or any(lc.num_threads != n for lc in controllers):
        for lc in controllers:
            lc.set_num_threads(n)
        # without threadpoolctl the pool keeps the size BLAS chose when it was loaded
        _b.blas_threads = n if controllers else (_env_threads() or cores)


def check() -> None:
    """Called by kernels that use BLAS before they do: resizes the BLAS pool to the budget
    when the last look at the load is older than ``CHECK_INTERVAL``."""
    if time.monotonic() >= _b.next_check:
        _refresh()


def free_cores() -> int:
    """The cores found free at the last look (looking first if there was none)."""
    check()
    return _b.free


def overlap_allowed() -> bool:
    """Whether a second kernel may run now on the inter-op worker beside the calling
    thread's: two usable cores, with one BLAS thread per kernel (so two busy threads).

    Unlike the BLAS pool this does not shrink with the load: the two kernels are
    independent and meet only where the plan waits for the worker's result (asleep),
    whereas a threaded GEMM's threads work in lockstep and all wait for the one that shares
    a core with another process."""
    check()
    return _b.blas_threads <= 1 and usable_cores() >= 2


def blas_threads() -> int:
    """The BLAS pool size flowgrad set last (0: none set yet)."""
    return _b.blas_threads
