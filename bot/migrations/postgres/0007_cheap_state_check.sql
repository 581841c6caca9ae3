-- 0007: the games.state CHECK no longer parses the snapshot (as ../sqlite/0007_cheap_state_check.sql,
-- which says why). json_valid(state) parsed the whole snapshot on every move, inside a PL/pgSQL
-- exception block (a subtransaction each time). The new CHECK: a snapshot is one JSON object.
ALTER TABLE games DROP CONSTRAINT games_state_check;
ALTER TABLE games ADD CONSTRAINT games_state_check
    CHECK (state IS NULL OR (left(state, 1) = '{' AND right(state, 1) = '}'));
