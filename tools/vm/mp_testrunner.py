"""Run portable test functions on MicroPython (also works on CPython); one line per test.

    MPTEST PASS <module>.<test> <n>ms
    MPTEST FAIL <module>.<test> <n>ms
    MPTEST | <traceback line>                 (follows a FAIL)
    MPTEST DONE <p> passed <f> failed          (main() only)

Lines a test prints itself come before its MPTEST line. On the VM tools/vm/mpvm.run_tests
calls run_test() once per VM call (the VM garbage-collects only between calls); on a
board: `import mp_testrunner; mp_testrunner.main(["test_vm_sanity"])`.
"""
import gc
import io
import sys
import time

try:
    _ticks_ms, _ticks_diff = time.ticks_ms, time.ticks_diff
except AttributeError:  # CPython
    def _ticks_ms():
        return int(time.monotonic() * 1000)

    def _ticks_diff(end, start):
        return end - start


def _print_traceback(exc):
    buf = io.StringIO()
    if hasattr(sys, "print_exception"):
        sys.print_exception(exc, buf)
    else:
        import traceback
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=buf)
    for line in buf.getvalue().splitlines():
        print("MPTEST | " + line)


def tests_of(module):
    """Names of a module's test functions, sorted by name (MicroPython dicts keep no order)."""
    return sorted(n for n in dir(module) if n.startswith("test") and callable(getattr(module, n)))


def run_test(module_name, test_name):
    """Import the module, run one test, print its MPTEST line(s); return True if it passed."""
    gc.collect()
    error = None
    start = _ticks_ms()
    try:
        __import__(module_name)
        getattr(sys.modules[module_name], test_name)()
    except Exception as exc:
        error = exc
    ms = _ticks_diff(_ticks_ms(), start)
    print("MPTEST %s %s.%s %dms" % ("FAIL" if error else "PASS", module_name, test_name, ms))
    if error is not None:
        _print_traceback(error)
    return error is None


def main(module_names):
    """Run every test of each module, gc.collect() in between; return the failure count."""
    passed = failed = 0
    for name in module_names:
        try:
            __import__(name)
            names = tests_of(sys.modules[name])
        except Exception as exc:
            print("MPTEST FAIL %s.<import> 0ms" % name)
            _print_traceback(exc)
            failed += 1
            continue
        for test in names:
            if run_test(name, test):
                passed += 1
            else:
                failed += 1
    print("MPTEST DONE %d passed %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1:]) else 0)
