// Linking an author from a group to the corpus author who is the same person. Evidence in order of
// strength: ORCID; an email the corpus knows; the person's own articles (DOI, arXiv id, PubMed id,
// title) carrying a compatible name; a compatible name with a matching affiliation. When the evidence
// leaves two plausible authors, the record stays unlinked: a wrong link is worse than none.
import { createHash } from 'node:crypto';
import { appendTo } from '../../infra/collections.ts';
import type { Queryable } from '../../infra/db/index.ts';
import { normalizeArxivId, normalizeDoi, normalizeOrcid, normalizePmid } from '../openalex/ids.ts';
import {
  nameReadingKeys,
  nameReadings,
  parsedNamesCompatible,
  parsePersonName,
  type PersonName,
} from './names.ts';
import { cachedAffiliationOrganizations, coresMatchingAny } from './affiliations.ts';

export interface LinkInput {
  name: string;
  emails?: readonly string[] | null;
  orcids?: readonly string[] | null;
  articles?: readonly string[] | null;
  affiliations?: readonly string[] | null;
}

export type LinkPath = 'orcid' | 'email' | 'articles' | 'affiliation';

export interface LinkResult {
  authorId: number | null;
  /** How the link was made; or, when null, why not ('ambiguous' or 'no_evidence'). */
  via: LinkPath | 'ambiguous' | 'no_evidence';
  /**
   * When ambiguous: the corpus authors the evidence left, in id order, so that whoever keeps the
   * record can tell which one it is and add the evidence that picks it.
   */
  among?: number[];
}

/** An ambiguous link, with the step whose evidence left the authors tied (settledByPerson). */
type Tied = LinkResult & { tiedBy?: LinkPath };

function ambiguousAmong(ids: readonly number[], tiedBy: LinkPath): Tied {
  return { authorId: null, via: 'ambiguous', among: [...new Set(ids)].sort((a, b) => a - b), tiedBy };
}

/**
 * A tie between records of one person (authors.person_id, people.ts) is no tie: the record is linked
 * to the person (its canonical record), by the step that left them tied. The demo corpus's "André F.
 * T. Martins" and "Andre Martins", one person of two records, left a group record of that name and
 * affiliation unlinked as ambiguous, and out of its folder's boost.
 */
async function settledByPerson(db: Queryable, results: readonly Tied[]): Promise<LinkResult[]> {
  const ids = [...new Set(results.flatMap((r) => r.among ?? []))];
  const personOf = new Map<number, number>();
  if (ids.length) {
    const { rows } = await db.query<{ id: number; person: number }>(
      'SELECT id, coalesce(person_id, id) AS person FROM authors WHERE id = ANY($1::int[])',
      [ids],
    );
    for (const r of rows) personOf.set(r.id, r.person);
  }
  return results.map(({ tiedBy, ...result }) => {
    if (!result.among || !tiedBy) return result;
    const persons = new Set(result.among.map((id) => personOf.get(id) ?? id));
    return persons.size === 1 ? { authorId: [...persons][0]!, via: tiedBy } : result;
  });
}

interface CorpusName {
  id: number;
  display_name: string;
  name_variants: string[];
}

/**
 * Whether a reading of the group author's name (a compound family name either way, nameReadings) is
 * compatible with the corpus author's display name or a name variant. Each name is parsed once a
 * batch (`findLinks`): an import compares thousands of names with the same corpus authors.
 */
class NameComparison {
  private readonly readings = new Map<string, PersonName[]>();
  private readonly parsed = new Map<string, PersonName | null>();

  compatible(name: string, author: CorpusName): boolean {
    let readings = this.readings.get(name);
    if (!readings) this.readings.set(name, (readings = nameReadings(name)));
    return [author.display_name, ...author.name_variants].some((written) => {
      let corpusName = this.parsed.get(written);
      if (corpusName === undefined) this.parsed.set(written, (corpusName = parsePersonName(written)));
      return readings.some((reading) => parsedNamesCompatible(reading, corpusName));
    });
  }
}

