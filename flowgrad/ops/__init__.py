"""Op definitions by family; importing this package registers every op."""
from flowgrad.ops import array_ops, control_flow_ops, math_ops, overloads, state_ops  # noqa: F401
from flowgrad.ops import init_ops, random_ops, script_ops, variable_scope  # noqa: F401
from flowgrad.ops import clip_ops, training_ops  # noqa: F401
from flowgrad.ops import special_math_ops  # noqa: F401
from flowgrad.ops import incomplete_gamma_ops  # noqa: F401
from flowgrad.ops import einsum_ops, linalg_ops, scatter_nd_ops  # noqa: F401
from flowgrad.ops import segment_ops, sort_ops  # noqa: F401
from flowgrad.ops import check_ops  # noqa: F401
from flowgrad.ops import conv_ops, pooling_ops  # noqa: F401
from flowgrad.ops import conv3d_ops, pooling3d_ops  # noqa: F401
from flowgrad.ops import bessel_ops, complex_ops, trig_ops  # noqa: F401
from flowgrad.ops import fft_ops, signal_ops  # noqa: F401
from flowgrad.ops import linalg_extra_ops  # noqa: F401
from flowgrad.ops import tensor_diag_ops  # noqa: F401
from flowgrad.ops import matrix_functions  # noqa: F401
from flowgrad.ops import image_color_ops, image_ops, image_resize_ops  # noqa: F401
from flowgrad.ops import bitwise_ops, bucket_ops, manip_ops, tensor_scatter_ops  # noqa: F401
from flowgrad.ops import variable_scatter_ops  # noqa: F401
from flowgrad.ops import candidate_sampling_ops, sampled_losses  # noqa: F401
from flowgrad.ops import data_flow_ops, reader_ops  # noqa: F401
from flowgrad.ops import partition_ops  # noqa: F401
from flowgrad.ops import template  # noqa: F401
from flowgrad.ops import stateful_random_ops, stateless_random_ops  # noqa: F401
from flowgrad.ops import index_shuffle_ops, random_rejection_ops  # noqa: F401
from flowgrad.ops import image_box_ops, image_codec_ops, image_patch_ops  # noqa: F401
from flowgrad.ops import image_sample_ops  # noqa: F401
from flowgrad.ops import image_transform_ops  # noqa: F401
from flowgrad.ops import mutable_lookup_ops  # noqa: F401
from flowgrad.ops import count_ops, sparse_cross_ops  # noqa: F401
from flowgrad.ops import variable_checks  # noqa: F401
from flowgrad.ops import beam_search_ops  # noqa: F401
from flowgrad.ops import embedding_sparse_ops  # noqa: F401
from flowgrad.ops import space_batch_ops, special_function_ops  # noqa: F401
from flowgrad.ops import compressed_ops, fft_nd_ops, string_offset_ops  # noqa: F401
from flowgrad.ops import webp_ops  # noqa: F401
from flowgrad.ops import ragged_dispatch, sparse_dispatch  # noqa: F401 - ragged & sparse dispatch
from flowgrad.ops import dynamic_ragged_shape  # noqa: F401 - tf.shape of a RaggedTensor &c.
