// `npm run bench:journals`: where the real venue of each of the 2,000 held-out ACL works (the same
// hold-out as the referee quality bench) ranks among the recommended venues, for our ranking and for
// the JANE baseline (the 50 most similar works by BM25, a venue's score the sum of their
// similarities), both over the service's own BM25 index; then the latency of the ranking core at
// the ACL size and at 1M works (the ACL works scaled up by the retrieval bench's generator).
// Ours also knows the authors' other works (their venues), as the route does from the upload's
// authors; JANE does not use authors.
// Options: --limit N (works scored), --no-scale (skip the 1M run), --scale N, --split dev (instead
// of the hold-out, 2,000 corpus works each left out of its own evidence: the split the ranking's
// parameters are chosen on, so the hold-out's labels are never tuned on), --split time (the corpus
// before the file's last year, 2,000 works of that year asked about: timeSplit), --split time-dev
// (the same a year earlier: where a change meant for the time split is chosen).
import { parseArgs } from 'node:util';
import {
  aclDataAvailable,
  ACL_WORKS_PATH,
  loadAclWorks,
  seededRandom,
  seededShuffle,
  splitHoldout,
  type AclWork,
} from './lib/acl-holdout.ts';
import { scaleUp } from './retrieval-corpus.ts';
import { LocalWorkIndex } from '../src/retrieval/local-work-index.ts';
import { MANUSCRIPT_QUERY_OPTIONS, manuscriptQuery } from '../src/retrieval/manuscript-query.ts';
import type { SearchHit } from '../src/retrieval/work-index.ts';
import {
  DEFAULT_RANKING,
  rankVenues,
  type RankingInput,
  type RankingParams,
  type WorkFacts,
} from '../src/journals/rank-journals.ts';

const { values: opts } = parseArgs({
  options: {
    limit: { type: 'string', default: '2000' },
    scale: { type: 'string', default: '1000000' },
    'no-scale': { type: 'boolean', default: false },
    'latency-queries': { type: 'string', default: '400' },
    // '{"maxDfRatio":0.5}': the manuscript query's options changed, for an ablation.
    query: { type: 'string', default: '{}' },
    split: { type: 'string', default: 'holdout' },
  },
});
if (!['holdout', 'dev', 'time', 'time-dev'].includes(opts.split!)) {
  console.error('--split is holdout, dev, time or time-dev');
  process.exit(2);
}

if (!aclDataAvailable()) {
  console.error(`ACL Anthology data is MISSING (${ACL_WORKS_PATH}): bench:journals cannot run.`);
  process.exit(2);
}

interface Corpus {
  index: LocalWorkIndex;
  facts: Map<number, WorkFacts>;
  sizes: Map<number, number>;
  /** Works per venue and year: only for the year-aware ceiling printed for reference. */
  venueYears: Map<number, Map<number, number>>;
  /** Per author (the Anthology's person id), their works per venue. */
  authorVenues: Map<string, Map<number, number>>;
  currentYear: number;
}

const venueIds = new Map<string, number>();
const venueKeys = new Map<number, string>();
function venueId(key: string | null): number | null {
  if (key === null) return null;
  let id = venueIds.get(key);
  if (id === undefined) {
    id = venueIds.size + 1;
    venueIds.set(key, id);
    venueKeys.set(id, key);
  }
  return id;
}

function newCorpus(): Corpus {
  // The main thread answers every search, at 1M works too: the bench measures the ranking's CPU.
  const index = new LocalWorkIndex({ workerMinWorks: Infinity });
  return {
    index,
    facts: new Map(),
    sizes: new Map(),
    venueYears: new Map(),
    authorVenues: new Map(),
    currentYear: 0,
  };
}

