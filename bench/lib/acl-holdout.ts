// The ACL Anthology records and the fixed hold-out shared by the quality benches (referees and
// journals): the same 2,000 works are held out everywhere, so the figures compare.
import type { ManuscriptForRanking } from '../../src/referee-finder/types.ts';
import { createReadStream, existsSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { seededRandom, seededShuffle } from '../../src/retrieval/seeded-random.ts';
import { appendTo } from '../../src/infra/collections.ts';

export const ACL_WORKS_PATH = path.resolve(
  import.meta.dirname,
  '../../../shared/data/acl-anthology/works.jsonl.gz',
);
export const HOLDOUT_SIZE = 2000;
export const HOLDOUT_SEED = 20261121;

export interface AclAuthor {
  key: string;
  name: string;
  orcid: string | null;
  affiliations: string[];
}

export interface AclWork {
  key: string;
  title: string;
  abstract: string;
  year: number | null;
  venueKey: string | null;
  venueName: string | null;
  authors: AclAuthor[];
}

interface RawRecord {
  id: string;
  title?: string | null;
  publication_year?: number | null;
  abstract_inverted_index?: Record<string, number[]> | null;
  authorships?: Array<{
    author?: { id?: string; display_name?: string; orcid?: string | null };
    raw_affiliation_strings?: string[];
  }>;
  primary_location?: { source?: { id?: string; display_name?: string } | null } | null;
}

export function abstractFromInvertedIndex(index: Record<string, number[]> | null | undefined): string {
  if (!index) return '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const p of positions) words[p] = word;
  }
  return words.filter((w) => w !== undefined).join(' ');
}

export function aclDataAvailable(): boolean {
  return existsSync(ACL_WORKS_PATH);
}

export async function loadAclWorks(file = ACL_WORKS_PATH): Promise<AclWork[]> {
  if (!existsSync(file)) {
    throw new Error(`ACL Anthology data missing: ${file} not found (see ../shared/data/README.md)`);
  }
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const works: AclWork[] = [];
  for await (const line of lines) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as RawRecord;
    works.push({
      key: r.id,
      title: r.title ?? '',
      abstract: abstractFromInvertedIndex(r.abstract_inverted_index),
      year: r.publication_year ?? null,
      venueKey: r.primary_location?.source?.id ?? null,
      venueName: r.primary_location?.source?.display_name ?? null,
      authors: (r.authorships ?? [])
        .filter((a) => a.author?.id)
        .map((a) => ({
          key: a.author!.id!,
          name: a.author!.display_name ?? '',
          orcid: a.author!.orcid ?? null,
          affiliations: a.raw_affiliation_strings ?? [],
        })),
    });
  }
  return works;
}

export { seededRandom, seededShuffle };

/** Splits the works, in file order, into the held-out set and the corpus, by a seeded shuffle. */
export function splitHoldout(
  works: readonly AclWork[],
  size = HOLDOUT_SIZE,
  seed = HOLDOUT_SEED,
): { heldOut: AclWork[]; corpus: AclWork[] } {
  const order = seededShuffle(
    works.map((_, i) => i),
    seededRandom(seed),
  );
  const held = new Set(order.slice(0, size));
  return {
    heldOut: works.filter((_, i) => held.has(i)),
    corpus: works.filter((_, i) => !held.has(i)),
  };
}

/**
 * A reviewer pool in the shape of the expert-judged benchmark (RANKING.md: each reviewer known by a
 * profile of at most `profileSize` papers): `reviewers` authors of at least `minWorks` works drawn by
 * a seeded shuffle; of each, `queriesEach` works held out as manuscripts, and the `profileSize` most
 * recent of the rest form the corpus (with every co-author on them, as an ingest of those papers
 * would bring). A small corpus, unlike the hold-out split's 39,906 works.
 */
export function reviewerPoolSplit(
  works: readonly AclWork[],
  { reviewers = 60, minWorks = 10, profileSize = 20, queriesEach = 2, seed = HOLDOUT_SEED } = {},
): { heldOut: AclWork[]; corpus: AclWork[]; reviewerKeys: Set<string> } {
  const worksOf = new Map<string, number[]>();
  works.forEach((w, i) => {
    for (const a of w.authors) appendTo(worksOf, a.key, i);
  });
  const random = seededRandom(seed);
  const shuffle = <T>(xs: T[]): T[] => seededShuffle(xs, random);
  const eligible = shuffle([...worksOf.keys()].filter((k) => worksOf.get(k)!.length >= minWorks).sort());
  const reviewerKeys = new Set(eligible.slice(0, reviewers));
  const queries = new Set<number>();
  const profile = new Set<number>();
  for (const key of reviewerKeys) {
    const own = shuffle([...worksOf.get(key)!]);
    own.slice(0, queriesEach).forEach((i) => queries.add(i));
  }
  for (const key of reviewerKeys) {
    worksOf
      .get(key)!
      .filter((i) => !queries.has(i))
      .sort((a, b) => (works[b]!.year ?? 0) - (works[a]!.year ?? 0) || a - b)
      .slice(0, profileSize)
      .forEach((i) => profile.add(i));
  }
  return {
    heldOut: [...queries].sort((a, b) => a - b).map((i) => works[i]!),
    corpus: [...profile].sort((a, b) => a - b).map((i) => works[i]!),
    reviewerKeys,
  };
}

/**
 * A held-out work as the manuscript the referee finder ranks for: its title, abstract and authors,
 * each with the first affiliation they stated (ACL records carry no emails nor references).
 */
export function aclManuscript(w: AclWork, i: number, organizationId: number): ManuscriptForRanking {
  return {
    organizationId,
    manuscriptId: i + 1,
    originId: `q-${i}`,
    folderId: 1,
    title: w.title,
    abstract: w.abstract,
    keywords: [],
    fullText: null,
    authors: w.authors.map((a) => ({
      name: a.name,
      email: null,
      orcid: a.orcid,
      affiliation: a.affiliations[0] ?? null,
    })),
    references: [],
  };
}
