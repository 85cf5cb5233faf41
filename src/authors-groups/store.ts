// Authors groups and their authors ("author from group", spec 2.1). Every query is scoped by the
// caller's organization, so a group of another organization behaves exactly like a missing one.
import { inTransaction, type Database, type Queryable, type Transaction } from '../infra/db/index.ts';
import {
  countedNameMatches,
  everyWordInFolded,
  type CountedPage,
  type PageRequest,
} from '../infra/db/paging.ts';
import { formatCount } from '../infra/counts.ts';
import { errors, sqlstateOf } from '../infra/errors.ts';
import { formDigest, SEALED_SECRET_MINUTES } from '../infra/form-seal.ts';
import type { CustomValue } from '../custom-fields/values.ts';
import { linkInputsHash, linkWrittenGroupAuthors } from '../corpus/authors/linking.ts';
import { foldersNamingGroup, removeGroupFromFolderSettings } from '../folders/folders.ts';
import { checkLimit, checkRecordsPerGroup } from '../organizations/limits.ts';
import { checkOneLine } from '../infra/one-line-text.ts';

export interface AuthorsGroup {
  group_id: number;
  name: string;
}

function groupName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) {
    throw errors.validation('A group name must have 1 to 200 characters');
  }
  checkOneLine(trimmed, 'A group name');
  return trimmed;
}

/**
 * Two groups of one organization with one name (letter case aside) are two identical checkboxes on
 * a folder's settings and two identical labels on a candidate: refused (409). Groups made before
 * this rule were renamed by migration 0107, whose unique index also refuses two creates at once.
 */
async function refuseTakenName(
  db: Queryable,
  organizationId: number,
  name: string,
  except: number | null,
): Promise<void> {
  const { rows } = await db.query(
    `SELECT 1 FROM authors_groups WHERE organization_id = $1 AND lower(name) = lower($2)
        AND ($3::integer IS NULL OR id <> $3)`,
    [organizationId, name, except],
  );
  if (rows.length > 0) throw takenName(name);
}

const takenName = (name: string) => errors.conflict(`A group named “${name}” already exists`).naming(name);

/**
 * Runs `write` (an insert or rename of a group named `name`); two such writes at once can both pass
 * refuseTakenName, and the second meets the unique index of migration 0107: the same refusal.
 */
async function refusingTakenName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlstateOf(error) === '23505') throw takenName(name);
    throw error;
  }
}

export async function createGroup(
  db: Queryable,
  organizationId: number,
  name: string,
): Promise<AuthorsGroup> {
  const trimmed = groupName(name);
  return inTransaction(db, async (tx) => {
    await checkLimit(
      tx,
      organizationId,
      'authors_groups',
      'SELECT count(*)::integer AS n FROM authors_groups WHERE organization_id = $1',
      [organizationId],
    );
    await refuseTakenName(tx, organizationId, trimmed, null);
    const { rows } = await refusingTakenName(trimmed, () =>
      tx.query<AuthorsGroup>(
        `INSERT INTO authors_groups (organization_id, name) VALUES ($1, $2) RETURNING id AS group_id, name`,
        [organizationId, trimmed],
      ),
    );
    return rows[0]!;
  });
}

/** The organization's group named exactly `name` (letter case too), or null. */
export async function findGroupNamed(
  db: Queryable,
  organizationId: number,
  name: string,
): Promise<AuthorsGroup | null> {
  const { rows } = await db.query<AuthorsGroup>(
    'SELECT id AS group_id, name FROM authors_groups WHERE organization_id = $1 AND name = $2 ORDER BY id LIMIT 1',
    [organizationId, name],
  );
  return rows[0] ?? null;
}

/** Renames one of the organization's groups (its id, the API's group_id, stays). */
export async function renameGroup(
  db: Queryable,
  organizationId: number,
  groupId: number,
  name: string,
): Promise<AuthorsGroup> {
  const trimmed = groupName(name);
  await refuseTakenName(db, organizationId, trimmed, groupId);
  const { rows } = await refusingTakenName(trimmed, () =>
    db.query<AuthorsGroup>(
      `UPDATE authors_groups SET name = $3 WHERE id = $2 AND organization_id = $1 RETURNING id AS group_id, name`,
      [organizationId, groupId, trimmed],
    ),
  );
  if (!rows[0]) throw errors.notFound(`Authors group ${groupId}`);
  return rows[0];
}

/** What deleting a group takes with it: its records, and its place in these folders' settings. */
export interface GroupDeletion extends AuthorsGroup {
  records: number;
  folders: string[];
}

/**
 * The group's size: the count kept on its row in step with every insert and delete (migration 0101),
 * which its records cap counts.
 */
export async function countRecords(db: Queryable, organizationId: number, groupId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT record_count AS n FROM authors_groups WHERE id = $1 AND organization_id = $2',
    [groupId, organizationId],
  );
  return rows[0]?.n ?? 0;
}

