"""A hostile host against a guest console, by the threat model (docs/link.md, "Threat model:
the peer is a stranger"): the console is a real Console linked over the loopback wire; the
peer holds the other end, sits down as an honest session, then writes whatever frames it
likes (valid CRCs, the table's ids). Each test is a promise of the threat model."""

import time

from engine_core import OVER, PLAYING, games
from engine_core import records as r
from engine_core import save
from engine_core.console import Console
from engine_core.game import V_STATUS, move_code
from engine_core.games.nerts_moves import V_ROUND_OVER
from engine_core.gfx.screen import Screen
from engine_core.link import messages as m
from engine_core.link import session as ls
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.statehash import state_hash
from engine_core.storage import MemoryStorage
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.app import App
from simulator import framebuf
from tests.test_link_channel import Tap

STEP = 20


class Rig:
    """The console (the guest) and the peer (a Session for sitting down, its Channel for the rest)."""

    def __init__(self):
        self.wire = Wire(1)
        self.now = 0
        self.console = Console(App(Screen(240, 240, framebuf)), MemoryStorage())
        self.console.start()
        self.app = self.console.app
        self.app.attach_link(lambda: ls.Session(Channel(self.wire.end(1), me=0x1111)), b"rig")
        self.pch = Channel(self.wire.end(0), me=0x2222)
        self.peer = ls.Session(self.pch)

    @property
    def cs(self):
        return self.app.link.session

    def step(self, n=1):
        """Time passes with the peer's session polled (an honest peer)."""
        for _ in range(n):
            self.now += STEP
            self.wire.deliver(self.now)
            self.peer.poll(self.now)
            self.console.tick(STEP)

    def raw_step(self, n=1):
        """Time passes; the peer speaks by hand: its channel polled, what came for it taken."""
        sent = []
        for _ in range(n):
            self.now += STEP
            self.wire.deliver(self.now)
            self.pch.poll(self.now)
            kind = self.pch.receive()
            while kind >= 0:
                sent.append(kind)
                kind = self.pch.receive()
            self.console.tick(STEP)
        return sent

    def press(self, button):
        self.console.press(button)
        self.app.redraw()

    def join(self, name, seed=4242):
        """The console joins the peer's table of `name`."""
        self.app.open_link()
        self.app.selected = 2
        self.press(bt.A)  # Join a table
        self.peer.host(games.load(name)(2, 0), seed, 0, bytes((ls.HERE, ls.THERE)), self.now)
        for _ in range(100):
            self.step()
            if self.cs.tables.count:
                break
        self.press(bt.A)
        for _ in range(50):
            self.step()
            if self.app.linked() and self.peer.state == ls.S_PLAYING:
                break
        assert self.app.linked()
        return self.app.table.game

    def disagree(self):
        """The host's "we disagree": RESYNC with a hash unlike the console's."""
        d = bytearray(5)
        d[0] = self.cs.gen
        r.put_i32(d, 1, (state_hash(self.cs.game) + 1) & 0x3FFFFFF)
        self.pch.send(m.RESYNC, d, 5)

    def send_state(self, game, key):
        """`game`'s record in STATE chunks, as a host writes them."""
        buf = bytearray(save.BUFFER_SIZE)
        rec = bytes(buf[:save.encode_game(game, 0, buf)])
        pos = 0
        while pos < len(rec):
            part = rec[pos:pos + 107]
            d = bytearray(13 + len(part))
            d[0] = self.cs.gen
            r.put_u16(d, 1, pos)
            r.put_u16(d, 3, len(rec))
            r.put_i32(d, 5, key)
            r.put_i32(d, 9, 12345)
            d[13:] = part
            assert self.pch.send(m.STATE, d, len(d))
            pos += len(part)
            self.raw_step(2)


def copy_of(game):
    buf = bytearray(save.BUFFER_SIZE)
    n = save.encode_game(game, 0, buf)
    other = type(game)(game.players, game.options)
    other.set_rules(game.rules)
    assert save.restore_game(other, buf, n, bytearray(256)) == r.OK
    return other


