"""``tf.feature_column`` of the TF2 face: the columns and ``make_parse_example_spec``
(``flowgrad.feature_column_lib``; ``input_layer`` is TF1's, in ``tf.compat.v1``)."""
from flowgrad.feature_column_lib import (
    bucketized_column, categorical_column_with_hash_bucket, categorical_column_with_identity,
    categorical_column_with_vocabulary_file, categorical_column_with_vocabulary_list,
    crossed_column, embedding_column, indicator_column, make_parse_example_spec,
    numeric_column, weighted_categorical_column)

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket",
           "categorical_column_with_identity", "categorical_column_with_vocabulary_file",
           "categorical_column_with_vocabulary_list", "crossed_column", "embedding_column",
           "indicator_column", "make_parse_example_spec", "numeric_column",
           "weighted_categorical_column"]
