"""Records what TensorFlow 2.21 does in the cases its own kernel tests pin and flowgrad got
wrong (found with tools/tf_suite.py): each case is a function of the ``tf`` module that returns
plain values (lists, dtype names) or raises; the record is the value, or ``error:<class>``.

    /work/venv-tf/bin/python tools/tf_reference/kernel_test_behaviours.py \\
        > tests/data/tf_kernel_tests/behaviours.json

``tests/test_tf_kernel_test_values.py`` runs the same cases on flowgrad (eagerly, as
TensorFlow 2 runs them here) and compares.
"""
import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def _mean_int(tf, dtype, n, v):
    return tf.reduce_mean(np.full([n], v, dtype)).numpy().tolist()


def _reduce_dup_eager(tf):
    return tf.reduce_sum(tf.ones([2, 3]), [0, -2]).numpy().tolist()


def _reduce_dup_tensor(tf):
    return tf.reduce_max(tf.ones([2, 3]), tf.constant([1, 1])).numpy().tolist()


def _reduce_dup_function(tf):
    return tf.function(lambda x: tf.reduce_mean(x, [1, 1]))(tf.ones([2, 3])).numpy().tolist()


def _reduce_rank2_axes_function(tf):
    return tf.function(lambda x: tf.reduce_sum(x, [[0], [1]]))(tf.ones([2, 3])).numpy().tolist()


def _all_any_empty(tf):
    a, b = tf.reduce_all([]), tf.reduce_any([])
    return [a.dtype.name, bool(a.numpy()), b.dtype.name, bool(b.numpy())]


def _all_floats(tf):
    return tf.reduce_all([1.0, 2.0]).numpy().tolist()


def _top_k_index_type(tf, index_type):
    v, i = tf.math.top_k([[3.0, 1.0, 3.0, 2.0]], 2, index_type=getattr(tf, index_type))
    return [i.dtype.name, i.numpy().tolist(), v.numpy().tolist()]


def _top_k_bad_index_type(tf):
    return tf.math.top_k([1.0, 2.0], 1, index_type=tf.uint8)[1].numpy().tolist()


def _top_k_bad_index_type_function(tf):
    return tf.function(lambda: tf.math.top_k([1.0, 2.0], 1, index_type=tf.uint8)[1])() \
        .numpy().tolist()


def _pow_grad_float16_overflow(tf):
    x = tf.constant([6.0, 2.0], tf.float16)
    y = tf.constant([6.0, 3.0], tf.float16)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.pow(x, y)
    gx, gy = tape.gradient(z, [x, y], output_gradients=tf.constant([0.0, 1.0], tf.float16))
    return [str(v) for v in gx.numpy().tolist() + gy.numpy().tolist()]


def _eager_variable_initializer(tf):
    return repr(tf.Variable(1.0).initializer)


def _eager_variable_initial_value(tf):
    return tf.Variable(1.0).initial_value.numpy().tolist()


