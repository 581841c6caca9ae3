"""History, replays and exports (issue 13): storage.history on both backends, the replay's frames drawn
from public views only (the final reveal at the end), the GIF's size bound, the export format and the
offline `python -m bot replay` round trip."""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from bot import history, replay, study, ui
from bot.__main__ import main
from bot.games import registry
from bot.games.base import canonical
from bot.games.names import fill_names
from bot.games.phrase import Phrase
from bot.i18n import PSEUDO, Speaker
from rendering import replay as anim
from tests.games.playouts import ai_played

GUILD = 777


def _play(key: str, options: dict, seed: int, players: int = 2) -> tuple:
    return ai_played(key, seed, players=players, options=options)


def _record(key, options, seed, names=("alice", "bob")):
    game, actions, events = _play(key, options, seed, len(names))
    rec = replay.Record(5, key, game.options, seed, list(names), actions, game.result, True)
    return game, rec, events


# ----- storage ------------------------------------------------------------------------------------
async def _past(
    storage,
    *,
    channel,
    thread=None,
    guild=GUILD,
    seats=(("alice", 1), ("bob", 2)),
    status="finished",
    started=True,
    result=None,
):
    gid = await storage.create_game(
        guild_id=guild,
        channel_id=channel,
        thread_id=thread,
        game_key="enemy-lines",
        options={},
        seed=1,
        host_id=seats[0][1],
    )
    for name, uid in seats:
        await storage.add_seat(gid, user_id=uid, is_ai=uid is None, name=name)
    if started:
        await storage.start_game(gid, json.dumps({"players": len(seats)}))
        await storage.set_status(gid, status, result=result if status == "finished" else None)
    else:
        await storage.set_status(gid, "abandoned")
    return gid


async def test_history_of_a_channel_and_of_a_member_newest_first_paged(storage):
    a = await _past(storage, channel=10, result={"winners": [0]})
    b = await _past(
        storage, channel=10, thread=11, seats=(("carol", 3), ("alice", 1)), result={"winners": [1]}
    )
    c = await _past(storage, channel=10, status="abandoned")
    await _past(storage, channel=10, started=False)  # a cancelled lobby: not a past game
    await _past(storage, channel=20, seats=(("bob", 2), ("Nelson (AI)", None)), result={"winners": [1]})
    await _past(storage, channel=10, guild=GUILD + 1)  # another server
    running = await storage.create_game(
        guild_id=GUILD, channel_id=10, game_key="enemy-lines", options={}, seed=1, host_id=1
    )
    here = await storage.history(GUILD, place=10)
    assert [e.game_id for e in here] == [
        c,
        b,
        a,
    ]  # newest first; the lobby, running game, other server left out
    assert running not in [e.game_id for e in here]
    assert here[1].names == ("carol", "alice") and here[1].user_ids == (3, 1) and here[1].thread_id == 11
    assert here[0].status == "abandoned" and here[2].result == {"winners": [0]}
    assert [e.game_id for e in await storage.history(GUILD, place=11)] == [b]  # inside the thread
    alice = await storage.history(GUILD, user_id=1)
    assert [e.game_id for e in alice] == [c, b, a]
    assert len(await storage.history(GUILD, user_id=2)) == 3  # bob: a, c and the game in channel 20
    assert [e.game_id for e in await storage.history(GUILD, place=10, offset=1, limit=1)] == [b]
    assert await storage.history(GUILD, user_id=99) == []
    with pytest.raises(ValueError):
        await storage.history(GUILD)


async def test_history_page_text_and_paging(storage):
    ids = [
        await _past(storage, channel=10, result={"winners": [i % 2]}) for i in range(history.PAGE_SIZE + 2)
    ]
    text, rows, more = await history.history_page(storage, GUILD, "c", 10, 0, "<#10>")
    assert more and len(rows) == history.PAGE_SIZE and rows[0].game_id == ids[-1]
    assert "Past games in <#10>" in text and f"`#{ids[-1]}` **Enemy Lines**" in text
    assert "alice, bob" in text and ("won by alice" in text and "won by bob" in text)
    text, rows, more = await history.history_page(storage, GUILD, "c", 10, 1, "<#10>")
    assert not more and [r.game_id for r in rows] == [ids[1], ids[0]]
    text, rows, more = await history.history_page(storage, GUILD, "m", 5, 0, "<@5>")
    assert rows == [] and "none yet" in text


