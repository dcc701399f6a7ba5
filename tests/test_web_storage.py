"""The web page's records (web/storage.py): the engine's storage interface on localStorage.
Here on CPython with an object that behaves as localStorage does; tests/test_web.py checks
the real one in a browser."""

from engine_core import games
from engine_core.save import NOTICE_FULL, Keeper
from engine_core.storage import FileStorage
from web.storage import PREFIX, LocalStorage


class Store:
    """getItem / setItem / removeItem over a dict; a quota in characters, as browsers keep."""

    def __init__(self, quota=5_000_000):
        self.items = {}
        self.quota = quota

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
        if used + len(key) + len(value) > self.quota:
            raise RuntimeError("QuotaExceededError")  # what a JavaScript exception becomes
        self.items[key] = value

    def removeItem(self, key):
        self.items.pop(key, None)


def a_game_in_progress():
    game = games.load("aces_up")()
    game.deal(7)
    out = game.scratch
    game.apply(out[0] if game.legal_moves(out) else 0)
    return game


def pile_cards(game):
    piles = game.piles
    return [bytes(piles.cards[piles.start[p]:piles.start[p] + piles.size[p]]) for p in range(piles.count)]


def test_a_record_is_its_file_s_bytes_in_hex_under_the_prefix(tmp_path):
    store = Store()
    web = Keeper(LocalStorage(store))
    disk = Keeper(FileStorage(str(tmp_path)))
    for keeper in (web, disk):
        keeper.start()
        game = a_game_in_progress()
        keeper.started(game)
        keeper.moved(game)
        keeper.save_game(game)
    data = (tmp_path / "game.dat").read_bytes()
    assert store.items[PREFIX + "game.dat"] == data.hex()
    assert PREFIX + "game.new" not in store.items  # written, then renamed over


def test_a_saved_game_resumes_from_local_storage():
    store = Store()
    keeper = Keeper(LocalStorage(store))
    keeper.start()
    game = a_game_in_progress()
    keeper.started(game)
    keeper.moved(game)
    keeper.save_game(game)
    again = Keeper(LocalStorage(store))
    again.start()
    resumed = again.resume()
    assert resumed is not None and resumed.seed == 7
    assert pile_cards(resumed) == pile_cards(game)
    assert again.take_notice() == ""


def test_an_item_that_is_not_hex_is_set_aside_as_a_record_cut_short():
    store = Store()
    store.setItem(PREFIX + "settings.dat", "not hex at all")
    keeper = Keeper(LocalStorage(store))
    keeper.start()
    assert keeper.take_notice() == "Settings: cut short, set aside"
    assert store.getItem(PREFIX + "settings.bad") == "not hex at all"
    assert store.getItem(PREFIX + "settings.dat") is None


def test_a_full_local_storage_is_reported_and_play_goes_on():
    store = Store(quota=200)
    keeper = Keeper(LocalStorage(store))
    keeper.start()
    game = a_game_in_progress()
    keeper.started(game)
    keeper.moved(game)
    keeper.save_game(game)
    assert keeper.take_notice() == NOTICE_FULL
    assert PREFIX + "game.dat" not in store.items and PREFIX + "game.new" not in store.items


class PageStore(Store):
    """The store web/page.js hands the console: its methods never throw; a refusal is the
    error's name as the return value."""

    def setItem(self, key, value):
        try:
            Store.setItem(self, key, value)
        except RuntimeError:
            return "QuotaExceededError"
        return ""

    def removeItem(self, key):
        Store.removeItem(self, key)
        return ""


def test_a_write_the_page_s_store_refuses_is_a_full_filesystem_said_once():
    store = PageStore(quota=3000)
    keeper = Keeper(LocalStorage(store))
    keeper.start()
    store.setItem("other/filler", "x" * (store.quota - sum(len(k) + len(v) for k, v in store.items.items()) - 40))
    game = a_game_in_progress()
    keeper.started(game)
    keeper.moved(game)
    keeper.save_game(game)
    keeper.save_game(game)
    assert [keeper.take_notice(), keeper.take_notice()] == [NOTICE_FULL, ""]


def test_a_damaged_item_too_large_to_set_aside_is_logged_by_its_key_and_removed():
    store = PageStore(quota=50_000)
    store.setItem(PREFIX + "game.dat", "z" * (50_000 - 200))  # damaged, and filling the quota
    logged = []
    keeper = Keeper(LocalStorage(store, log=logged.append))
    keeper.start()
    assert keeper.resume() is None
    assert PREFIX + "game.dat" not in store.items and PREFIX + "game.bad" not in store.items
    assert len(logged) == 1 and PREFIX + "game.dat" in logged[0] and "removed" in logged[0]
    game = a_game_in_progress()  # and the records work again
    keeper.started(game)
    keeper.moved(game)
    assert keeper.save_game(game) == 0
