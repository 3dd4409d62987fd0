"""The ROMFS image of a board: the game's .mpy files in a read-only filesystem that runs in place.

    python -m tools.deploy.romfs --board pico_display [--out build/romfs/pico_display.romfs]

The image holds exactly the modules `tools/deploy/deploy.py` ships for the board (engine/,
firmware/ without the CircuitPython files, board_configs/__init__ and the board's
config), compiled by the same cached mpy-cross build, under the same paths (`lib/...`),
so on a board they are /rom/lib/engine/... . `board.py` and `main.py` stay on the
writable filesystem: board.py is the device's own setting, and the firmware runs
main.py only from there. The image is made by mpremote's own builder (`make_romfs`, as
`mpremote romfs build` does) from a staging folder; `mpremote romfs deploy` takes the
file it writes.
"""
import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

from tools.deploy import deploy
from tools.vm.build_mpy import ROOT

OUT_DIR = ROOT / "build" / "romfs"
ON_FLASH = ("board.py", "main.py")     # shipped, but never in the image


def image_files(board, built=None):
    """Map path in the image -> .mpy bytes: every module deploy ships for `board` (taken
    from `built`, deploy.build's result, when the caller has it already)."""
    if built is None:
        built = deploy.build(board)
    return {path: data for path, data in built.items() if path not in ON_FLASH}


def make_image(files):
    """The ROMFS image of `files` (path -> bytes), built by mpremote's make_romfs."""
    from mpremote.romfs import make_romfs
    with tempfile.TemporaryDirectory(prefix="romfs-") as staging:
        for path, data in files.items():
            target = Path(staging) / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        with contextlib.redirect_stdout(io.StringIO()):    # make_romfs prints the tree
            return make_romfs(staging, mpy_cross=False)


def build_image(board, built=None):
    """The ROMFS image (bytes) of the modules `board` ships."""
    deploy.check_board(board)
    return make_image(image_files(board, built))


def write_image(board, out=None, built=None):
    """Build `board`'s image into `out` (default build/romfs/<board>.romfs); return the path."""
    out = Path(out) if out else OUT_DIR / ("%s.romfs" % board)
    out.parent.mkdir(parents=True, exist_ok=True)
    image = build_image(board, built)
    with tempfile.NamedTemporaryFile(dir=out.parent, prefix=out.name, delete=False) as part:
        part.write(image)          # whole, then renamed: a reader never sees half an image
    os.replace(part.name, out)
    return out


def main(argv=None):
    """Command line: write the image and print its size."""
    parser = argparse.ArgumentParser(prog="python -m tools.deploy.romfs", description=__doc__.splitlines()[0])
    parser.add_argument("--board", required=True, help="board config: " + ", ".join(deploy.board_names()))
    parser.add_argument("--out", help="image file (default build/romfs/<board>.romfs)")
    args = parser.parse_args(argv)
    try:
        deploy.check_board(args.board)
        built = deploy.build(args.board)
        path = write_image(args.board, args.out, built)
    except deploy.DeployError as e:
        print("romfs: " + str(e), file=sys.stderr)
        return 1
    files = image_files(args.board, built)
    print("%s: %d bytes (%d modules, %d bytes of .mpy)"
          % (path, path.stat().st_size, len(files), sum(len(d) for d in files.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