async def test_replay_load_refuses_games_not_finished_or_of_another_server(storage):
    done = await _past(storage, channel=10, result={"winners": [0]})
    gone = await _past(storage, channel=10, status="abandoned")
    running = await storage.create_game(
        guild_id=GUILD, channel_id=30, game_key="enemy-lines", options={}, seed=1, host_id=1
    )
    for gid, guild, words in (
        (gone, GUILD, "was abandoned"),
        (running, GUILD, "is not over yet"),
        (done, GUILD + 1, "no game"),
        (2**70, GUILD, "no game"),
    ):
        with pytest.raises(replay.ReplayError, match=words):
            await replay.load(storage, gid, guild)
    record = await replay.load(storage, done, GUILD)
    assert record.finished and record.names == ["alice", "bob"] and record.actions == []


async def test_stored_game_replays_to_its_snapshot(storage):
    game, actions, _ = _play("enemy-lines", {"quick-setup": True}, 4)
    spec = registry.get("enemy-lines")
    gid = await storage.create_game(
        guild_id=GUILD, channel_id=10, game_key="enemy-lines", options=game.options, seed=4, host_id=1
    )
    for name, uid in (("alice", 1), ("bob", 2)):
        await storage.add_seat(gid, user_id=uid, is_ai=False, name=name)
    live = spec.new(2, game.options, 4)
    await storage.start_game(gid, live.to_json())
    for n, (seat, action) in enumerate(actions):
        live.apply(seat, action)
        over = n == len(actions) - 1
        await storage.record_action(
            gid,
            expected_version=n,
            seat=seat,
            action=action,
            state_json=live.to_json(),
            status="finished" if over else "running",
            result=live.result if over else None,
        )
    record = await replay.load(storage, gid, GUILD)
    made = replay.replay(record, max_frames=6)
    assert made.game.to_json() == (await storage.get_game(gid)).state_json
    assert made.frame_count == 6 and made.frame_moves[0] == 0 and made.frame_moves[-1] == len(actions)


# ----- replay ---------------------------------------------------------------------------------------
def test_replay_frames_are_drawn_from_the_spectator_view_only(monkeypatch):
    game, rec, events = _record("enemy-in-sight", {}, 2)
    cls = type(game)
    seen = []
    real = cls.view

    def spy(self, seat):
        seen.append(seat)
        return real(self, seat)

    monkeypatch.setattr(cls, "view", spy)
    drawn = []
    import rendering

    real_render = rendering.render
    monkeypatch.setattr(
        rendering, "render", lambda key, view, names=None: drawn.append(view) or real_render(key, view, names)
    )
    made = replay.replay(rec, max_frames=5)
    assert seen and set(seen) == {None}  # never a seat's view
    assert len(drawn) == 5 and all("hand" not in v for v in drawn[:-1])
    assert "hands" in drawn[-1] and drawn[-1]["reveal"]  # the end: what the rules reveal
    assert made.game.to_json() == game.to_json()


def test_replay_log_has_public_texts_only_and_reveals_hands_at_the_end():
    game, rec, events = _record("enemy-in-sight", {}, 2)
    made = replay.replay(rec, max_frames=3)
    body, _, end = made.log.partition("Revealed at the end:")
    private = {e["text"] for e in events if "private_to" in e and e.get("text")}
    public = {e["text"] for e in events if "private_to" not in e and e.get("text")}
    assert private and not any(
        p.replace("⟨0⟩", "alice").replace("⟨1⟩", "bob") in body for p in private - public
    )
    assert "⟨" not in made.log and "alice" in body and "Result: won by" in body
    hands = [[c["name"] for c in game.view(p)["hand"]] for p in (0, 1)]
    assert end.strip().splitlines() == [
        f"{n}'s hand at the end: " + (", ".join(h) if h else "no cards")
        for n, h in zip(("alice", "bob"), hands, strict=True)
    ]


@pytest.mark.parametrize(
    "key,options",
    [
        ("enemy-lines", {"quick-setup": True}),
        ("warships", {"quick-setup": True}),
        ("everrain", {"length": "short"}),
    ],
)
def test_final_reveal_of_games_with_nothing_more_to_show_is_the_spectator_view(key, options):
    game, _, _ = _play(key, options, 3)
    assert canonical(game.final_reveal()) == canonical(game.view(None))


@pytest.mark.parametrize("key", registry.keys())
def test_final_reveal_shows_nothing_before_the_end(key):
    spec = registry.get(key)
    game = spec.new(max(2, spec.min_players), {}, 1)
    assert canonical(game.final_reveal()) == canonical(game.view(None))


