"""Drawing (bot/drawing.py): each view of a game drawn once and shared, off the event loop in worker
processes that survive a crash and never outlive the bot."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import types
from pathlib import Path

import pytest
from PIL import Image

import rendering
from bot import drawing as drawing_module
from bot import metrics
from bot.delivery import DiscordDelivery
from bot.drawing import Drawing, machine_cores, view_digest
from bot.games import registry
from bot.host import Host, NullDelivery
from bot.settings import Settings, SettingsError
from tests.games.playouts import ai_played
from tests.hosting import start_game

ROOT = Path(__file__).resolve().parents[2]

calls: list[tuple[str, dict, list[str] | None]] = []  # what the counting drawer was asked to draw
calls_lock = threading.Lock()


def counting_draw(game_key: str, view: dict, names: list[str] | None) -> tuple[bytes, float, float]:
    """The real drawing, slowed a little (so that requests overlap) and recorded (thread mode only)."""
    with calls_lock:
        calls.append((game_key, view, names))
    time.sleep(0.02)
    return drawing_module.draw(game_key, view, names)


@pytest.fixture
def counted():
    calls.clear()
    return Drawing(0, drawer=counting_draw)


async def started_game(storage, game_key: str = "enemy-lines", options: dict | None = None, delivery=None):
    host = Host(storage, delivery if delivery is not None else NullDelivery(), ai_delay=0.0)
    options = options if options is not None else {"quick-setup": True}
    return host, await start_game(host, game_key, options=options, seed=7)


async def test_one_view_of_one_version_is_drawn_once_for_every_spectator_status_and_retry(storage, counted):
    host, table = await started_game(storage)
    delivery = DiscordDelivery(None, storage, counted)
    # the table's publish, a dozen spectators' /game status at once, then a retry and a resume
    first = await asyncio.gather(*(delivery.image(table, None) for _ in range(13)))
    again = [await delivery.image(await host.table(table.id), None) for _ in range(2)]
    assert len(calls) == 1 and counted.drawn == 1 and counted.shared == 14
    assert len({*first, *again}) == 1
    assert first[0] == rendering.render("enemy-lines", table.engine.view(None), table.names())
    await host.close()


async def test_a_changed_view_is_drawn_again(storage, counted):
    host, table = await started_game(storage)
    delivery = DiscordDelivery(None, storage, counted)
    before = await delivery.image(table, None)
    seat = table.game.to_act()[0]
    await host.act(table.id, table.seat_row(seat).user_id, table.game.legal_actions(seat)[0], table.version)
    after_table = await host.table(table.id)
    after = await delivery.image(after_table, None)
    assert counted.drawn == 2 and before != after
    assert after == rendering.render("enemy-lines", after_table.engine.view(None), after_table.names())
    await host.close()


async def test_seats_with_different_views_never_share_a_picture(storage, counted):
    # Warships' set-up: each seat sees its own units only (hidden information)
    host, table = await started_game(storage, "warships", {"quick-setup": False})
    delivery = DiscordDelivery(None, storage, counted)
    game = table.engine
    assert game.view(0) != game.view(1)
    pictures = await asyncio.gather(
        delivery.image(table, 0), delivery.image(table, 1), delivery.image(table, None)
    )
    assert counted.drawn == 3 and len(set(pictures)) == 3
    for seat, png in zip((0, 1, None), pictures, strict=True):
        assert png == rendering.render("warships", game.view(seat), table.names())
    drawn_views = [view for _, view, _ in calls]
    assert all(any(v == game.view(seat) for v in drawn_views) for seat in (0, 1, None))
    # asked again, each seat gets its own picture back
    assert await delivery.image(table, 1) == pictures[1] and await delivery.image(table, 0) == pictures[0]
    assert counted.drawn == 3
    await host.close()


class FlakyDelivery(NullDelivery):
    """Shows the table's picture (drawn through ``transport``); its first send fails (Discord away)."""

    def __init__(self, transport, failures: int = 1) -> None:
        super().__init__()
        self.transport = transport
        self.failures = failures
        self.pictures: list[bytes | None] = []

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
        self.pictures.append(await self.transport.image(table, None))
        if self.failures:
            self.failures -= 1
            raise ConnectionResetError("Discord went away")
        await super().publish(table, events, note, actors, vias)


