"""Fixtures shared by every test directory: the database backends.

``db_target`` is what ``Storage.open`` gets: a SQLite file in tmp_path, or (the ``postgres``
parameter, marked ``postgres``) the URL of a fresh schema (search_path) on a PostgreSQL server
(ADMIRALTY_TEST_DATABASE_URL, or a throw-away server started once per session, so once per
pytest-xdist worker: tests/pg.py; schema names carry the process id).
Without PostgreSQL the postgres parameters are skipped with the reason, unless
ADMIRALTY_REQUIRE_POSTGRES=1 (CI), where they fail. ADMIRALTY_TEST_BACKENDS=sqlite (or postgres)
runs one backend only.

The end-to-end tests (tests/e2e) run the whole bot on ``e2e_database``: a SQLite file, or with
ADMIRALTY_TEST_E2E_BACKEND=postgres a PostgreSQL schema (that run keeps only the tests that use it and
whose storage paths differ by backend, :data:`E2E_ON_POSTGRES`: `make test` runs it after the main run).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import pg  # noqa: E402

_ALL = ("sqlite", "postgres")
BACKENDS = tuple(b for b in _ALL if b in os.environ.get("ADMIRALTY_TEST_BACKENDS", ",".join(_ALL)).split(","))
E2E_BACKEND = os.environ.get("ADMIRALTY_TEST_E2E_BACKEND", "sqlite").strip() or "sqlite"
BACKEND_PARAMS = [pytest.param(b, marks=pytest.mark.postgres) if b == "postgres" else b for b in BACKENDS]


def pytest_configure(config):
    # SIGTERM (a CI job cancelled, `kill`, tests/gate.py passing one on) ends a run the way Ctrl-C does:
    # fixtures are torn down (the PostgreSQL server stops), pytest-xdist stops its workers, and the
    # summary so far is printed. (If the process dies harder, tests/pg.py's watchdog still stops the server.)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


@pytest.fixture(scope="session")
def pg_server():
    """The admin URL of a PostgreSQL server (skips, or fails under ADMIRALTY_REQUIRE_POSTGRES=1)."""
    try:
        url, server = pg.start()
    except pg.Unavailable as err:
        if os.environ.get("ADMIRALTY_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required (ADMIRALTY_REQUIRE_POSTGRES=1) but unavailable: {err}")
        pytest.skip(f"PostgreSQL unavailable: {err}")
    try:
        yield url
    finally:
        if server is not None:
            server.stop()


@pytest.fixture
async def pg_url(pg_server):
    """A fresh schema on the test PostgreSQL server (dropped at the end): a URL for Storage.open."""
    url, name = await pg.create_schema(pg_server)
    try:
        yield url
    finally:
        await pg.drop_schema(pg_server, name)


@pytest.fixture(params=BACKEND_PARAMS)
def backend(request) -> str:
    return request.param


@pytest.fixture
async def db_target(backend, tmp_path, request):
    """What Storage.open takes, for the backend of this parameter: a file path or a URL."""
    if backend == "sqlite":
        yield tmp_path / "admiralty.db"
        return
    server = request.getfixturevalue("pg_server")  # a sync fixture: fine from here
    url, name = await pg.create_schema(server)
    try:
        yield url
    finally:
        await pg.drop_schema(server, name)


@pytest.fixture
async def e2e_database(tmp_path, request):
    """The ADMIRALTY_DB of an end-to-end test's bot (the same for every restart within the test)."""
    if E2E_BACKEND == "sqlite":
        yield tmp_path / "e2e.db"
        return
    server = request.getfixturevalue("pg_server")
    url, name = await pg.create_schema(server)
    try:
        yield url
    finally:
        await pg.drop_schema(server, name)


