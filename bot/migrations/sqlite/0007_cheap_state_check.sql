-- 0007: the games.state CHECK no longer parses the snapshot. json_valid(state) read the whole snapshot
-- (~20 KB) on every move: about half of a move's time in SQLite (bench/bench_storage.py). The snapshot
-- is only ever written by the code (json.dumps of Game.to_json), every load parses it (a bad one fails
-- loudly, never silently), and the action log, whose small rows keep their json_valid CHECK, rebuilds
-- it (bot.storage.rebuild). The new CHECK stays cheap: a snapshot is one JSON object, so it starts with
-- "{" and ends with "}" (which still catches a snapshot cut short).
-- SQLite cannot change a CHECK constraint in place: the games table is rebuilt as in 0002 (foreign keys
-- are off while migrating). Same columns, same order.

CREATE TABLE games_new (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,                       -- NULL only for games outside a server
    channel_id   INTEGER NOT NULL,              -- the channel where the game was created
    thread_id    INTEGER,                       -- the thread the game plays in, if it made one
    game_key     TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed         INTEGER NOT NULL,
    host_id      INTEGER,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'running', 'finished', 'abandoned', 'suspended')),
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),   -- number of accepted actions
    state        TEXT    CHECK (state IS NULL OR (substr(state, 1, 1) = '{' AND substr(state, -1, 1) = '}')),
                                                -- snapshot (one JSON object), NULL in the lobby
    deadline     REAL,                          -- turn deadline, NULL = none
    reminded     INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),  -- half-time reminder sent
    turn_timeout REAL    CHECK (turn_timeout IS NULL OR turn_timeout > 0),
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    result       TEXT    CHECK (result IS NULL OR json_valid(result)),
    started_at   REAL,
    finished_at  REAL
);

INSERT INTO games_new (id, guild_id, channel_id, thread_id, game_key, options, seed, host_id, status, version,
                       state, deadline, reminded, turn_timeout, created_at, updated_at, result, started_at,
                       finished_at)
SELECT id, guild_id, channel_id, thread_id, game_key, options, seed, host_id, status, version,
       state, deadline, reminded, turn_timeout, created_at, updated_at, result, started_at, finished_at
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

-- The indexes went with the old table.
CREATE UNIQUE INDEX games_one_active_per_place
    ON games (coalesce(thread_id, channel_id))
    WHERE status IN ('lobby', 'running');

CREATE INDEX games_status ON games (status);
CREATE INDEX games_guild_status ON games (guild_id, status);