async def test_the_retry_after_a_failed_send_and_the_resume_reuse_the_picture(storage, counted, monkeypatch):
    from bot import publisher

    monkeypatch.setattr(publisher, "RETRY_FIRST_DELAY", 0.05)
    transport = DiscordDelivery(None, storage, counted).transport
    flaky = FlakyDelivery(transport)
    host, _ = await started_game(storage, delivery=flaky)
    assert await wait_for(lambda: any(c[0] == "publish" for c in flaky.calls))
    await host.close()
    # the bot starts again in this process (its drawing kept): the game resumes, its table shown again
    again = FlakyDelivery(transport, failures=0)
    host2 = Host(storage, again, ai_delay=0.0)
    await host2.resume_all()
    assert await wait_for(lambda: any(c[0] == "publish" for c in again.calls))
    await host2.close()
    shown = flaky.pictures + again.pictures
    assert len(shown) == 3 and len(set(shown)) == 1 and shown[0]
    assert counted.drawn == 1 and len(calls) == 1


def test_the_digest_is_of_the_view_and_the_names():
    view = {"board": [[0, 1], [2, 3]], "hand": ["x"]}
    assert view_digest("warships", view, ["A", "B"]) == view_digest(
        "warships", dict(reversed(view.items())), ["A", "B"]
    )
    assert view_digest("warships", view, ["A", "B"]) != view_digest(
        "warships", {**view, "hand": ["y"]}, ["A", "B"]
    )
    assert view_digest("warships", view, ["A", "B"]) != view_digest("warships", view, ["A", "C"])
    assert view_digest("warships", view, None) != view_digest("everrain", view, None)


def test_the_digest_encodes_the_view_once_and_not_with_the_json_module(monkeypatch):
    """A picture's key is one canonical encoding of its view (orjson, keys sorted), not json.dumps:
    asked for every picture a move shows, cached ones included. Same views (keys in any order, int
    or str keys as in JSON) share a digest; any other view, other names or another game do not."""
    import json

    encoded: list[object] = []
    real = drawing_module.orjson.dumps
    monkeypatch.setattr(json, "dumps", lambda *a, **k: pytest.fail("the view was encoded by json.dumps"))
    monkeypatch.setattr(
        drawing_module.orjson, "dumps", lambda obj, **k: encoded.append(obj) or real(obj, **k)
    )
    view = {"scores": {0: 3, 1: 5}, "board": [[0, 1], (2, 3)], "names": "Жора"}
    digest = view_digest("warships", view, ["Ἀλίκη", "B"])
    assert len(encoded) == 1
    assert digest == view_digest(
        "warships", {"names": "Жора", "board": [[0, 1], [2, 3]], "scores": {"1": 5, "0": 3}}, ["Ἀλίκη", "B"]
    )
    assert digest != view_digest("warships", {**view, "scores": {0: 3, 1: 6}}, ["Ἀλίκη", "B"])
    assert digest != view_digest("warships", view, ["Ἀλίκη", "C"])
    assert digest != view_digest("everrain", view, ["Ἀλίκη", "B"])


def test_a_view_beyond_orjson_still_has_a_digest():
    huge = {"seed": 2**70}
    assert view_digest("warships", huge, None) == view_digest("warships", {"seed": 2**70}, None)
    assert view_digest("warships", huge, None) != view_digest("warships", {"seed": 2**70 + 1}, None)


async def test_pictures_of_different_games_are_kept_apart_and_the_cache_forgets_the_oldest():
    calls.clear()
    drawing = Drawing(0, drawer=counting_draw, cache_bytes=1)  # nothing fits: every ask draws
    spec = registry.get("enemy-lines")
    view = spec.new(2, {"quick-setup": True}, 1).view(None)
    await drawing.picture("enemy-lines", view, None, game_id=1)
    await drawing.picture("enemy-lines", view, None, game_id=1)
    assert drawing.drawn == 2
    roomy = Drawing(0, drawer=counting_draw)
    await roomy.picture("enemy-lines", view, None, game_id=1)
    await roomy.picture("enemy-lines", view, None, game_id=2)  # another game: drawn for it
    await roomy.picture("enemy-lines", view, None, game_id=1)
    assert roomy.drawn == 2


