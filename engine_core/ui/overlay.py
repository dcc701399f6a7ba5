"""What a table's renderer (view.py) draws over and around its piles: the card sliding to its
pile, the status line with the move count or the scores, and the message strip at the foot.
Functions of the renderer, which holds their state: the slide (one small int, SLIDE_* fields)
and, in its Drawn record, where the sliding card was drawn, the status line's count and the
band of the strip drawn over since the strip was drawn.
"""

from engine_core import PLAYING
from engine_core import reasons as why
from engine_core.gfx.palette import BLACK, FELT, GOLD, GREY, PANEL, SLOT, WHITE
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui.drawn import SHAKE_BIAS
from engine_core.ui.layouts import FAN_MASK, RIGHT
from engine_core.ui.slots import MARGIN

from micropython import const

MESSAGE_MS = const(2000)  # how long the message strip shows (view.py's, the table's)

RANK_CHARS = b"A23456789TJQ"  # a wild king's rank tag (ten is drawn as 10)

# A card sliding from one pile to another (TableRenderer.slide, one small int): frames left,
# the frame drawn, the source and destination slots, the card, and whether the setting is on.
SLIDE_FRAMES = const(4)  # a frame a tick (about 33 ms on the device)
SLIDE_LEFT = const(0xF)
SLIDE_DRAWN = const(0xF0)
SLIDE_ON = const(0x10000000)
SLIDE_WAIT = const(0x20000000)  # changed in a keypress: drawn in the next frame, not in it
SCORE_W = const(37)  # one player's score in a wide status line ("You 12")
PLAYER_TAGS = (b"You ", b"CPU ", b"CPU2 ", b"CPU3 ")  # seat 1 is the player, the rest the computer
LINK_TAGS = ((b"You ", b"P2 "), (b"P1 ", b"You "))  # link play, from either console's seat
WHOLE = const(9)  # tag_room: a narrow score corner shows the players' whole names
_OUTSIDE_PX = const(600)  # restore_rect: a pile's pixels past the rectangle that pay for a look
_RED = const(4)  # palette.RED (a name of its own would cost every console's heap): a seat away


# --- a card sliding to its pile ---


def ghost_stays(view):
    """True while the sliding card drawn last is where it is to be drawn now (the same
    frame, and no pile beneath moved it)."""
    frame = view.slide & SLIDE_LEFT
    if frame == 0 or frame != (view.slide & SLIDE_DRAWN) >> 4:
        return False
    d = view.drawn
    return ghost_x(view, frame) == d.ghost_x and ghost_y(view, frame) == d.ghost_y


def restore_ghost(view):
    restore_under(view, view.drawn.ghost_x, view.drawn.ghost_y)
    view.slide &= ~SLIDE_DRAWN


def ghost_x(view, frame):
    return slide_pos(view, frame, True)


def ghost_y(view, frame):
    return slide_pos(view, frame, False)


def slide_pos(view, frame, along_x):
    """Where the sliding card is at a frame (SLIDE_FRAMES .. 1), x or y: from the place it
    left (the source's next card position) towards the destination's top card."""
    s = (view.slide >> 8) & 0x3F
    d = (view.slide >> 14) & 0x3F
    slots = view.slots
    a = slots.card_pos(s, view.game.piles.size[slots.pile[s]], along_x)
    b = slots.card_pos(d, view.game.piles.size[slots.pile[d]] - 1, along_x)
    t = SLIDE_FRAMES + 1 - frame
    return a + (b - a) * t // (SLIDE_FRAMES + 1)


def restore_under(view, gx, gy):
    """Draw again what a card drawn at (gx, gy) covered (restore_rect)."""
    restore_rect(view, gx, gy, view.style.w, view.style.h)