def test_replay_gif_stays_under_the_limit_and_800_px():
    game, rec, _ = _record("enemy-lines", {"quick-setup": True}, 3)
    made = replay.replay(rec, max_frames=12)
    gif = Image.open(io.BytesIO(made.animation))
    assert gif.format == "GIF" and gif.n_frames == 12 and gif.width <= 800
    assert len(made.animation) < 10 * 1024 * 1024
    assert all(Image.open(io.BytesIO(p)).width <= 800 for p in made.frames)
    small = replay.replay(rec, max_frames=12, max_bytes=120_000)
    assert len(small.animation) <= 120_000
    assert Image.open(io.BytesIO(small.animation)).n_frames < 12  # frames left out to fit


def test_animation_holds_the_last_frame_longer():
    frames = [Image.new("RGB", (40, 30), (i * 40, 0, 0)) for i in range(4)]
    gif = Image.open(io.BytesIO(anim.animate(frames)))
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations == [anim.FRAME_MS] * 3 + [anim.LAST_MS]


def test_pick_spreads_frames_and_keeps_first_and_last():
    assert anim.pick(5, 10) == [0, 1, 2, 3, 4]
    picked = anim.pick(100, 10)
    assert len(picked) == 10 and picked[0] == 0 and picked[-1] == 99


# ----- export ---------------------------------------------------------------------------------------
def test_export_round_trips_through_the_cli(tmp_path, capsys):
    game, rec, _ = _record("warships", {"quick-setup": True}, 6)
    path = tmp_path / "game-5.json"
    path.write_bytes(replay.export_json(rec))
    doc = json.loads(path.read_text())
    assert doc["format"] == replay.FORMAT and doc["version"] == replay.FORMAT_VERSION and doc["seed"] == 6
    assert doc["players"] == ["alice", "bob"] and doc["result"] == game.result and doc["game"] == "warships"
    assert len(doc["actions"]) == len(rec.actions)
    out = tmp_path / "out"
    assert main(["replay", str(path), "--out", str(out), "--max-frames", "4"]) == 0
    assert (out / "final.json").read_text() == game.to_json()
    assert sorted(p.name for p in out.glob("frame-*.png")) == [f"frame-{i:03d}.png" for i in range(4)]
    assert Image.open(out / "replay.gif").n_frames == 4 and "Result: won by" in (out / "log.txt").read_text()
    assert "4 frames" in capsys.readouterr().out


def test_export_reader_refuses_bad_files(tmp_path, capsys):
    _, rec, _ = _record("enemy-lines", {"quick-setup": True}, 3)
    good = replay.export_doc(rec)
    bad = [
        b"not json",
        json.dumps({**good, "format": "x"}),
        json.dumps({**good, "version": 99}),
        json.dumps({**good, "game": "chess"}),
        json.dumps({**good, "players": ["solo"]}),
        json.dumps({**good, "seed": "1"}),
        json.dumps({**good, "actions": [{"seat": "0", "action": {}}]}),
    ]
    for data in bad:
        with pytest.raises(replay.ReplayError):
            replay.read_export(data)
    wrong = {**good, "actions": [{"seat": 1, "action": {"type": "nonsense"}}]}
    with pytest.raises(replay.ReplayError, match="move 1 does not replay"):
        replay.replay(replay.read_export(json.dumps(wrong)))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good, "version": 99}))
    assert main(["replay", str(path), "--out", str(tmp_path / "o")]) == 2
    assert "format version" in capsys.readouterr().err


# ----- ids ------------------------------------------------------------------------------------------
def test_history_replay_and_export_ids_are_strict():
    assert ui.parse_history(ui.history_id("c", 12, 3)) == ("c", 12, 3)
    assert ui.parse_history(ui.history_id("m", 12, 0)) == ("m", 12, 0)
    for forged in ("adm:hist:x:1:0", "adm:hist:c:1²:0", "adm:hist:c:1:0:9", f"adm:hist:c:{2**64}:0"):
        assert ui.parse_history(forged) is None
    assert ui.parse_game_value("42") == 42
    for forged in ("4²", "-1", "", "1" * 20, None):
        assert ui.parse_game_value(forged) is None
    assert ui.REPLAY_RE.fullmatch(ui.replay_id(9)) and ui.EXPORT_RE.fullmatch(ui.export_id(9))
    import re

    other = re.compile(ui.OTHER_ANY)
    for ours in (ui.history_id("c", 1, 0), ui.HISTORY_OPEN, ui.replay_id(1), ui.export_id(1)):
        assert not other.fullmatch(ours)
    for forged in ("adm:hist:c:x:0", "adm:hopen:1", "adm:replay:x", "adm:export:1:2"):
        assert other.fullmatch(forged)