def cards_of(game, pile):
    p = game.piles
    return list(p.cards[p.start[pile]:p.start[pile] + p.size[pile]])


def swap_with(game, pile, other):
    p = game.piles
    for i in range(min(p.size[pile], p.size[other])):
        a, b = p.start[pile] + i, p.start[other] + i
        p.cards[a], p.cards[b] = p.cards[b], p.cards[a]


def two_states(name, own, stock):
    """The host calls the deal over in one state (the position otherwise as it is), then puts
    it back in play with the guest's own pile swapped with a stock: the guest's own pile
    before and after, and the game's status after."""
    rig = Rig()
    game = rig.join(name)
    seat = rig.cs.my_seat
    pile = game.pile_id(own % (seat + 1))
    dealt = cards_of(game, pile)
    rig.raw_step(10)
    rig.disagree()
    rig.raw_step(5)
    over = copy_of(game)
    over.vars[V_STATUS] = OVER
    rig.send_state(over, game.clock_ms if name == "nerts" else rig.cs.turn_no)
    rig.raw_step(5)
    rig.disagree()
    rig.raw_step(5)
    again = copy_of(game)
    again.vars[V_STATUS] = PLAYING
    if name == "nerts":
        again.vars[V_ROUND_OVER] = 0
    swap_with(again, pile, game.pile_id(stock % (seat + 1)) if "%" in stock else game.pile_id(stock))
    rig.send_state(again, game.clock_ms if name == "nerts" else rig.cs.turn_no)
    rig.raw_step(5)
    return dealt, cards_of(game, pile), game.vars[V_STATUS]


def test_a_deal_called_over_by_a_state_does_not_open_the_guests_payoff_pile_to_the_next():
    # "A STATE loaded while a deal is in play must leave that pile as the bottom part of what
    # this console was dealt": a state that called the deal over (with both payoff piles full
    # and a stock that fills a hand: no end the rules have) made the next state unchecked.
    dealt, after, status = two_states("spite_malice", "p%d.payoff", "stock")
    assert after == dealt[:len(after)] or status != PLAYING, (dealt, after)


def test_a_round_called_over_by_a_state_does_not_open_the_guests_nerts_pile_to_the_next():
    dealt, after, status = two_states("nerts", "p%d.nerts", "p%d.stock")
    assert after == dealt[:len(after)] or status != PLAYING, (dealt, after)


def test_a_spite_and_malice_state_over_with_no_end_of_the_rules_is_refused():
    # The rule card: a game ends when a payoff pile is emptied, or drawn when the stock cannot
    # fill a hand. A state "over" with neither is no position of the game.
    rig = Rig()
    game = rig.join("spite_malice")
    before = state_hash(game)
    rig.disagree()
    rig.raw_step(5)
    over = copy_of(game)
    over.vars[V_STATUS] = OVER
    rig.send_state(over, rig.cs.turn_no)
    rig.raw_step(5)
    assert game.vars[V_STATUS] == PLAYING and state_hash(game) == before


def test_a_host_saying_we_disagree_again_and_again_has_the_guest_ask_a_few_times_a_minute():
    # "[a peer can never] make it ask for one more than a few times a minute".
    rig = Rig()
    game = rig.join("spite_malice", seed=99)
    asks = 0
    loads = rig.cs.repairs
    start = rig.now
    while rig.now - start < 60000:
        rig.disagree()
        asks += rig.raw_step(3).count(m.RESYNC)
        if rig.cs.asked:
            rig.send_state(copy_of(game), rig.cs.turn_no)
        rig.raw_step(2)
    assert asks <= 3 and rig.cs.repairs - loads <= 3, (asks, rig.cs.repairs - loads)