/** What `deleteGroup` would take with it now (the dashboard asks with it first). */
export async function groupDeletionPreview(
  db: Queryable,
  organizationId: number,
  groupId: number,
): Promise<GroupDeletion> {
  const group = await requireGroup(db, organizationId, groupId);
  const [records, folders] = await Promise.all([
    countRecords(db, organizationId, groupId),
    foldersNamingGroup(db, organizationId, groupId),
  ]);
  return { ...group, records, folders };
}

/**
 * Deletes one of the organization's groups with its records (their custom values are part of the
 * rows; the foreign key cascades) and takes it out of every folder setting that names it, in one
 * transaction. Afterwards its group_id answers as one that never existed. Candidates stored by past
 * uploads keep the id in their `authors_groups`: they are the answer given then, and readers name a
 * group that is gone without a link.
 */
export async function deleteGroup(
  db: Database,
  organizationId: number,
  groupId: number,
): Promise<GroupDeletion> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<AuthorsGroup>(
      'SELECT id AS group_id, name FROM authors_groups WHERE id = $1 AND organization_id = $2 FOR UPDATE',
      [groupId, organizationId],
    );
    const group = rows[0];
    if (!group) throw errors.notFound(`Authors group ${groupId}`);
    const records = await countRecords(tx, organizationId, groupId);
    const folders = await removeGroupFromFolderSettings(tx, organizationId, groupId);
    await tx.query('DELETE FROM authors_groups WHERE id = $1 AND organization_id = $2', [
      groupId,
      organizationId,
    ]);
    return { ...group, records, folders };
  });
}

export async function listGroups(db: Queryable, organizationId: number): Promise<AuthorsGroup[]> {
  const { rows } = await db.query<AuthorsGroup>(
    'SELECT id AS group_id, name FROM authors_groups WHERE organization_id = $1 ORDER BY id',
    [organizationId],
  );
  return rows;
}

/** The stored fields of an author from group; absent lists are null. */
export interface GroupAuthorRecord {
  name: string;
  emails: string[] | null;
  orcids: string[] | null;
  articles: string[] | null;
  affiliations: string[] | null;
  /** By custom field api_id (author_from_group owner). */
  custom_values: Record<string, CustomValue>;
}

export interface GroupAuthorKey {
  organizationId: number;
  groupId: number;
  clientId: string;
}

export interface StoredGroupAuthor extends GroupAuthorRecord {
  linked_author_id: number | null;
}

function writeParams(key: GroupAuthorKey, record: GroupAuthorRecord, inputsHash: string): unknown[] {
  return [
    key.groupId,
    key.clientId,
    key.organizationId,
    record.name,
    record.emails,
    record.orcids,
    record.articles,
    record.affiliations,
    JSON.stringify(record.custom_values),
    inputsHash,
  ];
}

// Many records of one group in one statement (a record written alone is a batch of one), their
// fields as a JSON array of objects. The hash is kept only when the stored one equals the new one,
// i.e. the linker already evaluated exactly these inputs against the current corpus; otherwise it is
// cleared until the linker runs. A row this statement inserts carries its hash only until the
// linker, which runs for every inserted row in the same transaction (`link_current` is false for
// it), writes it with the link. `inserted`: a row this statement inserted has no deleting
// transaction yet (xmax 0), one it updated has this one's; only an insert counts against the
// group's records cap (limits.ts), so replacing a record of a group at or over its cap goes on.
// A stored record replaced by an identical one is left as it is (no new row version, its updated_at
// kept) unless its link was not evaluated against the current corpus (hash cleared by an ingest),
// which the linker then runs for, as before; `unchanged` says which records were sent as stored:
// the statement's own read of group_authors (`o`) sees the rows as they were before it. The import
// sent twice said "N updated" of the second post though it changed nothing.
// FOR KEY SHARE (the lock the foreign key check takes anyway) taken while reading the group makes a
// write racing the group's deletion wait for it and then find no group (no row: a 404), where the
// foreign key check alone failed it with a 500; a group found with nothing written is one row of
// nulls. A client id given twice in one statement is an error of PostgreSQL's ("cannot affect row a
// second time"): the callers give each once.
const RECORD_CONTENT = (row: string) =>
  `(${['name', 'emails', 'orcids', 'articles', 'affiliations', 'custom_values'].map((c) => `${row}.${c}`).join(', ')})`;
