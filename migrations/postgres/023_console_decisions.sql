-- Where a request for approval was decided (issue 28): the platform's buttons ('discord', 'slack',
-- 'terminal') or the operator's console ('console'). NULL: nobody decided (it timed out or
-- expired), or it was decided before this was recorded.
ALTER TABLE approvals ADD COLUMN decided_via TEXT;
