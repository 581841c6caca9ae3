-- 0002: a game whose channel (or thread) was deleted is 'suspended': kept, listed, not resumed.
-- PostgreSQL changes the CHECK in place (SQLite has to rebuild the table: ../sqlite/0002).
-- A suspended game is not active: the partial unique index (lobby, running) is unchanged.

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('lobby', 'running', 'finished', 'abandoned', 'suspended'));
