"""Graph export to Graphviz DOT, with gradient ops and stopped edges marked.

``to_dot(graph)`` returns DOT source (render with ``dot -Tsvg``). Gradient ops are
filled orange and grouped in one cluster per forward op they differentiate;
edges that carry no gradient are marked: into a StopGradient op, into an op
listed in ``stop_gradients`` or of a non-differentiable type (red, dashed,
"stopped"), and integer or bool tensors (grey, dotted, "no gradient")."""
from __future__ import annotations

from typing import Any

from flowgrad.debug._where import where
from flowgrad.framework import dtypes
from flowgrad.framework.graph import Operation, get_default_graph
from flowgrad.framework.registry import gradient_function
from flowgrad.framework.type_hints import TensorLike

_SOURCE_TYPES = ("Placeholder", "PlaceholderWithDefault", "VariableV2", "Const")


def _q(s: str) -> str:
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _attrs(**kw: Any) -> str:
    return "[%s]" % ", ".join("%s=%s" % (k, _q(str(v))) for k, v in kw.items())


def _shape(t: Any) -> str:
    dims = t.shape.as_tuple()
    if dims is None:
        return "?"
    return "(%s)" % ", ".join("?" if d is None else str(d) for d in dims)


def _no_gradient(op: Operation) -> bool:
    try:
        return gradient_function(op) is None
    except LookupError:
        return False


def _forward_of(op: Operation) -> Operation | None:
    from flowgrad.autodiff.backprop import gradient_origin
    origin = gradient_origin(op)
    return origin[0] if origin is not None else None


def _is_gradient_op(op: Operation) -> bool:
    return _forward_of(op) is not None or op.name.split("/", 1)[0].startswith("gradients")


def _needed(targets: list) -> set:
    from flowgrad.runtime.plan import PlanCompiler
    return PlanCompiler.prune(targets, {})


def to_dot(graph: Any = None, fetches: Any = None, stop_gradients: TensorLike | None = None,
           include_gradients: bool = True, name: str = "flowgrad") -> str:
    """The graph (or the part ``fetches`` need) as Graphviz DOT source.

    ``stop_gradients`` (tensors, as for tf.gradients) marks those ops as stop points;
    ``include_gradients=False`` leaves out the ops built by gradient functions.

    Args:
        graph: The graph to draw; the default graph when None.
        fetches: Draw only what these tensors or ops depend on; everything when None.
        stop_gradients: Tensors the gradient stops at (drawn as such).
        include_gradients: Whether to draw the gradient ops too.
        name: The name of the DOT graph.
    """
    from flowgrad.framework.tensor import convert_to_tensor
    g = graph if graph is not None else get_default_graph()
    ops = g.get_operations()
    if fetches is not None:
        items = fetches if isinstance(fetches, (list, tuple)) else [fetches]
        keep = _needed([g.as_graph_element(f) for f in items])
        ops = [op for op in ops if op in keep]
    if not include_gradients:
        ops = [op for op in ops if not _is_gradient_op(op)]
    if stop_gradients is not None and not isinstance(stop_gradients, (list, tuple)):
        stop_gradients = [stop_gradients]
    stops = {convert_to_tensor(t).op for t in (stop_gradients or [])}
    shown = set(ops)
    lines = ["digraph %s {" % _q(name), "  rankdir=BT;",
             '  node [shape=box, style="rounded,filled", fillcolor=white, fontsize=10];',
             "  edge [fontsize=8];"]
    clusters: dict = {}
    for op in ops:
        fwd = _forward_of(op) if include_gradients else None
        line = "%s %s;" % (_q(op.name), _node_attrs(op, stops))
        if fwd is not None:
            clusters.setdefault(fwd, []).append(line)
        else:
            lines.append("  " + line)
    for i, (fwd, members) in enumerate(sorted(clusters.items(), key=lambda kv: kv[0]._id)):
        lines.append("  subgraph %s {" % _q("cluster_grad_%d" % i))
        lines.append("    label=%s; style=dashed; color=darkorange; fontsize=9;"
                     % _q("gradient of %s (%s)" % (fwd.name, fwd.type)))
        lines.extend("    " + m for m in members)
        lines.append("  }")
    for op in ops:
        for t in op.inputs:
            if t.op in shown:
                lines.append("  %s -> %s %s;" % (_q(t.op.name), _q(op.name),
                                                  _edge_attrs(t, op, stops)))
        for c in op.control_inputs:
            if c in shown:
                lines.append("  %s -> %s %s;" % (_q(c.name), _q(op.name), _attrs(
                    style="dashed", color="gray50", arrowhead="odot", tooltip="control")))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _node_attrs(op: Operation, stops: set) -> str:
    kw: dict = {"label": "%s\n%s" % (op.name, op.type)}
    if op.traceback:
        kw["tooltip"] = "created at %s" % where(op.traceback)
    if op.type in _SOURCE_TYPES:
        kw.update(shape="ellipse", fillcolor="lightblue" if op.type == "VariableV2"
                  else "lightyellow")
    if _is_gradient_op(op):
        kw["fillcolor"] = "#fde0c5"
    if op.type == "StopGradient" or op in stops:
        kw.update(color="red", penwidth="2")
        if op in stops:
            kw["peripheries"] = "2"
            kw["label"] += "\n(stop_gradients)"
    elif _no_gradient(op) and op.type not in _SOURCE_TYPES:
        kw.update(color="gray40", style="rounded,filled,dashed")
    return _attrs(**kw)


def _edge_attrs(t: Any, consumer: Operation, stops: set) -> str:
    label = "%s %s" % (t.dtype.base_dtype.name, _shape(t))
    if not dtypes.is_differentiable(t.dtype):
        return _attrs(label=label + "\nno gradient", style="dotted", color="gray50",
                      fontcolor="gray50")
    if consumer.type == "StopGradient" or consumer in stops or _no_gradient(consumer):
        return _attrs(label=label + "\nstopped", style="dashed", color="red", fontcolor="red")
    return _attrs(label=label)


__all__ = ["to_dot"]
