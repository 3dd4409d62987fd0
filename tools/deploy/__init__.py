"""Putting the game on a board: `python -m tools.deploy` (deploy.py), ROMFS images
(romfs.py) and a virtual board behind a pseudo-terminal for mpremote (vboard.py)."""
