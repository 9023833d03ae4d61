"""TensorFlow 2's public names, for tests/test_namespace.py.

Taken from TensorFlow's API golden files (``tensorflow/tools/api/golden/v2/tensorflow.pbtxt``,
``tensorflow.train.pbtxt``, ``tensorflow.summary.pbtxt``), plus the few names later 2.x
releases added (marked below). Only the names matter here, not the signatures.
"""
from __future__ import annotations

TF2_TOP_LEVEL = frozenset("""
AggregationMethod CriticalSection DType DeviceSpec GradientTape Graph IndexedSlices
IndexedSlicesSpec Module Operation OptionalSpec RaggedTensor RaggedTensorSpec RegisterGradient
SparseTensor SparseTensorSpec Tensor TensorArray TensorArraySpec TensorShape TensorSpec TypeSpec
UnconnectedGradients Variable VariableAggregation VariableSynchronization
audio autodiff autograph bfloat16 bitwise bool compat complex128 complex64 config
constant_initializer data debugging distribute double dtypes errors experimental
feature_column float16 float32 float64 graph_util half image initializers int16 int32 int64 int8
io keras linalg lite lookup losses math metrics mixed_precision mlir name_scope nest newaxis nn
ones_initializer optimizers qint16 qint32 qint8 quantization queue quint16 quint8 ragged random
random_normal_initializer random_uniform_initializer raw_ops resource saved_model sets signal
sparse string strings summary sysconfig test tpu train uint16 uint32 uint64 uint8 variant
version xla zeros_initializer
Assert abs acos acosh add add_n argmax argmin argsort as_dtype as_string asin asinh assert_equal
assert_greater assert_less assert_rank atan atan2 atanh batch_to_space bitcast boolean_mask
broadcast_dynamic_shape broadcast_static_shape broadcast_to case cast clip_by_global_norm
clip_by_norm clip_by_value complex concat cond constant control_dependencies convert_to_tensor
cos cosh cumsum custom_gradient device divide dynamic_partition dynamic_stitch edit_distance
einsum ensure_shape equal erfinv executing_eagerly exp expand_dims extract_volume_patches eye
fill fingerprint floor foldl foldr function gather gather_nd get_logger get_static_value
grad_pass_through gradients greater greater_equal group guarantee_const hessians
histogram_fixed_width histogram_fixed_width_bins identity identity_n import_graph_def
init_scope is_tensor less less_equal linspace load_library load_op_library logical_and
logical_not logical_or make_ndarray make_tensor_proto map_fn matmul matrix_square_root maximum
meshgrid minimum multiply ndtri negative no_gradient no_op nondifferentiable_batch_function norm
not_equal numpy_function one_hot ones ones_like pad parallel_stack pow print py_function range
rank realdiv recompute_grad reduce_all reduce_any reduce_logsumexp reduce_max reduce_mean
reduce_min reduce_prod reduce_sum register_tensor_conversion_function repeat
required_space_to_batch_paddings reshape reverse reverse_sequence roll round saturate_cast
scalar_mul scan scatter_nd searchsorted sequence_mask shape shape_n sigmoid sign sin sinh size
slice sort space_to_batch space_to_batch_nd split sqrt square squeeze stack stop_gradient
strided_slice subtract switch_case tan tanh tensor_scatter_nd_add tensor_scatter_nd_sub
tensor_scatter_nd_update tensordot tile timestamp transpose truediv truncatediv truncatemod
tuple type_spec_from_value unique unique_with_counts unravel_index unstack
variable_creator_scope vectorized_map where while_loop zeros zeros_like
""".split()) | frozenset([
    # added after the golden file above was recorded (TF 2.4-2.21)
    "tensor_scatter_nd_max", "tensor_scatter_nd_min", "types", "is_symbolic_tensor",
    "experimental_functions_run_eagerly", "dtensor",
    "fftnd", "ifftnd", "rfftnd", "irfftnd",  # TF 2.16 (the n-d FFT ops)
    "NoneTensorSpec",  # TF 2.21 has it (tools/tf_reference/extension_type_reference.py)
])

TF2_TRAIN = frozenset("""
BytesList Checkpoint CheckpointManager CheckpointOptions ClusterDef ClusterSpec Coordinator
Example ExponentialMovingAverage Feature FeatureList FeatureLists Features FloatList Int64List
JobDef SequenceExample ServerDef TrackableView experimental checkpoints_iterator
get_checkpoint_state latest_checkpoint list_variables load_checkpoint load_variable
""".split()) | frozenset(["CheckpointView"])  # TF 2.11

TF2_SUMMARY = frozenset("""
SummaryWriter experimental audio create_file_writer create_noop_writer disable_trace
enable_trace export_trace flush histogram image import_event record_if scalar summary_scope
text write
""".split()) | frozenset(["graph", "should_record_summaries", "trace_on", "trace_off",
                          "trace_export"])  # later 2.x releases

#: TF1-only names that TensorFlow 2 does not have at its top level (a sample, for the test).
TF1_ONLY_TOP_LEVEL = frozenset([
    "placeholder", "placeholder_with_default", "Session", "InteractiveSession", "get_variable",
    "variable_scope", "global_variables_initializer", "to_float", "to_int32", "log", "div",
    "float32_ref",
])

#: The same for tf.train.
TF1_ONLY_TRAIN = frozenset([
    "AdamOptimizer", "GradientDescentOptimizer", "MomentumOptimizer", "Saver",
    "get_or_create_global_step", "exponential_decay",
])

#: Names TensorFlow removed that flowgrad keeps, each with its reason: the API TF 2.15 had;
#: TF 2.16+ removed it (``tf.estimator``: TF1-style programs use it heavily).
TF215_REMOVED = frozenset({"estimator"})
