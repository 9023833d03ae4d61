"""``tf.io`` of the TF2 face: files, TFRecords, serialized tensors and raw bytes (the TF1
face's ``tf.io``, flowgrad/compat/v1_io.py, adds TensorFlow 1's names)."""
from flowgrad import gfile_api as gfile
from flowgrad.ops.csv_ops import decode_csv
from flowgrad.ops.io_ops import (decode_base64, decode_json_example, decode_raw, encode_base64,
                                 matching_files, parse_tensor, read_file, serialize_tensor,
                                 write_file)
from flowgrad.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                                      VarLenFeature, parse_example, parse_single_example,
                                      parse_single_sequence_example)
from flowgrad.ops.tf_record import TFRecordOptions, TFRecordWriter
from flowgrad.saved_model.graph_export import write_graph

__all__ = ["gfile", "TFRecordOptions", "TFRecordWriter", "decode_raw", "matching_files",
           "parse_tensor", "read_file", "serialize_tensor", "write_file", "write_graph",
           "FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "VarLenFeature",
           "parse_example", "parse_single_example", "decode_csv",
           "decode_json_example", "parse_single_sequence_example", "decode_base64",
           "encode_base64"]


# the image codecs (flowgrad/ops/image_codec_ops.py), also in tf.image
from flowgrad.ops.image_codec_ops import (decode_and_crop_jpeg, decode_bmp,  # noqa: E402
                                          decode_gif, decode_image, decode_jpeg, decode_png,
                                          encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg)

__all__ += ["decode_and_crop_jpeg", "decode_bmp", "decode_gif", "decode_image", "decode_jpeg",
            "decode_png", "encode_jpeg", "encode_png", "extract_jpeg_shape", "is_jpeg"]


def __dir__() -> list:
    return sorted(__all__)