# The tests `make check` leaves out (marker ``heavy``; `make test` runs them): long loops over many seeded
# games or images, each 1.5 s of CPU or more (measured on main, 2026-11), together two thirds of the CPU
# of everything outside tests/e2e. Listed here, by file or file::function (every parameter), rather than marked in
# each file: the list is the edit loop's budget, and a test renamed away from it only makes that loop slower.
HEAVY = (
    "tests/games/enemy_in_sight/test_contract.py::test_hidden_information_never_leaks",  # 14.5 s
    "tests/games/enemy_in_sight/test_undo.py::test_enemy_in_sight_drawing_a_card_is_not_undoable",  # 8.0 s
    "tests/rendering/test_legible.py::test_images_fit_a_chat_column_and_text_is_legible_at_400px",  # 14 s
    "tests/contract/test_contract.py::test_random_playouts_keep_the_contract",  # 8 s
    "tests/games/warships/test_undo.py::test_warships_plain_move_is_undoable_unless_it_reveals",  # 3.6 s
    "tests/games/enemy_lines/test_undo.py::test_every_enemy_lines_move_is_undoable",  # 3.4 s
    "tests/games/enemy_in_sight/test_contract.py::test_random_playouts_end",  # 3.3 s
    "tests/games/warships/test_props.py::test_no_hidden_data_in_views_or_public_events",  # 3.1 s
    "tests/games/enemy_in_sight/test_advanced_contract.py::test_adv_ai_playouts_end",  # 3.0 s
    "tests/games/enemy_in_sight/test_discord.py::test_two_members_and_two_ai_seats_play_by_hand_menus",  # 3.0 s
    "tests/games/warships/test_ai_render.py::test_ai_beats_random_player",  # 2.8 s
    "tests/bot/test_clicks.py::test_median_move_takes_at_most_two_clicks",  # 4 s
    "tests/games/enemy_in_sight/test_undo.py::test_enemy_in_sight_card_leaving_a_hand_is_not_undoable",  # 2.4 s
    "tests/games/warships/test_ai_render.py::test_no_leak_over_many_seeded_games",  # 2.3 s
    "tests/rendering/test_names_shown.py::test_pictures_draw_no_names_nor_tokens",  # 4.5 s
    "tests/games/warships/test_props.py::test_random_playouts_never_crash_and_end",  # 1.9 s
    "tests/games/warships/test_undo.py::test_warships_attack_reveals_units_and_is_not_undoable",  # 1.7 s
    "tests/games/enemy_in_sight/test_undo.py::test_enemy_in_sight_ship_move_is_undoable",  # 1.7 s
    "tests/bot/test_log_secrets.py::test_log_reveals_no_boarding_card_chosen_in_secret_nor_any_hand",  # 1.6 s
    "tests/bot/test_replay.py::test_export_round_trips_through_the_cli",  # 1.6 s and a subprocess
    "tests/games/everrain/test_render.py::test_render_spectator_and_seat_views_through_a_game",  # 1.5 s
    "tests/bot/test_json_logs.py::test_an_enemy_in_sight_game_logs_json_lines_without_hands_or_secret_choices",
    "tests/games/enemy_in_sight/test_contract.py::test_render_table_and_hand",  # 1.5 s
    # CPU seconds measured on a loaded machine, 2026-11-25 (process and child CPU per test, one process):
    # together 26 s of the edit loop's 91
    "tests/test_wheel.py::test_a_wheel_installed_outside_the_checkout_plays_a_demo_game",  # 3.9 s, subprocesses
    "tests/contract/test_undo_contract.py::test_public_undo_texts_carry_nothing_of_a_secret_move",  # 8.7 s
    "tests/test_gate.py::test_a_failed_first_pass_does_not_hide_the_second_and_both_summaries_end_the_run",  # 2.8 s
    "tests/test_gate.py::test_a_pass_that_collects_no_tests_is_a_failure",  # 1.5 s, a pytest subprocess
    "tests/games/everrain/test_undo.py::test_everrain_crew_move_is_undoable",  # 2.0 s
    "tests/games/enemy_in_sight/test_contract.py::test_ai_beats_random_seats",  # 1.7 s
    "tests/games/warships/test_props.py::test_determinism",  # 1.6 s
    "tests/games/enemy_in_sight/test_contract.py::test_json_round_trip_exact",  # 1.5 s
    "tests/games/enemy_in_sight/test_contract.py::test_host_helpers_labels_and_paths",  # 1.5 s
    "tests/bot/test_cli_settings.py::test_demo_command_writes_pngs_and_score",  # 1.5 s, a subprocess
    "tests/bot/test_replay.py::test_replay_gif_stays_under_the_limit_and_800_px",  # 1.5 s
    # Whole files (every test in them), 2026-11-25 after issue 19, seconds of all their tests with 2
    # workers at load 3: the edit loop's tests had grown to 183 s (100 s of wall time). Pictures of every
    # view of seeded games, replays, the drawing processes, and the fake Discord's own multi-process and
    # rate-limit machinery: each is covered again by `make test`.
    "tests/rendering/test_enemy_in_sight_picture.py",  # 14.6 s
    "tests/rendering/test_replay_frames.py",  # 12.2 s
    "tests/bot/test_drawing.py",  # 10.8 s, worker processes
    "tests/bot/test_multi_process.py",  # 7.3 s, processes
    "tests/bot/test_deserted.py",  # 6.3 s
    "tests/bot/test_no_seat_tokens.py",  # 6.2 s
    "tests/bot/test_log_lines.py",  # 5.1 s
    "tests/fakediscord_tests/test_sharding.py",  # 6.3 s
    "tests/fakediscord_tests/test_rate_limits.py",  # 3.5 s
    "tests/fakediscord_tests/test_limits.py",  # 2.8 s
    "tests/fakediscord_tests/test_faults.py",  # 2.2 s
    "tests/fakediscord_tests/test_subprocess.py",  # 1.9 s, a subprocess bot
    "tests/storage/test_crash.py",  # 1.8 s, SIGKILLed subprocesses
    "tests/bot/test_bad_database.py",  # 2.0 s
    "tests/games/enemy_in_sight/test_texts.py::test_texts_tell_nobody_a_hand_or_a_secret_arrangement",  # 3.1 s
    "tests/contract/test_texts.py::test_counted_nouns_agree_with_their_number_in_every_game",  # 7.8 s
    "tests/games/enemy_in_sight/test_advanced_contract.py::test_adv_host_helpers_labels_and_paths",  # 1.8 s
    "tests/games/enemy_in_sight/test_advanced_contract.py::test_adv_ai_beats_random_seats",  # 1.6 s
    "tests/games/enemy_in_sight/test_advanced_contract.py::test_adv_ai_does_not_shuttle_ships",  # 1.5 s
)


