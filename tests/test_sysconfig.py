"""tf.sysconfig answers as TensorFlow 2.21's CPU-only wheel (its values recorded by hand
from /work/venv-tf: build info, CXX11_ABI_FLAG, CXX_VERSION, MONOLITHIC_BUILD); the header
and library queries, which a custom op's build needs, are a clear error."""
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1


@pytest.mark.parametrize("face", [tf, tf1])
def test_build_info_is_a_cpu_only_tensorflows(face):
    assert face.sysconfig.get_build_info() == {
        "is_cuda_build": False, "is_rocm_build": False, "is_tensorrt_build": False}
    assert (face.sysconfig.CXX11_ABI_FLAG, face.sysconfig.CXX_VERSION,
            face.sysconfig.MONOLITHIC_BUILD) == (1, 201703, 0)


@pytest.mark.parametrize("query", ["get_include", "get_lib", "get_compile_flags",
                                   "get_link_flags"])
def test_native_build_queries_say_there_is_no_library(query):
    with pytest.raises(NotImplementedError, match="custom ops cannot be compiled"):
        getattr(tf.sysconfig, query)()