/** The stored record (group_authors) and the one sent (EXCLUDED) differ in what they say. */
const CONTENT_CHANGED = `${RECORD_CONTENT('group_authors')} IS DISTINCT FROM ${RECORD_CONTENT('EXCLUDED')}`;
const UPSERT = `
  WITH g AS (SELECT id, organization_id FROM authors_groups
              WHERE id = $1 AND organization_id = $2 FOR KEY SHARE),
  w AS (
    INSERT INTO group_authors
      (group_id, client_id, organization_id, name, emails, orcids, articles, affiliations, custom_values,
       link_inputs_hash)
    SELECT g.id, r.client_id, g.organization_id, r.name, r.emails, r.orcids, r.articles, r.affiliations,
           r.custom_values, r.link_inputs_hash
      FROM g CROSS JOIN jsonb_to_recordset($3::jsonb) AS r(client_id text, name text, emails text[],
        orcids text[], articles text[], affiliations text[], custom_values jsonb, link_inputs_hash text)
    ON CONFLICT (group_id, client_id) DO UPDATE SET
      name = EXCLUDED.name, emails = EXCLUDED.emails, orcids = EXCLUDED.orcids,
      articles = EXCLUDED.articles, affiliations = EXCLUDED.affiliations,
      custom_values = EXCLUDED.custom_values,
      updated_at = CASE WHEN ${CONTENT_CHANGED} THEN now() ELSE group_authors.updated_at END,
      link_inputs_hash = CASE WHEN group_authors.link_inputs_hash = EXCLUDED.link_inputs_hash
                              THEN EXCLUDED.link_inputs_hash END
    WHERE ${CONTENT_CHANGED}
       OR group_authors.link_inputs_hash IS DISTINCT FROM EXCLUDED.link_inputs_hash
    RETURNING group_id, client_id, linked_author_id, xmax = 0 AS inserted,
              xmax <> 0 AND link_inputs_hash IS NOT NULL AS link_current,
              name, emails, orcids, articles, affiliations, custom_values)
  SELECT w.client_id, w.linked_author_id, w.inserted, w.link_current,
         NOT w.inserted AND ${RECORD_CONTENT('o')} IS NOT DISTINCT FROM ${RECORD_CONTENT('w')} AS unchanged
    FROM g LEFT JOIN (w LEFT JOIN group_authors o ON o.group_id = w.group_id AND o.client_id = w.client_id)
      ON true`;

/**
 * How many records one statement of an import writes, and the linker looks up together, at most: a
 * thousand, and no more than 256 KiB of their fields as JSON (a record at its caps is tens of KB).
 * On PGlite a statement runs on the event loop whole: five thousand a statement held it 140-370 ms
 * of CPU each on a data directory, a 205,823-row import 41 such holds; a thousand holds it ~40 ms
 * (the import's CPU in all some 10-30% more: more statements, the linker asked more often).
 */
const IMPORT_BATCH_RECORDS = 1000;
const IMPORT_BATCH_BYTES = 256 * 1024;

/**
 * The one way a group author is written inside a transaction (partial update, and create or
 * replace via `writeGroupAuthor`). Returns false when the group is not one of the organization's.
 * The record is (re)linked to the corpus in the same transaction unless its linking inputs are
 * those the linker last evaluated.
 */
export async function saveGroupAuthor(
  tx: Transaction,
  key: GroupAuthorKey,
  record: GroupAuthorRecord,
): Promise<boolean> {
  return (await upsertGroupAuthors(tx, key, [sentRow(key.clientId, record)])) !== null;
}

/** A record as the write statement is sent it: its linking inputs' hash, and its fields as JSON. */
interface SentRow {
  clientId: string;
  record: GroupAuthorRecord;
  inputsHash: string;
  json: string;
}

/** A record to write, serialized once: an import batches by the JSON's length and sends that JSON. */
function sentRow(clientId: string, record: GroupAuthorRecord): SentRow {
  const inputsHash = linkInputsHash(record);
  const json = JSON.stringify({
    client_id: clientId,
    name: record.name,
    emails: record.emails,
    orcids: record.orcids,
    articles: record.articles,
    affiliations: record.affiliations,
    custom_values: record.custom_values,
    link_inputs_hash: inputsHash,
  });
  return { clientId, record, inputsHash, json };
}

/**
 * Writes records of one group (each client id once) by one statement, checks the group's records
 * cap if any was added, and links those whose linking inputs changed, together. How many were
 * added, replaced by a record that differs, and sent as stored; null when the group is not one of
 * the organization's.
 */
async function upsertGroupAuthors(
  tx: Transaction,
  group: { organizationId: number; groupId: number },
  rows: readonly SentRow[],
): Promise<ImportCounts | null> {
  if (rows.length === 0) return { added: 0, updated: 0, unchanged: 0 };
  const { rows: answered } = await tx.query<{
    client_id: string | null;
    linked_author_id: number | null;
    inserted: boolean;
    link_current: boolean;
    unchanged: boolean;
  }>(UPSERT, [group.groupId, group.organizationId, `[${rows.map((row) => row.json).join(',')}]`]);
  if (answered.length === 0) return null;
  const written = answered.filter((w) => w.client_id !== null);
  const added = written.filter((w) => w.inserted).length;
  const updated = written.filter((w) => !w.inserted && !w.unchanged).length;
  if (added > 0) await checkRecordsPerGroup(tx, group.groupId);
  const outcome = new Map(written.map((w) => [w.client_id, w]));
  const stale = rows.flatMap(({ clientId, record, inputsHash }) => {
    const w = outcome.get(clientId);
    // Not written: sent as stored, its link evaluated on these inputs against the current corpus.
    if (!w || w.link_current) return [];
    const row = { ...record, group_id: group.groupId, client_id: clientId };
    return [{ ...row, linked_author_id: w.linked_author_id, inputsHash }];
  });
  await linkWrittenGroupAuthors(tx, stale);
  return { added, updated, unchanged: rows.length - added - updated };
}