/** Splits article descriptions into the identifiers they are (spec 4.3: DOIs, titles, arXiv ids, PubMed ids). */
export function classifyArticles(articles: readonly string[]): {
  dois: string[];
  arxiv: string[];
  pmids: string[];
  titles: string[];
} {
  const out = { dois: [] as string[], arxiv: [] as string[], pmids: [] as string[], titles: [] as string[] };
  for (const raw of articles) {
    const text = raw.trim();
    if (!text) continue;
    const doi = normalizeDoi(text);
    if (doi && /^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)?10\./i.test(text)) {
      out.dois.push(doi);
      const arxivDoi = doi.startsWith('10.48550/arxiv.') ? normalizeArxivId(doi.slice(15)) : null;
      if (arxivDoi) out.arxiv.push(arxivDoi);
      continue;
    }
    const arxiv =
      /^(arxiv:|https?:\/\/arxiv\.org\/)/i.test(text) || /^\d{4}\.\d{4,5}(v\d+)?$/.test(text)
        ? normalizeArxivId(text)
        : null;
    if (arxiv) {
      out.arxiv.push(arxiv);
      continue;
    }
    const pmid = /^(pmid:?\s*)?\d{1,9}$|pubmed\.ncbi\.nlm\.nih\.gov/i.test(text) ? normalizePmid(text) : null;
    if (pmid) {
      out.pmids.push(pmid);
      continue;
    }
    out.titles.push(text); // folded by the database (AUTHORS_OF_ARTICLES)
  }
  return out;
}

// Each step of the evidence asks the database once for all the records it is given (an import links
// thousands of records in one transaction; one record is a batch of one), then decides each record
// by what its own keys found.

/** Per record, the corpus author with one of its ORCIDs (the fullest when several), or null. */
async function byOrcid(db: Queryable, inputs: readonly LinkInput[]): Promise<Array<number | null>> {
  const keys = inputs.map((input) => [
    ...new Set((input.orcids ?? []).map(normalizeOrcid).filter((o): o is string => o !== null)),
  ]);
  const all = [...new Set(keys.flat())];
  if (all.length === 0) return inputs.map(() => null);
  // Rows sharing an ORCID are one person by definition (e.g. a source that keyed them by ORCID and
  // OpenAlex's own id): take the fullest record.
  const { rows } = await db.query<{ id: number; orcid: string }>(
    'SELECT id, orcid FROM authors WHERE orcid = ANY($1::text[]) ORDER BY articles_count DESC, id',
    [all],
  );
  const first = new Map<string, number>();
  const rank = new Map<number, number>();
  rows.forEach((row, i) => {
    if (!first.has(row.orcid)) first.set(row.orcid, row.id);
    if (!rank.has(row.id)) rank.set(row.id, i);
  });
  return keys.map((own) => {
    const found = own.map((o) => first.get(o)).filter((id): id is number => id !== undefined);
    return found.length === 0 ? null : found.reduce((a, b) => (rank.get(a)! <= rank.get(b)! ? a : b));
  });
}

// The second condition is the partial index's (authors_emails_idx): without it the index is unusable.
export const AUTHORS_BY_EMAIL = `SELECT id, emails FROM authors WHERE emails && $1::text[] AND emails <> '{}'`;

/** Per record, the corpus authors known by one of its emails. */
async function byEmail(db: Queryable, inputs: readonly LinkInput[]): Promise<number[][]> {
  const keys = inputs.map((input) => [
    ...new Set((input.emails ?? []).map((e) => e.trim().toLowerCase()).filter((e) => e.includes('@'))),
  ]);
  const all = [...new Set(keys.flat())];
  if (all.length === 0) return inputs.map(() => []);
  const { rows } = await db.query<{ id: number; emails: string[] }>(AUTHORS_BY_EMAIL, [all]);
  const byKey = new Map<string, number[]>();
  for (const row of rows) {
    for (const email of new Set(row.emails)) appendTo(byKey, email, row.id);
  }
  return keys.map((own) => [...new Set(own.flatMap((e) => byKey.get(e) ?? []))]);
}