def test_a_nerts_state_far_ahead_of_its_key_does_not_hang_the_guest():
    # A state whose record's clock is 800,000 s ahead of its STATE key, then a CLOCK at that
    # time: the guest hashed every second in between in one poll (63 s on a desktop).
    rig = Rig()
    game = rig.join("nerts")
    rig.raw_step(10)
    rig.disagree()
    rig.raw_step(5)
    ahead = copy_of(game)
    ahead.clock_ms = 800000000
    rig.send_state(ahead, 0)
    assert game.clock_ms >= 800000000  # loaded
    d = bytearray(5)
    d[0] = rig.cs.gen
    r.put_i32(d, 1, 800000000)
    rig.pch.send(m.CLOCK, d, 5)
    began = time.process_time()
    rig.raw_step(2)
    assert time.process_time() - began < 1.0


def test_an_offer_that_replaces_the_one_asked_about_is_asked_about_afresh():
    # "[a peer can never] join a table this console's player did not pick": the question names
    # Spite & Malice; the partner swaps its offer for Nerts under it; the player's A must not
    # join a game the question never named.
    rig = Rig()
    rig.join("spite_malice")
    app = rig.app
    named = []
    draw = type(app.screens[ui.LINK_ASK]).draw

    def noted(screen, app):
        if app.full:
            named.append(games.name_of(app.link.session.offer_game_id))
        return draw(screen, app)
    type(app.screens[ui.LINK_ASK]).draw = noted
    try:
        rig.peer.leave(rig.now)
        rig.step(10)
        rig.peer.host(games.load("spite_malice")(2, 0), 777, 0, bytes((ls.HERE, ls.THERE)), rig.now)
        rig.step(100)  # the question, read: its guard time over
        assert app.mode == ui.LINK_ASK and app.answers_live()
        rig.peer.cancel(rig.now)
        rig.peer.host(games.load("nerts")(2, 0), 999, 0, bytes((ls.HERE, ls.THERE)), rig.now)
        rig.step(5)
        app.redraw()
        assert app.mode == ui.LINK_ASK and named[-1] == "nerts"  # asked again, naming it
        assert not app.answers_live()  # with its guard time anew
        rig.step(60)
        rig.press(bt.A)
        rig.step(60)
        assert app.table.game.NAME == named[-1]
    finally:
        type(app.screens[ui.LINK_ASK]).draw = draw


def test_a_strangers_frame_to_anyone_that_is_not_an_offer_changes_nothing_on_the_join_list():
    # "a console takes only the frames of its own table from its own partner; the rest are
    # counted (frames_refused) and change nothing": a beacon (a frame to anyone) of kind BYE
    # from a console of no table here made the join list's session leave, and its A then
    # joined nothing.
    rig = Rig()
    app = rig.app
    app.open_link()
    app.selected = 2
    rig.press(bt.A)  # Join a table
    rig.peer.host(games.load("spite_malice")(2, 0), 777, 0, bytes((ls.HERE, ls.THERE)), rig.now)
    for _ in range(50):
        rig.step()
        if rig.cs.tables.count:
            break
    state, refused = rig.cs.state, rig.cs.ch.refused
    forged = Tap()  # a transport that keeps what a stranger's Channel writes
    stranger = Channel(forged, me=0x3333)
    stranger.open_table(0x4242, m.BYE, bytearray(1), 0)
    stranger.poll(0)
    rig.wire.end(0).write(bytearray(forged.frames[-1]), len(forged.frames[-1]))
    rig.step(2)
    assert rig.cs.state == state and rig.cs.ch.refused == refused + 1
    rig.press(bt.A)  # the player picks the honest table
    for _ in range(100):
        rig.step()
    assert app.linked() and rig.peer.state == ls.S_PLAYING