async def test_a_drawing_that_fails_gives_none_and_says_why(caplog):
    drawing = Drawing(0)
    with caplog.at_level(logging.ERROR, "admiralty.drawing"):
        assert await drawing.picture("enemy-lines", {"not": "a view"}, None, game_id=5) is None
    assert "could not draw game 5" in caplog.text
    assert drawing.drawn == 0 and not drawing._cache  # not kept: the next ask tries again


async def test_a_failed_drawing_falls_back_to_the_text_board_in_the_table(storage):
    host, table = await started_game(storage)
    no_client = types.SimpleNamespace(
        get_channel=lambda _id: None, get_guild=lambda _id: None
    )  # a channel out of cache: may attach
    delivery = DiscordDelivery(no_client, storage, Drawing(0, drawer=failing_draw))
    view, png = await delivery.table_message.view(table)
    assert png is None
    shown = "\n".join(getattr(item, "content", "") for item in view.walk_children())
    assert table.engine.text_view(table.engine.view(None), table.names()).splitlines()[0] in shown
    await host.close()


def failing_draw(game_key: str, view: dict, names: list[str] | None) -> tuple[bytes, float, float]:
    raise OSError("no space left on device")


# ----------------------------------------------------------------- settings
def test_draw_workers_setting():
    assert Settings.load({}, Path("/nonexistent")).draw_workers is None  # one per core
    assert Settings.load({"ADMIRALTY_DRAW_WORKERS": "0"}, Path("/nonexistent")).draw_workers == 0
    assert Settings.load({"ADMIRALTY_DRAW_WORKERS": " 3 "}, Path("/nonexistent")).draw_workers == 3
    for bad in ("-1", "two", "65", "1.5"):
        with pytest.raises(SettingsError, match="ADMIRALTY_DRAW_WORKERS"):
            Settings.load({"ADMIRALTY_DRAW_WORKERS": bad}, Path("/nonexistent"))
    assert Drawing(None).workers == machine_cores() >= 1
    example = (ROOT / ".env.example").read_text()
    assert (
        "ADMIRALTY_DRAW_WORKERS=" in example and "ADMIRALTY_DRAW_WORKERS" in (ROOT / "README.md").read_text()
    )


# ----------------------------------------------------------------- worker processes
def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is gone too
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def wait_for(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.05)
    return condition()


def enemy_lines_view(seed: int = 1) -> dict:
    return registry.get("enemy-lines").new(2, {"quick-setup": True}, seed).view(None)


async def test_the_pool_draws_in_other_processes_and_stops_them_on_close():
    drawing = Drawing(2, warm=False)
    drawing.start()
    try:
        view = enemy_lines_view()
        png = await drawing.picture("enemy-lines", view, ["Ann", "Bo"], game_id=1)
        assert png == rendering.render("enemy-lines", view, ["Ann", "Bo"])
        assert await wait_for(lambda: len(drawing.worker_pids()) == 2)
        workers = drawing.worker_pids()
        assert os.getpid() not in workers
    finally:
        await drawing.close()
    assert await wait_for(lambda: not any(alive(p) for p in workers))


async def test_a_picture_a_click_waits_for_is_drawn_before_those_queued():
    """``urgent`` (a click's answer: the mover's DM, a table a click waits on) goes before the pictures
    queued so far, and urgent ones keep their order among themselves. One worker, kept busy while the
    calls queue; each call tells the time it ran at (one clock for every process)."""
    from bot.drawing_pool import Workers

    workers = Workers(1)
    try:
        await workers.call(time.monotonic)  # (started)
        busy = asyncio.ensure_future(workers.call(time.sleep, 0.3))
        await asyncio.sleep(0.05)
        later = [asyncio.ensure_future(workers.call(time.monotonic)) for _ in range(2)]
        first = asyncio.ensure_future(workers.call(time.monotonic, urgent=True))
        second = asyncio.ensure_future(workers.call(time.monotonic, urgent=True))
        await busy
        ran = [await f for f in (first, second, *later)]
        assert ran == sorted(ran), ran
    finally:
        await workers.close()


