"""The MicroPython VM harness: run device code in the real MicroPython (WebAssembly, npm).

`mpvm.py` runs scripts and test modules in the VM (`mpvm.mjs` is its Node side),
`mp_testrunner.py` runs test functions inside the VM, `build_mpy.py` compiles device
files with mpy-cross.
"""
