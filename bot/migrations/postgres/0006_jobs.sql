-- 0006: what happens without a click, as rows any bot process can claim (several processes may share
-- one database): one row per game and kind ('reminder' at half time, 'timeout' at the turn deadline,
-- 'ai' when an AI seat is to move), due at `due` (unix seconds), armed for game version `version`
-- (a job whose game has moved on does nothing). A process claims a due job by setting claimed_by and
-- claimed_until (a lease); when the lease runs out unfinished (the process died), another claims it.
-- The move that changes a game's deadline re-arms its jobs in the same transaction.

CREATE TABLE jobs (
    game_id       BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout', 'ai')),
    due           DOUBLE PRECISION NOT NULL,
    version       INTEGER NOT NULL,
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION,
    PRIMARY KEY (game_id, kind)
);

CREATE INDEX jobs_due ON jobs (due);

-- The running games' timers and AI seats as they stood (an 'ai' job for every game with an AI seat:
-- it does nothing when no AI seat is to move).
INSERT INTO jobs (game_id, kind, due, version)
    SELECT id, 'timeout', deadline, version FROM games
    WHERE status = 'running' AND deadline IS NOT NULL AND deadline < 1e300 AND deadline > -1e300 AND deadline <> 'NaN';
INSERT INTO jobs (game_id, kind, due, version)
    SELECT id, 'reminder', deadline - turn_timeout / 2, version FROM games
    WHERE status = 'running' AND deadline IS NOT NULL AND deadline < 1e300 AND deadline > -1e300 AND deadline <> 'NaN'
      AND reminded = 0 AND turn_timeout IS NOT NULL AND turn_timeout < 1e300 AND turn_timeout <> 'NaN';
INSERT INTO jobs (game_id, kind, due, version)
    SELECT id, 'ai', 0, version FROM games g
    WHERE status = 'running' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_ai = 1);
