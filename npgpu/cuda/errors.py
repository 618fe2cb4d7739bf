"""Errors raised by npgpu's CUDA runtime layer."""


class CUDADriverError(RuntimeError):
    """A CUDA driver call failed; ``status`` is the CUresult code."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class OutOfMemoryError(MemoryError):
    """A device allocation failed even after the pool released its cached blocks."""

    def __init__(self, requested, pooled, limit=None, kind="device"):
        self.requested = requested
        self.pooled = pooled
        self.limit = limit
        msg = (f"Out of {kind} memory allocating {requested:,} bytes "
               f"(the pool holds {pooled:,} bytes in use")
        if limit:
            msg += f", limit {limit:,} bytes"
        msg += ")"
        super().__init__(msg)
