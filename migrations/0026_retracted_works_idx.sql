-- The referee finder asks which of a few hundred candidates have a retracted work; starting from the
-- (few) retracted works is far cheaper than reading every work of every candidate.
CREATE INDEX IF NOT EXISTS works_retracted_idx ON works (id) WHERE is_retracted;
