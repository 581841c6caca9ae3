-- 0008: a placeholder on the notify branch only (migration numbers run 1..n without gaps, and 0008 is
-- another part's of issue 20). When that part's 0008 is merged, this file goes.
SELECT 1;
