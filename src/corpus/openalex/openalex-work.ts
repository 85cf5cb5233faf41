// One OpenAlex work record (snapshot, API, or the R client's variant with an `abstract` field) turned
// into the row shapes the corpus stores. A record that cannot become a work throws BadRecord with the
// reason the ingest report shows.
import { normalizeArxivId, normalizeDoi, normalizeOrcid, normalizePmid, openAlexKey } from './ids.ts';
import { nameKey, parsePersonName } from '../authors/names.ts';
import { foldWords } from '../../infra/text-fold.ts';
import { normalizeAffiliation } from '../authors/affiliations.ts';
import { cutAbstract, InvertedIndexEntries, MAX_ABSTRACT_CHARS, RebuiltAbstract } from './inverted-index.ts';

export class BadRecord extends Error {
  override name = 'BadRecord';
}

export interface SourceRow {
  source_key: string;
  title: string;
  type: string | null;
  publisher: string | null;
  issn_l: string | null;
}

export interface InstitutionRow {
  institution_key: string;
  name: string;
  country_code: string | null;
  normalized_name: string;
  alternative_names: string[];
}

export interface AuthorRow {
  author_key: string;
  display_name: string;
  orcid: string | null;
  name_variants: string[];
  name_key: string | null;
}

export interface AuthorshipRow {
  position: number;
  author_key: string;
  institution_keys: string[];
  raw_affiliations: string[];
  is_corresponding: boolean;
}

export interface WorkRecord {
  work_key: string;
  doi: string | null;
  pmid: string | null;
  arxiv_id: string | null;
  title: string;
  abstract: string | null;
  publication_year: number | null;
  type: string | null;
  source: SourceRow | null;
  is_retracted: boolean;
  cited_by_count: number;
  referenced_work_keys: string[];
  referenced_dois: string[];
  authors: AuthorRow[];
  institutions: InstitutionRow[];
  authorships: AuthorshipRow[];
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // Postgres text cannot hold NUL; some scraped titles carry one.
  const text = (value.indexOf('\u0000') === -1 ? value : value.replaceAll('\u0000', '')).trim();
  return text === '' ? null : text;
}

/** An abstract given as text, cleaned as any text and cut to MAX_ABSTRACT_CHARS. */
function abstractText(value: unknown): string | null {
  const text = str(value);
  return text === null ? null : cutAbstract(text);
}

/** Rebuilds abstract text from OpenAlex's inverted index {word: [positions]}. */
export function abstractFromInvertedIndex(index: unknown): string | null {
  if (index instanceof RebuiltAbstract) return abstractText(index.text);
  let entries: readonly (readonly [string, unknown])[];
  if (index instanceof InvertedIndexEntries) entries = index.entries;
  else {
    const map = obj(index);
    if (!map) return null;
    entries = Object.entries(map);
  }
  let length = 0;
  for (const [, positions] of entries) {
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (typeof p === 'number' && p >= length && p < 100_000) length = p + 1;
  }
  // A dense array filled by position: holes (positions nobody claims) are skipped when joining, and
  // the words after the first past MAX_ABSTRACT_CHARS left out.
  const words = new Array<string>(length).fill('');
  for (const [word, positions] of entries) {
    if (!Array.isArray(positions)) continue;
    for (const p of positions)
      if (typeof p === 'number' && Number.isInteger(p) && p >= 0 && p < length) words[p] = word;
  }
  const kept: string[] = [];
  let chars = 0;
  for (const word of words) {
    if (word === '') continue;
    kept.push(word);
    chars += word.length + 1;
    if (chars > MAX_ABSTRACT_CHARS) break;
  }
  return abstractText(kept.join(' '));
}

/** The id space of a key ("acl" for "acl:2016.iwslt-1.1", "openalex" for "W123"). */
export function idSpace(workKey: string): string {
  const colon = workKey.indexOf(':');
  return colon > 0 ? workKey.slice(0, colon) : 'openalex';
}

