// Linking an author from a group to the corpus author who is the same person. Evidence in order of
// strength: ORCID; an email the corpus knows; the person's own articles (DOI, arXiv id, PubMed id,
// title) carrying a compatible name; a compatible name with a matching affiliation. When the evidence
// leaves two plausible authors, the record stays unlinked: a wrong link is worse than none.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../infra/db/index.ts';
import { normalizeArxivId, normalizeDoi, normalizeOrcid, normalizePmid } from '../openalex/ids.ts';
import { nameReadingKeys, nameReadings, parsedNamesCompatible, parsePersonName } from './names.ts';
import { anyAffiliationMatches } from './affiliations.ts';

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
}

interface CorpusName {
  id: number;
  display_name: string;
  name_variants: string[];
}

/**
 * Whether a reading of the group author's name (a compound family name either way, nameReadings) is
 * compatible with the corpus author's display name or a name variant.
 */
function compatibleWith(name: string, author: CorpusName): boolean {
  const readings = nameReadings(name);
  return [author.display_name, ...author.name_variants].some((written) => {
    const corpusName = parsePersonName(written);
    return readings.some((reading) => parsedNamesCompatible(reading, corpusName));
  });
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

async function byOrcid(db: Queryable, orcids: readonly string[]): Promise<number | null> {
  const normalized = [...new Set(orcids.map(normalizeOrcid).filter((o): o is string => o !== null))];
  if (normalized.length === 0) return null;
  // Rows sharing an ORCID are one person by definition (e.g. a source that keyed them by ORCID and
  // OpenAlex's own id): take the fullest record.
  const rows = await db.query<{ id: number }>(
    'SELECT id FROM authors WHERE orcid = ANY($1::text[]) ORDER BY articles_count DESC, id LIMIT 1',
    [normalized],
  );
  return rows.rows[0]?.id ?? null;
}

// The second condition is the partial index's (authors_emails_idx): without it the index is unusable.
export const AUTHORS_BY_EMAIL = `SELECT id FROM authors WHERE emails && $1::text[] AND emails <> '{}'`;

async function byEmail(db: Queryable, emails: readonly string[]): Promise<number[]> {
  const normalized = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter((e) => e.includes('@')))];
  if (normalized.length === 0) return [];
  const rows = await db.query<{ id: number }>(AUTHORS_BY_EMAIL, [normalized]);
  return rows.rows.map((r) => r.id);
}

/**
 * The authors of the works named by DOI, arXiv id, PubMed id or title ($1-$4). Titles compare by
 * title_key (migration 0034: case, punctuation and spacing aside), on the works_title_key_idx index.
 */
export const AUTHORS_OF_ARTICLES = `
  SELECT DISTINCT w.id AS work_id, a.id, a.display_name, a.name_variants
    FROM works w JOIN authorships s ON s.work_id = w.id JOIN authors a ON a.id = s.author_id
   WHERE w.doi = ANY($1::text[]) OR w.arxiv_id = ANY($2::text[]) OR w.pmid = ANY($3::text[])
      OR title_key(w.title) = ANY(ARRAY(SELECT title_key(t) FROM unnest($4::text[]) AS t))`;

/** Authors with a compatible name on the given articles, with how many of the articles each is on. */
async function byArticles(
  db: Queryable,
  name: string,
  articles: readonly string[],
): Promise<Map<number, number>> {
  const { dois, arxiv, pmids, titles } = classifyArticles(articles);
  const counts = new Map<number, number>();
  if (dois.length + arxiv.length + pmids.length + titles.length === 0) return counts;
  const rows = await db.query<CorpusName & { work_id: number }>(AUTHORS_OF_ARTICLES, [
    dois,
    arxiv,
    pmids,
    titles,
  ]);
  for (const row of rows.rows) {
    if (compatibleWith(name, row)) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
  }
  return counts;
}

async function byAffiliation(
  db: Queryable,
  name: string,
  affiliations: readonly string[],
  among: readonly number[] | null,
): Promise<number[]> {
  const keys = nameReadingKeys(name);
  if (keys.length === 0 || affiliations.length === 0) return [];
  const rows = among
    ? await db.query<CorpusName & { recent_affiliation: string | null }>(
        'SELECT id, display_name, name_variants, recent_affiliation FROM authors WHERE id = ANY($1::int[])',
        [among],
      )
    : await db.query<CorpusName & { recent_affiliation: string | null }>(
        'SELECT id, display_name, name_variants, recent_affiliation FROM authors WHERE name_key = ANY($1::text[])',
        [keys],
      );
  const compatible = rows.rows.filter((a) => compatibleWith(name, a));
  if (compatible.length === 0) return [];
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
    [compatible.map((a) => a.id)],
  );
  const byAuthor = new Map<number, string[]>();
  for (const a of compatible) byAuthor.set(a.id, a.recent_affiliation ? [a.recent_affiliation] : []);
  for (const row of stated.rows) byAuthor.get(row.author_id)?.push(row.affiliation);
  return [...byAuthor.entries()]
    .filter(([, affs]) => anyAffiliationMatches(affiliations, affs))
    .map(([id]) => id);
}

export async function findLink(db: Queryable, input: LinkInput): Promise<LinkResult> {
  const orcid = await byOrcid(db, input.orcids ?? []);
  if (orcid !== null) return { authorId: orcid, via: 'orcid' };

  const emails = await byEmail(db, input.emails ?? []);
  if (emails.length === 1) return { authorId: emails[0]!, via: 'email' };
  if (emails.length > 1) return { authorId: null, via: 'ambiguous' };

  let tied: number[] | null = null;
  const onArticles = await byArticles(db, input.name, input.articles ?? []);
  if (onArticles.size > 0) {
    const best = Math.max(...onArticles.values());
    tied = [...onArticles.entries()].filter(([, n]) => n === best).map(([id]) => id);
    if (tied.length === 1) return { authorId: tied[0]!, via: 'articles' };
  }

  // Articles that leave two people tied narrow the field; an affiliation may settle it.
  const affiliated = await byAffiliation(db, input.name, input.affiliations ?? [], tied);
  if (affiliated.length === 1) return { authorId: affiliated[0]!, via: 'affiliation' };
  if (affiliated.length > 1 || tied) return { authorId: null, via: 'ambiguous' };
  return { authorId: null, via: 'no_evidence' };
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
  const { authorId } = await findLink(db, row);
  await db.query(
    `UPDATE group_authors SET linked_author_id = $3, link_inputs_hash = $4
      WHERE group_id = $1 AND client_id = $2`,
    [row.group_id, row.client_id, authorId, inputsHash],
  );
  return authorId;
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
