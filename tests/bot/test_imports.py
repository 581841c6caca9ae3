"""/game import's checker (bot/imports.py), its storage on both backends (bot/storage/imports.py) and
the step-through's positions (bot/study.py): a valid export is accepted and round-trips; any tamper
of a byte or a field is refused or changes nothing; illegal moves, foreign files, unfinished games and
changed rules are refused with the reason; the step-through shows public views only, the reveal last."""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import imports, ratings, replay, study, ui
from bot.games import registry
from bot.games.base import canonical
from bot.games.names import fill_names
from bot.storage import Storage, replay_matches
from bot.storage.imports import ImportCapReached
from tests.games.playouts import ai_played

GUILD = 4242


def _record(key="enemy-lines", options=None, seed=3, names=("alice", "bob"), game_id=12):
    game, actions, _ = ai_played(key, seed, players=len(names), options=options or {"quick-setup": True})
    return game, replay.Record(game_id, key, game.options, seed, list(names), actions, game.result, True)


@pytest.fixture(scope="module")
def valid():
    """A valid export of a finished Enemy Lines game (bytes) and its game."""
    game, record = _record()
    return imports.export_json(record, "Fake Guild"), game


def _same_game(a: imports.Checked, b: imports.Checked) -> bool:
    ra, rb = a.record, b.record
    return (
        (ra.game_key, canonical(ra.options), ra.seed, ra.names, canonical(ra.actions), canonical(a.result))
        == (rb.game_key, canonical(rb.options), rb.seed, rb.names, canonical(rb.actions), canonical(b.result))
        and a.state_json == b.state_json
        and a.origin == b.origin
        and a.source_id == b.source_id
    )


def _refused(data, match: str | None = None):
    with pytest.raises(imports.ImportRefused, match=match) as e:
        imports.check(data if isinstance(data, bytes) else json.dumps(data).encode())
    return str(e.value)


# ----- the checker --------------------------------------------------------------------------------
def test_a_valid_export_is_accepted_with_its_final_state_result_and_origin(valid):
    data, game = valid
    checked = imports.check(data)
    assert checked.state_json == game.to_json() and checked.result == game.result
    assert checked.origin == {"app": "Admiralty", "server": "Fake Guild"} and checked.source_id == 12
    doc = json.loads(data)
    assert doc["final"] == imports.sha256(game.to_json()) and doc["digest"] == imports.document_digest(doc)


def test_an_export_without_digests_is_checked_by_its_replay_alone(valid):
    doc = json.loads(valid[0])
    del doc["digest"], doc["final"], doc["origin"]
    checked = imports.check(json.dumps(doc).encode())
    assert checked.state_json == valid[1].to_json() and checked.origin == {}


def test_an_illegal_move_is_refused_naming_the_move(valid):
    doc = json.loads(valid[0])
    del doc["digest"]
    doc["actions"][4] = {"seat": doc["actions"][4]["seat"], "action": {"type": "nonsense"}}
    assert "Move 5 does not replay" in _refused(doc)
    doc["actions"][4]["seat"] = 7
    assert "Action 5 is made by seat 7" in _refused(doc)


def test_a_changed_field_is_refused_by_the_digest(valid):
    doc = json.loads(valid[0])
    doc["players"] = ["alice", "mallory"]
    _refused(doc, "digest does not match")


def test_foreign_files_are_refused_with_the_reason(valid):
    doc = json.loads(valid[0])
    assert "not a JSON file" in _refused(b"\x89PNG\r\n\x1a\n not an export")
    assert "not an Admiralty game export" in _refused({"format": "other-bot", "moves": []})
    assert "unknown game 'chess'" in _refused({**doc, "game": "chess"})
    assert "format version 2" in _refused({**doc, "version": 2})
    assert "larger than 2 MiB" in _refused(b" " * (imports.MAX_IMPORT_BYTES + 1))


def test_an_unfinished_game_a_wrong_result_or_changed_rules_are_refused(valid):
    doc = json.loads(valid[0])
    del doc["digest"]
    cut = {**doc, "actions": doc["actions"][:-3]}
    del cut["final"]
    assert "do not finish the game" in _refused(cut)
    assert "no result" in _refused({**cut, "result": None})
    assert "records the result" in _refused({**doc, "result": {"winners": []}})
    assert "rules of Enemy Lines may have changed" in _refused({**doc, "final": "0" * 64})
    extra = {**doc, "actions": [*doc["actions"], doc["actions"][-1]]}
    del extra["final"]
    assert "comes after the game was over" in _refused(extra)