/** What an import did: records new to the group, replaced by one that differs, and sent as stored. */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
}

/**
 * Writes many records of one group in one transaction, each as a create or replace (4.2) does
 * (`saveGroupAuthor`'s statement, at most a thousand records a statement: the records cap after
 * each, the linking of each statement's records together): all are written or none. The counts say how many were
 * new, how many replaced a stored record that differs, and how many were sent as stored. A client id
 * given twice is refused (400) before anything is written.
 */
export async function importGroupAuthors(
  db: Database,
  group: { organizationId: number; groupId: number },
  rows: ReadonlyArray<{ clientId: string; record: GroupAuthorRecord }>,
): Promise<ImportCounts> {
  refuseRepeatedClientIds(rows);
  return db.transaction((tx) => writeImportedRows(tx, group, rows));
}

/** What a dashboard form's import did, and whether an earlier send of the same form did it. */
export type FormImport = ImportCounts & { repeated: boolean };

/**
 * An import sent by a dashboard form: `formValue` is the form's one-time value (form-seal.ts), and
 * the same form sent again, after or while the first send is answered, writes nothing: it is answered
 * with the counts the first send wrote, for SEALED_SECRET_MINUTES (past them, it imports again, as
 * `importGroupAuthors` does). The database keeps the value's digest only.
 */
export async function importGroupAuthorsFromForm(
  db: Database,
  group: { organizationId: number; groupId: number },
  rows: ReadonlyArray<{ clientId: string; record: GroupAuthorRecord }>,
  formValue: string,
): Promise<FormImport> {
  refuseRepeatedClientIds(rows);
  const key = [group.organizationId, formDigest(formValue)];
  await db.query(
    `DELETE FROM group_import_forms WHERE organization_id = $1 AND created_at < now() - $2 * interval '1 minute'`,
    [group.organizationId, SEALED_SECRET_MINUTES],
  );
  return db.transaction(async (tx) => {
    // Two sends at once: the second waits on the first's row (the primary key) and writes nothing.
    const claimed = await tx.query(
      `INSERT INTO group_import_forms (organization_id, form_nonce, group_id) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, form_nonce) DO NOTHING`,
      [...key, group.groupId],
    );
    if (claimed.rowCount === 0) {
      const { rows: first } = await tx.query<ImportCounts>(
        'SELECT added, updated, unchanged FROM group_import_forms WHERE organization_id = $1 AND form_nonce = $2',
        key,
      );
      return { added: 0, updated: 0, unchanged: 0, ...first[0], repeated: true };
    }
    const counts = await writeImportedRows(tx, group, rows);
    await tx.query(
      `UPDATE group_import_forms SET added = $3, updated = $4, unchanged = $5
        WHERE organization_id = $1 AND form_nonce = $2`,
      [...key, counts.added, counts.updated, counts.unchanged],
    );
    return { ...counts, repeated: false };
  });
}

function refuseRepeatedClientIds(rows: ReadonlyArray<{ clientId: string }>): void {
  const seen = new Set<string>();
  for (const { clientId } of rows) {
    if (seen.has(clientId))
      throw errors.validation(`The client id ${clientId} is given twice`).naming(clientId);
    seen.add(clientId);
  }
}

/** The rows written in `tx`, in statements of at most IMPORT_BATCH_RECORDS and IMPORT_BATCH_BYTES. */
async function writeImportedRows(
  tx: Transaction,
  group: { organizationId: number; groupId: number },
  rows: ReadonlyArray<{ clientId: string; record: GroupAuthorRecord }>,
): Promise<ImportCounts> {
  const counts = { added: 0, updated: 0, unchanged: 0 };
  // Each record serialized once: measured by its JSON for its batch, then sent as that JSON; the one
  // that would overflow a batch is carried to the next.
  let carried: SentRow | null = null;
  let next = 0;
  while (carried || next < rows.length) {
    const batch: SentRow[] = [];
    let bytes = 0;
    while (batch.length < IMPORT_BATCH_RECORDS) {
      const row: SentRow | null =
        carried ?? (next < rows.length ? sentRow(rows[next]!.clientId, rows[next++]!.record) : null);
      carried = null;
      if (!row) break;
      bytes += row.json.length;
      if (bytes > IMPORT_BATCH_BYTES && batch.length > 0) {
        carried = row;
        break;
      }
      batch.push(row);
    }
    const written = await upsertGroupAuthors(tx, group, batch);
    if (written === null) throw errors.notFound(`Authors group ${group.groupId}`);
    counts.added += written.added;
    counts.updated += written.updated;
    counts.unchanged += written.unchanged;
  }
  return counts;
}