export function institutionRow(value: unknown): InstitutionRow | null {
  const inst = obj(value);
  const key = openAlexKey(inst?.id);
  const name = str(inst?.display_name);
  if (!inst || !key || !name) return null;
  const alternatives = [...arr(inst.display_name_alternatives), ...arr(inst.display_name_acronyms)]
    .map(str)
    .filter((s): s is string => s !== null);
  return {
    institution_key: key,
    name,
    country_code: str(inst.country_code),
    normalized_name: normalizeAffiliation(name),
    alternative_names: [...new Set(alternatives)],
  };
}

function sourceRow(value: unknown): SourceRow | null {
  const source = obj(value);
  const key = openAlexKey(source?.id);
  const title = str(source?.display_name);
  if (!source || !key || !title) return null;
  return {
    source_key: key,
    title,
    type: str(source.type),
    publisher: str(source.host_organization_name),
    issn_l: str(source.issn_l),
  };
}

/**
 * The key of an author: its id in the source when it has one; else `orcid:<ORCID>`; else the folded
 * name inside the work's id space (`acl:name/jane doe`), so that name-keyed authors of one source
 * never merge with another source's (docs/corpus.md).
 */
/** A name's parts, order aside: "Bond, Ivan" and "Ivan Bond" give one. */
function writtenNameKey(name: string): string | null {
  const parsed = parsePersonName(name);
  return parsed && parsed.given.length ? `${parsed.given.join(' ')}|${parsed.family.join(' ')}` : null;
}

/**
 * Authorships without an author id that repeat, in another order, the name of an author of the same
 * work who has one: some records list every author twice ("Ivan Bond" with an id, then "Bond, Ivan"
 * without), and each copy would become a corpus author of its own, on the same work as the real one.
 */
function authorsListedTwice(entries: unknown[]): Set<number> {
  const twice = new Set<number>();
  // Only an authorship without an author id can be such a copy, and most works have none: their
  // names are not parsed (that parse was a tenth of the ingest's parse thread on the ACL works).
  if (entries.every((entry) => str(obj(obj(entry)?.author)?.id))) return twice;
  const identified = new Set<string>();
  for (const entry of entries) {
    const author = obj(obj(entry)?.author);
    const name = str(author?.display_name);
    const key = author && str(author.id) && name ? writtenNameKey(name) : null;
    if (key) identified.add(key);
  }
  if (identified.size === 0) return twice;
  entries.forEach((entry, i) => {
    const authorship = obj(entry);
    const author = obj(authorship?.author);
    if (str(author?.id)) return;
    const name = str(author?.display_name) ?? str(authorship?.raw_author_name);
    const key = name ? writtenNameKey(name) : null;
    if (key && identified.has(key)) twice.add(i);
  });
  return twice;
}

export function authorKey(id: unknown, orcid: string | null, name: string, space: string): string | null {
  const key = openAlexKey(id);
  if (key) return key;
  if (orcid) return `orcid:${orcid}`;
  const folded = foldWords(name);
  return folded ? `${space}:name/${folded}` : null;
}

function arxivFrom(record: Json, doi: string | null): string | null {
  const ids = obj(record.ids);
  const direct = normalizeArxivId(ids?.arxiv);
  if (direct) return direct;
  if (doi?.startsWith('10.48550/arxiv.')) return normalizeArxivId(doi.slice('10.48550/arxiv.'.length));
  for (const location of arr(record.locations)) {
    const loc = obj(location);
    for (const url of [loc?.landing_page_url, loc?.pdf_url]) {
      if (typeof url === 'string' && /arxiv\.org\/(abs|pdf)\//i.test(url)) {
        const id = normalizeArxivId(url);
        if (id) return id;
      }
    }
  }
  return null;
}

/** The distinct non-null values `normalize` gives of a list's items, in first-seen order. */
function distinct(list: unknown, normalize: (value: unknown) => string | null): string[] {
  if (!Array.isArray(list) || list.length === 0) return [];
  return [...new Set(list.map(normalize).filter((k): k is string => k !== null))];
}

/** The strings of a list, cleaned by str, the empty ones left out. */
function strings(list: unknown): string[] {
  const out: string[] = [];
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    const text = str(item);
    if (text !== null) out.push(text);
  }
  return out;
}