function addWork(
  c: Corpus,
  workId: number,
  title: string,
  abstract: string,
  year: number | null,
  venue: number | null,
  authorKeys: readonly string[] = [],
) {
  c.index.upsert({ workId, title, abstract, year, changeSeq: workId });
  if (venue !== null) {
    for (const key of authorKeys) {
      let venues = c.authorVenues.get(key);
      if (!venues) c.authorVenues.set(key, (venues = new Map()));
      venues.set(venue, (venues.get(venue) ?? 0) + 1);
    }
  }
  c.facts.set(workId, { sourceId: venue, year });
  if (venue !== null) c.sizes.set(venue, (c.sizes.get(venue) ?? 0) + 1);
  if (venue !== null && year !== null) {
    let years = c.venueYears.get(venue);
    if (!years) c.venueYears.set(venue, (years = new Map()));
    years.set(year, (years.get(year) ?? 0) + 1);
  }
  if (year !== null && year > c.currentYear) c.currentYear = year;
}

const HITS = Math.max(DEFAULT_RANKING.votingWorks, 50);

/** Ours searches as the route does (the manuscript's query); JANE plain BM25 over the text. */
const queryOptions = { ...MANUSCRIPT_QUERY_OPTIONS, ...(JSON.parse(opts.query) as object) };
/**
 * A work asked about: a held-out one, or (--split dev) a corpus work left out of its own evidence:
 * its id is filtered from the hits, and it is taken off its venue's size and its authors' venues.
 */
interface Probe {
  work: AclWork;
  self: { workId: number; venue: number } | null;
}
const notSelf = (p: Probe) => (p.self ? { filter: (id: number) => id !== p.self!.workId } : {});

async function search(c: Corpus, p: Probe): Promise<SearchHit[]> {
  const query = await manuscriptQuery(
    c.index,
    { title: p.work.title, abstract: p.work.abstract, keywords: [], fullText: null },
    queryOptions,
  );
  return c.index.search({ query, k: HITS, ...notSelf(p) });
}
function plainSearch(c: Corpus, p: Probe): Promise<SearchHit[]> {
  const fields = [
    { text: p.work.title, weight: 1 },
    { text: p.work.abstract, weight: 1 },
  ];
  return c.index.search({ fields, k: HITS, ...notSelf(p) });
}

/** The probe's authors' works per venue, as the route reads them for the upload's authors. */
function authorVenuesOf(c: Corpus, p: Probe): Map<number, number> {
  const out = new Map<number, number>();
  for (const a of new Set(p.work.authors.map((x) => x.key))) {
    for (const [v, n] of c.authorVenues.get(a) ?? []) out.set(v, (out.get(v) ?? 0) + n);
    if (p.self) out.set(p.self.venue, (out.get(p.self.venue) ?? 0) - 1);
  }
  return out;
}

const NO_AUTHORS = new Map<number, number>();
function rankingInput(c: Corpus, p: Probe, hits: SearchHit[], authors = true): RankingInput {
  return {
    hits,
    facts: c.facts,
    venueSize: (v) => (c.sizes.get(v) ?? 0) - (v === p.self?.venue ? 1 : 0),
    citedWorks: [],
    authorVenues: authors ? authorVenuesOf(c, p) : NO_AUTHORS,
    corpusWorks: c.index.stats().works - (p.self ? 1 : 0),
    currentYear: c.currentYear,
  };
}

function ours(
  c: Corpus,
  p: Probe,
  hits: SearchHit[],
  params: RankingParams = DEFAULT_RANKING,
  authors = true,
): number[] {
  return rankVenues(rankingInput(c, p, hits, authors), params).map((v) => v.sourceId);
}

/**
 * A ceiling, not a method: our ranking with each venue's score multiplied by its share of works in
 * the held-out work's own year (which venues met that year). The service does not know that year
 * at upload time, so this only shows how much of the gap to the target the year would explain.
 */