/**
 * How many client ids one look-up of `existingClientIds` asks about: asked all at once, an import's
 * 205,823 ids were one PGlite statement that held the event loop 470-550 ms of CPU (their array
 * serialized and matched in one turn); ten thousand a statement, ~13 ms each.
 */
const CLIENT_IDS_A_QUERY = 10_000;

/** Which of `clientIds` name a record of the group now. */
export async function existingClientIds(
  db: Queryable,
  group: { organizationId: number; groupId: number },
  clientIds: readonly string[],
): Promise<Set<string>> {
  const existing = new Set<string>();
  for (let start = 0; start < clientIds.length; start += CLIENT_IDS_A_QUERY) {
    const { rows } = await db.query<{ client_id: string }>(
      `SELECT client_id FROM group_authors
        WHERE organization_id = $1 AND group_id = $2 AND client_id = ANY($3::text[])`,
      [group.organizationId, group.groupId, clientIds.slice(start, start + CLIENT_IDS_A_QUERY)],
    );
    for (const r of rows) existing.add(r.client_id);
  }
  return existing;
}

// A stored record (its organization's, hence its group's) whose linking inputs are unchanged: one
// statement, no transaction, the link stays as it is.
const UPDATE_KEEPING_LINK = `
  UPDATE group_authors SET
    name = $4, emails = $5::text[], orcids = $6::text[], articles = $7::text[],
    affiliations = $8::text[], custom_values = $9::jsonb, updated_at = now()
   WHERE group_id = $1 AND client_id = $2 AND organization_id = $3 AND link_inputs_hash = $10::text`;

/** Create or replace (spec 4.2). Returns false when the group is not one of the organization's. */
export async function writeGroupAuthor(
  db: Database,
  key: GroupAuthorKey,
  record: GroupAuthorRecord,
): Promise<boolean> {
  const { rowCount } = await db.query(UPDATE_KEEPING_LINK, writeParams(key, record, linkInputsHash(record)));
  if (rowCount > 0) return true;
  return db.transaction((tx) => saveGroupAuthor(tx, key, record));
}

// A plain single-row read: the hottest query of the API stays as cheap to plan as possible.
const SELECT_RECORD = `
  SELECT name, emails, orcids, articles, affiliations, custom_values, linked_author_id
    FROM group_authors
   WHERE group_id = $1 AND client_id = $2 AND organization_id = $3`;

export async function findGroupAuthor(db: Queryable, key: GroupAuthorKey): Promise<StoredGroupAuthor | null> {
  const { rows } = await db.query<StoredGroupAuthor>(SELECT_RECORD, [
    key.groupId,
    key.clientId,
    key.organizationId,
  ]);
  const row = rows[0];
  if (!row) return null;
  row.custom_values = await onlyLiveFields(db, key.organizationId, row.custom_values);
  return row;
}

/**
 * The record as a read (4.1) answers it: every `author_from_group` custom field of the organization
 * is a key of `custom`, null where the record has no value, so that a read has one shape whatever
 * was written (a replace, 4.2, makes every field it was not given null).
 */
export async function readGroupAuthor(
  db: Queryable,
  key: GroupAuthorKey,
): Promise<(StoredGroupAuthor & { custom: Record<string, CustomValue | null> }) | null> {
  const [record, fields] = await Promise.all([
    db.query<StoredGroupAuthor>(SELECT_RECORD, [key.groupId, key.clientId, key.organizationId]),
    authorFieldIds(db, key.organizationId),
  ]);
  const row = record.rows[0];
  if (!row) return null;
  // Only fields that still exist: see onlyLiveFields.
  const custom = Object.fromEntries(fields.map((id) => [id, row.custom_values[id] ?? null]));
  return { ...row, custom };
}

/** The api_ids of the organization's `author_from_group` custom fields, oldest first. */
async function authorFieldIds(db: Queryable, organizationId: number): Promise<string[]> {
  const { rows } = await db.query<{ api_id: string }>(
    `SELECT api_id::text FROM custom_fields
      WHERE organization_id = $1 AND owner = 'author_from_group' ORDER BY created_at, api_id`,
    [organizationId],
  );
  return rows.map((r) => r.api_id);
}

/**
 * Keeps the values of fields that still exist. Deleting a field also removes its values from the
 * rows (custom-fields/store.ts); this guards reads against a write that raced with the deletion.
 */