def heavy(nodeid: str) -> bool:
    """Whether `make check` leaves this test out: its file, or its file::function, is in HEAVY."""
    return nodeid.split("::")[0] in HEAVY or nodeid.split("[")[0] in HEAVY


# The end-to-end tests the PostgreSQL pass runs again (by file, or file::function for every parameter). The
# rule: an e2e test runs on PostgreSQL when what it proves depends on the backend's storage paths, that is
# when it exercises one of
#   - several processes or bots over one database, a restart, a SIGKILL mid-write (durability, resume);
#   - transactions at once: racing clicks, a publish grouping moves, a snapshot read while a seat acts;
#   - the scheduler's jobs (claims and leases; LISTEN/NOTIFY on PostgreSQL): AI moves, timers, reminders,
#     stored deadlines;
#   - what the database counts, rewrites or filters: round trips, undo's new versions, move numbers,
#     ratings, history and its channel filter, the public replay's claim;
#   - text stored as players typed it (hostile names: any script, control and zero-width characters).
# The others drive the Discord side (menus, words, pings, REST budgets, 429 storms on webhooks, forged
# ids refused before any read) through the same Storage calls, which tests/storage and tests/bot run on
# both backends in the main pass; on PostgreSQL they proved nothing more and cost half of that pass.
# A new e2e test that stores something in a way of the list above belongs here
# (tests/test_gate.py checks that every entry names a test that exists).
E2E_ON_POSTGRES = (
    # several processes, restarts, kills
    "tests/e2e/test_chaos.py",
    "tests/e2e/test_restart.py",
    "tests/e2e/test_lost_games.py",  # suspended and abandoned games, resumed or not from what is stored
    # transactions at once
    "tests/e2e/test_scenarios.py::test_simultaneous_clicks_apply_exactly_one_action_each_time",
    "tests/e2e/test_scenarios.py::test_a_429_storm_and_a_gateway_reconnect_lose_no_move_and_apply_none_twice",
    "tests/e2e/test_lobby_e2e.py::test_start_racing_cancel_exactly_one_wins_and_the_channel_is_consistent",
    "tests/e2e/test_lobby_e2e.py::test_leave_racing_start_gets_a_clear_reply_not_an_apology",
    "tests/e2e/test_table_e2e.py::test_a_publish_grouping_two_seats_actions_updates_the_table_and_both_dms",
    "tests/e2e/test_my_view_version.py",
    # the scheduler's jobs
    "tests/e2e/test_scenarios.py::test_a_member_plays_against_an_ai_seat_to_the_end",
    "tests/e2e/test_missed_turn_e2e.py",
    "tests/e2e/test_turn_timer_bounds.py",
    "tests/e2e/test_notify_e2e.py::test_quiet_hours_hold_the_alert_until_they_end_and_it_is_sent_once",
    "tests/e2e/test_notify_e2e.py::test_an_alert_held_by_quiet_hours_survives_a_restart_and_is_sent_once",
    "tests/e2e/test_notify_e2e.py::test_the_daily_digest_lists_the_games_waiting_in_every_server_and_comes_once_a_day",
    "tests/e2e/test_notify_e2e.py::test_a_member_whose_dms_are_closed_and_who_chose_dm_gets_the_channel_ping",
    "tests/e2e/test_clocks_e2e.py",  # banks, pauses, extensions and vacations: stored clocks and their jobs
    # what the database counts, rewrites or filters
    "tests/e2e/test_round_trips_e2e.py",
    "tests/e2e/test_undo_e2e.py",
    "tests/e2e/test_move_number_e2e.py",
    "tests/e2e/test_stats_e2e.py",
    "tests/e2e/test_ratings_e2e.py",
    "tests/e2e/test_replay_e2e.py",
    # a member's games everywhere (one query with the snapshots and deadlines) and /stats' channel filter
    "tests/e2e/test_mygames_e2e.py::test_games_lists_every_server_with_whose_turn_links_and_deadlines",
    "tests/e2e/test_mygames_e2e.py::test_stats_and_rules_from_a_dm",
    "tests/e2e/test_import_e2e.py",  # a whole game written at once; the day's cap, compare-and-set
    # text stored as typed
    "tests/e2e/test_hostile_names_e2e.py",
    # follows: stored, claimed once per DM (UPDATE/DELETE … RETURNING), counted with the publish's read
    "tests/e2e/test_follow_e2e.py::test_a_spectator_follows_from_the_table_and_gets_the_end_dm_with_unfollow",
    "tests/e2e/test_follow_e2e.py::test_a_follower_of_every_move_gets_one_dm_per_move_in_spectators_words_and_unfollows_there",
    "tests/e2e/test_follow_e2e.py::test_a_follower_who_closes_their_dms_later_is_not_tried_again",
    "tests/e2e/test_follow_e2e.py::test_slash_follow_and_unfollow",
    "tests/e2e/test_follow_e2e.py::test_a_follow_survives_a_restart_and_its_dm_buttons_still_work",
    # an AI seat's level: stored with the seat (migration 0013), its moves by the jobs, rated per level
    "tests/e2e/test_ai_levels_e2e.py",
)


