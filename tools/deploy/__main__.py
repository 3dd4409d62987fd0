"""`python -m tools.deploy`: compile, copy what changed to the board, start the game."""
import sys

from tools.deploy.deploy import main

sys.exit(main())