def restore_rect(view, gx, gy, w, h):
    """Draw again what covered gx, gy, w, h (a sliding card, a panel): the felt, every slot,
    label and the status line it touched, and mark the strip at the foot. A slot reaching
    out of the rectangle is sent only inside it where it looks as drawn."""
    st = view.style
    slots = view.slots
    view.fb.fill_rect(gx, gy, w, h, FELT)
    view.screen.mark(gx, gy, w, h)
    piles = view.game.piles
    d = view.drawn
    for s in range(slots.count):
        n = piles.size[slots.pile[s]]
        if d.count[s] == n:  # as drawn (drawn.py)
            step = d.step[s]
            ext = d.extent[s]
        else:
            step = slots.step(s, n)
            ext = slots.extent(s, n, step)
        fan = view.how[s] & FAN_MASK
        sw = ext if fan == RIGHT else st.w
        sh = st.h if fan == RIGHT else ext
        x = slots.x[s] - MARGIN
        y = slots.y[s]
        if x < gx + w and gx < x + sw + 2 * MARGIN and y < gy + h and gy < y + sh:
            # A slot that lies inside the felt just painted, as it was drawn and as it is, still
            # and unshaken, needs no felt of its own first (draw_slot's clear_slot).
            reach = ext if ext > d.extent[s] else d.extent[s]
            inside = (gx <= x and x + (reach if fan == RIGHT else st.w) + 2 * MARGIN <= gx + w
                      and gy <= y and y + (st.h if fan == RIGHT else reach) <= gy + h
                      and d.shake[s] == SHAKE_BIAS and view.shake_of(s) == 0)
            # One that reaches out of it and looks as drawn draws there the pixels the glass
            # shows: only its part inside is sent (not below the strip's top, which it mends),
            # where that part outside is worth the look (view.first_to_redraw: -1, as drawn).
            bw = (reach if fan == RIGHT else st.w) + 2 * MARGIN  # the box it is drawn in
            bh = st.h if fan == RIGHT else reach
            same = (not inside and y + bh <= view.strip_y
                    and bw * bh - ((x + bw if x + bw < gx + w else gx + w) - (x if x > gx else gx))
                    * ((y + bh if y + bh < gy + h else gy + h) - (y if y > gy else gy)) >= _OUTSIDE_PX)
            if same:
                view.highlight(s)
                same = view.first_to_redraw(s, n, step, view.shake_of(s)) < 0
            screen = view.screen
            k = screen.dirty_count
            view.draw_slot(s, True, not inside)
            if same and not screen.all_dirty and k <= screen.dirty_count < len(screen.dirty) >> 2:
                screen.dirty_count = k  # (unless the list filled and merged meanwhile)
    for i in range(len(slots.labels_on_table)):
        label = slots.labels_on_table[i]
        if label[1] < gx + w and gx < label[1] + 6 * len(label[0]) and label[2] < gy + h and gy < label[2] + LINE_H:
            view.painter.text(label[0], label[1], label[2], SLOT)
            if label[2] + LINE_H > view.strip_y:  # drawn over the strip
                strip_damage(view, 0, view.screen.width)
    sx, sy, sw = slots.status
    sh = status_reach(view)
    if sx < gx + w and gx < sx + sw and sy < gy + h and gy < sy + sh:
        draw_status(view, True)
        if sy + sh > view.strip_y:  # its words may run past its box
            strip_damage(view, 0, view.screen.width)
    if view.game.TURN_BASED:
        draw_turn(view)  # (its box is small: drawn again whatever the card covered)
    if gy + h > view.strip_y:
        strip_damage(view, gx, gx + w)


def draw_ghost(view):
    """The sliding card at its frame, on top of the table."""
    frame = view.slide & SLIDE_LEFT
    card = (view.slide >> 20) & 0xFF
    gx = ghost_x(view, frame)
    gy = ghost_y(view, frame)
    view.painter.card(view.style, gx, gy, card, True, GREY, FELT, False)
    view.screen.mark(gx, gy, view.style.w, view.style.h)
    view.drawn.ghost_x = gx
    view.drawn.ghost_y = gy
    if gy + view.style.h > view.strip_y:
        strip_damage(view, gx, gx + view.style.w)
    view.slide = (view.slide & ~SLIDE_DRAWN) | frame << 4


# --- the message strip and the status line ---


def strip_damage(view, x0, x1):
    """Note that pixels x0 .. x1 of the message strip's band were drawn over."""
    d = view.drawn
    if x0 < 0:
        x0 = 0
    if x0 // 2 < d.damage_from:
        d.damage_from = x0 // 2
    if (x1 + 1) // 2 > d.damage_to:
        d.damage_to = (x1 + 1) // 2