# ----- the reader's language (issue 21) -----------------------------------------------------------
def test_replay_log_in_polish_says_the_head_the_moves_and_the_result_in_polish():
    game, rec, events = _record("enemy-lines", {"quick-setup": True}, 3)
    polish = Speaker("pl")
    made = replay.plan(rec, 10, polish)
    head, players, *_ = made.log.splitlines()
    assert head == f"Admiralty — {polish.say(Phrase(made.title))}, gra #5", head
    assert (
        players.startswith("Gracze (na obrazkach każdy jest odznaką") and "1 Niebieski koło: alice" in players
    )
    said = [
        fill_names(polish.say(e["text"]), ["alice", "bob"])
        for e in events
        if "private_to" not in e and e.get("text")
    ]
    english = [
        fill_names(str(e["text"]), ["alice", "bob"])
        for e in events
        if "private_to" not in e and e.get("text")
    ]
    assert said and all(s in made.log for s in said)
    assert any(s != e for s, e in zip(said, english, strict=True))  # the moves' words are Polish
    assert "\nWynik: zwycięża " in made.log and "Result:" not in made.log, made.log[-300:]


def test_replay_captions_in_polish_are_move_numbers_the_font_lacks_polish_letters():
    _, rec, _ = _record("enemy-lines", {"quick-setup": True}, 3)
    made = replay.replay(rec, max_frames=6, speaker=Speaker("pl"))
    assert made.numbered and made.captions[0] == [f"0/{made.moves}"]
    assert all(
        len(c) == 1 and c[0] == f"{m}/{made.moves}"
        for m, c in zip(made.frame_moves, made.captions, strict=True)
    )
    english = replay.replay(rec, max_frames=6)
    assert not english.numbered and english.captions[0] == ["Start of the game"]
    assert english.captions[1][0].startswith("Move ")


def test_replay_captions_in_words_where_the_font_draws_the_language():
    """Italian words without accents are drawn as they are said; one letter the font lacks (the
    pseudo-locale's accents) makes the whole replay's captions move numbers."""
    shots = [(0, [Phrase("Start of the game")]), (1, [Phrase("Move {n} of {total}", n=1, total=2)])]
    said, worded = replay.drawn_captions(shots, 2, Speaker("it"))
    assert worded and said == [["Inizio della partita"], ["Mossa 1 di 2"]]
    said, worded = replay.drawn_captions(shots, 2, Speaker(PSEUDO))
    assert not worded and said == [["0/2"], ["1/2"]]


def test_replay_log_in_the_pseudo_locale_leaves_no_english():
    _, rec, _ = _record("enemy-lines", {"quick-setup": True}, 3)
    made = replay.plan(rec, 10, Speaker(PSEUDO))
    text = made.log.replace("alice", " ").replace("bob", " ").replace("Admiralty", " ")
    left = re.findall(r"\b[A-Za-z]{2,}\b", re.sub(r"\b[A-Z]\d+\b", " ", text))
    assert not left, left[:20]


def test_study_frames_say_their_move_lines_and_alt_text_in_polish_and_the_pseudo_locale():
    _, rec, _ = _record("enemy-lines", {"quick-setup": True}, 3)
    english, polish = study.frame(rec, 3), study.frame(rec, 3, Speaker("pl"))
    assert english.lines[0].startswith("Move ") and polish.lines[0].startswith("Ruch "), polish.lines
    assert polish.alt and polish.alt != english.alt and len(polish.alt) <= 400
    pseudo = study.frame(rec, 3, Speaker(PSEUDO))
    words = " ".join([*pseudo.lines, pseudo.alt]).replace("alice", " ").replace("bob", " ")
    left = re.findall(r"\b[A-Za-z]{2,}\b", re.sub(r"\b[A-Z]\d+\b", " ", words))
    assert not left, left[:20]


def test_the_studys_start_is_the_first_position_not_the_lobbys_start_button():
    """ "Start" is two words in the catalogues: the lobby's button (pl "Rozpocznij") and the position
    before the first move (pl "Początek"), which the study's heading and "Go to move…" say."""
    _, rec, _ = _record("enemy-lines", {"quick-setup": True}, 3)
    polish = Speaker("pl")
    first = study.frame(rec, 0, polish)
    assert study.heading(first, polish).startswith("Początek · ")
    assert study.go_to_steps(rec, first, polish)[0] == (0, "Początek")
    assert polish.gettext("Start") == "Rozpocznij"  # the button keeps its word
    assert study.go_to_steps(rec, study.frame(rec, 0))[0] == (0, "Start")
