"""The device program: screens, buttons, the game, saving."""
