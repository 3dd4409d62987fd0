"""The simulator (issue 5 replaces this stand-in): for now the terminal table."""

from tools.table import main

main()