async def test_drawing_in_the_pool_leaves_the_bots_process_free():
    """The drawing's CPU is spent in the workers, not in the bot's process (whose one GIL runs the
    event loop). Measured in CPU time, which the machine's load does not change."""
    drawing = Drawing(1, warm=False)
    drawing.start()
    try:
        views = [enemy_lines_view(seed) for seed in range(7)]
        await drawing.picture("enemy-lines", views[0], None)  # the worker has started, its caches warm
        cpu = time.process_time()
        pictures = await asyncio.gather(*(drawing.picture("enemy-lines", v, None) for v in views[1:]))
        bots = time.process_time() - cpu
        assert all(p and p.startswith(b"\x89PNG") for p in pictures) and drawing.drawn == 7
        workers = drawing.cpu * 6 / 7  # the six drawings'
        assert bots < workers / 4, (bots, workers)
    finally:
        await drawing.close()


async def test_pictures_drawn_in_the_pool_are_counted_with_their_time_and_cpu():
    """The workers' CPU is not the bot process's: the metrics carry it (render_cpu_seconds_total)."""
    drawing = Drawing(1, warm=False)
    drawing.start()
    metrics.disable()
    m = metrics.enable()
    try:
        for seed in (1, 2):
            await drawing.picture("enemy-lines", enemy_lines_view(seed), None)
        await drawing.picture("enemy-lines", enemy_lines_view(2), None)  # shared: not drawn, not counted
        reg = m.registry
        assert reg.get_sample_value("admiralty_render_seconds_count", {"game": "enemy-lines"}) == 2
        cpu = reg.get_sample_value("admiralty_render_cpu_seconds_total", {"game": "enemy-lines"})
        assert cpu == pytest.approx(drawing.cpu) and cpu > 0
    finally:
        metrics.disable()
        await drawing.close()