def strip_top(width, height):
    """Where the message strip begins: a line at the foot of a screen 240 pixels wide or more
    (38 characters, the longest words a move's refusal has), two lines on a narrower one, and
    one line of 12 pixels on a screen under 100 pixels high (128x64), where two would hide a
    third of the table (it covers the score corner's last line whole, not a row of its
    letters): there the words show a line at a time (strip_page)."""
    if height < 100:
        return height - LINE_H - 2
    return height - LINE_H - 3 if width >= 240 else height - 2 * LINE_H - 3


def strip_page(view, text, start, n, per_line):
    """Where the words text[start:n] shown in the strip begin now: on a one-line strip
    (strip_top) the words' second line in the second half of the time they show, else (and
    for words of one line, all their time) start."""
    if view.screen.height >= 100 or view.message_ms > MESSAGE_MS // 2:
        return start
    end = line_break(text, n, per_line, start)
    if end >= n:
        return start  # one line: it stays
    return end + 1 if text[end] == 32 else end


def line_break(text, n, per_line, first):
    """Where the line that starts at text[first] (n characters in all) ends: n when the rest
    fits in per_line characters, else at the last space that lets it fit (the space is the
    next line's); a word longer than a line is cut."""
    if n - first <= per_line:
        return n
    end = first + per_line
    k = end
    while k > first:
        if text[k] == 32:
            return k
        k -= 1
    return end


def count_lines(text, n, per_line):
    """How many lines text[:n] takes, per_line characters a line broken at spaces."""
    lines = 0
    start = 0
    while start < n:
        end = line_break(text, n, per_line, start)
        start = end + 1 if end < n and text[end] == 32 else end
        lines += 1
    return lines


def draw_lines(painter, text, start, n, per_line, y, bottom, x0, x1, colour, left=4, note=False):
    """text[start:n] from x `left`, per_line characters a line broken at spaces, lines
    LINE_H apart from y down to `bottom`; only the letters between x0 and x1 are drawn.
    note: the lines describe (painter.note marks each where there is room under it)."""
    while start < n and y + CHAR_H <= bottom:
        end = line_break(text, n, per_line, start)
        if note and y + CHAR_H + 2 <= bottom:
            painter.note(left, y, 6 * (end - start) - 1)
        first = start + (x0 - left) // 6
        if first < start:
            first = start
        stop = start + (x1 - left + 5) // 6  # the letters that start left of x1
        if stop > end:
            stop = end
        if first < stop:
            painter.text_span(text, first, stop, left + 6 * (first - start), y, colour)
        start = end + 1 if end < n and text[end] == 32 else end
        y += LINE_H


def draw_message(view, x0, x1):
    """The message strip at the foot of the table (why a move was refused, and the like),
    between x0 and x1: what a redraw beneath it covered, or all of it. Only the letters
    there are drawn again (a whole strip costs about 0.4 M fuel). On a narrow screen the
    strip has two lines, the words broken at a space; on a low one (128x64) one line, the
    first line of the words and then the second (strip_page)."""
    fb = view.fb
    w = view.screen.width
    if x1 > w:
        x1 = w
    top = view.strip_y
    h = view.screen.height - top
    fb.fill_rect(x0, top, x1 - x0, h, PANEL)
    message = view.message
    said = message == why.SAID
    text = view.said if said else why.screen_words(view.game, message)
    skip = 1 if said else 0  # the play control's words come after their length
    n = view.said[0] + 1 if said else len(text)  # the end, as an index into text
    low = view.screen.height < 100  # one line, a pixel from the edges: 21 characters at 128
    if low and message == why.LINK_SILENT:  # it stays while the link is silent: whole, in one line
        text = why.LINK_SILENT_SHORT
        n = len(text)
    per_line = (w - 1) // 6 if low else (w - 6) // 6
    skip = strip_page(view, text, skip, n, per_line)
    draw_lines(view.painter, text, skip, n, per_line, top + 2, view.screen.height, x0, x1, WHITE, 1 if low else 4)
    view.screen.mark(x0, top, x1 - x0, h)
    view.drawn.msg = message


