-- Takeovers in a row (see migrations/0007_takeovers.sql): lease run-outs since a process
-- last recorded an outcome for the row, so a post that kills every process delivering it is
-- given up instead of retried forever. A constant default adds the column without
-- rewriting the table.
ALTER TABLE outbox ADD COLUMN takeovers INTEGER NOT NULL DEFAULT 0;