export function parseWork(value: unknown): WorkRecord {
  const record = obj(value);
  if (!record) throw new BadRecord('not a JSON object');
  const workKey = openAlexKey(record.id);
  if (!workKey) throw new BadRecord('missing id');
  const title = str(record.title) ?? str(record.display_name);
  if (!title) throw new BadRecord('missing title');
  const ids = obj(record.ids);
  const doi = normalizeDoi(record.doi) ?? normalizeDoi(ids?.doi);
  const year = record.publication_year;
  if (
    year !== undefined &&
    year !== null &&
    (typeof year !== 'number' || !Number.isInteger(year) || year < 1000 || year > 3000)
  ) {
    throw new BadRecord('publication_year is not a year');
  }
  const cited = record.cited_by_count;
  if (
    cited !== undefined &&
    cited !== null &&
    (typeof cited !== 'number' || !Number.isInteger(cited) || cited < 0)
  ) {
    throw new BadRecord('cited_by_count is not a non-negative whole number');
  }
  if (record.authorships !== undefined && record.authorships !== null && !Array.isArray(record.authorships)) {
    throw new BadRecord('authorships is not a list');
  }
  const space = idSpace(workKey);
  // Per author key: its row as the key's last authorship gives it, and the names seen for the key in
  // this work (the first name and every raw name), once each; sorted into the row at the end. A
  // record may list one key any number of times: nothing here is redone per repeat.
  const authors = new Map<string, { row: AuthorRow; variants: Set<string> }>();
  const institutions = new Map<string, InstitutionRow>();
  const authorships: AuthorshipRow[] = [];
  const entries = arr(record.authorships);
  const listedTwice = authorsListedTwice(entries);
  for (const [n, entry] of entries.entries()) {
    if (listedTwice.has(n)) continue;
    const authorship = obj(entry);
    const author = obj(authorship?.author);
    const name = str(author?.display_name) ?? str(authorship?.raw_author_name);
    if (!authorship || !name) continue;
    const orcid = normalizeOrcid(author?.orcid);
    const key = authorKey(author?.id, orcid, name, space);
    if (!key) continue;
    const rawName = str(authorship.raw_author_name);
    const existing = authors.get(key);
    const variants = existing?.variants ?? new Set([name]);
    if (rawName) variants.add(rawName);
    authors.set(key, {
      row: {
        author_key: key,
        display_name: name,
        orcid: orcid ?? existing?.row.orcid ?? null,
        name_variants: [],
        name_key: nameKey(name),
      },
      variants,
    });
    // An authorship's institutions once each, in first-seen order.
    const institutionKeys = new Set<string>();
    for (const i of arr(authorship.institutions)) {
      const row = institutionRow(i);
      if (!row) continue;
      institutions.set(row.institution_key, row);
      institutionKeys.add(row.institution_key);
    }
    authorships.push({
      position: authorships.length + 1,
      author_key: key,
      institution_keys: [...institutionKeys],
      raw_affiliations: strings(authorship.raw_affiliation_strings),
      is_corresponding: authorship.is_corresponding === true,
    });
  }
  const primary = obj(record.primary_location);
  return {
    work_key: workKey,
    doi,
    pmid: normalizePmid(ids?.pmid),
    arxiv_id: arxivFrom(record, doi),
    title,
    abstract: abstractFromInvertedIndex(record.abstract_inverted_index) ?? abstractText(record.abstract),
    publication_year: typeof year === 'number' ? year : null,
    type: str(record.type),
    source: sourceRow(primary?.source),
    is_retracted: record.is_retracted === true,
    cited_by_count: typeof cited === 'number' ? cited : 0,
    referenced_work_keys: distinct(record.referenced_works, openAlexKey),
    referenced_dois: distinct(record.referenced_dois, normalizeDoi),
    authors: [...authors.values()].map(({ row, variants }) => ({
      ...row,
      name_variants: [...variants].sort(),
    })),
    institutions: [...institutions.values()],
    authorships,
  };
}
