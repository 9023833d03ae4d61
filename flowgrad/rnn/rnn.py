"""TF1's recurrent network builders: ``tf.nn.dynamic_rnn`` (a ``tf.while_loop`` over time),
``tf.nn.static_rnn`` (unrolled in Python) and ``tf.nn.bidirectional_dynamic_rnn``.

With ``sequence_length``, steps at or past an example's length output zeros and copy its
state through unchanged, so the final state is the state at the last valid step."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import array_ops, math_ops
from flowgrad.ops.while_v2 import build_while
from flowgrad.ops.variable_scope import variable_scope
from flowgrad.rnn.cells import _prebuild, assert_like_rnncell
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def _time_major(x: TensorBase) -> TensorBase:
    ndims = x.shape.ndims
    if ndims is not None and ndims < 2:
        raise ValueError("Expected input tensor %s to have rank at least 2" % x.name)
    if ndims is None:
        raise ValueError("dynamic_rnn needs inputs of known rank, got %s" % x.name)
    return array_ops.transpose(x, [1, 0] + list(range(2, ndims)))


def _batch_size(flat_inputs: list) -> Any:
    """The static batch size if known, else a scalar tensor (inputs are time-major)."""
    for x in flat_inputs:
        dims = x.shape.as_list()
        if dims[1] is not None:
            return dims[1]
    return array_ops.shape(flat_inputs[0])[1]


def _check_sequence_length(sequence_length: Any) -> Any:
    if sequence_length is None:
        return None
    seq = math_ops.cast(convert_to_tensor(sequence_length), dtypes.int32)
    if seq.shape.ndims not in (None, 1):
        raise ValueError("sequence_length must be a vector of length batch_size, but saw shape: "
                         "%s" % seq.shape)
    return array_ops.identity(seq, name="sequence_length")


def _initial_state(cell: Any, initial_state: Any, batch_size: Any, dtype: Any) -> Any:
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If there is no initial_state, you must give a dtype.")
    if hasattr(cell, "get_initial_state"):
        return cell.get_initial_state(batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def _mask_step(time: Any, seq: Any, output: Any, new_state: Any, state: Any) -> tuple:
    """Outputs zeroed and the old state kept where ``time >= sequence_length``."""
    def mask_for(t: TensorBase) -> TensorBase:
        m = math_ops.cast(math_ops.less(time, seq), t.dtype.base_dtype)
        return array_ops.reshape(m, [-1] + [1] * (t.shape.ndims - 1))
    output = nest.map_structure(lambda o: o * mask_for(o), output)
    new_state = nest.map_structure(lambda n, s: n * mask_for(n) + s * (1 - mask_for(n)),
                                   new_state, state)
    return output, new_state


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: TensorLike | None = None,
                initial_state: Any = None, dtype: DTypeLike | None = None,
                parallel_iterations: int | None = None, swap_memory: bool = False,
                time_major: bool = False, scope: Any = None) -> tuple:
    """Runs ``cell`` over the time axis of ``inputs`` in a while loop (one While op).

    Returns ``(outputs, final_state)``; outputs are [batch, time, ...] (or [time, batch, ...]
    with ``time_major``).

    Args:
        cell: The RNN cell wrapped.
        inputs: The inputs: [batch, time, depth] (or [time, batch, depth] with ``time_major``).
        sequence_length: An int [batch] vector: each sequence's length (later steps give zeros and
            keep the state).
        initial_state: The cell's starting state; zeros when None (then ``dtype`` is required).
        dtype: The dtype of the zero state.
        parallel_iterations: Accepted for TensorFlow's signature (time steps run in order).
        swap_memory: Accepted for TensorFlow's signature.
        time_major: Whether ``inputs`` are [time, batch, ...] (else [batch, time, ...]).
        scope: The variable scope; ``rnn`` when None.
    """
    assert_like_rnncell("cell", cell)
    with variable_scope(scope or "rnn"):
        flat = [convert_to_tensor(x) for x in nest.flatten(inputs)]
        if not time_major:
            flat = [_time_major(x) for x in flat]
        seq = _check_sequence_length(sequence_length)
        batch_size = _batch_size(flat)
        state = _initial_state(cell, initial_state, batch_size, dtype)
        outputs, final_state = _dynamic_rnn_loop(cell, flat, inputs, state, seq)
        if not time_major:
            outputs = nest.map_structure(_time_major, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell: Any, flat: list, structure: Any, state: Any, seq: Any) -> tuple:
    static_steps = flat[0].shape.as_list()[0]
    batch = flat[0].shape.as_list()[1]
    for x in flat:
        depth = x.shape.as_list()[2:]
        if None in depth:
            raise ValueError("Input size (depth of inputs) must be accessible via shape "
                             "inference, but saw value None.")
    _prebuild(cell, TensorShape([batch] + flat[0].shape.as_list()[2:]))
    out_sizes = nest.flatten(cell.output_size)
    out_shapes = [[batch] + (TensorShape(s).as_list() if not isinstance(s, int) else [s])
                  for s in out_sizes]
    if executing_eagerly():
        return _eager_loop(cell, flat, structure, state, seq, out_sizes)
    flat_state = [convert_to_tensor(t) for t in nest.flatten(state)]
    n_state = len(flat_state)
    time0 = convert_to_tensor(0, dtypes.int32, name="time")

    def body(time: Any, *args: Any) -> tuple:
        st = nest.pack_sequence_as(state, list(args[:n_state]))
        x = nest.pack_sequence_as(structure, list(args[n_state:]))
        output, new_state = cell(x, st)
        new_state = nest.pack_sequence_as(st, nest.flatten(new_state))
        if seq is not None:
            output, new_state = _mask_step(time, seq, output, new_state, st)
        return [time + 1] + nest.flatten(new_state), nest.flatten(output)

    # one While op: the inputs are sliced along time, the outputs stacked by the op itself
    finals, outputs, _, _ = build_while(None, body, [time0] + flat_state,
                                        [t.shape for t in [time0] + flat_state], sliced=flat,
                                        name="while", static_n=static_steps)
    for o, shape in zip(outputs, out_shapes):
        o.set_shape(TensorShape([static_steps] + shape))
    final_state = nest.pack_sequence_as(state, finals[1:])
    return nest.pack_sequence_as(cell.output_size, outputs), final_state


def _eager_loop(cell: Any, flat: list, structure: Any, state: Any, seq: Any,
                out_sizes: list) -> tuple:
    outputs: list = []
    for time in range(int(flat[0].shape[0])):
        x = nest.pack_sequence_as(structure, [t[time] for t in flat])
        output, new_state = cell(x, state)
        new_state = nest.pack_sequence_as(state, nest.flatten(new_state))
        if seq is not None:
            output, new_state = _mask_step(time, seq, output, new_state, state)
        state = new_state
        outputs.append(nest.flatten(output))
    stacked = [array_ops.stack([o[k] for o in outputs]) for k in range(len(out_sizes))]
    return nest.pack_sequence_as(cell.output_size, stacked), state


def static_rnn(cell: Any, inputs: list, initial_state: Any = None, dtype: DTypeLike | None = None,
               sequence_length: TensorLike | None = None, scope: Any = None) -> tuple:
    """Runs ``cell`` over a Python list of [batch, depth] inputs (unrolled in the graph).

    Args:
        cell: The RNN cell wrapped.
        inputs: A list of [batch, depth] tensors, one per time step.
        initial_state: The cell's starting state; zeros when None (then ``dtype`` is required).
        dtype: The dtype of the zero state.
        sequence_length: An int [batch] vector: each sequence's length (later steps give zeros and
            keep the state).
        scope: The variable scope; ``rnn`` when None.
    """
    assert_like_rnncell("cell", cell)
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    outputs = []
    with variable_scope(scope or "rnn") as varscope:
        first = [convert_to_tensor(x) for x in nest.flatten(inputs[0])]
        dims = first[0].shape.as_list()
        batch_size = dims[0] if dims and dims[0] is not None else array_ops.shape(first[0])[0]
        state = _initial_state(cell, initial_state, batch_size, dtype)
        seq = _check_sequence_length(sequence_length)
        for time, x in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            output, new_state = cell(x, state)
            new_state = nest.pack_sequence_as(state, nest.flatten(new_state))
            if seq is not None:
                output, new_state = _mask_step(time, seq, output, new_state, state)
            state = new_state
            outputs.append(output)
    return outputs, state


def _reverse(x: Any, lengths: Any, time_axis: int, batch_axis: int) -> Any:
    """``x`` reversed along time; with ``lengths``, only each example's first length steps
    (TF's reverse_sequence), built from a batched permutation matmul so that it is
    differentiable to any order."""
    if lengths is None:
        return array_ops.reverse(x, [time_axis])
    xt = x if time_axis == 1 else array_ops.transpose(
        x, [1, 0] + list(range(2, x.shape.ndims)))               # [batch, time, ...]
    steps = array_ops.shape(xt)[1]
    t = array_ops.range(steps)                                    # [time]
    lens = array_ops.expand_dims(lengths, 1)                     # [batch, 1]
    src = math_ops.where(math_ops.less(t, lens), lens - 1 - t, t + 0 * lens)
    perm = array_ops.one_hot(src, steps, dtype=x.dtype.base_dtype)   # [batch, time, time]
    flat = array_ops.reshape(xt, array_ops.stack([array_ops.shape(xt)[0], steps, -1]))
    out = array_ops.reshape(math_ops.matmul(perm, flat), array_ops.shape(xt))
    out.set_shape(xt.shape)
    return out if time_axis == 1 else array_ops.transpose(
        out, [1, 0] + list(range(2, x.shape.ndims)))


def bidirectional_dynamic_rnn(cell_fw: Any, cell_bw: Any, inputs: Any,
                              sequence_length: TensorLike | None = None,
                              initial_state_fw: Any = None, initial_state_bw: Any = None,
                              dtype: DTypeLike | None = None,
                              parallel_iterations: int | None = None, swap_memory: bool = False,
                              time_major: bool = False, scope: Any = None) -> tuple:
    """A forward and a backward dynamic_rnn (scopes ``bidirectional_rnn/fw`` and ``/bw``).

    Returns ``((output_fw, output_bw), (state_fw, state_bw))``; the backward outputs are
    reversed back into input order.

    Args:
        cell_fw: The cell of the forward direction.
        cell_bw: The cell of the backward direction.
        inputs: The inputs: [batch, time, depth] (or [time, batch, depth] with ``time_major``).
        sequence_length: An int [batch] vector: each sequence's length (later steps give zeros and
            keep the state).
        initial_state_fw: The forward cell's starting state; zeros when None.
        initial_state_bw: The backward cell's starting state; zeros when None.
        dtype: The dtype of the zero states.
        parallel_iterations: Accepted for TensorFlow's signature (time steps run in order).
        swap_memory: Accepted for TensorFlow's signature.
        time_major: Whether ``inputs`` are [time, batch, ...] (else [batch, time, ...]).
        scope: The variable scope; ``bidirectional_rnn`` when None.
    """
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw,
                                              dtype, parallel_iterations, swap_memory,
                                              time_major, scope=fw_scope)
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)
        lengths = _check_sequence_length(sequence_length)
        with variable_scope("bw") as bw_scope:
            reversed_inputs = nest.map_structure(
                lambda x: _reverse(convert_to_tensor(x), lengths, time_axis, batch_axis), inputs)
            tmp, state_bw = dynamic_rnn(cell_bw, reversed_inputs, sequence_length,
                                        initial_state_bw, dtype, parallel_iterations,
                                        swap_memory, time_major, scope=bw_scope)
    output_bw = nest.map_structure(lambda x: _reverse(x, lengths, time_axis, batch_axis), tmp)
    return (output_fw, output_bw), (state_fw, state_bw)


def _reverse_seq(input_seq: list, lengths: Any) -> list:
    """The list of time steps reversed (with ``lengths``, only each example's first length
    steps), as TensorFlow's ``_reverse_seq``."""
    if lengths is None:
        return list(reversed(input_seq))
    flat = [nest.flatten(x) for x in input_seq]
    out_flat = []
    for parts in zip(*flat):
        stacked = array_ops.stack([convert_to_tensor(p) for p in parts])   # [time, batch, ...]
        reversed_steps = array_ops.unstack(_reverse(stacked, lengths, 0, 1))
        for r, p in zip(reversed_steps, parts):
            r.set_shape(convert_to_tensor(p).shape)
        out_flat.append(reversed_steps)
    return [nest.pack_sequence_as(input_seq[t], [steps[t] for steps in out_flat])
            for t in range(len(input_seq))]