def _complex_jacobians_v1(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default(), v1.Session():
        x = tf.constant(2.0 + 1.0j, tf.complex128)
        z = tf.pow(x, tf.constant(2.0, tf.complex128))
        jt, jn = v1.test.compute_gradient(x, [], z, [], x_init_value=np.array(2.0 + 1.0j))
        err = v1.test.compute_gradient_error(x, [], z, [], x_init_value=np.array(-2.0 + 0.5j))
    return [jt.shape[0], jt.shape[1], jt.dtype.name, np.round(jt, 6).tolist(),
            np.round(jn, 4).tolist(), bool(err < 2e-4)]


def _numpy_cast(tf, values, dtype):
    return tf.constant(np.array(values), getattr(tf, dtype)).numpy().tolist()


def _numpy_operand(tf):
    return [(tf.constant([1, 2]) + np.array([1.5, 2.5])).numpy().tolist(),
            (tf.constant([1, 2]) * np.float64(2.5)).numpy().tolist(),
            tf.matmul(tf.ones([1, 1], tf.int32), np.ones([1, 1])).dtype.name]


def _numpy_cast_graph(tf):
    with tf.Graph().as_default():
        t = tf.convert_to_tensor(np.array([1.7, 300.5]), tf.int32)
        return tf.compat.v1.Session().run(t).tolist()


def _raw_list_inputs(tf):
    r = tf.raw_ops
    return [r.AddN(inputs=[[1.0, 2.0], [3.0, 4.0]]).numpy().tolist(),
            r.AddN(inputs=tf.constant([1.0, 2.0])).numpy().tolist(),
            r.Pack(values=[[1, 2], [3, 4]], axis=1).numpy().tolist(),
            r.ConcatV2(values=[[1, 2], [3]], axis=0).numpy().tolist(),
            r.DynamicStitch(indices=[[1], [0]], data=[[5], [6]]).numpy().tolist()]


def _argmax_empty(tf, shape, axis):
    return tf.argmax(tf.zeros(shape), axis).numpy().tolist()


def _tensordot_axes(tf, axes):
    a = [[1.0, 2.0], [3.0, 4.0]]
    return tf.tensordot(a, a, axes).numpy().tolist()


def _unique_nan(tf):
    y, idx, count = tf.unique_with_counts([0.0, np.nan, 1.0, np.nan, 1.0])
    return [str(y.numpy().tolist()), idx.numpy().tolist(), count.numpy().tolist()]


def _gradient_of_fortran_array(tf):
    x = np.asarray([[-0.9, -0.5, 0.1], [0.3, 0.7, 0.9]], np.float64, order="F")
    jt, jn = tf.test.compute_gradient(tf.nn.relu, [x])
    return [np.round(jt[0], 6).tolist(), np.round(jn[0], 6).tolist()]


CASES = {
    "softmax_axis_out_of_range": lambda tf: tf.nn.softmax(tf.ones([2, 3]), axis=2).numpy(),
    "log_softmax_axis_out_of_range_function": lambda tf: tf.function(
        lambda: tf.nn.log_softmax(tf.ones([2, 3]), axis=-3))().numpy(),
    "softmax_empty": lambda tf: list(tf.nn.softmax(tf.ones([0, 3]), axis=0).shape),
    "stack_axis_out_of_range": lambda tf: tf.stack([tf.ones(2)], axis=2).numpy(),
    "stack_axis_out_of_range_function": lambda tf: tf.function(
        lambda: tf.stack([tf.ones(2)], axis=-3))().numpy(),
    "broadcast_to_bad_shape": lambda tf: tf.broadcast_to([1, 2], [2, 1]).numpy(),
    "unique_with_counts_nan": _unique_nan,
    "autopacking_takes_the_first_tensor_dtype": lambda tf: [
        tf.convert_to_tensor([[0.0, 0.0], tf.constant([0.0, 0.0], tf.float64)]).dtype.name,
        tf.convert_to_tensor([1, tf.constant(2.0, tf.float64)]).dtype.name],
    "compute_gradient_of_a_fortran_ordered_array": _gradient_of_fortran_array,
    "numpy_float_to_uint8_wraps": lambda tf: _numpy_cast(tf, [1.7, 2.2, 300.5], "uint8"),
    "numpy_float_to_bool": lambda tf: _numpy_cast(tf, [1.5, 0.0], "bool"),
    "numpy_string_to_float": lambda tf: _numpy_cast(tf, ["a"], "float32"),
    "python_float_list_to_int32": lambda tf: tf.constant([1.7], tf.int32).numpy().tolist(),
    "numpy_operand_takes_the_tensor_dtype": _numpy_operand,
    "numpy_cast_in_a_graph": _numpy_cast_graph,
    "raw_ops_list_inputs": _raw_list_inputs,
    "argmax_empty_axis": lambda tf: _argmax_empty(tf, [0], 0),
    "argmax_empty_rows": lambda tf: _argmax_empty(tf, [2, 0], 1),
    "argmax_of_no_rows": lambda tf: _argmax_empty(tf, [2, 0], 0),
    "tensordot_axis_past_rank": lambda tf: _tensordot_axes(tf, [[0], [7]]),
    "tensordot_negative_axis_past_rank": lambda tf: _tensordot_axes(tf, [[-3], [0]]),
    "tensordot_negative_axis": lambda tf: _tensordot_axes(tf, [[-1], [0]]),
    "reduce_mean_int8_200_ones": lambda tf: _mean_int(tf, np.int8, 200, 1),
    "reduce_mean_int8_130_threes": lambda tf: _mean_int(tf, np.int8, 130, 3),
    "reduce_mean_int8_100_minus_ones": lambda tf: _mean_int(tf, np.int8, 100, -1),
    "reduce_mean_uint8_300_ones": lambda tf: _mean_int(tf, np.uint8, 300, 1),
    "reduce_mean_uint16_70000_ones": lambda tf: _mean_int(tf, np.uint16, 70000, 1),
    "reduce_mean_int16_40000_ones": lambda tf: _mean_int(tf, np.int16, 40000, 1),
    "reduce_sum_duplicate_axes": _reduce_dup_eager,
    "reduce_max_duplicate_axes_tensor": _reduce_dup_tensor,
    "reduce_mean_duplicate_axes_function": _reduce_dup_function,
    "reduce_sum_rank2_axes_function": _reduce_rank2_axes_function,
    "reduce_all_any_empty_list": _all_any_empty,
    "reduce_all_floats": _all_floats,
    "top_k_index_type_int16": lambda tf: _top_k_index_type(tf, "int16"),
    "top_k_index_type_int64": lambda tf: _top_k_index_type(tf, "int64"),
    "top_k_bad_index_type": _top_k_bad_index_type,
    "top_k_bad_index_type_function": _top_k_bad_index_type_function,
    "pow_grad_float16_overflow": _pow_grad_float16_overflow,
    "eager_variable_initializer": _eager_variable_initializer,
    "eager_variable_initial_value": _eager_variable_initial_value,
    "compute_gradient_v1_complex": _complex_jacobians_v1,
}


def outcome(tf, case):
    """The case's value, or ``error:<class>`` of what it raised."""
    try:
        return CASES[case](tf)
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return "error:" + type(e).__name__


def main():
    import tensorflow as tf
    print(json.dumps({"tensorflow": tf.__version__,
                      "cases": {c: outcome(tf, c) for c in CASES}}, indent=1))


if __name__ == "__main__":
    main()
