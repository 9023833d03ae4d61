"""TF1's profiling of a Session run: ``run_metadata.step_stats`` of a run traced with
``tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)`` (one ``DeviceStepStats`` of the CPU,
one ``NodeExecStats`` per op with TensorFlow's ``timeline_label`` ``"name = Op(inputs)"``),
and ``tensorflow.python.client.timeline.Timeline``, which writes it as a Chrome trace
(``chrome://tracing``) as TensorFlow's does: a ``process_name`` event per device's compute
and tensors (and the allocators), an ``"X"`` event per op (``args``: ``name``, ``op``,
``input<i>``), data-flow arrows between threads and, with ``show_memory``, tensor objects and
memory counters."""
from __future__ import annotations

import collections
import copy
import json
import re
import threading
from typing import Any

from flowgrad.framework import hooks as _hooks

#: The device a local Session's step stats name.
DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"

AllocationMaximum = collections.namedtuple("AllocationMaximum",
                                           ("timestamp", "num_bytes", "tensors"))
StepStatsAnalysis = collections.namedtuple("StepStatsAnalysis",
                                           ("chrome_trace", "allocator_maximums"))


def _input_name(t: Any) -> str:
    return t.op.name if t.value_index == 0 else t.name


def fill_step_stats(run_metadata: Any, records: list) -> None:
    """Writes a traced run's ``(op, start_ns, end_ns)`` records into
    ``run_metadata.step_stats``.

    Args:
        run_metadata: A ``RunMetadata`` proto.
        records: The records, in the order the ops ran.
    """
    from flowgrad.saved_model import tf_protos
    dev = run_metadata.step_stats.dev_stats.add(device=DEVICE)
    tid = threading.get_native_id()
    spans: dict = {}
    for op, start, end in records:     # an op on several lines: one entry, first to last
        span = spans.setdefault(op, [start, end])
        span[1] = max(span[1], end)
    last_end_us = -1
    for op, (start, end) in spans.items():
        dur = end - start
        # the ops ran one after another on this thread: whole microseconds that do not
        # overlap, so a timeline draws them on one lane
        start_us = max(start // 1000, last_end_us + 1)
        dur_us = dur // 1000
        last_end_us = start_us + dur_us
        ns = dev.node_stats.add(
            node_name=op.name, thread_id=tid,
            timeline_label="%s = %s(%s)" % (op.name, op.type,
                                            ", ".join(_input_name(t) for t in op.inputs)),
            all_start_micros=start_us, op_start_rel_micros=0,
            op_end_rel_micros=dur_us, all_end_rel_micros=dur_us,
            all_start_nanos=start, op_start_rel_nanos=0, op_end_rel_nanos=dur,
            all_end_rel_nanos=dur, scheduled_micros=start // 1000, scheduled_nanos=start)
        for slot, t in enumerate(op.outputs):
            desc = ns.output.add(slot=slot).tensor_description
            desc.dtype = tf_protos.data_type(t.dtype.base_dtype)
            desc.allocation_description.allocator_name = "cpu"
            dims = t.shape.as_list() if t.shape.rank is not None else None
            if dims is None:
                continue
            for d in dims:
                desc.shape.dim.add(size=-1 if d is None else d)
            if None not in dims and t.dtype.base_dtype.np.kind != "O":
                size = t.dtype.base_dtype.np.itemsize
                for d in dims:
                    size *= d
                desc.allocation_description.requested_bytes = size
                desc.allocation_description.allocated_bytes = size


class _ChromeTrace:
    """The events of a Chrome trace: metadata first, then the others."""

    def __init__(self) -> None:
        self.metadata: list = []
        self.events: list = []

    def pid(self, name: str, pid: int) -> None:
        self.metadata.append({"name": "process_name", "ph": "M", "pid": pid,
                              "args": {"name": name}})

    def event(self, ph: str, category: str, name: str, pid: int, tid: int, ts: int,
              **fields: Any) -> None:
        self.events.append({"ph": ph, "cat": category, "name": name, "pid": pid, "tid": tid,
                            "ts": ts, **fields})

    def format_to_string(self, pretty: bool = False) -> str:
        trace = {"traceEvents": self.metadata + self.events}
        if pretty:
            return json.dumps(trace, indent=4, separators=(",", ": "))
        return json.dumps(trace, separators=(",", ":"))


def _parse_label(label: str) -> tuple:
    m = re.match(r"(.*) = (.*)\((.*)\)", label)
    if m is None:
        return "unknown", "unknown", []
    name, op, inputs = m.groups()
    return name, op, inputs.split(", ") if inputs else []


class Timeline:
    """A run's ``StepStats`` as a Chrome trace (TensorFlow's
    ``tensorflow.python.client.timeline.Timeline``).

    Args:
        step_stats: ``run_metadata.step_stats`` of a traced run.
        graph: Accepted for TensorFlow's signature.
    """

    def __init__(self, step_stats: Any, graph: Any = None) -> None:
        self._origin_step_stats = step_stats
        self._graph = graph

    def analyze_step_stats(self, show_dataflow: bool = True, show_memory: bool = True,
                           op_time: str = "schedule") -> StepStatsAnalysis:
        """The Chrome trace and, per allocator, the most memory its tensors held.

        Args:
            show_dataflow: Whether to draw arrows from an op's inputs made on another thread.
            show_memory: Whether to add tensor objects and memory counters.
            op_time: "schedule", "gpu" or "all" (the same on the CPU).

        Returns:
            A ``StepStatsAnalysis(chrome_trace, allocator_maximums)``.
        """
        stats = copy.deepcopy(self._origin_step_stats)
        trace = _ChromeTrace()
        trace.pid("Allocators", 0)
        allocators_pid, next_pid, device_pids = 0, 1, {}
        for dev in stats.dev_stats:
            device_pids[dev.device] = (next_pid, next_pid + 1)
            trace.pid(dev.device + " Compute", next_pid)
            trace.pid(dev.device + " Tensors", next_pid + 1)
            next_pid += 2
        for dev in stats.dev_stats:           # lanes: an op goes on the first free one
            lanes = [0]
            for ns in dev.node_stats:
                for i, busy_until in enumerate(lanes):
                    if ns.all_start_micros > busy_until:
                        lane = i
                        break
                else:
                    lane = len(lanes)
                    lanes.append(0)
                lanes[lane] = ns.all_start_micros + ns.all_end_rel_micros
                ns.thread_id = lane
        tensors: dict = {}          # name -> [object id, pid, allocator, bytes, create, unrefs]
        made_at: dict = {}
        for dev in stats.dev_stats:
            device_pid, tensors_pid = device_pids[dev.device]
            for ns in dev.node_stats:
                start, end = ns.all_start_micros, ns.all_start_micros + ns.all_end_rel_micros
                for index, output in enumerate(ns.output):
                    name = "%s:%d" % (ns.node_name, index) if index else ns.node_name
                    alloc = output.tensor_description.allocation_description
                    tensors[name] = [len(tensors), tensors_pid, alloc.allocator_name,
                                     alloc.requested_bytes, start, [end]]
                    made_at[name] = (end, device_pid, ns.thread_id)
                    if show_memory:
                        trace.event("N", "Tensor", name, tensors_pid, ns.thread_id, start,
                                    id=tensors[name][0])
                        desc = str(output.tensor_description).replace('"', "")
                        trace.event("O", "Tensor", name, tensors_pid, ns.thread_id, end - 1,
                                    id=tensors[name][0],
                                    args={"snapshot": {"tensor_description": desc}})
        flow_id = 0
        for dev in stats.dev_stats:
            device_pid, _ = device_pids[dev.device]
            for ns in dev.node_stats:
                start, end = ns.all_start_micros, ns.all_start_micros + ns.all_end_rel_micros
                _, op, inputs = _parse_label(ns.timeline_label)
                args = {"name": ns.node_name, "op": op}
                args.update({"input%d" % i: n for i, n in enumerate(inputs)})
                trace.event("X", "Op", op, device_pid, ns.thread_id, start,
                            dur=ns.all_end_rel_micros, args=args)
                for name in inputs:
                    if name not in tensors:
                        continue
                    tensors[name][5].append(end - 1)
                    made_end, made_pid, made_tid = made_at[name]
                    if show_dataflow and (made_pid != device_pid or made_tid != ns.thread_id):
                        trace.event("s", "DataFlow", name, made_pid, made_tid, made_end,
                                    id=flow_id)
                        trace.event("t", "DataFlow", name, device_pid, ns.thread_id, start,
                                    id=flow_id)
                        flow_id += 1
        maximums: dict = {}
        if show_memory:
            allocations: dict = {}
            for name, (oid, pid, allocator, size, created, unrefs) in tensors.items():
                trace.event("D", "Tensor", name, pid, 0, max(unrefs), id=oid)
                allocations.setdefault(allocator, []).extend(
                    [(created, size, name), (max(unrefs), -size, name)])
            for allocator, changes in allocations.items():
                total, live = 0, set()
                maximums[allocator] = AllocationMaximum(0, 0, set())
                for when, size, name in sorted(changes, key=lambda c: c[0]):
                    total += size
                    (live.discard if size < 0 else live.add)(name)
                    if total > maximums[allocator].num_bytes:
                        maximums[allocator] = AllocationMaximum(when, total, set(live))
                    trace.event("C", "Memory", allocator, allocators_pid, 0, when,
                                args={allocator: total})
        return StepStatsAnalysis(trace, maximums)

    def generate_chrome_trace_format(self, show_dataflow: bool = True,
                                     show_memory: bool = False,
                                     op_time: str = "schedule") -> str:
        """The Chrome trace as (pretty-printed) JSON text.

        Args:
            show_dataflow: See ``analyze_step_stats``.
            show_memory: See ``analyze_step_stats``.
            op_time: See ``analyze_step_stats``.

        Returns:
            The JSON text.
        """
        return self.analyze_step_stats(show_dataflow, show_memory,
                                       op_time).chrome_trace.format_to_string(pretty=True)


_hooks.register(fill_step_stats=fill_step_stats)

__all__ = ["AllocationMaximum", "StepStatsAnalysis", "Timeline", "fill_step_stats"]
