"""The simulator shows the pixels the device would show.

The same button script drives the real app twice: in the MicroPython VM (real framebuf,
the firmware compiled to .mpy, a loop like the device's) and in the simulator on CPython
(tools/sim: host framebuf, Device, headless Runner). Every frame that redraws something
must send the same dirty boxes at the same time with a screen of the same CRC-32,
and at every shot the screen buffers must be byte-identical. The AI plays by a playout
count and a fixed seed, so both runtimes play the same game.
"""
import zlib

import pytest

from tools.vm import mpvm
from tools.sim import boards, headless
from tools.sim.device import Device

PLAYOUTS, SEED = 4, 7

# Per layout: title -> New game, setup -> Start, then a few turns with the AIs playing.
SCRIPTS = {
    "abxy": "shot:title A shot:setup Y*7 A shot:table wait:1500 shot:t1 A shot:played "
            "wait:3000 shot:ais Y Y shot:cursor A wait:4000 shot:later long:B shot:pause",
    "dpad": "shot:title A shot:setup RIGHT*7 A shot:table wait:1500 shot:t1 A shot:played "
            "wait:3000 shot:ais RIGHT RIGHT shot:cursor A wait:4000 shot:later long:B shot:pause",
    "two": "shot:title long:A shot:setup A*7 long:A shot:table wait:1500 shot:t1 long:A "
           "shot:played wait:3000 shot:ais A A shot:cursor long:A wait:4000 shot:later long:B shot:pause",
}

# The device's loop with the hardware taken out, for the VM: same Debouncer, same frames.
VM_LOOP = """\
from firmware.buttons import Debouncer
from firmware.boxes import BoxCanvas
from firmware.app import App
from binascii import crc32

class Board:
    NAME, WIDTH, HEIGHT, DEPTH, LAYOUT = {name!r}, {width}, {height}, {depth}, {layout!r}
    KEYS = ()

canvas = BoxCanvas(Board.WIDTH, Board.HEIGHT, Board.DEPTH)
app = App(Board, canvas, None, 0, playouts={playouts}, seed={seed})
canvas.take_boxes()
debouncer = Debouncer()
now = 0

def run(ms, mask):
    global now
    end = now + ms
    while now < end and not app.done:
        now += {frame_ms}
        app.next_frame()            # as App.frame begins
        debouncer.feed(now, mask)
        event = debouncer.get()
        while event >= 0:
            app.handle(event)
            event = debouncer.get()
        app.tick(now)
        n = canvas.take_boxes()
        if n:
            b = canvas.boxes
            boxes = [(b[i], b[i + 1], b[i + 2], b[i + 3]) for i in range(0, 4 * n, 4)]
            print('FRAME', now, boxes, crc32(canvas.buf))

def shot(name):
    print('SHOT', name, ''.join('%02x' % b for b in canvas.buf))
"""


def vm_steps(steps):
    """The script's steps as VM calls (one call each, so the VM collects garbage in between)."""
    calls = []
    for step in steps:
        if step[0] == "hold":
            calls.append("run(%d, %d)" % (step[2], 1 << step[1]))
        elif step[0] == "wait":
            calls.append("run(%d, 0)" % step[1])
        else:
            calls.append("shot(%r)" % step[1])
    return calls


def host_shots(board, steps):
    """Run the steps in the simulator; (name -> screen buffer at each shot, frame lines)."""
    from firmware.app import App

    def app(board, canvas, store, now_ms):
        return App(board, canvas, store, now_ms, playouts=PLAYOUTS, seed=SEED)

    frames = []

    def presented(device, rect):
        if device.boxes:
            frames.append("FRAME %d %r %d" % (device.now_ms, device.boxes, zlib.crc32(device.canvas.buf)))

    device = Device(board, app, save_dir=None)
    device.canvas.take_boxes()  # the start screen, as the VM loop takes it before its first frame
    runner = headless.Runner(device, on_frame=presented)
    shots = {}
    for step in steps:
        if step[0] == "shot":
            shots[step[1]] = bytes(device.canvas.buf)
        else:
            runner.run([step])
    return shots, frames


def vm_shots(board, steps):
    """Run the steps in the MicroPython VM; (name -> screen buffer at each shot, frame lines)."""
    from tools.sim.device import FRAME_MS
    main = VM_LOOP.format(name=board.NAME, width=board.WIDTH, height=board.HEIGHT, depth=board.DEPTH,
                          layout=board.LAYOUT, playouts=PLAYOUTS, seed=SEED, frame_ms=FRAME_MS)
    result = mpvm.run(main, modules=("engine", "firmware"), steps=vm_steps(steps), heapsize=4 * 1024 * 1024,
                      timeout=300, label="app on %s in the VM" % board.NAME).check()
    shots, frames = {}, []
    for line in result.stdout.splitlines():
        if line.startswith("SHOT "):
            _, name, data = line.split()
            shots[name] = bytes.fromhex(data)
        elif line.startswith("FRAME "):
            frames.append(line)
    return shots, frames


@pytest.mark.parametrize("name", boards.framebuf_names())
def test_app_screens_are_byte_identical_in_the_vm_and_the_simulator(name):
    board = boards.load(name)
    steps = headless.parse(SCRIPTS[board.LAYOUT])
    (host, host_frames), (vm, vm_frames) = host_shots(board, steps), vm_shots(board, steps)
    assert len(vm_frames) >= 10
    for k, (a, b) in enumerate(zip(vm_frames, host_frames)):
        assert a == b, "frame %d differs: VM %s, simulator %s" % (k, a, b)
    assert len(host_frames) == len(vm_frames)
    names = [s[1] for s in steps if s[0] == "shot"]
    assert list(vm) == names and list(host) == names
    distinct = {host[n] for n in names}
    assert len(distinct) >= 6, "the script should show many different screens"
    for shot in names:
        assert host[shot] == vm[shot], "screen %r differs between the VM and the simulator" % shot
