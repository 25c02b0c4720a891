-- Every index on turns is written twice a turn (its row starts 'running' and is updated at the
-- end). turns_by_instance (instance) WHERE status = 'running' serves every query on running
-- turns, so this one only cost writes. PostgreSQL has the one index only.
DROP INDEX turns_running;
