-- Each index below was written at least twice a turn and served nothing the others do not.
-- turns_running: a turn's row starts 'running' and is updated at its end, so a partial index on
-- status = 'running' takes an insert and a delete a turn; turns_by_instance (instance) WHERE
-- status = 'running' serves every query on running turns (PostgreSQL has that one index only).
DROP INDEX turns_running;
-- turn_queue_by_instance: a place is inserted and deleted a turn; the table holds only places
-- of turns waiting or running, so releasing a dead process's places scans a few rows.
DROP INDEX turn_queue_by_instance;
