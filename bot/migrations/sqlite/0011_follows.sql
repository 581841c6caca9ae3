-- 0011: spectators who follow a game (issue 20): one row per (game, member). A follower gets a DM when
-- the game ends and, with every_move, one per turn; the rows of a game go when it ends (after the end
-- DM) or with the game. dm_ok: 0 once Discord refused a DM to them (then none is tried again for this
-- game); dm_channel_id: their DM channel (no create-DM call per DM); seen_version: the game version
-- their last per-turn DM showed (a process claims a version for a follower by raising it: each turn's
-- DM goes out once, whichever of several processes publishes it).

CREATE TABLE follows (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    every_move    INTEGER NOT NULL DEFAULT 0 CHECK (every_move IN (0, 1)),
    dm_ok         INTEGER NOT NULL DEFAULT 1 CHECK (dm_ok IN (0, 1)),
    dm_channel_id INTEGER,
    seen_version  INTEGER NOT NULL DEFAULT 0 CHECK (seen_version >= 0),
    created_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