def on_postgres_too(nodeid: str) -> bool:
    """Whether the e2e test ``nodeid`` is one of :data:`E2E_ON_POSTGRES`."""
    path, _, name = nodeid.split("[")[0].partition("::")
    return path in E2E_ON_POSTGRES or f"{path}::{name}" in E2E_ON_POSTGRES


def pytest_collection_modifyitems(config, items):
    for item in items:
        if heavy(item.nodeid):
            item.add_marker(pytest.mark.heavy)
    if E2E_BACKEND == "sqlite":
        return
    if E2E_BACKEND != "postgres":
        raise pytest.UsageError(f"ADMIRALTY_TEST_E2E_BACKEND must be sqlite or postgres, not {E2E_BACKEND!r}")
    # the PostgreSQL run of the end-to-end tests: only those that store through e2e_database, and of them
    # those whose storage paths differ by backend (E2E_ON_POSTGRES)
    keep = [
        item
        for item in items
        if "e2e_database" in getattr(item, "fixturenames", ()) and on_postgres_too(item.nodeid)
    ]
    dropped = [item for item in items if item not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    for item in keep:
        item.add_marker(pytest.mark.postgres)


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """Every string any renderer draws (``ImageDraw.text``), in order, from the test's start; a test
    that warms caches first clears it."""
    from PIL import ImageDraw

    seen: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        seen.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return seen
