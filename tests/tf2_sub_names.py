"""TensorFlow 2's names in the sub-namespaces of ``import tensorflow as tf``, for
tests/test_sub_namespaces.py.

Taken from TensorFlow 2.15.1: its generated public API (``tensorflow/_api/v2/<ns>/__init__.py`` in
the wheel), which is what its API golden files
``tensorflow/tools/api/golden/v2/tensorflow.<ns>.pbtxt`` record. ``tf.keras.*`` is not here: as
in TensorFlow 2.16+, it is the keras package's (Keras 3) own API, not flowgrad's (the test
checks that it is that package's module). ``tf.summary`` adds the five
writers TensorBoard installs into it (audio, histogram, image, scalar, text), as the golden
``tensorflow.summary.pbtxt`` lists them.

Only names and their kind matter (no signatures): each namespace maps a kind -- ``module``,
``class``, ``function`` (any callable that is not a class in TF) or ``value`` (constants, dtypes,
protocol-buffer messages) -- to its names.
"""

from __future__ import annotations

TF2_SUB_NAMESPACES = {
    "autodiff": {
        "class": """
            ForwardAccumulator GradientTape
        """,
    },
    "config": {
        "module": """
            experimental optimizer threading
        """,
        "class": """
            LogicalDevice LogicalDeviceConfiguration PhysicalDevice
        """,
        "function": """
            experimental_connect_to_cluster experimental_connect_to_host
            experimental_functions_run_eagerly experimental_run_functions_eagerly
            functions_run_eagerly get_logical_device_configuration get_soft_device_placement
            get_visible_devices list_logical_devices list_physical_devices run_functions_eagerly
            set_logical_device_configuration set_soft_device_placement set_visible_devices
        """,
    },
    "data": {
        "module": """
            experimental
        """,
        "class": """
            Dataset DatasetSpec FixedLengthRecordDataset Iterator IteratorSpec NumpyIterator Options
            TFRecordDataset TextLineDataset ThreadingOptions
        """,
        "value": """
            AUTOTUNE INFINITE_CARDINALITY UNKNOWN_CARDINALITY
        """,
    },
    "debugging": {
        "module": """
            experimental
        """,
        "function": """
            Assert assert_all_finite assert_equal assert_greater assert_greater_equal assert_integer
            assert_less assert_less_equal assert_near assert_negative assert_non_negative
            assert_non_positive assert_none_equal assert_positive assert_proper_iterable assert_rank
            assert_rank_at_least assert_rank_in assert_same_float_dtype assert_scalar assert_shapes
            assert_type check_numerics disable_check_numerics disable_traceback_filtering
            enable_check_numerics enable_traceback_filtering get_log_device_placement
            is_numeric_tensor is_traceback_filtering_enabled set_log_device_placement
        """,
    },
    "dtypes": {
        "module": """
            experimental
        """,
        "class": """
            DType
        """,
        "function": """
            as_dtype cast complex saturate_cast
        """,
        "value": """
            QUANTIZED_DTYPES bfloat16 bool complex128 complex64 double float16 float32 float64 half
            int16 int32 int64 int8 qint16 qint32 qint8 quint16 quint8 resource string uint16 uint32
            uint64 uint8 variant
        """,
    },
    "errors": {
        "class": """
            AbortedError AlreadyExistsError CancelledError DataLossError DeadlineExceededError
            FailedPreconditionError InternalError InvalidArgumentError NotFoundError OpError
            OperatorNotAllowedInGraphError OutOfRangeError PermissionDeniedError
            ResourceExhaustedError UnauthenticatedError UnavailableError UnimplementedError
            UnknownError
        """,
        "value": """
            ABORTED ALREADY_EXISTS CANCELLED DATA_LOSS DEADLINE_EXCEEDED FAILED_PRECONDITION
            INTERNAL INVALID_ARGUMENT NOT_FOUND OK OUT_OF_RANGE PERMISSION_DENIED RESOURCE_EXHAUSTED
            UNAUTHENTICATED UNAVAILABLE UNIMPLEMENTED UNKNOWN
        """,
    },
    # io, io.gfile (and strings, sparse, ragged): TensorFlow 2.21's generated API
    "image": {
        "class": """
            ResizeMethod
        """,
        "function": """
            adjust_brightness adjust_contrast adjust_gamma adjust_hue
            adjust_jpeg_quality adjust_saturation central_crop
            combined_non_max_suppression convert_image_dtype crop_and_resize
            crop_to_bounding_box decode_and_crop_jpeg decode_bmp decode_gif decode_image
            decode_jpeg decode_jxl decode_png decode_webp draw_bounding_boxes
            encode_jpeg encode_png extract_glimpse extract_jpeg_shape extract_patches
            flip_left_right flip_up_down generate_bounding_box_proposals
            grayscale_to_rgb hsv_to_rgb image_gradients is_jpeg non_max_suppression
            non_max_suppression_overlaps non_max_suppression_padded
            non_max_suppression_with_scores pad_to_bounding_box
            per_image_standardization psnr random_brightness random_contrast random_crop
            random_flip_left_right random_flip_up_down random_hue random_jpeg_quality
            random_saturation resize resize_with_crop_or_pad resize_with_pad
            rgb_to_grayscale rgb_to_hsv rgb_to_yiq rgb_to_yuv rot90
            sample_distorted_bounding_box sobel_edges ssim ssim_multiscale
            stateless_random_brightness stateless_random_contrast stateless_random_crop
            stateless_random_flip_left_right stateless_random_flip_up_down
            stateless_random_hue stateless_random_jpeg_quality
            stateless_random_saturation stateless_sample_distorted_bounding_box
            total_variation transpose yiq_to_rgb yuv_to_rgb
        """,
    },
    "io": {
        "module": """
            gfile
        """,
        "class": """
            FixedLenFeature FixedLenSequenceFeature RaggedFeature SparseFeature
            TFRecordOptions TFRecordWriter VarLenFeature
        """,
        "function": """
            decode_and_crop_jpeg decode_base64 decode_bmp decode_compressed decode_csv
            decode_gif decode_image decode_jpeg decode_json_example decode_jxl
            decode_png decode_proto decode_raw decode_webp deserialize_many_sparse
            encode_base64 encode_jpeg encode_png encode_proto extract_jpeg_shape is_jpeg
            match_filenames_once matching_files parse_example parse_sequence_example
            parse_single_example parse_single_sequence_example parse_tensor read_file
            serialize_many_sparse serialize_sparse serialize_tensor write_file
            write_graph
        """,
    },
    "io.gfile": {
        "class": """
            GFile
        """,
        "function": """
            copy exists get_registered_schemes glob isdir join listdir makedirs mkdir
            remove rename rmtree stat walk
        """,
    },
    "linalg": {
        "module": """
            experimental
        """,
        "class": """
            LinearOperator LinearOperatorAdjoint LinearOperatorBlockDiag
            LinearOperatorBlockLowerTriangular LinearOperatorCirculant LinearOperatorCirculant2D
            LinearOperatorCirculant3D LinearOperatorComposition LinearOperatorDiag
            LinearOperatorFullMatrix LinearOperatorHouseholder LinearOperatorIdentity
            LinearOperatorInversion LinearOperatorKronecker LinearOperatorLowRankUpdate
            LinearOperatorLowerTriangular LinearOperatorPermutation LinearOperatorScaledIdentity
            LinearOperatorToeplitz LinearOperatorTridiag LinearOperatorZeros
        """,
        "function": """
            adjoint band_part banded_triangular_solve cholesky cholesky_solve cross det diag
            diag_part eig eigh eigh_tridiagonal eigvals eigvalsh einsum expm eye global_norm inv
            l2_normalize logdet lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matmul
            matrix_rank matrix_transpose matvec norm normalize pinv qr set_diag solve sqrtm svd
            tensor_diag tensor_diag_part tensordot trace triangular_solve tridiagonal_matmul
            tridiagonal_solve
        """,
        "value": """
            logm slogdet
        """,
    },
    "math": {
        "module": """
            special
        """,
        "function": """
            abs accumulate_n acos acosh add add_n angle approx_max_k approx_min_k argmax argmin asin
            asinh atan atan2 atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil
            confusion_matrix conj cos cosh count_nonzero cumprod cumsum cumulative_logsumexp digamma
            divide divide_no_nan equal erf erfc erfcinv erfinv exp expm1 floor floordiv floormod
            greater greater_equal igamma igammac imag in_top_k invert_permutation is_finite is_inf
            is_nan is_non_decreasing is_strictly_increasing l2_normalize lbeta less less_equal
            lgamma log log1p log_sigmoid log_softmax logical_and logical_not logical_or logical_xor
            maximum minimum mod multiply multiply_no_nan ndtri negative nextafter not_equal
            polygamma polyval pow real reciprocal reciprocal_no_nan reduce_all reduce_any
            reduce_euclidean_norm reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod
            reduce_std reduce_sum reduce_variance rint round rsqrt scalar_mul segment_max
            segment_mean segment_min segment_prod segment_sum sigmoid sign sin sinh sobol_sample
            softmax softplus softsign sqrt square squared_difference subtract tan tanh top_k truediv
            unsorted_segment_max unsorted_segment_mean unsorted_segment_min unsorted_segment_prod
            unsorted_segment_sqrt_n unsorted_segment_sum xdivy xlog1py xlogy zero_fraction zeta
        """,
    },
    "nest": {
        "function": """
            assert_same_structure flatten is_nested map_structure pack_sequence_as
        """,
    },
    "nn": {
        "module": """
            experimental
        """,
        "class": """
            RNNCellDeviceWrapper RNNCellDropoutWrapper RNNCellResidualWrapper
        """,
        "function": """
            all_candidate_sampler approx_max_k approx_min_k atrous_conv2d atrous_conv2d_transpose
            avg_pool avg_pool1d avg_pool2d avg_pool3d batch_norm_with_global_normalization
            batch_normalization bias_add collapse_repeated compute_accidental_hits
            compute_average_loss conv1d conv1d_transpose conv2d conv2d_transpose conv3d
            conv3d_transpose conv_transpose convolution crelu ctc_beam_search_decoder
            ctc_greedy_decoder ctc_loss ctc_unique_labels depth_to_space depthwise_conv2d
            depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input dilation2d dropout elu
            embedding_lookup embedding_lookup_sparse erosion2d fixed_unigram_candidate_sampler
            fractional_avg_pool fractional_max_pool gelu in_top_k isotonic_regression l2_loss
            l2_normalize leaky_relu learned_unigram_candidate_sampler local_response_normalization
            log_poisson_loss log_softmax lrn max_pool max_pool1d max_pool2d max_pool3d
            max_pool_with_argmax moments nce_loss normalize_moments pool relu relu6
            safe_embedding_lookup_sparse sampled_softmax_loss scale_regularization_loss selu
            separable_conv2d sigmoid sigmoid_cross_entropy_with_logits silu softmax
            softmax_cross_entropy_with_logits softplus softsign space_to_batch space_to_depth
            sparse_softmax_cross_entropy_with_logits sufficient_statistics swish tanh top_k
            weighted_cross_entropy_with_logits weighted_moments with_space_to_batch zero_fraction
        """,
    },
    "random": {
        "module": """
            experimental
        """,
        "class": """
            Algorithm Generator
        """,
        "function": """
            all_candidate_sampler categorical create_rng_state fixed_unigram_candidate_sampler
            fold_in gamma get_global_generator learned_unigram_candidate_sampler
            log_uniform_candidate_sampler normal poisson set_global_generator set_seed shuffle split
            stateless_binomial stateless_categorical stateless_gamma stateless_normal
            stateless_parameterized_truncated_normal stateless_poisson stateless_truncated_normal
            stateless_uniform truncated_normal uniform uniform_candidate_sampler
        """,
    },
    "ragged": {
        "function": """
            boolean_mask constant cross cross_hashed map_flat_values range
            row_splits_to_segment_ids segment_ids_to_row_splits stack
            stack_dynamic_partitions
        """,
    },
    "saved_model": {
        "module": """
            experimental
        """,
        "class": """
            Asset LoadOptions SaveOptions
        """,
        "function": """
            contains_saved_model load save
        """,
        "value": """
            ASSETS_DIRECTORY ASSETS_KEY CLASSIFY_INPUTS CLASSIFY_METHOD_NAME CLASSIFY_OUTPUT_CLASSES
            CLASSIFY_OUTPUT_SCORES DEBUG_DIRECTORY DEBUG_INFO_FILENAME_PB
            DEFAULT_SERVING_SIGNATURE_DEF_KEY GPU PREDICT_INPUTS PREDICT_METHOD_NAME PREDICT_OUTPUTS
            REGRESS_INPUTS REGRESS_METHOD_NAME REGRESS_OUTPUTS SAVED_MODEL_FILENAME_PB
            SAVED_MODEL_FILENAME_PBTXT SAVED_MODEL_SCHEMA_VERSION SERVING TPU TRAINING
            VARIABLES_DIRECTORY VARIABLES_FILENAME
        """,
    },
    "sparse": {
        "class": """
            SparseTensor
        """,
        "function": """
            add bincount concat cross cross_hashed expand_dims eye fill_empty_rows
            from_dense map_values mask maximum minimum reduce_max reduce_sum reorder
            reset_shape reshape retain sampled_addmm segment_mean segment_sqrt_n
            segment_sum slice softmax sparse_dense_matmul split to_dense to_indicator
            transpose
        """,
    },
    "strings": {
        "function": """
            as_string bytes_split format join length lower ngrams reduce_join
            regex_full_match regex_replace split strip substr to_hash_bucket
            to_hash_bucket_fast to_hash_bucket_strong to_number unicode_decode
            unicode_decode_with_offsets unicode_encode unicode_script unicode_split
            unicode_split_with_offsets unicode_transcode unsorted_segment_join upper
        """,
    },
    "summary": {
        "module": """
            experimental
        """,
        "class": """
            SummaryWriter
        """,
        "function": """
            audio create_file_writer create_noop_writer flush graph histogram image record_if scalar
            should_record_summaries text trace_export trace_off trace_on write
        """,
    },
    "train": {
        "module": """
            experimental
        """,
        "class": """
            Checkpoint CheckpointManager CheckpointOptions CheckpointView ClusterSpec Coordinator
            ExponentialMovingAverage TrackableView
        """,
        "function": """
            checkpoints_iterator get_checkpoint_state latest_checkpoint list_variables
            load_checkpoint load_variable
        """,
        "value": """
            BytesList ClusterDef Example Feature FeatureList FeatureLists Features FloatList
            Int64List JobDef SequenceExample ServerDef
        """,
    },
}