def draw_status(view, full=False):
    """The move count (its own small box) and the title or a message; the labels only
    in a full redraw (full), since they never change. True when the count (or the
    scores) was drawn again."""
    p = view.painter
    slots = view.slots
    x, y, w = slots.status
    fb = view.fb
    d = view.drawn
    narrow = w < 100  # a corner: the count under its name, no room for messages
    link = view.hand.link
    if full:
        d.moves = -1
        d.scores = -1
        at = -1  # where a linked table's id goes
        if narrow:
            if link is None and score_head(view):
                p.text(b"Score" if view.game.COMPETITIVE else b"Moves", x, y, SLOT)
            else:
                at = x  # the table's id heads the corner
        else:  # the game's name and the deal's number (a linked table's id)
            if not view.game.COMPETITIVE:
                p.text(b"Moves", x + w - 65, y, SLOT)
            tx = p.text(view.title, x, y, SLOT)
            room = 72 if not view.game.COMPETITIVE else SCORE_W + 46 * (view.game.players - 1)
            if link is not None:  # "table 446A", or with less room the id alone
                if tx + 72 <= x + w - room:
                    at = p.text(b" table ", tx, y, SLOT)
                elif tx + 36 <= x + w - room:
                    at = tx + 12
            elif tx + 60 <= x + w - room:
                p.number(view.game.seed, p.text(b" #", tx, y, SLOT), y, SLOT)
        if at >= 0 and link is not None:  # the table's id as the join list shows it
            host = link.hello.table_host
            for k in range(4):
                p.char(b"0123456789ABCDEF"[(host >> (12 - 4 * k)) & 0xF], at + 6 * k, y, WHITE)
    if view.game.COMPETITIVE:
        return draw_scores(view, x, y, w, narrow)
    moves = view.move_count
    if moves == d.moves:
        return False
    d.moves = moves
    if narrow:
        y += LINE_H
    nx = x + w - 29 if not narrow else x
    fb.fill_rect(nx, y, 29, LINE_H - 1, FELT)
    view.screen.mark(nx, y, 29, LINE_H - 1)
    if narrow:
        p.number(moves, nx, y, WHITE)
    else:
        p.number(moves, x + w - p.number_width(moves), y, WHITE)
    return True


def player_tags(view):
    """Each player's name by seat: 'You' and the computer's, or in link play the other's seat."""
    if view.hand.link is not None:
        return LINK_TAGS[view.hand.seat] if view.game.players == 2 else view.slots.labels_seats[view.hand.seat]
    return PLAYER_TAGS


def draw_scores(view, x, y, w, narrow):
    """Competitive games: each player's score instead of the move count. True when
    they were drawn again (a hash of them all tells when they changed)."""
    game = view.game
    total = 0
    for i in range(game.players):
        total = total * 7 + game.score(i) + 3 * i
    link = view.hand.link
    away = link.away if link is not None else 0  # a party table's seats whose consoles are away
    total = total * 16 + away
    drawn = view.drawn.scores
    if game.TURN_BASED:  # whose turn it is, in the lowest digit (base 3) of what was drawn
        total = total * 3 + draw_turn(view, -1 if drawn < 0 else drawn % 3)
    if total == drawn:
        return False
    view.drawn.scores = total
    if drawn >= 0 and drawn // 3 == total // 3 and game.TURN_BASED:
        return False  # only the turn changed: its mark is drawn, the scores stand
    p = view.painter
    if narrow:
        y += score_head(view)
        bw = w
        bx = x
    else:
        bw = SCORE_W + 42 * (game.players - 1)
        bx = x + w - bw
    bh = LINE_H * game.players if narrow else LINE_H - 1
    view.fb.fill_rect(bx, y, bw, bh, FELT)
    view.screen.mark(bx, y, bw, bh)
    tags = player_tags(view)
    # (A wide line gives each player 42 pixels, SCORE_W of them for its name and score.)
    room = tag_room(game, tags, bw if narrow else SCORE_W)
    for i in range(game.players):
        colour = WHITE if i == view.hand.seat else SLOT
        score = game.score(i)
        tag = tags[i]
        tx = bx if narrow else bx + 42 * i
        ty = y + i * LINE_H if narrow else y
        if room < WHOLE:  # the initial (and a space), or no name
            if room:  # a name ending in a digit (CPU2, P3) goes by it: the initials would be alike
                digit = tag[len(tag) - 2]
                p.char(digit if 48 <= digit <= 57 else tag[0], tx, ty, _RED if away >> i & 1 else SLOT)
                tx += CHAR_W if room == 1 else 2 * CHAR_W
        else:
            tx = p.text(tag, tx, ty, _RED if away >> i & 1 else SLOT)  # (red: away)
        if score < 0:
            tx = p.text(b"-", tx, ty, colour)
            score = -score
        p.number(score, tx, ty, colour)
    return True


