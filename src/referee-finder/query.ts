// The manuscript as a weighted query: title, abstract and keywords at full weight, parsed full text
// at a lower weight and capped to its most informative terms, so a long file adds evidence without
// drowning the metadata or slowing the search.
import { stem } from '../retrieval/analyzer.ts';
import { idf, type RankingIndex } from './ranking-index.ts';

export interface ManuscriptText {
  title: string;
  abstract: string;
  keywords: string[];
  fullText: string | null;
}

export interface WeightedQuery {
  termIds: number[];
  /** Query weight times IDF, per term. */
  weights: number[];
  /** Score the query would give a perfect match; divides work scores so a long query does not inflate them. */
  selfScore: number;
  /** Surface forms of the metadata's terms, for concepts. */
  surfaces: Map<string, string>;
  /** Term -> weight in the metadata alone (title, abstract, keywords), for concepts. */
  metaCounts: Map<string, number>;
}

const MIN_DOCS_FOR_DF_CUT = 1000;
// Terms in more than this share of the works are left out of the ranking's query: their IDF is 2.3
// at most, yet with the search's own cut (0.5) they carried 69% of the postings the ranking scores on
// the main thread (ACL held-out titles + abstracts: 201k postings per query at 0.5, 63k at 0.1; about
// 4.8M and 1.5M at 1M works). Quality bench, 2,000 held-out ACL works: MRR 0.2996 at 0.5, 0.2993 at
// 0.1, 0.2931 at 0.05; ranking 10.1 -> 6.6 ms per query at 0.1.
const MAX_DF_RATIO = 0.1;
const MAX_META_TERMS = 120;
const MAX_FULL_TEXT_TERMS = 80;
const FULL_TEXT_WEIGHT = 0.4;
// Full texts beyond this are mostly references and appendices; the head says what the work is.
const FULL_TEXT_CHARS = 60_000;

// The wording of any abstract ("we propose a novel approach", "results show"): the index keeps
// these words, but as query terms, and in bigrams above all, they match style rather than topic.
const BOILERPLATE = new Set(
  (
    'paper papers propose proposed proposes present presents presented show shows shown study ' +
    'studies result results approach approaches method methods work works based novel new use used ' +
    'using also well first second two three one several various different demonstrate demonstrates ' +
    'introduce introduces achieve achieves achieved significantly outperform outperforms improve ' +
    'improves improved experiment experiments experimental existing previous recent recently task tasks ' +
    'however furthermore moreover finally specifically make makes way ways'
  )
    .split(' ')
    .map(stem),
);

export function informative(term: string): boolean {
  return !term.split(' ').some((part) => BOILERPLATE.has(part));
}

function count(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

function topTerms(index: RankingIndex, counts: Map<string, number>, max: number, scale: number) {
  const scored: Array<{ id: number; term: string; w: number }> = [];
  // In a small corpus every term is "common"; the cut-off only means something in a large one.
  const maxDf = index.docCount >= MIN_DOCS_FOR_DF_CUT ? MAX_DF_RATIO * index.docCount : Infinity;
  for (const [term, c] of counts) {
    if (!informative(term)) continue;
    const id = index.termId(term);
    // Terms in a large share of the corpus say little and cost the most to score.
    if (id < 0 || index.docFreq(id) > maxDf) continue;
    const termIdf = idf(index, id);
    scored.push({ id, term, w: scale * (1 + Math.log(c)) * termIdf });
  }
  scored.sort((a, b) => b.w - a.w);
  return scored.slice(0, max);
}

export function buildQuery(index: RankingIndex, text: ManuscriptText): WeightedQuery {
  const meta = [text.title, text.abstract, ...text.keywords].filter(Boolean).join('. ');
  const analyzed = index.analyze(meta, true);
  const metaCounts = count(analyzed.terms);
  const byId = new Map<number, number>();
  for (const t of topTerms(index, metaCounts, MAX_META_TERMS, 1)) byId.set(t.id, t.w);
  if (text.fullText) {
    // No surface forms: concepts come from the metadata alone, which has its own.
    const full = index.analyze(text.fullText.slice(0, FULL_TEXT_CHARS));
    for (const t of topTerms(index, count(full.terms), MAX_FULL_TEXT_TERMS, FULL_TEXT_WEIGHT)) {
      byId.set(t.id, (byId.get(t.id) ?? 0) + t.w);
    }
  }
  const termIds = [...byId.keys()];
  const weights = termIds.map((id) => byId.get(id)!);
  const selfScore = weights.reduce((s, w) => s + w, 0) || 1;
  return { termIds, weights, selfScore, surfaces: analyzed.surfaces, metaCounts };
}
