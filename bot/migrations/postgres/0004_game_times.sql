-- 0004: when a game started and when it ended (the end-of-game summary shows its duration).
-- Older games keep NULL in both: the summary then counts from created_at to updated_at.

ALTER TABLE games ADD COLUMN started_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN finished_at DOUBLE PRECISION;