function oursKnowingYear(c: Corpus, p: Probe, hits: SearchHit[], year: number | null): number[] {
  const ranked = rankVenues(rankingInput(c, p, hits));
  if (year === null) return ranked.map((v) => v.sourceId);
  const share = (v: number) => (c.venueYears.get(v)?.get(year) ?? 0) / Math.max(1, c.sizes.get(v) ?? 0);
  return ranked
    .map((v) => ({ id: v.sourceId, score: v.score * share(v.sourceId) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map((v) => v.id);
}

/**
 * The ACL venues that take the same topics: the main conferences, their Findings volumes and the
 * two journals (CoNLL too). Half of our misses are one of them answered with the others.
 */
const MAIN_VENUES = new Set(
  [
    ...['acl', 'emnlp', 'naacl', 'eacl', 'aacl', 'tacl', 'cl', 'conll'],
    ...['findings-acl', 'findings-emnlp', 'findings-naacl', 'findings-eacl'],
  ].map((v) => `acl:venue/${v}`),
);

/**
 * A second ceiling, not a method: our ranking with the venues of the held-out work's own kind
 * first (a main conference or journal, see MAIN_VENUES, or a workshop), each kind in our order.
 * It shows what a perfect "main conference or workshop?" classifier would add; the best real one
 * we trained (tf-idf logistic regression, AUC 0.91) added +0.010 (docs/benchmarks/journals.md).
 */
function oursKnowingKind(c: Corpus, p: Probe, hits: SearchHit[], truthIsMain: boolean): number[] {
  const ranked = ours(c, p, hits);
  const isMain = (v: number) => MAIN_VENUES.has(venueKeys.get(v) ?? '');
  return [
    ...ranked.filter((v) => isMain(v) === truthIsMain),
    ...ranked.filter((v) => isMain(v) !== truthIsMain),
  ];
}

function jane(c: Corpus, hits: SearchHit[]): number[] {
  const sums = new Map<number, number>();
  for (const hit of hits.slice(0, 50)) {
    const v = c.facts.get(hit.workId)?.sourceId;
    if (v != null) sums.set(v, (sums.get(v) ?? 0) + hit.score);
  }
  return [...sums].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([v]) => v);
}

interface Quality {
  n: number;
  at1: number;
  at5: number;
  rr: number;
}
const emptyQuality = (): Quality => ({ n: 0, at1: 0, at5: 0, rr: 0 });
function record(q: Quality, ranking: number[], truth: number) {
  q.n++;
  const rank = ranking.indexOf(truth) + 1; // 0 when the venue got no vote: counts as a miss
  if (rank === 1) q.at1++;
  if (rank >= 1 && rank <= 5) q.at5++;
  if (rank >= 1) q.rr += 1 / rank;
}
const fmt = (x: number) => x.toFixed(3);
const summary = (q: Quality) => ({ acc1: q.at1 / q.n, acc5: q.at5 / q.n, mrr: q.rr / q.n });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Wall-clock and CPU time per query: on a shared machine the CPU time is the steadier figure. */
async function latency(c: Corpus, queries: AclWork[]) {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  for (const w of queries) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const p = { work: w, self: null };
    ours(c, p, await search(c, p));
    const cpu = process.cpuUsage(cpu0);
    ms.push(performance.now() - t0);
    cpuMs.push((cpu.user + cpu.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpuMs.sort((a, b) => a - b);
  return {
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    max: ms[ms.length - 1]!,
    cpuP50: percentile(cpuMs, 50),
    cpuP95: percentile(cpuMs, 95),
  };
}
const cpuText = (l: { cpuP50: number; cpuP95: number }) =>
  `; CPU p50 ${l.cpuP50.toFixed(1)} ms, p95 ${l.cpuP95.toFixed(1)} ms`;

/**
 * --split time: the corpus as it stood before the last year of the file, and 2,000 works of that
 * year (a seeded draw) as the manuscripts: what a deployment meets, new papers against the venues'
 * past (a venue's recent activity, venues that began or ended, speak here as a random split hides).
 */
function timeSplit(works: readonly AclWork[], yearsBack = 0): { heldOut: AclWork[]; corpus: AclWork[] } {
  const last = Math.max(...works.map((w) => w.year ?? 0)) - yearsBack;
  const latest = works.filter((w) => w.year === last);
  const order = seededShuffle(
    latest.map((_, i) => i),
    seededRandom(20261129),
  );
  return {
    heldOut: order.slice(0, 2000).map((i) => latest[i]!),
    corpus: works.filter((w) => w.year !== null && w.year < last),
  };
}

const t0 = performance.now();
const all = await loadAclWorks();
const { heldOut, corpus: rest } =
  opts.split === 'time' ? timeSplit(all) : opts.split === 'time-dev' ? timeSplit(all, 1) : splitHoldout(all);
const corpus = newCorpus();
rest.forEach((w, i) =>
  addWork(
    corpus,
    i + 1,
    w.title,
    w.abstract,
    w.year,
    venueId(w.venueKey),
    w.authors.map((a) => a.key),
  ),
);
corpus.index.flush();
console.log(
  `ACL corpus: ${rest.length} works indexed, ${heldOut.length} held out, ${corpus.sizes.size} venues ` +
    `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);

// The dev split: 2,000 corpus works drawn with seed 777, each left out of its own evidence.
function devProbes(): Probe[] {
  const order = seededShuffle(
    rest.map((_, i) => i),
    seededRandom(777),
  );
  return order.slice(0, 2000).flatMap((i) => {
    const venue = venueId(rest[i]!.venueKey);
    return venue === null ? [] : [{ work: rest[i]!, self: { workId: i + 1, venue } }];
  });
}
const probes: Probe[] = opts.split === 'dev' ? devProbes() : heldOut.map((work) => ({ work, self: null }));
const limit = Math.min(Number(opts.limit), probes.length);
const ourQ = emptyQuality();
const janeQ = emptyQuality();
const variants: Record<string, { params: RankingParams; q: Quality }> = {
  'no size normalisation': { params: { ...DEFAULT_RANKING, sizeExponent: 0 }, q: emptyQuality() },
  'no recency': { params: { ...DEFAULT_RANKING, recencyFloor: 1 }, q: emptyQuality() },
  'power 1': { params: { ...DEFAULT_RANKING, power: 1 }, q: emptyQuality() },
};
const noAuthorsQ = emptyQuality();
// Reference points: always answering the largest venues (the floor content must beat), and the
// ceiling that knows the held-out year (see oursKnowingYear).
const largestFirst = [...corpus.sizes].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([v]) => v);
const largestQ = emptyQuality();
const yearCeilingQ = emptyQuality();
const kindCeilingQ = emptyQuality();
const missesByVenue = new Map<number, { misses: number; works: number }>();
for (const p of probes.slice(0, limit)) {
  const w = p.work;
  const truth = venueId(w.venueKey);
  if (truth === null) continue;
  const hits = await search(corpus, p);
  const ourRanking = ours(corpus, p, hits);
  record(ourQ, ourRanking, truth);
  const m = missesByVenue.get(truth) ?? { misses: 0, works: 0 };
  m.works++;
  if (!ourRanking.slice(0, 5).includes(truth)) m.misses++;
  missesByVenue.set(truth, m);
  record(largestQ, largestFirst, truth);
  record(yearCeilingQ, oursKnowingYear(corpus, p, hits, w.year), truth);
  record(kindCeilingQ, oursKnowingKind(corpus, p, hits, MAIN_VENUES.has(w.venueKey ?? '')), truth);
  record(janeQ, jane(corpus, await plainSearch(corpus, p)), truth);
  for (const v of Object.values(variants)) record(v.q, ours(corpus, p, hits, v.params), truth);
  record(noAuthorsQ, ours(corpus, p, hits, DEFAULT_RANKING, false), truth);
}
const o = summary(ourQ);
const j = summary(janeQ);
const what =
  opts.split === 'dev'
    ? 'dev-split corpus works (each left out)'
    : opts.split.startsWith('time')
      ? `works of ${heldOut[0]?.year} (the corpus: the years before)`
      : 'held-out works';
console.log(`\nVenue of ${ourQ.n} ${what}, recommended from title + abstract (+ authors for ours):`);
console.log('method                         acc@1  acc@5  MRR');
console.log(`ours (refmatch)                ${fmt(o.acc1)}  ${fmt(o.acc5)}  ${fmt(o.mrr)}`);
console.log(`JANE baseline                  ${fmt(j.acc1)}  ${fmt(j.acc5)}  ${fmt(j.mrr)}`);
console.log(
  `ratio ours/JANE                ${fmt(o.acc1 / j.acc1)}  ${fmt(o.acc5 / j.acc5)}  ${fmt(o.mrr / j.mrr)}` +
    `   (target acc@5 ratio >= 1.050: ${o.acc5 / j.acc5 >= 1.05 ? 'met' : 'NOT met'})`,
);
{
  const s = summary(noAuthorsQ);
  console.log(`  ablation: no authors' venues  ${fmt(s.acc1)}  ${fmt(s.acc5)}  ${fmt(s.mrr)}`);
}
for (const [name, v] of Object.entries(variants)) {
  const s = summary(v.q);
  console.log(`  ablation: ${name.padEnd(20)} ${fmt(s.acc1)}  ${fmt(s.acc5)}  ${fmt(s.mrr)}`);
}
{
  const floor = summary(largestQ);
  const ceiling = summary(yearCeilingQ);
  console.log(`  reference: largest venues   ${fmt(floor.acc1)}  ${fmt(floor.acc5)}  ${fmt(floor.mrr)}`);
  // On a time split the corpus holds no work of the manuscripts' year: no ceiling to show.
  if (!opts.split.startsWith('time'))
    console.log(
      `  reference: ours + true year  ${fmt(ceiling.acc1)}  ${fmt(ceiling.acc5)}  ${fmt(ceiling.mrr)}` +
        '   (uses the held-out year: not available to the service)',
    );
  const kind = summary(kindCeilingQ);
  console.log(
    `  reference: ours + true kind  ${fmt(kind.acc1)}  ${fmt(kind.acc5)}  ${fmt(kind.mrr)}` +
      '   (knows main conference or workshop: not available to the service)',
  );
}
const worstVenues = [...missesByVenue]
  .sort((a, b) => b[1].misses - a[1].misses || a[0] - b[0])
  .slice(0, 10)
  .map(([v, m]) => `${venueKeys.get(v)?.replace(/^acl:venue\//, '')} ${m.misses}/${m.works}`);
console.log(`  ours, outside the top 5 (venue misses/held-out works): ${worstVenues.join(', ')}`);

const latencyQueries = heldOut.slice(0, Number(opts['latency-queries']));
const small = await latency(corpus, latencyQueries);
console.log(
  `\nLatency of the ranking core (query analysis + BM25 top ${HITS} + venue ranking), ` +
    `${latencyQueries.length} queries at ${rest.length} works: p50 ${small.p50.toFixed(1)} ms, ` +
    `p95 ${small.p95.toFixed(1)} ms (target p95 <= 100 ms), max ${small.max.toFixed(1)} ms${cpuText(small)}`,
);

if (!opts['no-scale']) {
  const target = Number(opts.scale);
  // The generator hides which real work a synthetic one was mixed from; its title is a prefix of a
  // neighbour's title (neighbours in the file share a venue), so the first words find the venue.
  const venueByTitle = new Map<string, number | null>();
  const titleKey = (title: string) => title.split(/\s+/).slice(0, 3).join(' ').toLowerCase();
  for (const w of rest) venueByTitle.set(titleKey(w.title), venueId(w.venueKey));
  const base = rest.map((w, i) => ({ id: i + 1, title: w.title, abstract: w.abstract, year: w.year }));
  const t1 = performance.now();
  for (const g of scaleUp(base, target - rest.length, rest.length + 1)) {
    addWork(corpus, g.id, g.title, g.abstract, g.year, venueByTitle.get(titleKey(g.title)) ?? null);
    if (g.id % 100_000 === 0) process.stderr.write(`  scaled to ${g.id} works\n`);
  }
  corpus.index.flush();
  console.log(
    `\nScaled corpus: ${corpus.index.stats().works} works (${((performance.now() - t1) / 1000).toFixed(0)} s to build)`,
  );
  const big = await latency(corpus, latencyQueries);
  console.log(
    `Latency at ${corpus.index.stats().works} works, ${latencyQueries.length} queries: p50 ${big.p50.toFixed(1)} ms, ` +
      `p95 ${big.p95.toFixed(1)} ms (target p95 <= 300 ms), max ${big.max.toFixed(1)} ms${cpuText(big)}`,
  );
}
