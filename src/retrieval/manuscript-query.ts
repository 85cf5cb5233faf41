// The one query a manuscript makes, for both recommenders (referees and journals): title,
// abstract and keywords at full weight, the parsed full text's head at a lower weight and capped to
// its most informative terms, so a long file adds evidence without drowning the metadata or slowing
// the search. One set of parameters; the index analyses and weighs the text (work-index.ts).
import { stem } from './analyzer.ts';
import type { PreparedQuery, QueryField, QueryOptions, WorkIndex } from './work-index.ts';

export interface ManuscriptText {
  title: string;
  abstract: string;
  keywords: readonly string[];
  fullText: string | null;
}

/** One occurrence in the full text counts this much against one in the title or abstract. */
export const FULL_TEXT_WEIGHT = 0.4;
/** The full text's most informative terms kept (by weight times IDF). */
export const FULL_TEXT_TERMS = 80;
// Full texts beyond this are mostly references and appendices; the head says what the work is.
// It also bounds the analysis of one huge upload on the event loop.
export const FULL_TEXT_CHARS = 60_000;

// The wording of any abstract ("we propose a novel approach", "results show"): shown as a concept
// it says nothing of the topic. (As query terms they help: see MANUSCRIPT_QUERY_OPTIONS.)
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

/** Whether an analysed term speaks of the topic (no part of it is the wording of any abstract). */
export function informative(term: string): boolean {
  return !term.split(' ').some((part) => BOILERPLATE.has(part));
}

/**
 * The query's parameters: the retrieval defaults (terms in more than half the works left out, the
 * 200 most informative kept). Measured on 2026-11-24 (docs/benchmarks/quality.md, journals.md):
 * the referee finder's old cut at 10% of the works lost on both benches (referees MRR 0.2963,
 * journals accuracy@5 0.744), and so did leaving out the wording of any abstract (`informative`:
 * MRR 0.2972 against 0.3059 with it kept; accuracy@5 0.752 against 0.760). That wording still keeps
 * phrases like "proposed method" out of the concepts shown to people.
 */
export const MANUSCRIPT_QUERY_OPTIONS: QueryOptions = {
  maxDfRatio: 0.5,
  maxTerms: 200,
};

export function manuscriptFields(m: ManuscriptText): QueryField[] {
  const fields: QueryField[] = [
    { text: m.title, weight: 1 },
    { text: m.abstract, weight: 1 },
  ];
  if (m.keywords.length > 0) fields.push({ text: m.keywords.join('. '), weight: 1 });
  if (m.fullText) {
    fields.push({
      text: m.fullText.slice(0, FULL_TEXT_CHARS),
      weight: FULL_TEXT_WEIGHT,
      maxTerms: FULL_TEXT_TERMS,
    });
  }
  return fields;
}

/** The manuscript's query, prepared once and passed to every index call about it. */
export function manuscriptQuery(
  index: WorkIndex,
  m: ManuscriptText,
  options: QueryOptions = MANUSCRIPT_QUERY_OPTIONS,
): Promise<PreparedQuery> {
  return index.prepare(manuscriptFields(m), options);
}
