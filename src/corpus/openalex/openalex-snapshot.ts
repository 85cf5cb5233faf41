// The OpenAlex snapshot as it is published (docs.openalex.org, "Snapshot data format"): one folder per
// entity, its records split by the date they last changed, `<entity>/updated_date=YYYY-MM-DD/*.gz`
// (gzip JSON lines), a `manifest` per entity listing every data file with its record count (Redshift
// manifest format), and `merged_ids/<entity>/YYYY-MM-DD.csv.gz` naming the ids merged into others.
// This reads that layout; loading is corpus/ingest/snapshot-load.ts.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Entities the corpus keeps, in the order they are loaded. Works first: into an empty corpus they
 * take the initial load (COPY, initial-load.ts), which an author row already there would rule out;
 * each work carries its authors, sources and institutions, which their own records then complete
 * (name variants, ORCID, publisher, country).
 */
export const SNAPSHOT_ENTITIES = ['works', 'authors', 'sources', 'institutions'] as const;
export type SnapshotEntity = (typeof SNAPSHOT_ENTITIES)[number];

export interface PartitionFile {
  path: string;
  /** Relative to the entity's folder, as the manifest names it: `updated_date=2024-01-15/part_000.gz`. */
  name: string;
  size: number;
}

export interface Partition {
  entity: SnapshotEntity;
  /** `YYYY-MM-DD`: every record in it last changed that day. */
  updatedDate: string;
  files: PartitionFile[];
}

/** A file the manifest lists, with the records it says the file holds. */
export interface ManifestEntry {
  name: string;
  records: number | null;
}

export interface MergedIdsFile {
  path: string;
  /** `YYYY-MM-DD`, from the file's name. */
  mergeDate: string;
}

const PARTITION = /^updated_date=(\d{4}-\d{2}-\d{2})$/;
const DATED_FILE = /^(\d{4}-\d{2}-\d{2})\.csv(\.gz)?$/;

async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * The folder holding the entity folders: the snapshot's root may be given as the synced bucket
 * (`openalex-snapshot/`), its `data/`, or, in the layout that also publishes Parquet, `data/jsonl/`.
 * Null when none of them holds an entity folder.
 */
export async function snapshotDataDir(root: string): Promise<string | null> {
  const candidates = [
    path.join(root, 'data', 'jsonl'),
    path.join(root, 'data'),
    path.join(root, 'jsonl'),
    root,
  ];
  for (const dir of candidates) {
    for (const entity of SNAPSHOT_ENTITIES) if (await isDirectory(path.join(dir, entity))) return dir;
  }
  return null;
}

/** The entity's partitions, oldest first, each with its gzip files in name order. */
export async function listPartitions(dataDir: string, entity: SnapshotEntity): Promise<Partition[]> {
  const entityDir = path.join(dataDir, entity);
  if (!(await isDirectory(entityDir))) return [];
  const partitions: Partition[] = [];
  for (const dirent of await readdir(entityDir, { withFileTypes: true })) {
    const date = dirent.isDirectory() ? PARTITION.exec(dirent.name)?.[1] : undefined;
    if (!date) continue;
    const files: PartitionFile[] = [];
    for (const file of await readdir(path.join(entityDir, dirent.name), { withFileTypes: true })) {
      if (!file.isFile() || !file.name.endsWith('.gz')) continue;
      const full = path.join(entityDir, dirent.name, file.name);
      files.push({ path: full, name: `${dirent.name}/${file.name}`, size: (await stat(full)).size });
    }
    files.sort((a, b) => (a.name < b.name ? -1 : 1));
    partitions.push({ entity, updatedDate: date, files });
  }
  return partitions.sort((a, b) => (a.updatedDate < b.updatedDate ? -1 : 1));
}

/**
 * The entity's manifest, or null when there is none. Its entries name files by URL
 * (`s3://openalex/data/works/updated_date=…/part_000.gz`); each becomes the part after the entity's
 * folder, so it compares with `PartitionFile.name` wherever the snapshot was synced to.
 */
export async function readManifest(dataDir: string, entity: SnapshotEntity): Promise<ManifestEntry[] | null> {
  let raw: string;
  try {
    raw = await readFile(path.join(dataDir, entity, 'manifest'), 'utf8');
  } catch {
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${entity}/manifest is not JSON`);
  }
  const entries = (parsed as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) throw new Error(`${entity}/manifest has no "entries" list`);
  return entries.map((entry: { url?: unknown; meta?: { record_count?: unknown } }) => {
    const url = typeof entry.url === 'string' ? entry.url : '';
    const at = url.lastIndexOf(`/${entity}/`);
    const count = entry.meta?.record_count;
    return {
      name: at >= 0 ? url.slice(at + entity.length + 2) : url,
      records: typeof count === 'number' && Number.isFinite(count) ? count : null,
    };
  });
}

/** `merged_ids/<entity>/*.csv.gz`, oldest first. */
export async function listMergedIdFiles(dataDir: string, entity: SnapshotEntity): Promise<MergedIdsFile[]> {
  const dir = path.join(dataDir, 'merged_ids', entity);
  if (!(await isDirectory(dir))) return [];
  const files: MergedIdsFile[] = [];
  for (const name of await readdir(dir)) {
    const date = DATED_FILE.exec(name)?.[1];
    if (date) files.push({ path: path.join(dir, name), mergeDate: date });
  }
  return files.sort((a, b) => (a.mergeDate < b.mergeDate ? -1 : 1));
}