def test_hostile_names_and_origins_are_refused(valid):
    doc = json.loads(valid[0])
    del doc["digest"]
    assert "name is empty" in _refused({**doc, "players": ["alice", "b\u202eob"]})
    assert '"origin"' in _refused({**doc, "origin": {"server": "x" * 500}})
    assert '"origin"' in _refused({**doc, "origin": ["Fake Guild"]})
    assert "seed is out of range" in _refused({**doc, "seed": 2**64, "final": None})


def test_a_game_ended_by_a_resignation_is_accepted_with_its_result():
    spec = registry.get("enemy-lines")
    game = spec.new(2, {"quick-setup": True}, 9)
    actions = []
    for _ in range(4):
        seat = game.to_act()[0]
        action = game.ai_action(seat, __import__("random").Random(1))
        game.apply(seat, action)
        actions.append((seat, action))
    actions.append((0, {"host": "resign", "name": "alice", "user_id": 1}))
    result = {"winners": [1], "resigned": [0], "reason": "alice resigned"}
    record = replay.Record(3, "enemy-lines", game.options, 9, ["alice", "bob"], actions, result, True)
    checked = imports.check(imports.export_json(record, None))
    assert checked.result == result and checked.state_json == game.to_json()
    wrong = replay.export_doc(replay.Record(3, "enemy-lines", game.options, 9, ["alice", "bob"], actions,
                                            {"winners": [0], "resigned": [0]}, True))  # fmt: skip
    assert "resignation of seat 1" in _refused(wrong)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_single_byte_tamper_is_refused_or_yields_the_identical_game(valid, data):
    raw, _ = valid
    original = imports.check(raw)
    at = data.draw(st.integers(0, len(raw) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != raw[at]))
    tampered = raw[:at] + bytes([byte]) + raw[at + 1 :]
    try:
        checked = imports.check(tampered)
    except imports.ImportRefused:
        return
    assert _same_game(checked, original)


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, (*path, i))
    yield path


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_field_tamper_or_removal_is_refused_or_yields_the_identical_game(valid, data):
    raw, _ = valid
    original = imports.check(raw)
    doc = json.loads(raw)
    path = data.draw(st.sampled_from(list(_leaves(doc))))
    value = data.draw(JSON)
    if path == ():
        doc = value
    else:
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        if data.draw(st.booleans()):
            del parent[path[-1]]  # a field (or an element) left out
        else:
            parent[path[-1]] = value
    try:
        checked = imports.check(json.dumps(doc).encode())
    except imports.ImportRefused:
        return
    assert _same_game(checked, original)


# ----- storage: both backends ---------------------------------------------------------------------
async def _import(storage, checked: imports.Checked, *, cap=imports.IMPORTS_PER_DAY, now=None):
    return await imports.store(
        storage, checked, guild_id=GUILD, channel_id=10, thread_id=None, by=5, cap=cap, now=now
    )


async def test_an_imported_game_is_stored_whole_and_round_trips_to_the_same_export(storage, valid):
    raw, game = valid
    checked = imports.check(raw)
    gid = await _import(storage, checked)
    row, seats = await storage.load_table(gid)
    assert row.status == "finished" and row.guild_id == GUILD and row.channel_id == 10
    assert row.state_json == game.to_json() and row.version == len(checked.record.actions)
    assert [(s.name, s.user_id) for s in seats] == [("alice", None), ("bob", None)]
    assert replay_matches(row, await storage.actions(gid), seats=seats)
    # listed in the channel's history, marked imported; a member's history does not hold it
    (entry,) = await storage.history(GUILD, place=10)
    assert entry.game_id == gid and entry.result["imported"]["origin"]["server"] == "Fake Guild"
    assert await storage.history(GUILD, user_id=5) == []
    # never rated: not now, nor by a restart's pass over unrated games
    assert gid not in await storage.unrated_games()
    assert not await ratings.rate_game(storage, gid) and not await storage.is_rated(gid)
    # export -> import -> export: the same document
    record = await replay.load(storage, gid, GUILD)
    assert imports.export_json(record, "Another Server") == raw
    assert imports.origin_text(imports.imported_of(record)) == "Admiralty on Fake Guild, game #12"


async def test_imports_are_capped_per_server_per_utc_day(storage, valid):
    checked = imports.check(valid[0])
    day = time.mktime((2026, 11, 26, 12, 0, 0, 0, 0, 0)) - time.timezone
    for _ in range(2):
        await _import(storage, checked, cap=2, now=day)
    with pytest.raises(ImportCapReached):
        await _import(storage, checked, cap=2, now=day + 3600)
    assert await storage.imports_today(GUILD, day) == 2
    assert len(await storage.history(GUILD, place=10)) == 2  # the refused one wrote nothing
    await _import(storage, checked, cap=2, now=day + 86400)  # the next UTC day
    assert await storage.imports_today(GUILD, day + 86400) == 1
    assert await storage.get_meta(f"imports:{GUILD}:2026-11-26") is None  # earlier days' counts go


