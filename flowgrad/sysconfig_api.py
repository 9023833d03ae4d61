"""``tf.sysconfig``: what TensorFlow's build looks like. flowgrad answers as a CPU-only
TensorFlow without CUDA, ROCm or TensorRT; it has no C++ headers or library, so building a
custom op against it is an error that says so (``tf.load_op_library`` cannot load one)."""
from __future__ import annotations

#: TensorFlow 2.21's values (a custom op's build reads them).
CXX11_ABI_FLAG = 1
CXX_VERSION = 201703
MONOLITHIC_BUILD = 0

_NO_NATIVE = ("flowgrad is TensorFlow on NumPy: it has no C++ headers or shared library, so "
              "custom ops cannot be compiled or linked against it (write the op in Python: "
              "tf.py_function, tf.numpy_function, or tf.custom_gradient)")


def get_build_info() -> dict:
    """The build's description, as a CPU-only TensorFlow's.

    Returns:
        ``{"is_cuda_build": False, "is_rocm_build": False, "is_tensorrt_build": False}``.
    """
    return {"is_cuda_build": False, "is_rocm_build": False, "is_tensorrt_build": False}


def get_include() -> str:
    """TensorFlow's header directory, which flowgrad does not have.

    Raises:
        NotImplementedError: always, naming the alternatives.
    """
    raise NotImplementedError("tf.sysconfig.get_include(): " + _NO_NATIVE)


def get_lib() -> str:
    """TensorFlow's library directory, which flowgrad does not have.

    Raises:
        NotImplementedError: always, naming the alternatives.
    """
    raise NotImplementedError("tf.sysconfig.get_lib(): " + _NO_NATIVE)


def get_compile_flags() -> list:
    """The flags to compile a custom op against TensorFlow, which flowgrad cannot give.

    Raises:
        NotImplementedError: always, naming the alternatives.
    """
    raise NotImplementedError("tf.sysconfig.get_compile_flags(): " + _NO_NATIVE)


def get_link_flags() -> list:
    """The flags to link a custom op against TensorFlow, which flowgrad cannot give.

    Raises:
        NotImplementedError: always, naming the alternatives.
    """
    raise NotImplementedError("tf.sysconfig.get_link_flags(): " + _NO_NATIVE)


__all__ = ["CXX11_ABI_FLAG", "CXX_VERSION", "MONOLITHIC_BUILD", "get_build_info",
           "get_compile_flags", "get_include", "get_lib", "get_link_flags"]