async function onlyLiveFields(
  db: Queryable,
  organizationId: number,
  values: Record<string, CustomValue>,
): Promise<Record<string, CustomValue>> {
  if (Object.keys(values).length === 0) return values;
  const live = new Set(await authorFieldIds(db, organizationId));
  return Object.fromEntries(Object.entries(values).filter(([id]) => live.has(id)));
}

/** Reads a record for a read-modify-write inside `tx`, locking it against concurrent writers. */
export async function findGroupAuthorForUpdate(
  tx: Transaction,
  key: GroupAuthorKey,
): Promise<StoredGroupAuthor | null> {
  await tx.query(
    'SELECT 1 FROM group_authors WHERE group_id = $1 AND client_id = $2 AND organization_id = $3 FOR UPDATE',
    [key.groupId, key.clientId, key.organizationId],
  );
  return findGroupAuthor(tx, key);
}

export async function deleteGroupAuthor(db: Database, key: GroupAuthorKey): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM group_authors WHERE group_id = $1 AND client_id = $2 AND organization_id = $3',
    [key.groupId, key.clientId, key.organizationId],
  );
  return rowCount > 0;
}

export interface GroupWithCount extends AuthorsGroup {
  authors: number;
}

/**
 * One page of the organization's groups by name, with each one's count of records, and how many
 * there are (with `search`, how many match: every word of it, in any order, somewhere in the name,
 * letter case and accents aside). Listed whole, an organization's thousands of groups were one
 * page of them all.
 */
export async function listGroupPage(
  db: Queryable,
  organizationId: number,
  options: PageRequest,
): Promise<CountedPage<GroupWithCount>> {
  const { where, params, total } = await countedNameMatches(
    db,
    'authors_groups',
    'g',
    organizationId,
    options.search,
  );
  const { rows } = await db.query<GroupWithCount>(
    // The count kept on the group's row (migration 0101), not a count(*) of every group's records.
    `SELECT g.id AS group_id, g.name, g.record_count AS authors
       FROM authors_groups g WHERE ${where}
      ORDER BY lower(g.name), g.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, options.limit, options.offset],
  );
  return { total, rows };
}

/** The organization's group of that id; another organization's is "not found". */
export async function requireGroup(
  db: Queryable,
  organizationId: number,
  groupId: number,
): Promise<AuthorsGroup> {
  const { rows } = await db.query<AuthorsGroup>(
    'SELECT id AS group_id, name FROM authors_groups WHERE id = $1 AND organization_id = $2',
    [groupId, organizationId],
  );
  if (!rows[0]) throw errors.notFound(`Authors group ${groupId}`);
  return rows[0];
}

export interface GroupAuthorListItem {
  client_id: string;
  name: string;
  emails: string[] | null;
  linked_author_id: number | null;
  /** The linked corpus author's name (null when none is linked). */
  linked_author_name: string | null;
}

/**
 * Records a page asked by its number may lie from the nearer end of the group (of a search's
 * matches: from the first, which reaches them all when they are counted, SEARCH_COUNT_LIMIT). An OFFSET reads every record before the
 * page through the name index, a heap fetch each: the middle page of 205,823 records held PGlite's
 * thread 180-220 ms, every other request waiting. Deeper pages are reached a page at a time from a
 * record of the page before (listGroupAuthorsNextTo, as the dashboard's Next and Previous link them),
 * or by a search; asked by number, they are not read (`tooDeep`). 2,500 records: 50 pages of 50 at
 * each end, a few ms.
 */
export const PAGE_BY_NUMBER_DEPTH = 2_500;

/**
 * The matches a search of a group's records counts at most (PAGE_BY_NUMBER_DEPTH, the pages a number
 * reaches): past them it says "more than" that. Counting every match scanned the group to its end at
 * each page shown (10,293 matches of 205,823 records: 74-82 ms of PGlite's thread a page, also by
 * Next); counted this far, the scan stops at the match past the limit.
 */
export const SEARCH_COUNT_LIMIT = PAGE_BY_NUMBER_DEPTH;

/**
 * A page of a group's records, or none when it was asked by a number deeper than PAGE_BY_NUMBER_DEPTH.
 * `counted` false: the search matches more than SEARCH_COUNT_LIMIT records (`total` is that plus one).
 */
export interface GroupAuthorsPage extends CountedPage<GroupAuthorListItem> {
  tooDeep: boolean;
  counted: boolean;
}

/**
 * The listing's condition on a group's records (`search`: each word typed, in any order, in a part of
 * the name, letter case and accents aside: "derek wong" finds "Derek F. Wong", "glavas" finds "Goran
 * Glavaš", "yildiz" finds "Yıldız"; or in the client id or an email, letter case aside), its
 * parameters from $1, and the read of a window of the rows it holds in the listing's order (names,
 * then client ids: a total order within the group) or backward, `bound` a further condition.
 */
function groupRecordsListing(key: { organizationId: number; groupId: number }, search: string) {
  // The name folded and the client id and emails lower-cased, as each record keeps them (migration 0113).
  const words = everyWordInFolded('search_name', 'search_contact', search, 3);
  const where = ['organization_id = $1', 'group_id = $2', ...words.conditions].join(' AND ');
  const params: unknown[] = [key.organizationId, key.groupId, ...words.params];
  return {
    searched: words.params.length > 0,
    /** The matches, counted up to SEARCH_COUNT_LIMIT + 1 (`counted` false past the limit). */
    count: async (db: Queryable) => {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM (SELECT 1 FROM group_authors WHERE ${where} LIMIT $${params.length + 1}) m`,
        [...params, SEARCH_COUNT_LIMIT + 1],
      );
      const total = rows[0]!.n;
      return { total, counted: total <= SEARCH_COUNT_LIMIT };
    },
    read: async (
      db: Queryable,
      window: { limit: number; offset: number; backward: boolean; after?: [string, string] },
    ) => {
      const at = params.length;
      const order = window.backward ? 'lower(name) DESC, client_id DESC' : 'lower(name), client_id';
      // A row comparison the name index walks from (group_authors_name_order_idx): no record skipped.
      const bound = window.after
        ? ` AND (lower(name), client_id) ${window.backward ? '<' : '>'} ($${at + 3}::text, $${at + 4}::text)`
        : '';
      const { rows } = await db.query<GroupAuthorListItem>(
        `SELECT g.client_id, g.name, g.emails, g.linked_author_id, a.display_name AS linked_author_name
           FROM (SELECT client_id, name, emails, linked_author_id FROM group_authors WHERE ${where}${bound}
                  ORDER BY ${order} LIMIT $${at + 1} OFFSET $${at + 2}) g
           LEFT JOIN authors a ON a.id = g.linked_author_id
          ORDER BY lower(g.name), g.client_id`,
        [...params, window.limit, window.offset, ...(window.after ?? [])],
      );
      return rows;
    },
  };
}

