-- 0011: spectators who follow a game (issue 20): one row per (game, member). A follower gets a DM when
-- the game ends and, with every_move, one per turn; the rows of a game go when it ends (after the end
-- DM) or with the game. dm_ok: 0 once Discord refused a DM to them (then none is tried again for this
-- game); dm_channel_id: their DM channel (no create-DM call per DM). For a follower of every move:
-- seen_version, the last game version a publish looked at for them (a process claims a version by
-- raising it, so that it is looked at once whichever of several processes publishes it); seen_turn, the
-- seats that were to act then (",0,1,"); turn_began, whether that version began a turn (someone new to
-- act): then, and only then, it is their DM's to tell (one DM a turn, however many steps it has).

CREATE TABLE follows (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    every_move    INTEGER NOT NULL DEFAULT 0 CHECK (every_move IN (0, 1)),
    dm_ok         INTEGER NOT NULL DEFAULT 1 CHECK (dm_ok IN (0, 1)),
    dm_channel_id INTEGER,
    seen_version  INTEGER NOT NULL DEFAULT 0 CHECK (seen_version >= 0),
    seen_turn     TEXT    NOT NULL DEFAULT ',',
    turn_began    INTEGER NOT NULL DEFAULT 0 CHECK (turn_began IN (0, 1)),
    created_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