def crash_module(tmp_path: Path, monkeypatch) -> object:
    """A drawer module the worker processes can import (spawned workers get this sys.path)."""
    (tmp_path / "crashing_drawer.py").write_text(
        textwrap.dedent(
            """
            import os
            from pathlib import Path

            from bot.drawing import draw


            def crash_always(game_key, view, names):
                os._exit(3)


            def hang(game_key, view, names):
                while True:
                    pass


            def crash_once(game_key, view, names):
                marker = Path(view["marker"])
                if not marker.exists():
                    marker.write_text("crashed")
                    os._exit(3)
                return draw(game_key, view["view"], names)
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import crashing_drawer

    return crashing_drawer


async def test_a_worker_that_dies_is_replaced_and_the_picture_drawn_again(tmp_path, monkeypatch, caplog):
    module = crash_module(tmp_path, monkeypatch)
    drawing = Drawing(1, warm=False, drawer=module.crash_once)
    drawing.start()
    try:
        view = enemy_lines_view()
        with caplog.at_level(logging.WARNING, "admiralty.drawing"):
            png = await drawing.picture("enemy-lines", {"marker": str(tmp_path / "m"), "view": view}, None)
        assert png == rendering.render("enemy-lines", view, None)
        assert "died" in caplog.text and (tmp_path / "m").exists()
        # and a worker killed between two drawings (the OOM killer) does not stop the next one
        pids = drawing.worker_pids()
        os.kill(pids[0], signal.SIGKILL)
        assert await wait_for(lambda: not alive(pids[0]))
        again = await drawing.picture(
            "enemy-lines", {"marker": str(tmp_path / "m"), "view": enemy_lines_view(2)}, None
        )
        assert again == rendering.render("enemy-lines", enemy_lines_view(2), None)
    finally:
        await drawing.close()


async def test_a_picture_that_kills_its_worker_twice_gives_the_text_board_and_a_clear_log(
    tmp_path, monkeypatch, caplog
):
    module = crash_module(tmp_path, monkeypatch)
    drawing = Drawing(1, warm=False, drawer=module.crash_always)
    drawing.start()
    try:
        with caplog.at_level(logging.WARNING, "admiralty.drawing"):
            assert await drawing.picture("warships", {"x": 1}, None, game_id=42) is None
        assert "died twice drawing game 42 (warships); showing the text board" in caplog.text
        # the pool is usable again for the next picture
        drawing.drawer = drawing_module.draw
        view = enemy_lines_view()
        assert await drawing.picture("enemy-lines", view, None) == rendering.render("enemy-lines", view, None)
    finally:
        await drawing.close()


async def test_a_drawing_that_never_ends_is_stopped_and_the_text_board_shown(tmp_path, monkeypatch, caplog):
    """A renderer caught in a loop: its worker is stopped after the limit (not tried again, it would
    hang again), a new one takes its place, and the table gets the text board."""
    module = crash_module(tmp_path, monkeypatch)
    drawing = Drawing(1, warm=False, drawer=module.hang, limit=1.0)
    drawing.start()
    try:
        await asyncio.wait_for(_ready(drawing), 30)
        (hung,) = drawing.worker_pids()
        started = time.monotonic()
        with caplog.at_level(logging.WARNING, "admiralty.drawing"):
            assert await drawing.picture("warships", {"x": 1}, None, game_id=42) is None
        assert 1.0 <= time.monotonic() - started < 10, "stopped once, after the limit"
        assert (
            "was stopped after 1 s in hang drawing game 42 (warships); showing the text board" in caplog.text
        )
        assert "trying once more" not in caplog.text
        await asyncio.wait_for(_ready(drawing), 30)
        assert await wait_for(lambda: not alive(hung)) and drawing.worker_pids() != [hung]
        drawing.drawer = drawing_module.draw  # the new worker draws the next picture
        view = enemy_lines_view()
        assert await drawing.picture("enemy-lines", view, None) == rendering.render("enemy-lines", view, None)
    finally:
        await drawing.close()


async def _ready(drawing: Drawing) -> None:
    while len(drawing.worker_pids()) != drawing.workers:
        await asyncio.sleep(0.05)


def test_workers_exit_when_the_bot_is_killed(tmp_path):
    """SIGKILL leaves no cleanup to the bot: its workers notice and exit by themselves."""
    script = textwrap.dedent(
        """
        import asyncio, os, signal, sys
        from bot.drawing import Drawing
        from bot.games import registry

        async def main():
            drawing = Drawing(2, warm=False)
            drawing.start()
            view = registry.get("enemy-lines").new(2, {"quick-setup": True}, 1).view(None)
            await drawing.picture("enemy-lines", view, None)
            while len(drawing.worker_pids()) < 2:
                await asyncio.sleep(0.05)
            print(*drawing.worker_pids(), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    workers = [int(p) for p in done.stdout.split()]
    assert len(workers) == 2
    deadline = time.monotonic() + 10
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in workers)


# ----------------------------------------------------------------- replays
def finished_record(key: str = "enemy-lines", options: dict | None = None, seed: int = 3):
    from bot import replay

    game, actions, _ = ai_played(
        key, seed, players=2, options={"quick-setup": True} if options is None else options
    )
    return replay.Record(9, key, game.options, seed, ["Ann", "Bo"], actions, game.result, True)


async def test_a_replay_through_the_pool_is_the_replay_drawn_here_and_reuses_the_tables_pictures():
    from bot import replay

    record = finished_record()
    here = replay.replay(record, max_frames=10)
    calls.clear()
    drawing = Drawing(0, drawer=counting_draw)
    made = replay.plan(record, 10)
    # the table showed the last positions of the game while it was played (same game, names, views)
    for _, view, _ in made.shots[-4:-1]:
        await drawing.picture(record.game_key, view, record.names, game_id=record.game_id)
    assert drawing.drawn == 3
    pooled = await replay.make(record, drawing, max_frames=10)
    assert drawing.drawn == 10  # 7 more: the table's 3 came from the cache
    assert pooled.animation == here.animation  # the same GIF, byte for byte
    assert [p.size for p in pooled.pictures] == [p.size for p in here.pictures]
    assert pooled.frame_moves == here.frame_moves and pooled.log == here.log
    gif = Image.open(io.BytesIO(pooled.animation))
    assert gif.n_frames == 10 and gif.size == Image.open(io.BytesIO(pooled.frames[-1])).size


async def test_a_replay_is_drawn_by_the_worker_processes():
    from bot import replay

    record = finished_record("enemy-lines", seed=5)
    drawing = Drawing(2, warm=False)
    drawing.start()
    try:
        pooled = await replay.make(record, drawing, max_frames=6)
        assert drawing.drawn == 6 and drawing.worker_pids()
        assert pooled.animation == replay.replay(record, max_frames=6).animation
    finally:
        await drawing.close()


def test_frames_of_a_gif_share_one_size_and_keep_the_backgrounds_colours():
    from rendering import replay as anim
    from rendering import theme

    png = rendering.render("enemy-lines", enemy_lines_view(), None)
    short, tall = ["Start"], ["Final position", "a " * 80, "b " * 80]
    size = max(anim.frame_size(png, short), anim.frame_size(png, tall))
    assert anim.frame(png, tall).size == size == anim.frame(png, short, size=size).size
    padded = anim.frame(png, short, size=size)
    assert padded.getpixel((5, size[1] - 2)) == theme.BG  # under the short caption strip: background
    assert padded.getpixel((5, anim.frame(png, short).height - 2)) == theme.PANEL_DARK
    assert anim.gif_frame(png, short, size).mode == "P"


@pytest.mark.parametrize("game_key", ["enemy-lines", "warships", "everrain", "enemy-in-sight"])
async def test_the_table_builds_the_spectators_view_once(storage, counted, monkeypatch, game_key):
    """The table's message (picture, words, seats' scores, alt text) is built from one spectators'
    view, not one per part (it was built three times a publish); the picture is of that view."""
    host, table = await started_game(storage, game_key, {})
    delivery = DiscordDelivery(
        types.SimpleNamespace(get_channel=lambda _id: None, get_guild=lambda _id: None), storage, counted
    )
    game = table.engine
    real, built = type(game).view, []

    def counting_view(self, seat=None):
        built.append(seat)
        return real(self, seat)

    monkeypatch.setattr(type(game), "view", counting_view)
    _, png = await delivery.table_message.view(table)
    assert built.count(None) == 1
    assert png == rendering.render(game_key, real(game, None), table.names())
    await host.close()


async def test_the_pool_adds_no_thread_to_the_bots_process():
    """The workers' pipes are written and read by the event loop: no manager or feeder thread in the
    bot's process (concurrent.futures' pool had two, each picture handed through them under the GIL)."""
    import threading

    before = {t.ident for t in threading.enumerate()}
    drawing = Drawing(2, warm=False)
    drawing.start()
    try:
        views = [enemy_lines_view(seed) for seed in range(4)]
        pictures = await asyncio.gather(*(drawing.picture("enemy-lines", v, None) for v in views))
        assert pictures == [rendering.render("enemy-lines", v, None) for v in views]
        assert len(drawing.worker_pids()) == 2
        assert {t.ident for t in threading.enumerate()} - before == set()
    finally:
        await drawing.close()


async def test_an_error_in_a_worker_is_raised_in_the_bot_and_the_worker_keeps_drawing(caplog):
    """A drawer that raises: the picture is None (the text board), the log says why, and the same worker
    draws the next picture."""
    drawing = Drawing(1, warm=False)
    drawing.start()
    try:
        with caplog.at_level(logging.ERROR, "admiralty.drawing"):
            assert await drawing.picture("enemy-lines", {"not": "a view"}, None, game_id=7) is None
        assert "could not draw game 7 (enemy-lines)" in caplog.text
        pids = drawing.worker_pids()
        view = enemy_lines_view(3)
        assert await drawing.picture("enemy-lines", view, None) == rendering.render("enemy-lines", view, None)
        assert drawing.worker_pids() == pids
    finally:
        await drawing.close()


def sized(n: int) -> bytes:
    """A worker's answer of ``n`` bytes (module level: a spawned worker imports it)."""
    return bytes(range(256)) * (n // 256)


def test_workers_on_uvloop_pass_messages_larger_than_a_pipes_buffer():
    """uvloop makes a pipe it watches non-blocking; a message written or read in parts must still
    arrive whole (it once failed half way, and the worker was taken for dead)."""
    uvloop = pytest.importorskip("uvloop")
    from bot.drawing_pool import Workers

    async def main() -> None:
        workers = Workers(2, name="test")
        try:
            sizes = [3 << 20, 1 << 20, 200_000, 5] * 3
            answers = await asyncio.gather(*(workers.call(sized, n) for n in sizes))
            assert [len(a) for a in answers] == [n // 256 * 256 for n in sizes]
            assert await workers.call(sized, 10 << 20) == sized(10 << 20)
            assert await workers.call(len, b"x" * (8 << 20)) == 8 << 20  # a call written in parts
            assert len(workers.pids()) == 2
        finally:
            await workers.close()

    uvloop.run(main())
