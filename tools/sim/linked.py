"""Linked devices on one laptop: `./mau play --link 3` (tools/sim/README.md).

`links(model, wire, n)` makes the firmware Links of n devices on one fake wire
(tools/fakes/wire.py): "espnow", radios in range of each other, or "uart", the host
(device 1) with a cable and a UART to each other device. The devices run the real app;
each board gets an `open_link()` that returns its Link, so the title offers Host a
linked game and Join a linked game.
"""
MACS = [bytes([2, 0, 0, 0, 0, k + 1]) for k in range(8)]


def links(model, wire, n):
    """n firmware Links joined by `model` ("espnow" or "uart"), the host's (device 1) first."""
    from firmware.link import Link
    if model == "espnow":
        from firmware.link_espnow import EspNowTransport
        out = []
        for k in range(n):
            radio = wire.radio(MACS[k])
            radio.active(True)
            out.append(Link(EspNowTransport(radio), wire.ticks, epoch=17 * k + 5))
        return out
    if model == "uart":
        from firmware.link_uart import UartTransport
        cables = [wire.cable(baud=115200) for _ in range(n - 1)]
        host = Link(UartTransport(tuple(c[0] for c in cables)), wire.ticks, epoch=5)
        return [host] + [Link(UartTransport((c[1],)), wire.ticks, epoch=17 * k + 22)
                         for k, c in enumerate(cables)]
    raise ValueError("model %r: espnow or uart" % (model,))


NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eva", "Finn")


def first_setup(k, n):
    """The setup a device starts with when its save folder has none: device 1 hosts
    Anna, Ben, Cleo ... (one human a device) and an AI; device k plays NAMES[k - 1]."""
    seats = [[NAMES[i], 0] for i in range(n)] + [["Greta", 3]]
    if k > 0:
        seats = [[NAMES[k], 0], ["Greta", 3]]
    return {"seats": seats, "preset": "classic", "options": {}, "match": "rounds",
            "limit": 3, "sort": "suit", "names": []}


def with_link(board, link):
    """The board module's data with an open_link() that returns `link`."""
    import types
    linked = types.ModuleType(board.__name__)
    linked.__dict__.update({k: v for k, v in board.__dict__.items() if not k.startswith("__")})
    linked.open_link = lambda: link
    return linked


class Linked:
    """n simulated devices of one board on one wire and one clock: device 1 is meant to
    host (its first setup seats a human for each device), the others to join."""

    def __init__(self, board, n, app_factory, save_root, model="espnow", seed=0, faults=None):
        from tools.fakes.wire import Wire
        from tools.sim.device import Device, open_store
        self.wire = Wire(seed=seed, **(faults or {}))
        self.links = links(model, self.wire, n)
        self.devices = []
        for k in range(n):
            folder = "%s/%d" % (save_root, k + 1)
            store = open_store(folder)
            if store is not None and store.load_settings()[0] is None:
                store.save_settings(first_setup(k, n))
            self.devices.append(Device(with_link(board, self.links[k]), app_factory, folder))
        self.now_ms = 0

    def frame(self, now_ms, masks):
        """One frame of every device at now_ms, device k holding masks[k]; their rects."""
        self.now_ms = now_ms
        self.wire.now_us = now_ms * 1000
        return [d.frame(now_ms, m) for d, m in zip(self.devices, masks)]

    @property
    def done(self):
        """True once every device's app has asked to stop."""
        return all(d.done for d in self.devices)


class Scripts:
    """Headless: one button script a device (tools/sim/headless.py's words), all on one
    clock; `shot:name` writes <shots>/<device>-name.png."""

    def __init__(self, linked, scripts, shots_dir=None, scale=1):
        from tools.sim.headless import parse, read
        self.linked = linked
        self.steps = [parse(read(s)) for s in scripts]
        self.steps += [[] for _ in range(len(linked.devices) - len(self.steps))]
        self.at = [0] * len(self.steps)
        self.left = [None] * len(self.steps)    # ms left of each device's current step
        self.shots_dir, self.scale = shots_dir, scale
        self.shots = []

    def run(self):
        """Every device's script to its end (the others wait); the shots written."""
        import os
        from tools.sim.device import FRAME_MS
        devices = self.linked.devices
        while any(self.at[k] < len(self.steps[k]) for k in range(len(devices))):
            masks = []
            for k, d in enumerate(devices):
                steps = self.steps[k]
                while self.at[k] < len(steps) and steps[self.at[k]][0] == "shot":
                    if self.shots_dir is not None:
                        os.makedirs(self.shots_dir, exist_ok=True)
                        path = os.path.join(self.shots_dir, "%d-%s.png" % (k + 1, steps[self.at[k]][1]))
                        d.save_png(path, self.scale)
                        self.shots.append(path)
                    self.at[k] += 1
                mask = 0
                if self.at[k] < len(steps):
                    step = steps[self.at[k]]
                    if self.left[k] is None:
                        self.left[k] = step[-1]
                    if step[0] == "hold":
                        mask = 1 << step[1]
                    self.left[k] -= FRAME_MS
                    if self.left[k] <= 0:
                        self.at[k] += 1
                        self.left[k] = None
                masks.append(mask)
            self.linked.frame(self.linked.now_ms + FRAME_MS, masks)
        return self.shots


