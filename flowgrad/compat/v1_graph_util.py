"""``tf.compat.v1.graph_util``: extracting and freezing GraphDefs (TensorFlow's protos)."""
from flowgrad.saved_model.graph_def import (convert_variables_to_constants, extract_sub_graph,
                                            import_graph_def)

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "import_graph_def"]
