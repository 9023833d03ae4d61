"""Records TensorFlow 2.21's OpDefs (every registered op: its input and output arguments and
attributes with their types and defaults; the documentation text left out) as
``flowgrad/saved_model/tf_op_defs.pb.gz``, a gzipped binary ``OpList``.

flowgrad's GraphDef exporter writes an op whose flowgrad form has TensorFlow's inputs and
attributes from this record (the type attributes ``T``, ``Tidx``, ... from the inputs' dtypes,
the others from the op's attributes or the OpDef's defaults), and the importer names the
outputs of a FunctionDef's nodes (``node:arg:i``) by it. Run with the TensorFlow venv:

    /work/venv-tf/bin/python tools/tf_reference/record_op_defs.py
"""
import gzip
import os

import tensorflow as tf
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.client import pywrap_tf_session as c_api

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "flowgrad",
                   "saved_model", "tf_op_defs.pb.gz")


def main():
    ops = op_def_pb2.OpList()
    ops.ParseFromString(c_api.TF_GetBuffer(c_api.TF_GetAllOpList()))
    for op in ops.op:
        op.ClearField("summary")
        op.ClearField("description")
        op.ClearField("deprecation")
        for arg in list(op.input_arg) + list(op.output_arg) + list(op.attr):
            arg.ClearField("description")
    ops.op.sort(key=lambda o: o.name)
    with open(OUT, "wb") as f:              # mtime 0: the same ops give the same bytes
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
            z.write(ops.SerializeToString(deterministic=True))
    print("TensorFlow %s: %d OpDefs -> %s" % (tf.__version__, len(ops.op), OUT))


if __name__ == "__main__":
    main()
