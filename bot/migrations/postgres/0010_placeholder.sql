-- 0010: a placeholder on the follow branch only, which uses migration 0011 while 0010 belongs to
-- another part of issue 20 (migrations are numbered 1..n without gaps). When merging, this file
-- gives way to that part's own 0010 migration (delete it; if that part brings none, keep it).
SELECT 1;
