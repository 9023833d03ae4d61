"""The collectives' handling of a lost worker, without Ray (the workers' actor handles are
stand-ins that call the groups in this process): a survivor that missed the lost worker's
last message takes it from a survivor that got it, so both finish the same collective; a
collective that nobody can finish raises PeerLostError on every survivor; the survivors
then resume at the step's first collective in the group's new generation (messages of the
interrupted attempt dropped), send the new worker its state, and the three collectives
agree again. On Ray: tests/test_distribute_ray.py."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from flowgrad.distribute import collective

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install "
                          "flowgrad[distributed])")

_DEAD = object()          # what a call to the lost worker returns


class _Method:
    def __init__(self, call):
        self._call = call

    def options(self, **kwargs):
        return self

    def remote(self, *args):
        return self._call(*args)


class _Handle:
    """A worker's actor handle: ``deliver`` and ``lookup`` call its group here."""

    def __init__(self, groups, rank, dead=False):
        def deliver(key, value):
            if dead:
                return _DEAD
            groups[rank].deliver(key, value)
            return None
        self.deliver = _Method(deliver)
        self.lookup = _Method(lambda key: None if dead else groups[rank].lookup(key))


@pytest.fixture
def fake_ray(monkeypatch):
    def get(ref, timeout=None):
        if ref is _DEAD:
            raise ray.exceptions.RayActorError()
        return ref
    monkeypatch.setattr(ray, "get", get)
    monkeypatch.setattr(ray, "wait", lambda refs, num_returns=1, timeout=None: (refs, []))


def _in_threads(calls):
    results, errors = [None] * len(calls), [None] * len(calls)

    def run(i, fn):
        try:
            results[i] = fn()
        except Exception as e:      # noqa: BLE001 - checked by the test
            errors[i] = e
    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    return threads, results, errors


def test_a_lost_workers_missed_message_is_repaired_then_the_step_resumes(fake_ray):
    groups: list = [None] * 3
    handles = [_Handle(groups, 0), _Handle(groups, 1), _Handle(groups, 2, dead=True)]
    for r in range(2):
        groups[r] = collective.CollectiveGroup(r, 3, handles, timeout=20.0)
        groups[r].rejoinable = 1                 # inside a PreemptionCheckpointHandler step
    a = [np.arange(7, dtype=np.float64) * (r + 1) for r in range(3)]
    want = a[0] + a[1] + a[2]

    # worker 2 sends its scatter chunks to both survivors, and its gather part to worker 0
    # only, then dies
    threads, results, errors = _in_threads([lambda: groups[0].all_reduce([a[0]]),
                                            lambda: groups[1].all_reduce([a[1]])])
    for t in threads:
        t.start()
    chunks = [np.array_split(x, 3) for x in a]
    for peer in range(2):
        groups[peer].deliver((0, "scatter", 1, 2), [chunks[2][peer]])
    groups[0].deliver((0, "gather", 1, 2), [chunks[0][2] + chunks[1][2] + chunks[2][2]])
    threads[0].join(10)
    assert not threads[0].is_alive() and errors[0] is None
    assert threads[1].is_alive()                  # worker 1 misses worker 2's part
    new = [groups[0], groups[1], None]          # the new worker, set up by the driver
    replacement = _Handle(new, 2)
    new[2] = collective.CollectiveGroup(2, 3, [handles[0], handles[1], replacement],
                                        timeout=20.0)
    new[2].generation = 1
    for g in groups[:2]:
        g.peer_replaced(2, replacement, 1)
    threads[1].join(10)
    assert errors == [None, None]
    for r in results:
        np.testing.assert_array_equal(r[0], want)

    # the next collective cannot finish without worker 2: every survivor raises
    threads, results, errors = _in_threads([lambda: groups[0].all_reduce([a[0]]),
                                            lambda: groups[1].all_reduce([a[1]])])
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert all(isinstance(e, collective.PeerLostError) and e.ranks == (2,) for e in errors), \
        errors
    assert "Worker(s) [2] of 3 died in collective 2" in str(errors[0])

    # they resume at the interrupted step's first collective; the new worker joins
    for g in groups[:2]:
        g.peer_replaced(2, replacement, 1)      # (already told; idempotent)
        assert g.resume(1) == 1 and g.sequence == 1
    groups[0].send_state(2, {"run_counter": 4})
    assert new[2].receive_state(timeout=5) == {"run_counter": 4}
    new[2].resume(1)
    groups[:] = new
    threads, results, errors = _in_threads(
        [lambda r=r: groups[r].all_reduce([a[r]]) for r in range(3)])
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert errors == [None] * 3
    for r in results:
        np.testing.assert_array_equal(r[0], want)
    assert all(g.sequence == 2 and g.generation == 1 for g in groups)
