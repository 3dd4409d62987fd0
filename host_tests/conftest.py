"""pytest setup shared by every host test."""
from tools.sim import install_framebuf

# Firmware modules `import framebuf`; on CPython that is the simulator's byte-identical copy.
install_framebuf()