def static_bidirectional_rnn(cell_fw: Any, cell_bw: Any, inputs: list,
                             initial_state_fw: Any = None, initial_state_bw: Any = None,
                             dtype: DTypeLike | None = None,
                             sequence_length: TensorLike | None = None,
                             scope: Any = None) -> tuple:
    """A forward and a backward static_rnn over a list of time steps (scopes
    ``bidirectional_rnn/fw`` and ``/bw``); each step's outputs are the two directions'
    concatenated along the last axis.

    Args:
        cell_fw: The cell of the forward direction.
        cell_bw: The cell of the backward direction.
        inputs: A list of [batch, depth] tensors, one per time step.
        initial_state_fw: The forward cell's starting state; zeros when None.
        initial_state_bw: The backward cell's starting state; zeros when None.
        dtype: The dtype of the zero states.
        sequence_length: An int [batch] vector: each sequence's length.
        scope: The variable scope; ``bidirectional_rnn`` when None.

    Returns:
        ``(outputs, output_state_fw, output_state_bw)``: ``outputs`` a list with one
        [batch, fw_size + bw_size] tensor per time step.

    Raises:
        TypeError: a cell is not an RNN cell, or ``inputs`` is not a list.
        ValueError: ``inputs`` is empty.
    """
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("inputs must be a list")
    if not inputs:
        raise ValueError("inputs must not be empty")
    lengths = _check_sequence_length(sequence_length)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                                    sequence_length, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reversed_inputs = _reverse_seq(list(inputs), lengths)
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw,
                                              dtype, sequence_length, scope=bw_scope)
    output_bw = _reverse_seq(tmp, lengths)
    outputs = []
    for fw, bw in zip(output_fw, output_bw):
        flat = [array_ops.concat([f, b], 1) for f, b in zip(nest.flatten(fw), nest.flatten(bw))]
        outputs.append(nest.pack_sequence_as(fw, flat))
    return outputs, output_state_fw, output_state_bw