/**
 * The works named by DOI, arXiv id, PubMed id or title key ($1-$4), with their identifiers (which
 * record named each is decided by them). Titles compare by title_key (migration 0034: case,
 * punctuation and spacing aside), on the works_title_key_idx index; the keys of the records' titles
 * are asked first (TITLE_KEYS), once each.
 */
export const WORKS_OF_ARTICLES = `
  SELECT w.id AS work_id, w.doi, w.arxiv_id, w.pmid, title_key(w.title) AS title_key
    FROM works w
   WHERE w.doi = ANY($1::text[]) OR w.arxiv_id = ANY($2::text[]) OR w.pmid = ANY($3::text[])
      OR title_key(w.title) = ANY($4::text[])`;

/**
 * The authors of those works, each once with the works it is on: one row an author, not one a work
 * and an author, so that the works of a large collaboration (thousands of authors each) named by a
 * record come back as their authors, not as every authorship with the author's names again.
 */
const AUTHORS_OF_WORKS = `
  SELECT s.author_id AS id, array_agg(DISTINCT s.work_id) AS work_ids
    FROM authorships s WHERE s.work_id = ANY($1::int[]) GROUP BY s.author_id`;

const TITLE_KEYS = 'SELECT t, title_key(t) AS key FROM unnest($1::text[]) AS t';

/**
 * Per record, the authors with a compatible name on its articles, with how many of them each is on.
 * Each author's name is compared with a record's once, however many of the record's works it is on.
 */
