"""flowgrad's functional If and While ops as TensorFlow's, for GraphDefs and SavedModels.

TensorFlow 2 keeps ``tf.cond`` and ``tf.while_loop`` as one op whose branches (or
condition and body) are functions of the graph's ``FunctionDefLibrary``; flowgrad does the
same with traced sub-graphs, so exporting one is writing each sub-graph as a FunctionDef
(its placeholders the arguments, its ops the exported NodeDefs, nested control flow
included) and the op as TensorFlow's:

- ``If`` (``StatelessIf`` when neither branch has side effects): inputs ``cond`` and the
  tensors the branches captured, attributes ``Tcond``, ``Tin``, ``Tout``,
  ``then_branch``/``else_branch`` and ``output_shapes``; its outputs are flowgrad's.
- ``While`` (``StatelessWhile`` likewise): as TensorFlow's ``while_v2`` writes it, the
  loop variables are the iteration counter, ``maximum_iterations`` (-1: none), flowgrad's
  loop variables, then the captured tensors (passed through unchanged); the condition is
  ``counter < maximum_iterations`` and the user's condition, and the body adds one to the
  counter. Output ``k`` of flowgrad's loop variables is TensorFlow's output ``k + 2``,
  the iteration count is its output 0.

A loop that slices per-iteration inputs or stacks per-iteration outputs (``tf.scan``,
``tf.map_fn``, Keras RNNs: TensorFlow writes TensorLists for those) or whose recorded
history a gradient reads cannot be written this way: ``UnexportableOpError`` names it."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.saved_model import tf_op_defs, tf_protos
from flowgrad.saved_model.graph_export import (CONTROL_FLOW_EXPORTERS, OUTPUT_INDEX,
                                               FunctionLibrary, FunctionName,
                                               UnexportableOpError, attr, export_op,
                                               function_node_ref, function_ref)
#: Op types with side effects: a function holding one makes a stateful If/While.
STATEFUL = frozenset({"RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                      "RandomUniformInt", "Multinomial", "PrintV2", "Print", "Assert",
                      "Assign", "AssignAdd", "AssignSub", "AssignVariableOp",
                      "AssignAddVariableOp", "AssignSubVariableOp", "If", "While"})


class Later:
    """An output of :func:`subgraph_function` that its ``extra`` nodes compute."""

    def __init__(self, dtype: Any, deps: list = ()):
        self.dtype = dtype
        self.deps = [t for t in deps if t is not None]     # body tensors it reads


def _needed_ops(outputs: list, stops: set) -> set:
    """The ops ``outputs`` (tensors and ops) depend on, not looking past ``stops``."""
    seen: set = set()
    stack = [t.op if hasattr(t, "value_index") else t for t in outputs]
    while stack:
        op = stack.pop()
        if op in seen or op in stops:
            continue
        seen.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return seen


def subgraph_function(name: str, graph: Any, args: list, outputs: list, library: Any,
                      control_outputs: list = (), extra: Callable | None = None) -> Any:
    """The FunctionDef ``name`` of sub-graph ops.

    Args:
      name: the function's name.
      graph: the sub-graph (its ops are exported in creation order).
      args: ``(argument name, dtype, placeholder or None)`` in argument order.
      outputs: output tensors of ``graph``, argument names, or :class:`Later` items.
      library: the FunctionLibrary nested control flow goes into.
      control_outputs: ops of ``graph`` that must run (its side effects).
      extra: ``extra(add_node, ref)`` adds nodes after the body's and returns the
        references of the ``Later`` outputs; ``ref`` names a tensor of the body.

    Returns:
      The FunctionDef proto.
    """
    p = tf_protos.pb()
    fdef = p.function_pb2.FunctionDef()
    sig = fdef.signature
    sig.name = name
    ref_of: dict = {}
    for arg, dt, ph in args:
        sig.input_arg.add(name=arg, type=tf_protos.data_type(dt))
        if ph is not None:
            ref_of[ph] = arg

    def ref(t: Any) -> str:
        return t if isinstance(t, str) else ref_of.get(t) or function_ref(t)

    stateful = []

    def add_node(node_name: str, op_type: str, inputs: list, attrs: dict, device: str) -> None:
        node = fdef.node_def.add(name=node_name, op=op_type)
        node.input.extend(inputs)
        for k, v in attrs.items():
            node.attr[k].CopyFrom(attr(v))
        d = tf_op_defs.get(op_type)
        if op_type in STATEFUL or (d is not None and d.is_stateful):
            stateful.append(node_name)

    stops = {ph.op for ph in ref_of}
    tensors = [t for t in outputs if not isinstance(t, (str, Later))]
    tensors += [d for t in outputs if isinstance(t, Later) for d in t.deps]
    needed = _needed_ops(tensors + list(control_outputs), stops)
    for op in graph.get_operations():
        if op not in needed:
            continue
        if op.type == "Placeholder":
            raise UnexportableOpError("Cannot export %s: placeholder %s is not one of its "
                                      "inputs" % (graph.name, op.name))
        export_op(op, add_node, ref, function_node_ref, library)
    extra_refs = iter(extra(add_node, ref) if extra is not None else ())
    names = {n.name for n in fdef.node_def}
    for node in fdef.node_def:          # control inputs on arguments go away
        kept = [i for i in node.input if not i.startswith("^") or i[1:] in names]
        del node.input[:]
        node.input.extend(kept)
    for i, t in enumerate(outputs):
        out = "output_%d" % i
        r = next(extra_refs) if isinstance(t, Later) else ref(t)
        dt = t.dtype if hasattr(t, "dtype") else dict((a, d) for a, d, _ in args)[t]
        sig.output_arg.add(name=out, type=tf_protos.data_type(dt.base_dtype))
        fdef.ret[out] = r
    for op in control_outputs:
        if op.name in names:
            sig.control_output.append(op.name)
            fdef.control_ret[op.name] = op.name
    sig.is_stateful = bool(stateful or control_outputs)
    return fdef


def _arg(ph: Any, i: int) -> str:
    s = re.sub(r"[^a-z0-9_]", "_", ph.op.name.lower())
    return "%s_%d" % (s if s[:1].isalpha() else "arg_" + s, i)


# --------------------------------------------------------------------------------------
# If


def _export_if(op: Any, library: FunctionLibrary) -> tuple:
    then_f, else_f = op._attrs["then_branch"], op._attrs["else_branch"]
    caps = op.inputs[1:]

    def branch(f: Any) -> FunctionName:
        def build(name: str) -> Any:
            args = [(_arg(ph, i), ph.dtype.base_dtype, ph) for i, ph in enumerate(f.inputs)]
            return subgraph_function(name, f.graph, args, list(f.outputs), library,
                                     f.control_outputs)
        return library.add(id(f), f.graph.name, build)
    then_name, else_name = branch(then_f), branch(else_f)
    stateful = library.is_stateful(then_name) or library.is_stateful(else_name)
    return list(range(len(op.inputs))), {
        "_op_type": "If" if stateful else "StatelessIf",
        "Tcond": dtypes.bool, "Tin": [t.dtype.base_dtype for t in caps],
        "Tout": [t.dtype.base_dtype for t in op.outputs],
        "then_branch": then_name, "else_branch": else_name,
        "output_shapes": list(op._attrs["output_shapes"])}


# --------------------------------------------------------------------------------------
# While


def _while_layout(op: Any) -> tuple:
    a = op._attrs
    return len(a["shapes"]), a["num_sliced"], len(a["extras"])


def _while_output_index(t: Any) -> int:
    n, _, e = _while_layout(t.op)
    k = t.value_index
    if k < n:
        return k + 2
    if k == n + e:
        return 0
    raise UnexportableOpError(
        "Cannot export while loop '%s': output %d (its recorded history, which a gradient "
        "reads) has no counterpart in TensorFlow's While op" % (t.op.name, k))


def _export_while(op: Any, library: FunctionLibrary) -> tuple:
    a = op._attrs
    n, ns, e = _while_layout(op)
    if ns or e:
        raise UnexportableOpError(
            "Cannot export while loop '%s': it slices per-iteration inputs or stacks "
            "per-iteration outputs (tf.scan, tf.map_fn, Keras RNN layers, or random ops in its "
            "body), which TensorFlow writes with TensorLists; flowgrad exports plain "
            "tf.while_loop only" % op.name)
    for t in op.outputs:
        if t._consumers:
            _while_output_index(t)
    cond_f, body_f = a["cond"], a["body"]
    loop_vars, caps = op.inputs[:n], op.inputs[n:-1]
    bounded = a.get("bounded", True)
    i32 = dtypes.int32

    def header(f_inputs: list) -> list:
        args = [("loop_counter", i32, None), ("maximum_iterations", i32, None)]
        return args + [(_arg(ph, i), ph.dtype.base_dtype, ph) for i, ph in enumerate(f_inputs)]

    def build_cond(name: str) -> Any:
        if cond_f is None:          # bounded by maximum_iterations only
            args = [(x, dt, None) for x, dt, _ in header(body_f.inputs)]
            graph, user = body_f.graph, None
        else:
            args = header(cond_f.inputs)
            graph, user = cond_f.graph, cond_f.outputs[0]

        def extra(add_node: Callable, ref: Callable) -> list:
            if not bounded:
                return [ref(user)]
            add_node("fg_less", "Less", ["loop_counter", "maximum_iterations"],
                     {"T": i32}, "")
            if user is None:
                return ["fg_less:z:0"]
            add_node("fg_and", "LogicalAnd", ["fg_less:z:0", ref(user)], {}, "")
            return ["fg_and:z:0"]
        controls = cond_f.control_outputs if cond_f is not None else ()
        return subgraph_function(name, graph, args, [Later(dtypes.bool, [user])], library, controls,
                                 extra)

    def build_body(name: str) -> Any:
        args = header(body_f.inputs)

        def extra(add_node: Callable, ref: Callable) -> list:
            add_node("fg_next/y", "Const", [], {"dtype": i32, "value": tf_protos.tensor_proto(
                np.int32(1), i32)}, "")
            add_node("fg_next", "AddV2", ["loop_counter", "fg_next/y:output:0"], {"T": i32}, "")
            return ["fg_next:z:0"]
        outs = [Later(i32), "maximum_iterations"] + list(body_f.outputs[:n]) + \
            [arg for arg, _, _ in args[2 + n:]]
        return subgraph_function(name, body_f.graph, args, outs, library,
                                 body_f.control_outputs, extra)
    base = op.name.replace("/", "_")
    cond_name = library.add(("cond", id(cond_f), id(body_f)), base + "_cond", build_cond)
    body_name = library.add(("body", id(body_f)), base + "_body", build_body)
    stateful = library.is_stateful(cond_name) or library.is_stateful(body_name)
    inputs = [("loop_counter", np.int32(0), i32),
              len(op.inputs) - 1 if bounded else ("maximum_iterations", np.int32(-1), i32)]
    inputs += list(range(n)) + list(range(n, len(op.inputs) - 1))
    return inputs, {
        "_op_type": "While" if stateful else "StatelessWhile",
        "T": [i32, i32] + [t.dtype.base_dtype for t in list(loop_vars) + list(caps)],
        "cond": cond_name, "body": body_name,
        "output_shapes": [TensorShape([]), TensorShape([])] + list(a["shapes"]) +
        [t.shape for t in caps], "parallel_iterations": 10}


CONTROL_FLOW_EXPORTERS.update({"If": _export_if, "While": _export_while})
OUTPUT_INDEX["While"] = _while_output_index
