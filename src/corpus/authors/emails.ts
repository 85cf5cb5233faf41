// Emails found in the corpus records' raw affiliation strings (OpenAlex keeps them as the publisher
// wrote them; many end with "Electronic address: x@y" or list every author's address). One string is
// often repeated on every author of the work, so an address is never given to the author whose string
// holds it: it goes to the one author of the work whose name its local part spells, or to nobody.
import type { Database, Queryable } from '../../infra/db/index.ts';
import { parsePersonName } from './names.ts';
import { foldWords } from '../../infra/text-fold.ts';
import { appendTo } from '../../infra/collections.ts';

// Deliberately plain: a local part of letters, digits and . _ % + -, a dotted domain ending in letters.
// Each part is bounded as the standard bounds it (a local part of at most 64 characters, a label of
// at most 63) and a local part starts where a run of its characters starts: unbounded, a long run
// before an "@" was read again from each of its characters (a 40,000-letter run took a second,
// twice that length four times as long); now each character is looked at a bounded number of times.
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,63}/g;

/** The addresses written in a text, lower-cased, without trailing dots; in order, once each. */
export function emailsIn(text: string): string[] {
  if (!text.includes('@')) return [];
  const found = (text.match(EMAIL) ?? []).map((e) =>
    e
      // A sentence glued after the address ("jruiz@worldbank.orgStefano Pagiola is ..."): domains are
      // written in lower case, so a capital after lower-case letters in the last label ends it.
      .replace(/(\.[a-z]{2,})[A-Z][A-Za-z]*$/, '$1')
      .replace(/^[._%+-]+|[._%+-]+$/g, '')
      .toLowerCase(),
  );
  return [...new Set(found)].filter((e) => e.indexOf('@') > 0);
}

/** Letters of the name parts an address may spell: family tokens (3+ letters), first given name. */
function nameTokens(name: string): { family: string[]; given: string | null; initial: string | null } {
  const parsed = parsePersonName(name);
  if (!parsed) return { family: [], given: null, initial: null };
  const family = parsed.family.map((t) => t.replace(/[^a-z]/g, '')).filter((t) => t.length >= 3);
  // The whole family name written together ("dehaan" for "de Haan").
  const joined = parsed.family.join('').replace(/[^a-z]/g, '');
  if (joined.length >= 3 && !family.includes(joined)) family.push(joined);
  const first = parsed.given[0]?.replace(/[^a-z]/g, '') ?? '';
  return {
    family,
    given: first.length >= 3 ? first : null,
    initial: first ? first[0]! : null,
  };
}

/**
 * Whether an address's local part spells this name: it holds a family name ("spagiola" for Stefano
 * Pagiola, "c.harvey", "alfonso.aguirre" for Alfonso Aguirre-Muñoz), or is the first given name
 * as a word of its own ("derek@", "derek.w@").
 */
export function emailSpellsName(email: string, name: string): boolean {
  const local = foldWords(email.slice(0, email.indexOf('@')).replace(/[._+-]/g, ' '));
  const letters = local.replace(/[^a-z]/g, '');
  if (!letters) return false;
  const { family, given } = nameTokens(name);
  if (family.some((f) => letters.includes(f))) return true;
  return given !== null && local.split(' ').includes(given);
}

export interface WorkAuthorAffiliations {
  authorId: number;
  name: string;
  rawAffiliations: readonly string[];
}

/**
 * The addresses a work's affiliation strings give its authors: each address found in any of them,
 * given to the one author whose name it spells; an address two authors' names could spell ("li@" on
 * a work of two Lis) or none does is given to nobody.
 */
export function attributeEmails(authors: readonly WorkAuthorAffiliations[]): Map<number, string[]> {
  const addresses = new Set(authors.flatMap((a) => a.rawAffiliations.flatMap(emailsIn)));
  const out = new Map<number, string[]>();
  for (const email of addresses) {
    const owners = new Set(authors.filter((a) => emailSpellsName(email, a.name)).map((a) => a.authorId));
    if (owners.size !== 1) continue;
    const [owner] = owners;
    appendTo(out, owner!, email);
  }
  return out;
}

