-- 0013: AI levels (issue 22). An AI seat's level: 'easy', 'normal' or 'hard', chosen when the host adds
-- it to the lobby. NULL for a seat stored before levels, and for a seat an AI took over from its player
-- (resigned, missed turns): such a seat plays at bot.ai_seats.UNSET_LEVEL.

ALTER TABLE seats ADD COLUMN ai_level TEXT CHECK (ai_level IN ('easy', 'normal', 'hard'));