def run_headless(linked, args):
    """--link N --mode headless: the scripts split at '|', one a device; what happened."""
    import sys
    from tools.sim.headless import ScriptError
    scripts = [s.strip() for s in args.script.split("|")] if args.script else []
    try:
        shots = Scripts(linked, scripts, args.shots, args.scale or 1).run()
    except (ScriptError, OSError) as error:
        print("script: %s" % error, file=sys.stderr)
        return 2
    for k, d in enumerate(linked.devices):
        print("device %d (%s): %d frames, %d ms, %d key events, screen %s" % (
            k + 1, d.name, d.frames, d.now_ms, len(d.events), getattr(d.app.screen, "name", "?")))
    for path in shots:
        print("  " + path)
    return 0


def run_window(linked, scale):
    """--link N in a window: the devices side by side; Tab gives the keys to the next one."""
    import time
    import pygame
    from tools.sim.device import FRAME_MS
    from tools.sim.image import Converter
    from tools.sim.window import Held, keymap, KEY_NAMES
    devices = linked.devices
    w, h = devices[0].canvas.width * scale, devices[0].canvas.height * scale
    gap, top = 12, 26
    pygame.display.init()
    pygame.font.init()
    font = pygame.font.Font(None, 22)
    surface = pygame.display.set_mode((len(devices) * (w + gap) + gap, h + top + 30))
    pygame.display.set_caption("Mau-Mau: %d linked %s" % (len(devices), devices[0].board.NAME))
    converters = [Converter(d.canvas) for d in devices]
    keys = keymap(pygame, devices[0].board)
    held, focus, quit_ = Held(), 0, False

    def labels():
        surface.fill((24, 24, 28), (0, 0, surface.get_width(), top))
        surface.fill((24, 24, 28), (0, top + h, surface.get_width(), 30))
        for k in range(len(devices)):
            x = gap + k * (w + gap)
            ink = (255, 220, 90) if k == focus else (150, 150, 155)
            text = "device %d%s" % (k + 1, "  < keys" if k == focus else "")
            surface.blit(font.render(text, True, ink), (x, 5))
        surface.blit(font.render("Tab = next device   Esc = quit   (keys as ./mau play)", True,
                                 (200, 200, 205)), (gap, top + h + 7))

    def show(k, rect):
        if rect is None:
            return
        x, y, rw, rh = rect
        image = pygame.image.frombuffer(converters[k].rect(x, y, rw, rh), (rw, rh), "RGB")
        if scale != 1:
            image = pygame.transform.scale(image, (rw * scale, rh * scale))
        surface.blit(image, (gap + k * (w + gap) + x * scale, top + y * scale))

    labels()
    for k, d in enumerate(devices):
        show(k, (0, 0, d.canvas.width, d.canvas.height))
    pygame.display.flip()
    start = time.monotonic()
    while not quit_ and not linked.done:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                             and event.key == pygame.K_ESCAPE):
                quit_ = True
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
                focus = (focus + 1) % len(devices)
                labels()
            elif event.type == pygame.KEYDOWN and event.key in keys:
                held.down(event.key)
            elif event.type == pygame.KEYUP:
                held.up(event.key)
        mask = held.mask(lambda code: KEY_NAMES.index(keys[code]))
        masks = [mask if k == focus else 0 for k in range(len(devices))]
        now = max(linked.now_ms + 1, int((time.monotonic() - start) * 1000))
        for k, rect in enumerate(linked.frame(now, masks)):
            show(k, rect)
        pygame.display.flip()
        spare = FRAME_MS / 1000 - (time.monotonic() - start - now / 1000)
        if spare > 0:
            time.sleep(spare)
    pygame.display.quit()
    return 0
