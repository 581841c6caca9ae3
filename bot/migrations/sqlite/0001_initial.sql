-- 0001: the first schema of Admiralty.
-- Applied by bot/storage.py (SqliteStorage) inside one transaction, together with PRAGMA user_version = 1.
-- Times are unix seconds (REAL). Discord ids (snowflakes) fit in INTEGER. JSON columns hold text.

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,                       -- NULL only for games outside a server
    channel_id   INTEGER NOT NULL,              -- the channel where the game was created
    thread_id    INTEGER,                       -- the thread the game plays in, if it made one
    game_key     TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed         INTEGER NOT NULL,
    host_id      INTEGER,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),   -- number of accepted actions
    state        TEXT    CHECK (state IS NULL OR json_valid(state)), -- snapshot, NULL in the lobby
    deadline     REAL,                          -- turn deadline, NULL = none
    reminded     INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),  -- half-time reminder sent
    turn_timeout REAL    CHECK (turn_timeout IS NULL OR turn_timeout > 0),
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    result       TEXT    CHECK (result IS NULL OR json_valid(result))
);

-- At most one active (lobby or running) game per place; the place of a game is its thread if it
-- has one, else its channel. A game that moves into its own thread frees its parent channel.
CREATE UNIQUE INDEX games_one_active_per_place
    ON games (coalesce(thread_id, channel_id))
    WHERE status IN ('lobby', 'running');

CREATE INDEX games_status ON games (status);
CREATE INDEX games_guild_status ON games (guild_id, status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  INTEGER,                           -- NULL for an AI seat that never had a player
    is_ai    INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    name     TEXT    NOT NULL,
    dm_ok    INTEGER CHECK (dm_ok IS NULL OR dm_ok IN (0, 1)),  -- NULL = not checked yet
    missed   INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0),   -- consecutive missed turns
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE INDEX seats_user ON seats (user_id);

-- Append-only log of accepted actions: seq runs 1..version of the game.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL CHECK (json_valid(action)),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_append_only
    BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- Discord messages the host keeps editing: kind is 'lobby', 'board', 'turn', 'dm:<seat>', ...
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
