"""TensorFlow 1's names in the sub-namespaces of ``import tensorflow.compat.v1 as tf``, for
tests/test_sub_namespaces.py.

Taken from TensorFlow 2.15.1's ``tf.compat.v1`` API: the generated
``tensorflow/_api/v2/compat/v1/<ns>/__init__.py`` of its wheel, what the golden files
``tensorflow/tools/api/golden/v1/tensorflow.<ns>.pbtxt`` record. ``tf.layers`` also holds the
legacy layers TF 2.15 loads lazily from Keras 2.15
(``keras/api/_v1/keras/__internal__/legacy/layers``), as the golden ``tensorflow.layers.pbtxt``
lists them.

Only names and their kind matter (no signatures): each namespace maps a kind -- ``module``,
``class``, ``function`` (any callable that is not a class in TF) or ``value`` (constants, dtypes,
protocol-buffer messages) -- to its names.
"""

from __future__ import annotations

TF1_SUB_NAMESPACES = {
    "data": {
        "module": """
            experimental
        """,
        "class": """
            Dataset DatasetSpec FixedLengthRecordDataset Iterator NumpyIterator Options
            TFRecordDataset TextLineDataset ThreadingOptions
        """,
        "function": """
            get_output_classes get_output_shapes get_output_types make_initializable_iterator
            make_one_shot_iterator
        """,
        "value": """
            AUTOTUNE INFINITE_CARDINALITY UNKNOWN_CARDINALITY
        """,
    },
    "errors": {
        "class": """
            AbortedError AlreadyExistsError CancelledError DataLossError DeadlineExceededError
            FailedPreconditionError InternalError InvalidArgumentError NotFoundError OpError
            OutOfRangeError PermissionDeniedError ResourceExhaustedError UnauthenticatedError
            UnavailableError UnimplementedError UnknownError raise_exception_on_not_ok_status
        """,
        "function": """
            error_code_from_exception_type exception_type_from_error_code
        """,
        "value": """
            ABORTED ALREADY_EXISTS CANCELLED DATA_LOSS DEADLINE_EXCEEDED FAILED_PRECONDITION
            INTERNAL INVALID_ARGUMENT NOT_FOUND OK OUT_OF_RANGE PERMISSION_DENIED RESOURCE_EXHAUSTED
            UNAUTHENTICATED UNAVAILABLE UNIMPLEMENTED UNKNOWN
        """,
    },
    # gfile, io, io.gfile, python_io (and strings, sparse, ragged): TensorFlow 2.21's
    # tf.compat.v1 API
    "gfile": {
        "class": """
            FastGFile GFile Open
        """,
        "function": """
            Copy DeleteRecursively Exists Glob IsDirectory ListDirectory MakeDirs MkDir
            Remove Rename Stat Walk
        """,
    },
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
            encode_jpeg encode_png extract_glimpse extract_image_patches
            extract_jpeg_shape extract_patches flip_left_right flip_up_down
            generate_bounding_box_proposals grayscale_to_rgb hsv_to_rgb image_gradients
            is_jpeg non_max_suppression non_max_suppression_overlaps
            non_max_suppression_padded non_max_suppression_with_scores
            pad_to_bounding_box per_image_standardization psnr random_brightness
            random_contrast random_crop random_flip_left_right random_flip_up_down
            random_hue random_jpeg_quality random_saturation resize resize_area
            resize_bicubic resize_bilinear resize_image_with_crop_or_pad
            resize_image_with_pad resize_images resize_nearest_neighbor
            resize_with_crop_or_pad rgb_to_grayscale rgb_to_hsv rgb_to_yiq rgb_to_yuv
            rot90 sample_distorted_bounding_box sobel_edges ssim ssim_multiscale
            total_variation transpose transpose_image yiq_to_rgb yuv_to_rgb
        """,
    },
    "io": {
        "module": """
            gfile
        """,
        "class": """
            FixedLenFeature FixedLenSequenceFeature PaddingFIFOQueue PriorityQueue
            QueueBase RaggedFeature RandomShuffleQueue SparseFeature
            TFRecordCompressionType TFRecordOptions TFRecordWriter VarLenFeature
        """,
        "function": """
            decode_and_crop_jpeg decode_base64 decode_bmp decode_compressed decode_csv
            decode_gif decode_image decode_jpeg decode_json_example decode_jxl
            decode_png decode_proto decode_raw decode_webp deserialize_many_sparse
            encode_base64 encode_jpeg encode_png encode_proto extract_jpeg_shape is_jpeg
            match_filenames_once matching_files parse_example parse_sequence_example
            parse_single_example parse_single_sequence_example parse_tensor read_file
            serialize_many_sparse serialize_sparse serialize_tensor tf_record_iterator
            write_file write_graph
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
    "layers": {
        "module": """
            experimental
        """,
        "class": """
            AveragePooling1D AveragePooling2D AveragePooling3D BatchNormalization Conv1D Conv2D
            Conv2DTranspose Conv3D Conv3DTranspose Dense Dropout Flatten InputSpec Layer
            MaxPooling1D MaxPooling2D MaxPooling3D SeparableConv1D SeparableConv2D
        """,
        "function": """
            average_pooling1d average_pooling2d average_pooling3d batch_normalization conv1d conv2d
            conv2d_transpose conv3d conv3d_transpose dense dropout flatten max_pooling1d
            max_pooling2d max_pooling3d separable_conv1d separable_conv2d
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
            adjoint band_part cholesky cholesky_solve cross det diag diag_part eigh eigh_tridiagonal
            eigvalsh einsum expm eye global_norm inv l2_normalize logdet lstsq lu lu_matrix_inverse
            lu_reconstruct lu_solve matmul matrix_rank matrix_transpose matvec norm normalize pinv
            qr set_diag solve sqrtm svd tensor_diag tensor_diag_part tensordot trace transpose
            triangular_solve tridiagonal_matmul tridiagonal_solve
        """,
        "value": """
            logm slogdet
        """,
    },
    "losses": {
        "class": """
            Reduction
        """,
        "function": """
            absolute_difference add_loss compute_weighted_loss cosine_distance get_losses
            get_regularization_loss get_regularization_losses get_total_loss hinge_loss huber_loss
            log_loss mean_pairwise_squared_error mean_squared_error sigmoid_cross_entropy
            softmax_cross_entropy sparse_softmax_cross_entropy
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
    "nn": {
        "module": """
            experimental rnn_cell
        """,
        "function": """
            all_candidate_sampler approx_max_k approx_min_k atrous_conv2d atrous_conv2d_transpose
            avg_pool avg_pool1d avg_pool2d avg_pool3d avg_pool_v2
            batch_norm_with_global_normalization batch_normalization bias_add
            bidirectional_dynamic_rnn collapse_repeated compute_accidental_hits compute_average_loss
            conv1d conv1d_transpose conv2d conv2d_backprop_filter conv2d_backprop_input
            conv2d_transpose conv3d conv3d_backprop_filter conv3d_backprop_filter_v2
            conv3d_transpose conv_transpose convolution crelu ctc_beam_search_decoder
            ctc_beam_search_decoder_v2 ctc_greedy_decoder ctc_loss ctc_loss_v2 ctc_unique_labels
            depth_to_space depthwise_conv2d depthwise_conv2d_backprop_filter
            depthwise_conv2d_backprop_input depthwise_conv2d_native
            depthwise_conv2d_native_backprop_filter depthwise_conv2d_native_backprop_input
            dilation2d dropout dynamic_rnn elu embedding_lookup embedding_lookup_sparse erosion2d
            fixed_unigram_candidate_sampler fractional_avg_pool fractional_max_pool fused_batch_norm
            in_top_k l2_loss l2_normalize leaky_relu learned_unigram_candidate_sampler
            local_response_normalization log_poisson_loss log_softmax log_uniform_candidate_sampler
            lrn max_pool max_pool1d max_pool2d max_pool3d max_pool_v2 max_pool_with_argmax moments
            nce_loss normalize_moments pool raw_rnn relu relu6 relu_layer
            safe_embedding_lookup_sparse sampled_softmax_loss scale_regularization_loss selu
            separable_conv2d sigmoid sigmoid_cross_entropy_with_logits silu softmax
            softmax_cross_entropy_with_logits softmax_cross_entropy_with_logits_v2 softplus softsign
            space_to_batch space_to_depth sparse_softmax_cross_entropy_with_logits
            static_bidirectional_rnn static_rnn static_state_saving_rnn sufficient_statistics swish
            tanh top_k uniform_candidate_sampler weighted_cross_entropy_with_logits weighted_moments
            with_space_to_batch xw_plus_b zero_fraction
        """,
        "value": """
            quantized_avg_pool quantized_conv2d quantized_max_pool quantized_relu_x
        """,
    },
    "nn.rnn_cell": {
        "class": """
            BasicLSTMCell BasicRNNCell DeviceWrapper DropoutWrapper GRUCell LSTMCell LSTMStateTuple
            MultiRNNCell RNNCell ResidualWrapper
        """,
    },
    "python_io": {
        "class": """
            TFRecordCompressionType TFRecordOptions TFRecordWriter
        """,
        "function": """
            tf_record_iterator
        """,
    },
    "ragged": {
        "class": """
            RaggedTensorValue
        """,
        "function": """
            boolean_mask constant constant_value cross cross_hashed map_flat_values
            placeholder range row_splits_to_segment_ids segment_ids_to_row_splits stack
            stack_dynamic_partitions
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
            fold_in gamma get_global_generator get_seed learned_unigram_candidate_sampler
            log_uniform_candidate_sampler multinomial normal poisson set_global_generator
            set_random_seed shuffle split stateless_binomial stateless_categorical stateless_gamma
            stateless_multinomial stateless_normal stateless_parameterized_truncated_normal
            stateless_poisson stateless_truncated_normal stateless_uniform truncated_normal uniform
            uniform_candidate_sampler
        """,
    },
    "saved_model": {
        "module": """
            builder constants experimental loader main_op signature_constants
            signature_def_utils tag_constants utils
        """,
        "class": """
            Asset Builder SaveOptions
        """,
        "function": """
            build_signature_def build_tensor_info classification_signature_def
            contains_saved_model get_tensor_from_tensor_info is_valid_signature load load_v2
            main_op_with_restore maybe_saved_model_directory predict_signature_def
            regression_signature_def save simple_save
        """,
        "value": """
            ASSETS_DIRECTORY ASSETS_KEY CLASSIFY_INPUTS CLASSIFY_METHOD_NAME
            CLASSIFY_OUTPUT_CLASSES CLASSIFY_OUTPUT_SCORES DEBUG_DIRECTORY
            DEBUG_INFO_FILENAME_PB DEFAULT_SERVING_SIGNATURE_DEF_KEY GPU LEGACY_INIT_OP_KEY
            MAIN_OP_KEY PREDICT_INPUTS PREDICT_METHOD_NAME PREDICT_OUTPUTS REGRESS_INPUTS
            REGRESS_METHOD_NAME REGRESS_OUTPUTS SAVED_MODEL_FILENAME_PB
            SAVED_MODEL_FILENAME_PBTXT SAVED_MODEL_SCHEMA_VERSION SERVING TPU TRAINING
            VARIABLES_DIRECTORY VARIABLES_FILENAME
        """,
    },
    "sparse": {
        "class": """
            SparseConditionalAccumulator SparseTensor
        """,
        "function": """
            add bincount concat cross cross_hashed expand_dims eye fill_empty_rows
            from_dense mask matmul maximum merge minimum placeholder reduce_max
            reduce_max_sparse reduce_sum reduce_sum_sparse reorder reset_shape reshape
            retain segment_mean segment_sqrt_n segment_sum slice softmax
            sparse_dense_matmul split to_dense to_indicator transpose
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
        "class": """
            FileWriter FileWriterCache
        """,
        "function": """
            all_v2_summary_ops audio get_summary_description histogram image initialize merge
            merge_all scalar tensor_summary text
        """,
        "value": """
            Event SessionLog Summary SummaryDescription TaggedRunMetadata
        """,
    },
    "train": {
        "module": """
            experimental queue_runner
        """,
        "class": """
            AdadeltaOptimizer AdagradDAOptimizer AdagradOptimizer AdamOptimizer Checkpoint
            CheckpointManager CheckpointOptions CheckpointSaverHook CheckpointSaverListener
            ChiefSessionCreator ClusterSpec Coordinator ExponentialMovingAverage FeedFnHook
            FinalOpsHook FtrlOptimizer GlobalStepWaiterHook GradientDescentOptimizer
            LoggingTensorHook LooperThread MomentumOptimizer MonitoredSession
            NanLossDuringTrainingError NanTensorHook Optimizer ProfilerHook ProximalAdagradOptimizer
            ProximalGradientDescentOptimizer QueueRunner RMSPropOptimizer Saver Scaffold
            SecondOrStepTimer Server SessionCreator SessionManager SessionRunArgs SessionRunContext
            SessionRunHook SessionRunValues SingularMonitoredSession StepCounterHook StopAtStepHook
            SummarySaverHook Supervisor SyncReplicasOptimizer VocabInfo WorkerSessionCreator
        """,
        "function": """
            MonitoredTrainingSession NewCheckpointReader add_queue_runner assert_global_step
            basic_train_loop batch batch_join checkpoint_exists checkpoints_iterator cosine_decay
            cosine_decay_restarts create_global_step do_quantize_training_on_graphdef
            exponential_decay export_meta_graph generate_checkpoint_state_proto
            get_checkpoint_mtimes get_checkpoint_state get_global_step get_or_create_global_step
            global_step import_meta_graph init_from_checkpoint input_producer inverse_time_decay
            latest_checkpoint limit_epochs linear_cosine_decay list_variables load_checkpoint
            load_variable match_filenames_once maybe_batch maybe_batch_join maybe_shuffle_batch
            maybe_shuffle_batch_join natural_exp_decay noisy_linear_cosine_decay piecewise_constant
            piecewise_constant_decay polynomial_decay range_input_producer remove_checkpoint
            replica_device_setter sdca_fprint sdca_optimizer sdca_shrink_l1 shuffle_batch
            shuffle_batch_join slice_input_producer start_queue_runners string_input_producer
            summary_iterator update_checkpoint_state warm_start write_graph
        """,
        "value": """
            BytesList ClusterDef Example Feature FeatureList FeatureLists Features FloatList
            Int64List JobDef SaverDef SequenceExample ServerDef
        """,
    },
}
