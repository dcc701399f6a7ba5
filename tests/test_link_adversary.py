"""The link adversary (tools/reliability/link_adversary.py): well-formed frames with hostile
meaning (docs/link.md, "Threat model"), each with what the victim must do. A few thousand
here; the soak runs 10^6 (`python -m tools.reliability.link_adversary 1000000`)."""

import pytest

from tools.reliability.link_adversary import adversary, impostors


@pytest.mark.parametrize("name,hosts", [("spite_malice", True), ("spite_malice", False), ("nerts", True),
                                        ("nerts", False)])
def test_well_formed_hostile_frames_are_refused_and_change_nothing(name, hosts):
    got = adversary(name, hosts, 2500, 11)
    assert got["failures"] == 0, got
    assert got["frames"] >= 2500
    attacks = got["attacks"]
    assert attacks.get("a STATE nobody asked for", 0) + attacks.get("a STATE that moves the victim's own pile", 0) > 0
    assert attacks.get("a move of the victim's seat", 0) > 0 and attacks.get("shifting offers", 0) > 0
    if name == "nerts":
        for what in ("a move before its own horizon", "a move from the future", "a burst of flips a millisecond apart",
                     "a CLOCK backwards or ahead"):
            assert attacks.get(what, 0) > 0, (what, attacks)


def test_a_second_client_on_the_socket_reaches_nothing():
    reached, refused = impostors(3, seed=5)
    assert reached == 0 and refused >= 3
