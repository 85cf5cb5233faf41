// Loading an OpenAlex snapshot (openalex-snapshot.ts reads its layout): per entity, the partitions
// not loaded yet, oldest first, each file through the ingestion loop (runner.ts, with its
// checkpoints: a run killed mid-file resumes there); then the merged-ids files not applied yet; then,
// once for the whole run, the metrics of the authors touched and the group authors' links. The next
// run reads only the partitions not loaded yet, and the newest one loaded again if a later release
// gave it other files (a release taken during a day): incremental by `updated_date`, as OpenAlex
// publishes it (a changed record leaves its old partition for the day it changed).
import type { CommandContext } from '../../infra/cli/command.ts';
import type { Database } from '../../infra/db/index.ts';
import { errors } from '../../infra/errors.ts';
import { recordKinds } from '../openalex/entities.ts';
import { afterIngest } from './ingest.ts';
import { ingestFile, type FileReport, type IngestOptions } from './runner.ts';
import { applyMerges, readMergedIds } from '../openalex/merged-ids.ts';
import {
  listMergedIdFiles,
  listPartitions,
  readManifest,
  snapshotDataDir,
  SNAPSHOT_ENTITIES,
  type ManifestEntry,
  type Partition,
  type SnapshotEntity,
} from '../openalex/openalex-snapshot.ts';

export interface ManifestReport {
  /** Files the manifest lists under the partitions on disk. */
  files_listed: number;
  /** Listed but not on disk (a sync not finished): their partitions are not marked loaded. */
  files_missing: string[];
  /** On disk but not listed (loaded all the same). */
  files_unlisted: string[];
  /** Files read in full this run whose records and bad lines differ from the manifest's count. */
  record_count_mismatches: Array<{ file: string; listed: number; read: number }>;
}

export interface EntityReport {
  entity: SnapshotEntity;
  partitions: number;
  /** Dates of the partitions read this run (new, republished, or not finished before). */
  partitions_loaded: string[];
  partitions_unchanged: number;
  files: FileReport[];
  records: number;
  bad_count: number;
  /** Null when the entity has no manifest. */
  manifest: ManifestReport | null;
  merged_id_files_applied: string[];
  merged_ids_read: number;
  /** Merged ids that were in the corpus: deleted (works) or folded into their survivor. */
  merged_in_corpus: number;
}

export interface SnapshotReport {
  data_dir: string;
  entities: EntityReport[];
  records: number;
  bad_count: number;
  authors_recomputed: number;
  group_authors_relinked: number;
}

export interface SnapshotOptions extends IngestOptions {
  entities?: readonly SnapshotEntity[];
  batchSize: number;
}

/** What identifies one copy of a partition: its files' names and sizes. */
function fingerprint(partition: Partition): string[] {
  return partition.files.map((f) => `${f.name}:${f.size}`);
}

async function loadedPartitions(db: Database, entity: SnapshotEntity): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ day: string; files: string[] }>(
    `SELECT to_char(updated_date, 'YYYY-MM-DD') AS day, files FROM openalex_partitions WHERE entity = $1`,
    [entity],
  );
  return new Map(rows.map((r) => [r.day, r.files]));
}

/** A file this run need not read again: an earlier, interrupted run of its partition finished it. */
async function finishedBefore(db: Database, entity: SnapshotEntity, file: string, size: number) {
  const { rows } = await db.query<{ lines_done: number }>(
    `SELECT lines_done FROM ingest_checkpoints
      WHERE file_key = $1 AND completed AND file_size = $2`,
    [`${entity}:${file}`, size],
  );
  return rows[0] ? Number(rows[0].lines_done) : null;
}

function checkManifest(
  manifest: ManifestEntry[],
  partitions: Partition[],
): Omit<ManifestReport, 'record_count_mismatches'> & { incomplete: Set<string> } {
  const onDisk = new Set(partitions.flatMap((p) => p.files.map((f) => f.name)));
  const listed = new Set(manifest.map((e) => e.name));
  const missing = manifest.filter((e) => !onDisk.has(e.name)).map((e) => e.name);
  // A partition with a listed file not on disk is incomplete: loaded as far as it is here, but not
  // marked, so the next run reads it again once the sync has finished.
  const incomplete = new Set(missing.map((name) => name.split('/')[0]!.replace('updated_date=', '')));
  return {
    files_listed: manifest.length,
    files_missing: missing,
    files_unlisted: [...onDisk].filter((name) => !listed.has(name)),
    incomplete,
  };
}