async function byArticles(
  db: Queryable,
  inputs: readonly LinkInput[],
  names: NameComparison,
): Promise<Array<Map<number, number>>> {
  const named = inputs.map((input) => classifyArticles(input.articles ?? []));
  const all = (key: 'dois' | 'arxiv' | 'pmids' | 'titles') => [...new Set(named.flatMap((n) => n[key]))];
  const [dois, arxiv, pmids, titles] = [all('dois'), all('arxiv'), all('pmids'), all('titles')];
  if (dois.length + arxiv.length + pmids.length + titles.length === 0) return inputs.map(() => new Map());
  const titleKeys = new Map<string, string | null>();
  if (titles.length > 0) {
    const { rows } = await db.query<{ t: string; key: string | null }>(TITLE_KEYS, [titles]);
    for (const row of rows) titleKeys.set(row.t, row.key);
  }
  const keys = [...new Set([...titleKeys.values()].filter((k): k is string => k !== null))];
  if (dois.length + arxiv.length + pmids.length + keys.length === 0) return inputs.map(() => new Map());
  const works = await db.query<{
    work_id: number;
    doi: string | null;
    arxiv_id: string | null;
    pmid: string | null;
    title_key: string | null;
  }>(WORKS_OF_ARTICLES, [dois, arxiv, pmids, keys]);
  if (works.rows.length === 0) return inputs.map(() => new Map());
  // Each found work under every identifier it answers, so that a record looks up only its own.
  const under = new Map<string, number[]>();
  const file = (key: string, workId: number) => appendTo(under, key, workId);
  for (const row of works.rows) {
    if (row.doi !== null) file(`doi ${row.doi}`, row.work_id);
    if (row.arxiv_id !== null) file(`arxiv ${row.arxiv_id}`, row.work_id);
    if (row.pmid !== null) file(`pmid ${row.pmid}`, row.work_id);
    if (row.title_key !== null) file(`title ${row.title_key}`, row.work_id);
  }
  const onWorks = await db.query<{ id: number; work_ids: number[] }>(AUTHORS_OF_WORKS, [
    works.rows.map((row) => row.work_id),
  ]);
  const authorsOf = new Map<number, number[]>();
  for (const { id, work_ids } of onWorks.rows) {
    for (const workId of work_ids) appendTo(authorsOf, workId, id);
  }
  const { rows: authorNames } = await db.query<CorpusName>(
    'SELECT id, display_name, name_variants FROM authors WHERE id = ANY($1::int[])',
    [onWorks.rows.map((row) => row.id)],
  );
  const nameOf = new Map(authorNames.map((author) => [author.id, author]));
  return inputs.map((input, i) => {
    const own = named[i]!;
    const workIds = new Set([
      ...own.dois.flatMap((d) => under.get(`doi ${d}`) ?? []),
      ...own.arxiv.flatMap((a) => under.get(`arxiv ${a}`) ?? []),
      ...own.pmids.flatMap((p) => under.get(`pmid ${p}`) ?? []),
      ...own.titles.flatMap((t) => {
        const key = titleKeys.get(t);
        return key == null ? [] : (under.get(`title ${key}`) ?? []);
      }),
    ]);
    const compatible = new Map<number, boolean>();
    const counts = new Map<number, number>();
    for (const workId of workIds) {
      for (const id of authorsOf.get(workId) ?? []) {
        let ok = compatible.get(id);
        if (ok === undefined) {
          const author = nameOf.get(id);
          compatible.set(id, (ok = author !== undefined && names.compatible(input.name, author)));
        }
        if (ok) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
    return counts;
  });
}

/**
 * Per record (null: not asked), the corpus authors of a compatible name, among `among` when given,
 * else of the name's keys, whose affiliations match one of the record's.
 */
async function byAffiliation(
  db: Queryable,
  asks: ReadonlyArray<{ input: LinkInput; among: readonly number[] | null } | null>,
  names: NameComparison,
): Promise<number[][]> {
  const keyed = asks.map((ask) =>
    ask && (ask.input.affiliations ?? []).length > 0 ? nameReadingKeys(ask.input.name) : [],
  );
  const asked = (i: number) => keyed[i]!.length > 0;
  const keys = [...new Set(asks.flatMap((ask, i) => (asked(i) && !ask!.among ? keyed[i]! : [])))];
  const ids = [...new Set(asks.flatMap((ask, i) => (asked(i) && ask!.among ? ask!.among : [])))];
  if (keys.length + ids.length === 0) return asks.map(() => []);
  const { rows } = await db.query<
    CorpusName & { recent_affiliation: string | null; name_key: string | null }
  >(
    `SELECT id, display_name, name_variants, recent_affiliation, name_key FROM authors
      WHERE name_key = ANY($1::text[]) OR id = ANY($2::int[])`,
    [keys, ids],
  );
  const byKey = new Map<string, typeof rows>();
  const byId = new Map<number, (typeof rows)[number]>();
  for (const row of rows) {
    byId.set(row.id, row);
    // Appended, not copied: a family name thousands of corpus authors share copied its list each time.
    if (row.name_key !== null) appendTo(byKey, row.name_key, row);
  }
  const compatible = asks.map((ask, i) => {
    if (!asked(i)) return [];
    const candidates = ask!.among
      ? ask!.among.flatMap((id) => byId.get(id) ?? [])
      : [...new Set(keyed[i]!.flatMap((key) => byKey.get(key) ?? []))];
    return candidates.filter((a) => names.compatible(ask!.input.name, a));
  });
  const authorIds = [...new Set(compatible.flat().map((a) => a.id))];
  if (authorIds.length === 0) return asks.map(() => []);
  const stated = await db.query<{ author_id: number; affiliation: string }>(
    `SELECT DISTINCT s.author_id, x.affiliation
       FROM authorships s
       CROSS JOIN LATERAL (
         SELECT unnest(s.raw_affiliations) AS affiliation
         UNION ALL
         SELECT i.name FROM institutions i WHERE i.id = ANY(s.institution_ids)
         UNION ALL
         SELECT unnest(i.alternative_names) FROM institutions i WHERE i.id = ANY(s.institution_ids)
       ) x
      WHERE s.author_id = ANY($1::int[])`,
    [authorIds],
  );
  // Each corpus author's affiliations as the distinct organizations they name, each string read once.
  const coresBy = new Map<number, Set<string>>();
  const coresOf = (id: number) => coresBy.get(id) ?? coresBy.set(id, new Set()).get(id)!;
  for (const row of rows) {
    if (row.recent_affiliation) addOrganizations(coresOf(row.id), row.recent_affiliation);
  }
  for (const row of stated.rows) addOrganizations(coresOf(row.author_id), row.affiliation);
  return asks.map((ask, i) => {
    if (compatible[i]!.length === 0) return [];
    // The record's distinct cores against the distinct cores of its namesakes, through their words
    // (coresMatchingAny): a record of 1,000 long affiliations and namesakes stating 1,000 compared
    // every string with every other and computed the core of each (past 1,000 characters, not
    // cached) at every comparison, a minute of CPU.
    const own = new Set<string>();
    for (const affiliation of ask!.input.affiliations ?? []) addOrganizations(own, affiliation);
    const matching = coresMatchingAny(
      own,
      compatible[i]!.flatMap((a) => [...coresOf(a.id)]),
    );
    return compatible[i]!.filter((a) => [...coresOf(a.id)].some((y) => matching.has(y))).map((a) => a.id);
  });
}

/** Adds every organization `affiliation` names to `cores` (affiliations.ts affiliationOrganizations). */
function addOrganizations(cores: Set<string>, affiliation: string): void {
  for (const core of cachedAffiliationOrganizations(affiliation)) cores.add(core);
}

/**
 * The links of many records at once, as `findLink` finds each: the same evidence in the same order,
 * each step one query for all the records it has not settled.
 */
export async function findLinks(db: Queryable, inputs: readonly LinkInput[]): Promise<LinkResult[]> {
  const results: Array<Tied | null> = inputs.map(() => null);
  const names = new NameComparison();
  // The records not settled yet; a settled one is asked as a record without evidence.
  const open = () => inputs.map((input, i) => (results[i] === null ? input : null));
  const unsettled = () => open().map((input) => input ?? { name: '' });

  const orcids = await byOrcid(db, inputs);
  orcids.forEach((id, i) => {
    if (id !== null) results[i] = { authorId: id, via: 'orcid' };
  });

  // An email two records share narrows the field to them; the articles, then an affiliation, may
  // settle it (an email step that ended the search there left such a record unlinked whatever
  // articles it listed).
  const emailTied: Array<number[] | null> = inputs.map(() => null);
  const emails = await byEmail(db, unsettled());
  emails.forEach((ids, i) => {
    if (results[i] !== null) return;
    if (ids.length === 1) results[i] = { authorId: ids[0]!, via: 'email' };
    else if (ids.length > 1) emailTied[i] = ids;
  });

  const onArticles = await byArticles(db, unsettled(), names);
  const tied: Array<number[] | null> = inputs.map(() => null);
  onArticles.forEach((all, i) => {
    const within = emailTied[i];
    const counts = within ? new Map([...all].filter(([id]) => within.includes(id))) : all;
    if (results[i] !== null || counts.size === 0) return;
    const best = Math.max(...counts.values());
    tied[i] = [...counts.entries()].filter(([, n]) => n === best).map(([id]) => id);
    if (tied[i]!.length === 1) results[i] = { authorId: tied[i]![0]!, via: 'articles' };
  });

  // Articles that leave two people tied narrow the field; an affiliation may settle it.
  const affiliated = await byAffiliation(
    db,
    open().map((input, i) => (input ? { input, among: tied[i] ?? emailTied[i] ?? null } : null)),
    names,
  );
  return settledByPerson(
    db,
    inputs.map((_, i): Tied => {
      const settled = results[i];
      if (settled) return settled;
      const found = affiliated[i]!;
      if (found.length === 1) return { authorId: found[0]!, via: 'affiliation' };
      if (found.length > 1) return ambiguousAmong(found, 'affiliation');
      if (tied[i]) return ambiguousAmong(tied[i]!, 'articles');
      if (emailTied[i]) return ambiguousAmong(emailTied[i]!, 'email');
      return { authorId: null, via: 'no_evidence' };
    }),
  );
}

export async function findLink(db: Queryable, input: LinkInput): Promise<LinkResult> {
  return (await findLinks(db, [input]))[0]!;
}

export interface GroupAuthorRow {
  group_id: number;
  client_id: string;
  name: string;
  emails: string[] | null;
  orcids: string[] | null;
  articles: string[] | null;
  affiliations: string[] | null;
  linked_author_id: number | null;
}

const GROUP_AUTHOR_COLUMNS =
  'group_id, client_id, name, emails, orcids, articles, affiliations, linked_author_id';

/**
 * Identifies everything `findLink` reads of a record, so a write that changes none of it can keep
 * the link it has (group_authors.link_inputs_hash).
 */
export function linkInputsHash(input: LinkInput): string {
  const { name, emails, orcids, articles, affiliations } = input;
  const inputs = [name, emails ?? null, orcids ?? null, articles ?? null, affiliations ?? null];
  return createHash('sha256').update(JSON.stringify(inputs)).digest('base64');
}

async function relinkRow(db: Queryable, row: GroupAuthorRow): Promise<boolean> {
  const { authorId } = await findLink(db, row);
  if (authorId === row.linked_author_id) return false;
  await db.query('UPDATE group_authors SET linked_author_id = $3 WHERE group_id = $1 AND client_id = $2', [
    row.group_id,
    row.client_id,
    authorId,
  ]);
  return true;
}

/**
 * (Re)links an author from group from the row just written (no read back), inside the write's
 * transaction, and records `inputsHash` as what the link was evaluated on. Returns the linked corpus
 * author id, or null.
 */
export async function linkWrittenGroupAuthor(
  db: Queryable,
  row: GroupAuthorRow,
  inputsHash: string = linkInputsHash(row),
): Promise<number | null> {
  return (await linkWrittenGroupAuthors(db, [{ ...row, inputsHash }]))[0]!;
}

/**
 * `linkWrittenGroupAuthor` for many rows at once (an import): the links found together
 * (`findLinks`), written by one statement. The linked corpus author ids, in the rows' order.
 */
export async function linkWrittenGroupAuthors(
  db: Queryable,
  rows: ReadonlyArray<GroupAuthorRow & { inputsHash: string }>,
): Promise<Array<number | null>> {
  if (rows.length === 0) return [];
  const links = (await findLinks(db, rows)).map((link) => link.authorId);
  await db.query(
    `UPDATE group_authors g SET linked_author_id = u.author_id, link_inputs_hash = u.inputs_hash
       FROM unnest($1::int[], $2::text[], $3::int[], $4::text[]) AS u(group_id, client_id, author_id, inputs_hash)
      WHERE g.group_id = u.group_id AND g.client_id = u.client_id`,
    [rows.map((r) => r.group_id), rows.map((r) => r.client_id), links, rows.map((r) => r.inputsHash)],
  );
  return links;
}

/** (Re)links one author from group read from the database; see `linkWrittenGroupAuthor`. */
export async function relinkGroupAuthor(
  db: Queryable,
  groupId: number,
  clientId: string,
): Promise<number | null> {
  const rows = await db.query<GroupAuthorRow>(
    `SELECT ${GROUP_AUTHOR_COLUMNS} FROM group_authors WHERE group_id = $1 AND client_id = $2`,
    [groupId, clientId],
  );
  const row = rows.rows[0];
  return row ? linkWrittenGroupAuthor(db, row) : null;
}

/**
 * After an ingest: relinks every group author whose candidates may have changed, i.e. those not yet
 * linked and those whose family name is that of an author the ingest touched (`touchedNameKeys`).
 * Returns how many links changed.
 */
export async function relinkAfterIngest(
  db: Queryable,
  touchedNameKeys: ReadonlySet<string> | 'all',
): Promise<number> {
  // The corpus changed: no stored link counts as evaluated against it any more, so the next write
  // of each record runs the linker even when its inputs are unchanged.
  await db.query('UPDATE group_authors SET link_inputs_hash = NULL WHERE link_inputs_hash IS NOT NULL');
  const rows = await db.query<GroupAuthorRow>(
    `SELECT ${GROUP_AUTHOR_COLUMNS} FROM group_authors ORDER BY group_id, client_id`,
  );
  let changed = 0;
  for (const row of rows.rows) {
    const touched =
      touchedNameKeys === 'all' || nameReadingKeys(row.name).some((key) => touchedNameKeys.has(key));
    if (row.linked_author_id !== null && !touched) continue;
    if (await relinkRow(db, row)) changed++;
  }
  return changed;
}