def test_a_state_of_a_new_deal_when_the_next_deal_is_the_guests_own_keeps_its_payoff_pile():
    # Between deals "the host may have dealt the next one": in Spite & Malice the loser deals,
    # so when the guest lost, a state of a "new game" with the guest's payoff pile of the
    # host's choosing is no deal the host could have made.
    from engine_core.games import spite_malice as sm
    rig = Rig()
    game = rig.join("spite_malice")
    host = rig.peer
    hosts = host.game
    assert rig.cs.my_seat == 1
    piles = hosts.piles

    def host_says_we_disagree():
        host.repair.resync(state_hash(hosts))
        host.outbox.flush()
        rig.step(60)

    # The host's payoff pile one king (a state the guest takes: its own pile as it was) ...
    pay0 = sm.payoff_pile(0)
    king = next(piles.card(sm.STOCK, i) for i in range(piles.size[sm.STOCK])
                if piles.card(sm.STOCK, i) % 13 == sm.KING)
    piles.move(pay0, sm.STOCK, piles.size[pay0])
    piles.remove_at(sm.STOCK, piles.find(sm.STOCK, king))
    piles.push(pay0, king)
    host_says_we_disagree()
    own = sm.payoff_pile(1)
    before = cards_of(game, own)
    # ... then played: the host wins, and the guest, the loser, deals the next game.
    move = move_code(pay0, sm.CENTER1)
    hosts.apply(move)
    host.local_move(move, rig.now)
    rig.step(20)
    assert game.vars[V_STATUS] == OVER and rig.cs.may_deal()
    # A "new game" whose guest payoff pile is 20 other cards.
    hosts.vars[V_STATUS] = PLAYING
    piles.move(own, sm.STOCK, piles.size[own])
    for _ in range(20):
        piles.push(own, piles.remove_at(sm.STOCK, 0))
    if piles.size[pay0] == 0:
        piles.move(sm.STOCK, pay0, 20)
    hosts.history.clear()
    assert hosts.check_position() == ""
    host_says_we_disagree()
    assert cards_of(game, own) == before


def test_the_channels_beacon_kinds_are_the_messages_offers():
    from engine_core.link import channel
    assert (channel._OFFER, channel._FULL) == (m.OFFER, m.FULL)


# --- engine-level tables (tools/reliability: the sessions driven frame by frame) ---

def nerts_pile(game, seat):
    from engine_core.games.nerts_moves import NERTS, STRIDE
    p = seat * STRIDE + NERTS
    return list(game.piles.cards[game.piles.start[p]:game.piles.start[p] + game.piles.size[p]])


def test_a_refused_state_stays_refused_when_play_pushed_a_score_past_what_a_record_holds():
    # A same-round state took every score to -100000 (what `load` takes); the host's Nerts call
    # took the guest's below it; a later state rewriting the guest's own Nerts pile was then
    # refused, but the guest's backup of itself no longer restored, and the refused state stayed.
    from engine_core.game import ACTION, V_SCORE
    from engine_core.games.nerts_moves import CALL, NERTS, STOCK, STRIDE
    from tools.reliability.link_play import DEAL_MOVE, Table
    t = Table("nerts", seed=3, players=2)
    assert t.start()
    t.acting = False
    host, guest = t.sessions
    mine, theirs = t.games

    def frames(n):
        for _ in range(n):
            t.step()
    frames(100)
    for p in range(2):
        mine.vars[V_SCORE + p] = -100000
    while mine.piles.size[NERTS]:
        mine.move_cards(NERTS, STOCK, 1)
    host.repair.found(state_hash(mine), 0)
    frames(100)
    call = ACTION << 16 | CALL << 8 | 0
    mine.apply(call)
    host.local_move(call, t.now)
    frames(100)
    while not host.may_deal():
        frames(1)
    mine.apply(DEAL_MOVE)
    host.local_move(DEAL_MOVE, t.now)
    frames(400)
    kept = nerts_pile(theirs, 1)
    for p in range(2):
        mine.vars[V_SCORE + p] = 0
    a = mine.piles.start[STRIDE + NERTS] + mine.piles.size[STRIDE + NERTS] - 1
    b = mine.piles.start[STRIDE + STOCK]
    mine.piles.cards[a], mine.piles.cards[b] = mine.piles.cards[b], mine.piles.cards[a]
    host.repair.found(state_hash(mine), 0)
    frames(100)
    assert guest.rejected >= 1
    assert nerts_pile(theirs, 1) == kept


