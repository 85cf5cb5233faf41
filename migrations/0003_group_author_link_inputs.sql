-- What the linker last saw of a group author (corpus/linking.ts linkInputsHash): a hash of name,
-- emails, ORCIDs, articles and affiliations, set whenever the linker evaluates the row and cleared
-- by any write that changes those inputs and by every ingest. A write whose inputs hash equals it
-- leaves the link as it is, without re-running the linker.
ALTER TABLE group_authors ADD COLUMN IF NOT EXISTS link_inputs_hash text;