__all__ = ["dynamic_rnn", "static_rnn", "bidirectional_dynamic_rnn", "static_bidirectional_rnn"]


def raw_rnn(cell: Any, loop_fn: Any, parallel_iterations: int | None = None,
            swap_memory: bool = False, scope: Any = None) -> tuple:
    """TF1's ``tf.nn.raw_rnn``: runs ``cell`` in a while loop whose inputs, state and emitted
    outputs ``loop_fn`` chooses at every step (decoders feeding back their own outputs).

    ``loop_fn(time, cell_output, cell_state, loop_state)`` returns ``(elements_finished,
    next_input, next_cell_state, emit_output, next_loop_state)``; it is called once before the
    loop with ``cell_output``, ``cell_state`` and ``loop_state`` None (to give the first input
    and the initial state). A finished batch entry emits zeros and keeps its state.

    Args:
        cell: The RNN cell.
        loop_fn: The step function above.
        parallel_iterations: Accepted for TensorFlow's signature.
        swap_memory: Accepted for TensorFlow's signature.
        scope: The variable scope; ``rnn`` when None.

    Returns:
        ``(emit_ta, final_state, final_loop_state)``: the emitted outputs as TensorArrays
        (of the emit structure), the final state and the final loop state (None when the first
        call gave none).

    Raises:
        TypeError: If ``loop_fn`` is not callable.
    """
    from flowgrad.ops.comparison_ops import logical_not, logical_or, where
    from flowgrad.ops.reduction_ops import reduce_all
    from flowgrad.ops.tensor_array_ops import TensorArray
    from flowgrad.ops.while_v2 import while_loop
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError("Argument `loop_fn` must be a callable. Received: %s." % (loop_fn,))
    with variable_scope(scope or "rnn"):
        time = convert_to_tensor(0, dtypes.int32)
        elements_finished, next_input, initial_state, emit_structure, init_loop_state = \
            loop_fn(time, None, None, None)
        flat_input = [convert_to_tensor(x) for x in nest.flatten(next_input)]
        next_input = nest.pack_sequence_as(next_input, flat_input)
        loop_state = init_loop_state if init_loop_state is not None \
            else convert_to_tensor(0, dtypes.int32)
        const_batch = flat_input[0].shape.as_list()[0] if flat_input[0].shape.rank else None
        batch_size = const_batch if const_batch is not None \
            else array_ops.shape(flat_input[0])[0]
        nest.assert_same_structure(initial_state, cell.state_size)
        state = nest.pack_sequence_as(initial_state, [convert_to_tensor(s) for s in
                                                      nest.flatten(initial_state)])
        if emit_structure is not None:
            flat_emit = nest.flatten(emit_structure)
            emit_sizes = [e.shape if e.shape.is_fully_defined() else array_ops.shape(e)
                          for e in flat_emit]
            emit_dtypes = [e.dtype for e in flat_emit]
        else:
            emit_structure = cell.output_size
            emit_sizes = nest.flatten(emit_structure)
            emit_dtypes = [nest.flatten(state)[0].dtype] * len(emit_sizes)

        def static_dims(size: Any) -> list | None:
            return None if isinstance(size, TensorBase) else TensorShape(size).as_list()

        emit_ta = nest.pack_sequence_as(emit_structure, [
            TensorArray(dtype=dt, size=0, dynamic_size=True, name="rnn_output_%d" % i,
                        element_shape=(TensorShape([const_batch] + static_dims(size))
                                       if static_dims(size) is not None else None))
            for i, (dt, size) in enumerate(zip(emit_dtypes, emit_sizes))])
        zero_emit = nest.pack_sequence_as(emit_structure, [
            array_ops.zeros(array_ops.concat([[batch_size], size], 0)
                            if isinstance(size, TensorBase)
                            else [batch_size] + static_dims(size), dt)
            for size, dt in zip(emit_sizes, emit_dtypes)])

        def condition(unused_time: Any, finished: Any, *_: Any) -> Any:
            return logical_not(reduce_all(finished))

        def body(time: Any, finished: Any, current_input: Any, emit_ta: Any, state: Any,
                 loop_state: Any) -> tuple:
            next_output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            nest.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            next_finished, next_input, next_state, emit_output, next_loop_state = loop_fn(
                next_time, next_output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            nest.assert_same_structure(current_input, next_input)
            nest.assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current: Any, candidate: Any) -> Any:
                def copy_fn(cur: Any, cand: Any) -> Any:
                    if isinstance(cur, TensorArray) or cur.shape.rank == 0:
                        return cand
                    cand = convert_to_tensor(cand)
                    mask = array_ops.reshape(finished, [-1] + [1] * (cand.shape.rank - 1))
                    return where(mask, cur, cand)
                return nest.map_structure(copy_fn, current, candidate)

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            emit_ta = nest.map_structure(lambda ta, emit: ta.write(time, emit), emit_ta,
                                         emit_output)
            finished = logical_or(finished, next_finished)
            return next_time, finished, next_input, emit_ta, next_state, loop_state

        returned = while_loop(condition, body, loop_vars=[time, elements_finished, next_input,
                                                          emit_ta, state, loop_state],
                              parallel_iterations=parallel_iterations or 32,
                              swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state
