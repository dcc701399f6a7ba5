"""The player's interface: screens, menus, the table of a game and its cursor.

Everything here runs on the device and in the simulator and allocates nothing per keypress
or per redraw once a game's table exists (tests/test_ui_micropython.py).
"""
