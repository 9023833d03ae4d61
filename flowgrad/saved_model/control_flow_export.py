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
``tf.map_fn``) goes as TensorFlow writes it, with TensorLists: the elements enter as
``TensorListFromTensor`` lists read by ``TensorListGetItem`` at the iteration counter (the
condition also stops when they run out), each stacked output is an ``EmptyTensorList``
accumulator grown by ``TensorListPushBack`` and read after the loop by ``TensorListStack``.
A loop whose recorded history (or random samples) a gradient reads has no counterpart in
TensorFlow's While op: ``UnexportableOpError`` names it."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.saved_model import tf_op_defs, tf_protos
from flowgrad.saved_model.graph_export import (CONTROL_FLOW_EXPORTERS, OUTPUT_INDEX,
                                               OUTPUT_NODE, VARIANT, FunctionLibrary,
                                               FunctionName, RawDataType,
                                               UnexportableOpError, attr, export_op,
                                               function_node_ref, function_ref)
from flowgrad.framework.type_hints import DTypeLike
#: Op types with side effects: a function holding one makes a stateful If/While.
STATEFUL = frozenset({"RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                      "RandomUniformInt", "Multinomial", "RandomGamma", "RandomPoissonV2",
                      "PrintV2", "Print", "Assert",
                      "Assign", "AssignAdd", "AssignSub", "AssignVariableOp",
                      "AssignAddVariableOp", "AssignSubVariableOp", "If", "While"})


class Later:
    """An output of :func:`subgraph_function` that its ``extra`` nodes compute."""

    def __init__(self, dtype: DTypeLike, deps: list = ()):
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


#: The tensors the functions being written return (ids), innermost last: a While output
#: that one returns (an inner loop's record that the outer loop records) is used.
_RETURNED: list = []


def _used(t: Any) -> bool:
    """Whether an op reads ``t`` or a function being written returns it."""
    return bool(t._consumers) or any(id(t) in ids for ids in _RETURNED)


def _type_enum(dt: Any) -> int:
    return int(dt) if isinstance(dt, RawDataType) else tf_protos.data_type(dt.base_dtype)