async function loadEntity(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  dataDir: string,
  entity: SnapshotEntity,
  options: SnapshotOptions,
): Promise<EntityReport> {
  const { db } = ctx;
  const partitions = await listPartitions(dataDir, entity);
  const manifest = await readManifest(dataDir, entity);
  const checked = manifest ? checkManifest(manifest, partitions) : null;
  const listedRecords = new Map(manifest?.map((e) => [e.name, e.records]) ?? []);
  const loaded = await loadedPartitions(db, entity);
  const highWater = [...loaded.keys()].sort().at(-1) ?? '';
  const report: EntityReport = {
    entity,
    partitions: partitions.length,
    partitions_loaded: [],
    partitions_unchanged: 0,
    files: [],
    records: 0,
    bad_count: 0,
    manifest: null,
    merged_id_files_applied: [],
    merged_ids_read: 0,
    merged_in_corpus: 0,
  };
  const mismatches: ManifestReport['record_count_mismatches'] = [];
  const kind = recordKinds[entity];
  for (const partition of partitions) {
    const files = fingerprint(partition);
    const before = loaded.get(partition.updatedDate);
    // A partition loaded before is read again only if it is the newest loaded (or newer) and its
    // files changed: a release can add records to the day it was taken on. An older one that changed
    // has only lost records, those changed since, which are in a newer partition.
    if (before && (partition.updatedDate < highWater || before.join('\n') === files.join('\n'))) {
      report.partitions_unchanged++;
      continue;
    }
    let records = 0;
    for (const file of partition.files) {
      const done = before ? null : await finishedBefore(db, entity, file.path, file.size);
      if (done !== null) {
        report.files.push({
          file: file.path,
          resumed_from_line: done,
          lines: done,
          records: 0,
          bad_count: 0,
          bad_records: [],
          initial_load: false,
        });
        continue;
      }
      const fileReport = await ingestFile(
        ctx,
        kind as (typeof recordKinds)['works'],
        file.path,
        options.batchSize,
        options,
      );
      report.files.push(fileReport);
      records += fileReport.records;
      report.records += fileReport.records;
      report.bad_count += fileReport.bad_count;
      const listed = listedRecords.get(file.name);
      const read = fileReport.records + fileReport.bad_count;
      if (listed != null && fileReport.resumed_from_line === 0 && listed !== read) {
        mismatches.push({ file: file.name, listed, read });
      }
    }
    report.partitions_loaded.push(partition.updatedDate);
    if (checked?.incomplete.has(partition.updatedDate)) continue;
    await db.query(
      `INSERT INTO openalex_partitions (entity, updated_date, files, records) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity, updated_date) DO UPDATE SET files = $3, records = $4, loaded_at = now()`,
      [entity, partition.updatedDate, files, records],
    );
  }
  if (checked) {
    const { incomplete: _incomplete, ...rest } = checked;
    report.manifest = { ...rest, record_count_mismatches: mismatches };
  }
  await applyMergedIds(db, dataDir, entity, report);
  return report;
}

async function applyMergedIds(db: Database, dataDir: string, entity: SnapshotEntity, report: EntityReport) {
  const { rows } = await db.query<{ day: string }>(
    `SELECT to_char(merge_date, 'YYYY-MM-DD') AS day FROM openalex_merged_id_files WHERE entity = $1`,
    [entity],
  );
  const applied = new Set(rows.map((r) => r.day));
  for (const file of await listMergedIdFiles(dataDir, entity)) {
    if (applied.has(file.mergeDate)) continue;
    let ids = 0;
    let merged = 0;
    // Each chunk is a transaction of its own and applying one again changes nothing: a run killed
    // midway applies the file again from its start.
    for await (const chunk of readMergedIds(file.path)) {
      ids += chunk.length;
      merged += await applyMerges(db, entity, chunk);
    }
    await db.query(
      `INSERT INTO openalex_merged_id_files (entity, merge_date, ids, merged) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity, merge_date) DO NOTHING`,
      [entity, file.mergeDate, ids, merged],
    );
    report.merged_id_files_applied.push(file.mergeDate);
    report.merged_ids_read += ids;
    report.merged_in_corpus += merged;
  }
}

export async function ingestSnapshot(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  root: string,
  options: SnapshotOptions,
): Promise<SnapshotReport> {
  const dataDir = await snapshotDataDir(root);
  if (!dataDir) {
    throw errors.validation(
      `No OpenAlex snapshot under ${root}: expected a folder such as works/updated_date=YYYY-MM-DD/ there, or under data/ or data/jsonl/`,
    );
  }
  const wanted = options.entities ?? SNAPSHOT_ENTITIES;
  const entities: EntityReport[] = [];
  for (const entity of SNAPSHOT_ENTITIES) {
    if (wanted.includes(entity)) entities.push(await loadEntity(ctx, dataDir, entity, options));
  }
  const after = await afterIngest(
    ctx.db,
    entities.some((e) => e.files.some((f) => f.initial_load)),
  );
  return {
    data_dir: dataDir,
    entities,
    records: entities.reduce((n, e) => n + e.records, 0),
    bad_count: entities.reduce((n, e) => n + e.bad_count, 0),
    ...after,
  };
}