/** A page of a group's records by name, asked by its place (`offset`); see groupRecordsListing for `search`. */
export async function listGroupAuthors(
  db: Queryable,
  key: { organizationId: number; groupId: number },
  options: PageRequest,
): Promise<GroupAuthorsPage> {
  const listing = groupRecordsListing(key, options.search);
  const { limit, offset } = options;
  if (!listing.searched) {
    // The group's kept count known before the page: a page in the second half is read backward from
    // the end (the same rows), a page past the end not at all, a page deep from both ends not at all.
    const total = await countRecords(db, key.organizationId, key.groupId);
    const end = Math.min(total, offset + limit);
    if (limit <= 0 || offset >= total) return { total, rows: [], tooDeep: false, counted: true };
    if (Math.min(offset, total - end) > PAGE_BY_NUMBER_DEPTH)
      return { total, rows: [], tooDeep: true, counted: true };
    const rows =
      offset <= total - end
        ? await listing.read(db, { limit, offset, backward: false })
        : await listing.read(db, { limit: end - offset, offset: total - end, backward: true });
    return { total, rows, tooDeep: false, counted: true };
  }
  if (offset > PAGE_BY_NUMBER_DEPTH) {
    // A search's deep page by number: past the end when counted (no more matches than the limit), too
    // deep otherwise (its end is not counted, so not read from it).
    const { total, counted } = await listing.count(db);
    return { total, rows: [], tooDeep: !counted, counted };
  }
  const rows = await listing.read(db, { limit, offset, backward: false });
  // A search's matches that end on this page (fewer rows than asked, none past the first page's
  // start) are counted by it; others, by a count that scans the group again up to the limit (a
  // search of no match was two scans: 160 ms of PGlite's thread for 205,823).
  const endsHere = limit > 0 && (rows.length > 0 ? rows.length < limit : offset === 0);
  if (endsHere) return { total: offset + rows.length, rows, tooDeep: false, counted: true };
  return { ...(await listing.count(db)), rows, tooDeep: false };
}

/**
 * The page of a group's records right after the record `clientId` in the listing's order (or right
 * before it, `backward`), by keyset: read from that record's place in the name index, whatever its
 * depth (a page by its number reads every record before it). No `clientId`: the page at the far end
 * in the direction read (backward, the last page, read from the end of the index as the first page
 * is from its start, whatever the matches a search counts). `more`: whether rows go on past the page
 * in the direction read. Null when the group holds no record `clientId` (deleted since the link).
 */