// The works of the authors of these name keys whose affiliation strings hold an '@', with all their
// authors.
const WORKS_WITH_ADDRESSES = `
WITH w AS (
  SELECT DISTINCT s.work_id FROM authors a JOIN authorships s ON s.author_id = a.id
   WHERE a.name_key = ANY($1::text[]) AND array_to_string(s.raw_affiliations, ' ') LIKE '%@%'
)
SELECT s.work_id, s.author_id, a.display_name, s.raw_affiliations
  FROM w JOIN authorships s USING (work_id) JOIN authors a ON a.id = s.author_id
 ORDER BY s.work_id, s.position`;

const ALL_WORKS_WITH_ADDRESSES = `
WITH w AS (
  SELECT DISTINCT work_id FROM authorships WHERE array_to_string(raw_affiliations, ' ') LIKE '%@%'
)
SELECT s.work_id, s.author_id, a.display_name, s.raw_affiliations
  FROM w JOIN authorships s USING (work_id) JOIN authors a ON a.id = s.author_id
 ORDER BY s.work_id, s.position`;

const ADD_EMAILS = `
UPDATE authors SET emails = ARRAY(SELECT DISTINCT e FROM unnest(authors.emails || x.found) e ORDER BY e)
  FROM (SELECT id, string_to_array(found, ' ') AS found FROM unnest($1::int[], $2::text[]) AS u(id, found)) x
 WHERE authors.id = x.id AND NOT authors.emails @> x.found`;

const CHUNK = 20_000;

/**
 * Reads the addresses in the affiliation strings of the works of these name keys' authors (every
 * work when 'all') and adds each to its author's `emails`. Returns how many authors gained one.
 */
export async function extractCorpusEmails(db: Database, nameKeys: Iterable<string> | 'all'): Promise<number> {
  return addCorpusEmails(db, await findCorpusEmails(db, nameKeys));
}

/**
 * The addresses extractCorpusEmails would add, by author id, found without writing: an ingest's end
 * reads them while it links people (corpus/ingest/ingest.ts), and writes them after.
 */
export async function findCorpusEmails(
  db: Queryable,
  nameKeys: Iterable<string> | 'all',
): Promise<Map<number, Set<string>>> {
  const chunks = nameKeys === 'all' ? [null] : chunked([...new Set(nameKeys)], CHUNK);
  const found = new Map<number, Set<string>>();
  for (const chunk of chunks) {
    const { rows } = await db.query<{
      work_id: number;
      author_id: number;
      display_name: string;
      raw_affiliations: string[];
    }>(chunk === null ? ALL_WORKS_WITH_ADDRESSES : WORKS_WITH_ADDRESSES, chunk === null ? [] : [chunk]);
    let i = 0;
    while (i < rows.length) {
      const work = rows[i]!.work_id;
      const authors: WorkAuthorAffiliations[] = [];
      for (; i < rows.length && rows[i]!.work_id === work; i++) {
        const r = rows[i]!;
        authors.push({ authorId: r.author_id, name: r.display_name, rawAffiliations: r.raw_affiliations });
      }
      for (const [id, emails] of attributeEmails(authors)) {
        const set = found.get(id) ?? new Set<string>();
        for (const e of emails) set.add(e);
        found.set(id, set);
      }
    }
  }
  return found;
}

/** Adds these addresses to their authors' `emails`; returns how many authors gained one. */
export async function addCorpusEmails(
  db: Queryable,
  found: ReadonlyMap<number, ReadonlySet<string>>,
): Promise<number> {
  let changed = 0;
  const ids = [...found.keys()];
  for (const chunk of chunked(ids, CHUNK)) {
    changed += await addEmails(
      db,
      chunk,
      chunk.map((id) => [...found.get(id)!].join(' ')),
    );
  }
  return changed;
}

async function addEmails(db: Queryable, ids: number[], emails: string[]): Promise<number> {
  const result = await db.query(ADD_EMAILS, [ids, emails]);
  return result.rowCount ?? 0;
}

function chunked<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}