def subgraph_function(name: str, graph: Any, args: list, outputs: list, library: Any,
                      control_outputs: list = (), extra: Callable | None = None,
                      bound: dict | None = None) -> Any:
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
      bound: placeholders of ``graph`` that nodes ``extra`` adds compute: placeholder ->
        the reference of its value.

    Returns:
      The FunctionDef proto.
    """
    p = tf_protos.pb()
    fdef = p.function_pb2.FunctionDef()
    sig = fdef.signature
    sig.name = name
    ref_of: dict = {}
    for arg, dt, ph in args:
        sig.input_arg.add(name=arg, type=_type_enum(dt))
        if ph is not None:
            ref_of[ph] = arg
    ref_of.update(bound or {})

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
    _RETURNED.append({id(t) for t in tensors})
    try:
        for op in graph.get_operations():
            if op not in needed:
                continue
            if op.type == "Placeholder":
                raise UnexportableOpError("Cannot export %s: placeholder %s is not one of its "
                                          "inputs" % (graph.name, op.name))
            export_op(op, add_node, ref, function_node_ref, library)
        extra_refs = list(extra(add_node, ref) if extra is not None else ())
        refs = [None if isinstance(t, Later) else ref(t) for t in outputs]
    finally:
        _RETURNED.pop()
    extra_refs = iter(extra_refs)
    names = {n.name for n in fdef.node_def}
    for node in fdef.node_def:          # control inputs on arguments go away
        kept = [i for i in node.input if not i.startswith("^") or i[1:] in names]
        del node.input[:]
        node.input.extend(kept)
    for i, t in enumerate(outputs):
        out = "output_%d" % i
        r = next(extra_refs) if isinstance(t, Later) else refs[i]
        dt = t.dtype if hasattr(t, "dtype") else dict((a, d) for a, d, _ in args)[t]
        sig.output_arg.add(name=out, type=_type_enum(dt))
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
    """(loop variables, sliced inputs, stacked outputs the user sees, all stacked outputs)."""
    a = op._attrs
    e = len(a["extras"])
    return len(a["shapes"]), a["num_sliced"], e - a.get("num_random", 0), e


def _accumulated(op: Any) -> list:
    """The outputs of the While ``op`` its TensorFlow form computes with a TensorList
    accumulator, by flowgrad output index: every stacked output the user sees, and those of
    the random samples, the history of the loop variables and the recorded intermediates
    (what a gradient reads, as TensorFlow's while_v2 gradient accumulates it) that something
    reads."""
    n, _, e_user, e = _while_layout(op)
    outs = op.outputs
    return list(range(n, n + e_user)) + [k for k in range(n + e_user, len(outs))
                                         if k != n + e and _used(outs[k])]


def _accumulator_spec(op: Any, k: int) -> tuple:
    """(dtype, per-iteration shape, body tensor pushed) of the accumulator of output ``k``."""
    a = op._attrs
    n, _, _, e = _while_layout(op)
    body = a["body"]
    if k < n + e:
        dt, shape = a["extras"][k - n]
        return dt, shape, body.outputs[k]
    if k < 2 * n + e + 1:
        ph = body.inputs[k - (n + e + 1)]
        return ph.dtype.base_dtype, a["shapes"][k - (n + e + 1)], ph
    t = body.outputs[len(a["shapes"]) + e + (a["cond"] is not None) + k - (2 * n + e + 1)]
    return t.dtype.base_dtype, t.shape, t


def _while_output_index(t: Any) -> int:
    n, ns, _, e = _while_layout(t.op)
    k = t.value_index
    if k < n:
        return k + 2
    if k == n + e:
        return 0
    accs = _accumulated(t.op)
    if k in accs:       # the accumulator itself (the TensorListStack node is its output)
        return 2 + n + ns + accs.index(k)
    raise UnexportableOpError(
        "Cannot export while loop '%s': output %d has no counterpart in TensorFlow's While op"
        % (t.op.name, k))


def _while_output_node(t: Any) -> tuple | None:
    """A stacked per-iteration output (or record): the TensorListStack node of its
    accumulator."""
    n, _, _, e = _while_layout(t.op)
    k = t.value_index
    if k < n or k == n + e:
        return None
    accs = _accumulated(t.op)
    if k not in accs:
        return None
    return ("%s/TensorListStack_%d" % (t.op.name, accs.index(k)), "TensorListStack", 0)


def _free_name(base: str, taken: set) -> str:
    """``base``, or ``base_1``, ``base_2``, ... : the first not in ``taken``."""
    name, k = base, 0
    while name in taken:
        k += 1
        name = "%s_%d" % (base, k)
    return name


def _reversed_record(t: Any) -> Any:
    """For a sliced input ``t`` of a gradient loop that is a While's record read backwards
    (``reverse(record, [0])``): that While output, whose accumulator the gradient loop then
    reads from its end; else None."""
    from flowgrad.framework.shape_rules import constant_value
    op = t.op
    if op.type != "ReverseV2":
        return None
    axis = constant_value(op.inputs[1]) if len(op.inputs) > 1 else op._attrs.get("axis")
    src = op.inputs[0]
    if axis is None or list(np.ravel(axis)) != [0] or src.op.type != "While":
        return None
    return src if src.value_index in _accumulated(src.op) else None


def _element_shape(shape: Any) -> np.ndarray:
    """A TensorList ``element_shape`` input: -1 for unknown dimensions or rank."""
    dims = TensorShape(shape).as_tuple()
    if dims is None:
        return np.int32(-1)
    return np.asarray([-1 if d is None else d for d in dims], np.int32)


def _export_while(op: Any, library: FunctionLibrary) -> tuple:
    """A While op as TensorFlow's while_v2 writes it. Sliced inputs (``tf.scan``/``map_fn``
    elements) go in as TensorLists (``TensorListFromTensor``) read by ``TensorListGetItem``
    at the iteration counter; each stacked per-iteration output, and each record a gradient
    reads (the loop variables' history, the intermediates, the random samples), is a
    TensorList accumulator (``EmptyTensorList``, ``TensorListPushBack``) stacked after the
    loop (``TensorListStack``). A gradient loop reading such a record backwards takes the
    accumulator itself and reads it from its end, as TensorFlow's gradient pops it."""
    a = op._attrs
    n, ns, _, _ = _while_layout(op)
    for t in op.outputs:
        if _used(t):
            _while_output_index(t)
    cond_f, body_f = a["cond"], a["body"]
    loop_vars, sliced = op.inputs[:n], op.inputs[n:n + ns]
    caps = op.inputs[n + ns:-1]
    accs = _accumulated(op)
    specs = [_accumulator_spec(op, k) for k in accs]
    records = [_reversed_record(t) for t in sliced]
    na = len(accs)
    bounded = a.get("bounded", True)
    i32 = dtypes.int32
    lists = [("tensor_list_%d" % j, VARIANT, None) for j in range(ns)]
    acc_args = [("accumulator_%d" % k, VARIANT, None) for k in range(na)]
    # the arguments of TensorFlow's while_v2, renamed where an op of the body has the name
    taken = {o.name for f in (cond_f, body_f) if f is not None
             for o in f.graph.get_operations()}
    counter, limit = _free_name("loop_counter", taken), _free_name("maximum_iterations", taken)

    def header(f_inputs: list, with_sliced: bool) -> list:
        loop = list(f_inputs[:n])
        rest = list(f_inputs[n + ns:] if with_sliced else f_inputs[n:])
        return ([(counter, i32, None), (limit, i32, None)] +
                [(_arg(ph, i), ph.dtype.base_dtype, ph) for i, ph in enumerate(loop)] +
                lists + acc_args +
                [(_arg(ph, n + ns + na + i), ph.dtype.base_dtype, ph)
                 for i, ph in enumerate(rest)])

    def build_cond(name: str) -> Any:
        if cond_f is None:          # bounded by maximum_iterations or the sliced inputs
            args = [(x, dt, None) for x, dt, _ in header(body_f.inputs, True)]
            graph, user = body_f.graph, None
        else:
            args = header(cond_f.inputs, False)
            graph, user = cond_f.graph, cond_f.outputs[0]

        def extra(add_node: Callable, ref: Callable) -> list:
            terms = [ref(user)] if user is not None else []
            if bounded:
                add_node("fg_less", "Less", [counter, limit],
                         {"T": i32}, "")
                terms.append("fg_less:z:0")
            for j in range(ns):         # the elements run out
                add_node("fg_length_%d" % j, "TensorListLength", [lists[j][0]], {}, "")
                add_node("fg_in_%d" % j, "Less", [counter, "fg_length_%d:length:0" % j],
                         {"T": i32}, "")
                terms.append("fg_in_%d:z:0" % j)
            if not terms:
                raise UnexportableOpError("Cannot export while loop '%s': it has no "
                                          "condition" % op.name)
            go = terms[0]
            for i, term in enumerate(terms[1:]):
                add_node("fg_and_%d" % i, "LogicalAnd", [go, term], {}, "")
                go = "fg_and_%d:z:0" % i
            return [go]
        controls = cond_f.control_outputs if cond_f is not None else ()
        return subgraph_function(name, graph, args, [Later(dtypes.bool, [user])], library,
                                 controls, extra)

    def build_body(name: str) -> Any:
        args = header(body_f.inputs, True)
        slice_phs = list(body_f.inputs[n:n + ns])
        bound = {ph: "fg_item_%d:item:0" % j for j, ph in enumerate(slice_phs)}
        pushed_values = [v for _, _, v in specs]

        def extra(add_node: Callable, ref: Callable) -> list:
            def const(node: str, value: Any) -> str:
                add_node(node, "Const", [], {"dtype": i32, "value": tf_protos.tensor_proto(
                    np.asarray(value, np.int32), i32)}, "")
                return node + ":output:0"
            for j, ph in enumerate(slice_phs):
                at = counter
                if records[j] is not None:      # a record read from its end
                    add_node("fg_size_%d" % j, "TensorListLength", [lists[j][0]], {}, "")
                    add_node("fg_last_%d" % j, "Sub", ["fg_size_%d:length:0" % j,
                                                        const("fg_last_%d/y" % j, 1)],
                             {"T": i32}, "")
                    add_node("fg_at_%d" % j, "Sub", ["fg_last_%d:z:0" % j, counter],
                             {"T": i32}, "")
                    at = "fg_at_%d:z:0" % j
                add_node("fg_item_%d" % j, "TensorListGetItem", [
                    lists[j][0], at,
                    const("fg_item_%d/element_shape" % j, _element_shape(ph.shape))],
                    {"element_dtype": ph.dtype.base_dtype}, "")
            add_node("fg_next", "AddV2", [counter, const("fg_next/y", 1)],
                     {"T": i32}, "")
            pushed = []
            for k, (dt, _, v) in enumerate(specs):
                add_node("fg_push_%d" % k, "TensorListPushBack", [acc_args[k][0], ref(v)],
                         {"element_dtype": dt}, "")
                pushed.append("fg_push_%d:output_handle:0" % k)
            return ["fg_next:z:0"] + pushed
        outs = [Later(i32), limit] + list(body_f.outputs[:n]) + \
            [x for x, _, _ in lists] + [Later(VARIANT, [v]) for v in pushed_values] + \
            [arg for arg, _, _ in args[2 + n + ns + na:]]
        return subgraph_function(name, body_f.graph, args, outs, library,
                                 body_f.control_outputs, extra, bound)
    base = op.name.replace("/", "_")
    layout = (tuple(accs), tuple(r is not None for r in records))
    cond_name = library.add(("cond", id(cond_f), id(body_f), na), base + "_cond", build_cond)
    body_name = library.add(("body", id(body_f), layout), base + "_body", build_body)
    stateful = library.is_stateful(cond_name) or library.is_stateful(body_name)

    def from_tensor(j: int) -> Callable:
        def build(b: Any) -> str:
            rec = records[j]
            if rec is not None:         # the accumulator of the record itself
                return b._node_ref(rec.op.name, "While", _while_output_index(rec), {})
            t = sliced[j]
            elem = t.shape[1:] if t.shape.rank is not None else TensorShape(None)
            return b.node("TensorListFromTensor_%d" % j, "TensorListFromTensor", [
                b.input(n + j), b.const("TensorListFromTensor_%d/element_shape" % j,
                                        _element_shape(elem))],
                {"element_dtype": t.dtype.base_dtype, "shape_type": i32})
        return build

    def empty(k: int) -> Callable:
        def build(b: Any) -> str:
            dt, shape, _ = specs[k]
            return b.node("EmptyTensorList_%d" % k, "EmptyTensorList", [
                b.const("EmptyTensorList_%d/element_shape" % k, _element_shape(shape)),
                b.const("EmptyTensorList_%d/max_num_elements" % k, -1)],
                {"element_dtype": dt, "shape_type": i32})
        return build

    def stack(b: Any) -> None:
        for k, (dt, shape, _) in enumerate(specs):
            handle = b._node_ref(op.name, "While", 2 + n + ns + k, {})
            b.node("TensorListStack_%d" % k, "TensorListStack", [
                handle, b.const("TensorListStack_%d/element_shape" % k, _element_shape(shape))],
                {"element_dtype": dt, "num_elements": -1})
    inputs = [("loop_counter", np.int32(0), i32),
              len(op.inputs) - 1 if bounded else ("maximum_iterations", np.int32(-1), i32)]
    inputs += list(range(n)) + [from_tensor(j) for j in range(ns)] + \
        [empty(k) for k in range(na)] + list(range(n + ns, len(op.inputs) - 1))
    return inputs, {
        "_op_type": "While" if stateful else "StatelessWhile",
        "T": [i32, i32] + [t.dtype.base_dtype for t in loop_vars] + [VARIANT] * (ns + na) +
        [t.dtype.base_dtype for t in caps],
        "cond": cond_name, "body": body_name,
        "output_shapes": [TensorShape([]), TensorShape([])] + list(a["shapes"]) +
        [TensorShape([])] * (ns + na) + [t.shape for t in caps],
        "parallel_iterations": 10, "_after": stack if na else None}


CONTROL_FLOW_EXPORTERS.update({"If": _export_if, "While": _export_while})
OUTPUT_INDEX["While"] = _while_output_index
OUTPUT_NODE["While"] = _while_output_node
