

async def test_a_move_the_rules_refuse_gives_way_to_the_easy_move(tmp_path, caplog):
    storage = await Storage.open(tmp_path / "t.db")
    thinking = Thinking(0, thinker=thinking_stubs.illegal)
    host = Host(storage, NullDelivery(), ai_delay=0.0, thinking=thinking, job_poll=0.05)
    try:
        await ai_move_after(host, 0.0)  # the AI moved all the same
        assert "was refused" in caplog.text and "playing the easy move" in caplog.text
    finally:
        await host.close()
        await storage.close()


def test_the_ai_workers_setting():
    from bot.settings import Settings, SettingsError

    nowhere = Path("/nonexistent")
    assert Settings.load({}, nowhere).ai_workers is None  # one per core
    assert Settings.load({"ADMIRALTY_AI_WORKERS": "0"}, nowhere).ai_workers == 0
    assert Settings.load({"ADMIRALTY_AI_WORKERS": " 3 "}, nowhere).ai_workers == 3
    for bad in ("-1", "65", "two", "1.5"):
        with pytest.raises(SettingsError, match="ADMIRALTY_AI_WORKERS"):
            Settings.load({"ADMIRALTY_AI_WORKERS": bad}, nowhere)
    assert Thinking(None).workers >= 1 and Thinking(0).workers == 0