def score_head(view):
    """How far a narrow corner's rows lie under its top: a line for its "Score" (or "Moves"),
    or none where the word is wider than the corner or a row a player under it would run off
    the screen (three and four players at 128x64)."""
    x, y, w = view.slots.status
    rows = view.game.players if view.game.COMPETITIVE else 1
    return LINE_H if w >= 5 * CHAR_W - 1 and y + LINE_H * rows + CHAR_H <= view.screen.height else 0


def status_reach(view):
    """How far down the status line's words may reach: three lines (a narrow corner's name
    and two players), or its name and a row a player."""
    reach = score_head(view) + LINE_H * view.game.players
    return reach if reach > 3 * LINE_H else 3 * LINE_H


def score_chars(score):
    """How many characters a score takes: its digits, and its minus sign."""
    n = 2 if score < 0 else 1
    if score < 0:
        score = -score
    while score >= 10:
        score //= 10
        n += 1
    return n


def tag_room(game, tags, width):
    """How much of each player's name a narrow score corner `width` pixels wide shows, so that
    every row's name and score fit it: WHOLE ("CPU 12"), else 2, its initial and a space
    ("C 150"), else 1, the initial alone ("C-150"), else 0, no name (the rows stay in seat
    order). The same for every row, so that they read alike."""
    most = 0  # the longest score, and the longest name with its space
    name = 0
    for i in range(game.players):
        n = score_chars(game.score(i))
        if n > most:
            most = n
        if len(tags[i]) > name:
            name = len(tags[i])
    room = (width + 1) // CHAR_W  # characters in the corner
    if name + most <= room:
        return WHOLE
    if 2 + most <= room:
        return 2
    return 1 if 1 + most <= room else 0


def draw_turn(view, drawn=-1):
    """A turn-based game's mark of whose turn it is, for as long as it lasts ("Your turn",
    "Their turn"), beside the rightmost foundation in the middle of its height; drawn unless
    `drawn` says it shows already. Returns it: 0 none (the game over), 1 this console's turn,
    2 the other's."""
    game = view.game
    turn = 0
    if game.status() == PLAYING:
        turn = 1 if game.turn() == view.hand.seat else 2
    if turn == drawn:
        return turn
    slots = view.slots
    st = slots.style
    tx = 0
    ty = 0
    for k in range(len(slots.foundations)):
        s = slots.slot_of[slots.foundations[k]]
        if slots.x[s] >= tx:
            tx = slots.x[s]
            ty = slots.y[s]
    tx += st.w + 6
    ty += (st.h - 2 * LINE_H) // 2 + 1
    view.fb.fill_rect(tx, ty, 30, 2 * LINE_H, FELT)
    view.screen.mark(tx, ty, 30, 2 * LINE_H)
    if turn:
        p = view.painter
        p.text(b"Your" if turn == 1 else b"Their", tx, ty, GOLD if turn == 1 else WHITE)
        p.text(b"turn", tx, ty + LINE_H, GOLD if turn == 1 else WHITE)
    return turn


def draw_wild(view, st, x, y, rank):
    """A wild king on a stack built from the ace: the rank it stands for, in a black tag
    at the card's foot."""
    p = view.painter
    w = 13 if rank == 9 else 7
    tx = x + st.w - w - 2
    ty = y + st.h - LINE_H
    if ty < y:  # a card lower than the tag (13x9): the tag over its suit and the card's right
        ty = y  # edge, clear of the king's K (a pixel to the left, it cut the K's last column)
        tx = x + st.w - w if st.w > w else x
    view.fb.fill_rect(tx, ty, w, LINE_H - 1, BLACK)
    if rank == 9:
        p.char(49, tx + 1, ty + 1, WHITE)
        p.char(48, tx + 7, ty + 1, WHITE)
    else:
        p.char(RANK_CHARS[rank], tx + 1, ty + 1, WHITE)
