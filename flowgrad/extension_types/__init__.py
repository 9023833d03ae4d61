"""``tf.experimental.ExtensionType`` and its specs and batch encoder."""
