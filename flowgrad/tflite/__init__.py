"""TensorFlow Lite files: flowgrad's converter writes them, LiteRT runs them.

``tf.lite.TFLiteConverter`` (``flowgrad.lite_api``) lowers a traced function's graph to
TensorFlow Lite's builtin operators (:mod:`flowgrad.tflite.lowering`) and writes the
flatbuffer with the schema's own generated classes (:mod:`flowgrad.tflite.model_builder`);
``tf.lite.Interpreter`` is Google's LiteRT interpreter (:mod:`flowgrad.tflite.interpreter`),
which runs the files TensorFlow's converter writes as well as flowgrad's. Both need the
``lite`` extra (``pip install flowgrad[lite]``: ``ai-edge-litert``)."""