# ----- the step-through ---------------------------------------------------------------------------
def test_study_steps_show_the_spectator_view_and_the_reveal_only_at_the_end():
    game, record = _record("warships", {"quick-setup": True}, 6)
    steps = study.step_count(record)
    assert steps == len(record.actions) + 2
    start = study.frame(record, 0)
    spec = registry.get("warships")
    assert start.view == spec.new(2, record.options, 6).view(None) and start.move == 0
    for n in (1, 7, len(record.actions)):
        rebuilt = spec.new(2, record.options, 6)
        for seat, action in record.actions[:n]:
            rebuilt.apply(seat, action)
        shown = study.frame(record, n)
        assert shown.view == rebuilt.view(None) and not shown.final and shown.move == n
        assert shown.lines and all("⟨" not in line for line in shown.lines)
    last = study.frame(record, steps - 1)
    assert last.final and last.view == game.final_reveal() and last.lines[0].startswith("Result: won by")
    assert study.frame(record, 10**6).step == steps - 1 and study.frame(record, -5).step == 0


def test_study_never_shows_a_private_text_or_a_hand_before_the_end():
    game, actions, events = ai_played("enemy-in-sight", 2, players=2)
    record = replay.Record(5, "enemy-in-sight", game.options, 2, ["alice", "bob"], actions, game.result, True)
    private = {e["text"] for e in events if "private_to" in e and e.get("text")}
    public = {e["text"] for e in events if "private_to" not in e and e.get("text")}
    secret = [fill_names(t, ["alice", "bob"], markdown=True) for t in private - public]
    assert secret
    last = study.step_count(record) - 1
    for step in range(0, last, max(1, last // 40)):
        shown = study.frame(record, step)
        assert not shown.final and "hand" not in shown.view  # a seat's view has its hand; this has none
        assert not any(s in line for s in secret for line in shown.lines), (step, shown.lines)
        assert not any("hand at the end" in line for line in shown.lines)
    end = study.frame(record, last)
    assert end.final and any("hand at the end" in line for line in end.lines)


async def test_imports_at_once_past_the_cap_store_exactly_the_cap(storage, valid):
    checked = imports.check(valid[0])
    results = await asyncio.gather(
        *(_import(storage, checked, cap=3) for _ in range(6)), return_exceptions=True
    )
    stored = [r for r in results if isinstance(r, int)]
    assert len(stored) == 3 and all(isinstance(r, ImportCapReached) for r in results if r not in stored)
    assert await storage.imports_today(GUILD) == 3 and len(await storage.history(GUILD, place=10)) == 3


async def test_an_imported_game_and_the_days_count_survive_a_restart(db_target, valid):
    checked = imports.check(valid[0])
    async with await Storage.open(db_target) as first:
        gid = await _import(first, checked)
    async with await Storage.open(db_target) as again:
        record = await replay.load(again, gid, GUILD)
        assert imports.export_json(record, None) == valid[0]
        assert await again.imports_today(GUILD) == 1


def test_go_to_move_finds_each_move_and_offers_at_most_25_distinct_entries():
    _, record = _record()
    assert study.step_of_move(record, 0) == 0 and study.step_of_move(record, 5) == 5
    assert study.step_of_move(record, 10**6) == study.step_count(record) - 1
    frame = study.frame(record, 3)
    go = study.go_to_steps(record, frame)
    assert 3 <= len(go) <= 25 and go[0] == (0, "Start") and go[-1][1] == "Final position"
    assert len({s for s, _ in go}) == len(go) and len({label for _, label in go}) == len(go)


def test_study_ids_are_strict_and_routed_to_the_step_through_not_refused_as_foreign():
    other = re.compile(ui.OTHER_ANY)
    for ours in (ui.study_id(5), ui.study_id(5, 12), ui.study_id(ui.MAX_ID, 999999), ui.study_go_id(5)):
        assert ui.STUDY_RE.fullmatch(ours) or ui.STUDY_GO_RE.fullmatch(ours)
        assert not other.fullmatch(ours)
    for forged in ("adm:study:5:1234567", "adm:study:x", "adm:studygo:5:1", "adm:study:5:", "adm:study:٥"):
        assert not ui.STUDY_RE.fullmatch(forged) and not ui.STUDY_GO_RE.fullmatch(forged)
        assert other.fullmatch(forged)  # answered as not one of ours