def test_a_party_guests_moves_in_every_poll_do_not_stop_the_hosts_clock():
    # A guest within every bound (its own seat's moves, dated at the host's clock, 30 a second)
    # had a relay queued in every host poll, so the host sent no CLOCK: the honest guests'
    # horizon stood still, their windows filled and they refused what the host relayed.
    from engine_core.game import ACTION
    from tools.reliability import party_play
    from tools.reliability.party_play import Party
    saved = party_play.STEP_MS
    party_play.STEP_MS = 33
    try:
        t = Party(consoles=3, seed=4, delay=20)
        assert t.start()
        host, mine = t.sessions[0], t.games[0]
        hostile = t.channels[1]
        t.ticking[1] = 0
        count, last = 5000, -1
        start = mine.clock_ms
        while mine.clock_ms - start < 20000:
            hostile.poll(t.now)
            while hostile.receive() >= 0:
                pass
            when = mine.clock_ms
            if when >= last + 32 and hostile.sending.count < 7:
                count += 1
                d = bytearray(11)
                d[0] = host.gen
                d[1] = 1
                move = ACTION << 16 | 1 << 8 | 1
                d[2], d[3], d[4] = move >> 16 & 0xFF, move >> 8 & 0xFF, move & 0xFF
                r.put_i32(d, 5, when & m.CLOCK_MASK)
                r.put_u16(d, 9, count & 0xFFFF)
                if hostile.send(m.MOVE, d, 11):
                    last = when
            t.frame()
        honest = t.sessions[2]
        assert honest.refused == 0 and honest.repair.overflows == 0 and host.repairs == 0
    finally:
        party_play.STEP_MS = saved


def test_a_state_whose_game_clock_is_near_where_clocks_wrap_is_refused():
    # A host's state 3 s before the game clock wraps (2**30 ms): after the wrap the guest
    # refused every move of the host and compared no hashes: out of step for good, unshown.
    from tools.reliability.link_play import Table
    t = Table("nerts", seed=3, players=4)
    assert t.start()
    host, guest = t.sessions
    mine, theirs = t.games
    for _ in range(100):
        t.step()
    mine.clock_ms = (1 << 30) - 3000
    host.repair.found(state_hash(mine) ^ 1, 0)  # "we disagree", and its state sent
    for _ in range(200):
        t.step()
    assert host.repairs >= 1 and guest.rejected >= 1
    assert theirs.clock_ms < 1 << 29  # not taken


def test_a_spite_and_malice_state_whose_turn_number_nears_where_hashes_end_is_refused():
    # A STATE's key becomes the guest's turn number, counting on from there: a host's state
    # under a key of 2**30 - 1 had the guest's next turn at 2**30, which no HASH may carry (the
    # host refused every one, and no hash was compared again) and which is past MicroPython's
    # small ints (an allocation in the game loop). Keys beyond messages.STATE_KEY_MOST are
    # refused with the frame.
    from tools.reliability.link_play import Table
    assert m.STATE_KEY_MOST < (1 << 30) - 100000  # room for every turn a table plays after it
    t = Table("spite_malice", seed=2, delay=20)
    assert t.start()
    host, guest = t.sessions
    for _ in range(100):
        t.step()
    host.lockstep.turn_no = (1 << 30) - 1  # the key the host's state goes under
    host.repair.tell(state_hash(t.games[0]) ^ 1)  # "we disagree": the guest asks
    for _ in range(40):
        t.step()
        if guest.repair.asked:
            break
    assert guest.repair.asked
    rejected = guest.rejected
    host.repair.send_state()  # the answer (an honest host, holding the same state, sends none)
    for _ in range(400):
        t.step()
    assert guest.rejected > rejected and guest.repairs == 0
    assert guest.lockstep.turn_no < 1 << 20  # not taken
