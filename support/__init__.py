"""Harness code the tests and the tools share: a model of the panel controller
(panel_model.py), stand-ins for the device's hardware modules (fakes/: machine, network,
espnow, a link wire) and the scripted sessions of the interface (ui_scripts.py). The product
never imports it; tests and tools do (tests/test_layers.py).
"""
