# SPDX-License-Identifier: MIT
"""latency_tracker - Python binding of liblatency-tracker (<latency-tracker.h>),
over ctypes: mark a Python application's requests for an application
tracker.

    import latency_tracker
    app = latency_tracker.App("checkout", threshold_ns=20_000_000)
    app.begin(request_id)
    ...
    app.end(request_id)
    app.close()

App() raises OSError (errno set: ENOENT, EACCES, ...) when the C
library's lt_app_open() fails; begin() and end() never raise: they
return the C functions' value, 0 or -errno, so that the application goes
on.  The library is found by the loader (liblatency-tracker.so.1), or at
the path in $LT_LIBRARY.
"""
import ctypes
import os

_lib = ctypes.CDLL(os.environ.get("LT_LIBRARY", "liblatency-tracker.so.1"),
                   use_errno=True)
_lib.lt_app_open.restype = ctypes.c_void_p
_lib.lt_app_open.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64]
_lib.lt_app_begin.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
_lib.lt_app_end.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
_lib.lt_app_close.argtypes = [ctypes.c_void_p]


class App:
    """An attachment to application tracker NAME (created if root)."""

    def __init__(self, name, threshold_ns=10_000_000, timeout_ns=0):
        self._app = _lib.lt_app_open(name.encode(), threshold_ns, timeout_ns)
        if not self._app:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), name)

    def begin(self, cookie):
        return _lib.lt_app_begin(self._app, cookie)

    def end(self, cookie):
        return _lib.lt_app_end(self._app, cookie)

    def close(self):
        if self._app:
            _lib.lt_app_close(self._app)
            self._app = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
