-- What has been loaded from an OpenAlex snapshot (corpus/ingest-snapshot.ts), so that the next run
-- reads only what is new: each `updated_date` partition with the files it had when it was loaded
-- (the newest, republished with other files, is loaded again), and each merged-ids file applied.
CREATE TABLE IF NOT EXISTS openalex_partitions (
  entity text NOT NULL,
  updated_date date NOT NULL,
  -- The partition's files, `name:size`, sorted: what identifies this copy of the partition.
  files text[] NOT NULL,
  records bigint NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entity, updated_date)
);

CREATE TABLE IF NOT EXISTS openalex_merged_id_files (
  entity text NOT NULL,
  merge_date date NOT NULL,
  ids integer NOT NULL,
  merged integer NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entity, merge_date)
);