export async function listGroupAuthorsNextTo(
  db: Queryable,
  key: { organizationId: number; groupId: number },
  options: { search: string; limit: number; clientId?: string; backward: boolean },
): Promise<(CountedPage<GroupAuthorListItem> & { more: boolean; counted: boolean }) | null> {
  let after: [string, string] | undefined;
  if (options.clientId !== undefined) {
    const { rows: found } = await db.query<{ sort_name: string }>(
      `SELECT lower(name) AS sort_name FROM group_authors
        WHERE group_id = $1 AND client_id = $2 AND organization_id = $3`,
      [key.groupId, options.clientId, key.organizationId],
    );
    if (!found[0]) return null;
    after = [found[0].sort_name, options.clientId];
  }
  const listing = groupRecordsListing(key, options.search);
  const rows = await listing.read(db, {
    limit: options.limit + 1,
    offset: 0,
    backward: options.backward,
    after,
  });
  const more = rows.length > options.limit;
  // Read backward, the rows come in the listing's order: the one past the page is the first.
  const page = more ? (options.backward ? rows.slice(1) : rows.slice(0, options.limit)) : rows;
  const counted = listing.searched
    ? await listing.count(db)
    : { total: await countRecords(db, key.organizationId, key.groupId), counted: true };
  return { ...counted, rows: page, more };
}

/**
 * Records an export reads a statement. On PGlite a statement holds the event loop whole: over a group
 * of 200,000 records (bench/lib/large-group.ts), a thousand a statement held it 28 ms (median; 145 at
 * the 99th percentile, load 12), 500 13 ms (62), 250 7 ms (52) and the export 30% longer in all.
 */
export const EXPORT_BATCH_RECORDS = 500;

/** A group's record whole, as an export writes it. */
export interface ExportedGroupAuthor extends GroupAuthorRecord {
  client_id: string;
}

/**
 * Every record of a group, `batch` at a time, in client id order: each batch one statement from the
 * record after the last one read (the primary key's index, group_id and client_id), so that a group
 * of 200,000 records is never held whole in memory, nor one statement hold PGlite's thread long.
 * Client id order, not the page's name order, because a client id never changes: a record renamed
 * while an export reads in name order could be read twice, or not at all, and the import refuses a
 * client id given twice. Records written meanwhile are read or not according to where they fall.
 */
export async function* groupAuthorsInBatches(
  db: Queryable,
  key: { organizationId: number; groupId: number },
  batch = EXPORT_BATCH_RECORDS,
): AsyncGenerator<ExportedGroupAuthor[]> {
  let after: string | null = null;
  for (;;) {
    // The bound written only when there is one: "$3 IS NULL OR client_id > $3" is no bound the
    // index can start from, and each batch would read the group from its first record.
    const { rows }: { rows: ExportedGroupAuthor[] } = await db.query<ExportedGroupAuthor>(
      `SELECT client_id, name, emails, orcids, articles, affiliations, custom_values
         FROM group_authors
        WHERE group_id = $1 AND organization_id = $2${after === null ? '' : ' AND client_id > $4'}
        ORDER BY client_id LIMIT $3`,
      [key.groupId, key.organizationId, batch, ...(after === null ? [] : [after])],
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batch) return;
    after = rows.at(-1)!.client_id;
  }
}

/**
 * A client id no address can name: URL clients resolve "." and ".." as path segments, so no API
 * client and no dashboard link could reach such a record. Every path that writes or reads a record
 * by its id refuses them (the API's path here, the dashboard's forms and import through
 * checkRecordLimits).
 */
export function isUnaddressableClientId(clientId: string): boolean {
  return clientId === '.' || clientId === '..';
}

/**
 * The limits of a record, in characters and items: the API's request schema (schemas.ts) states
 * them for JSON bodies, `checkRecordLimits` for a record written from a form or an import.
 */
export const RECORD_LIMITS = { clientId: 256, name: 1000, items: 1000, itemLength: 2000 } as const;

/**
 * The limits of a record written from a form (RECORD_LIMITS, as the API's request schema states them
 * for JSON bodies): a client id of 1-256 characters without NUL, a name of 1-1,000 and not blank,
 * lists of at most 1,000 items of at most 2,000 characters. Its messages are the dashboard's (the
 * API's schema says its own), their counts written as the page around them writes counts.
 */
export function checkRecordLimits(clientId: string, record: GroupAuthorRecord): void {
  const { clientId: idLength, name, items, itemLength } = RECORD_LIMITS;
  if (clientId.length < 1 || clientId.length > idLength || clientId.includes('\u0000')) {
    throw errors.validation(`The client id must have 1 to ${formatCount(idLength)} characters`);
  }
  if (isUnaddressableClientId(clientId)) {
    throw errors.validation('The client id cannot be "." or "..": no address could name the record');
  }
  if (record.name.trim().length < 1 || record.name.length > name) {
    throw errors.validation(`The name must have 1 to ${formatCount(name)} characters`);
  }
  for (const key of ['emails', 'orcids', 'articles', 'affiliations'] as const) {
    const list = record[key] ?? [];
    if (list.length > items || list.some((item) => item.length > itemLength)) {
      throw errors.validation(
        `At most ${formatCount(items)} ${key} of at most ${formatCount(itemLength)} characters each`,
      );
    }
  }
}
