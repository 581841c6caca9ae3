-- 0009: turn alerts as each person wants them (/notify; bot/notify.py, bot/storage/notify.py).
-- notify_prefs: one row per person who changed anything (no row: the defaults, a ping in the game's
-- channel as before). Stored by Discord user id, so the same in every server.
-- notify_jobs: what waits for a time, claimed by any bot process with a lease as the jobs table's rows
-- are: an 'alert' held by quiet hours (one per person and game), and each person's daily 'digest'
-- (game_id 0). A process that dies holding one: its lease runs out and another claims it.

CREATE TABLE notify_prefs (
    user_id     BIGINT  PRIMARY KEY,
    route       TEXT    NOT NULL DEFAULT 'channel' CHECK (route IN ('channel', 'dm', 'both', 'none')),
    tz          TEXT    NOT NULL DEFAULT 'UTC' CHECK (length(tz) BETWEEN 1 AND 64),
    quiet_start INTEGER CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439),
    quiet_end   INTEGER CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439),
    heads_up    INTEGER NOT NULL DEFAULT 0 CHECK (heads_up IN (0, 1)),
    digest_at   INTEGER CHECK (digest_at IS NULL OR digest_at BETWEEN 0 AND 1439),
    updated_at  DOUBLE PRECISION    NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
);

CREATE TABLE notify_jobs (
    user_id       BIGINT  NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('alert', 'digest')),
    game_id       BIGINT  NOT NULL DEFAULT 0,   -- the game of an alert; 0 for the digest
    seat          INTEGER,                      -- the seat of an alert
    due           DOUBLE PRECISION NOT NULL,
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION,
    PRIMARY KEY (user_id, kind, game_id),
    CHECK ((kind = 'digest') = (game_id = 0))
);

CREATE INDEX notify_jobs_due ON notify_jobs (due);
