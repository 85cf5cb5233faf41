// Key concepts and the explanation of each candidate, both from what the index says made the
// score: the query terms each of the candidates' works matched, with their share of its score
// (WorkIndex.matchedTerms). A concept is a multi-word term of the field (an adjacent-word bigram the
// corpus knows, in the words the manuscript wrote), ranked by how much of the candidates' evidence
// it carries, then by how informative it is in the manuscript (query weight x IDF). Bigrams that the
// manuscript writes one after the other are one phrase of three or four words ("neural machine" and
// "machine translation" in "neural machine translation"): the fragments alone read as nothing an
// editor would say ("neural machine", "resource languages"). A bigram the corpus's titles hold far
// less often than its document frequency predicts is a piece of an abstract's wording ("thereby
// enhancing", "large amounts"), not a term of the field (wordingOdds).
import { ANALYSIS_PIECE_CHARS, forEachPhraseInPieces, isBigram } from '../retrieval/analyzer.ts';
import { informative } from '../retrieval/manuscript-query.ts';
import type { MatchedTerm, PreparedQuery, WorkIndex } from '../retrieval/work-index.ts';
import type { RankedAuthor } from './rank-authors.ts';
import { appendTo } from '../infra/collections.ts';
import { TimeSlicer, runSliced } from '../infra/event-loop.ts';

const MAX_CONCEPTS = 15;
/** Wording is dropped only while this many concepts remain (a short text keeps its few). */
const MIN_CONCEPTS = 5;
/** Works per candidate whose matched terms explain them (and count for concepts). */
export const EXPLAINED_WORKS = 10;
const TERMS_PER_WORK = 8;

/** When adjacent terms make one phrase (`phraseRanges`, `phraseRange`). */
const PHRASE_RULES = {
  /** A phrase is at most four words; a longer run is rarely one concept ("message passing neural networks learn"). */
  maxBigrams: 3,
  /**
   * Adjacent terms join only when the rarer is found in at least this share of the works the commoner
   * is: "neural machine" (1,345 ACL works) and "machine translation" (3,245) are one phrase,
   * "analyzing knowledge" (a handful) does not stick to "knowledge distillation" (hundreds).
   */
  dfRatio: 0.25,
  /** Phrases seen in a single work are more often accidents of wording than concepts. */
  minDocFreq: 2,
} as const;

/**
 * When a bigram is abstract wording, not a term of the field (`wordingOdds`): its works hold it in
 * their title at under `rateShare` of the corpus's base rate (the share of (work, bigram) pairs that
 * are title ones), and so few would happen by chance with at most `significance`, were it in titles
 * at the base rate. The test alone also drops general terms found in titles somewhat less often than
 * the average bigram ("human evaluation", "machine learning": 3-4% of their works in the demo
 * corpus, against its base rate of 9.6%); the size of the gap is what sets wording apart (0-2%).
 */
const WORDING_RULES = {
  rateShare: 0.25,
  /** The conventional 1% of a one-sided test. */
  significance: 0.01,
} as const;

export interface ExplainedWork {
  workId: number;
  /** The work's score against the manuscript (normalised by the query). */
  score: number;
  /** What it added to the author's document-model evidence (score x recency x position). */
  weighted: number;
  /** Its matched query terms, most contributing first, with their share of its score. */
  terms: Array<{ label: string; contribution: number }>;
}

/** Why a candidate is there: the score's parts, the works and the terms behind them. */
export interface Explanation {
  authorId: number;
  score: number;
  /** The document model's part: the mean of the top works' weighted scores. */
  docScore: number;
  /** The candidate model's part: the author's works scored as one profile. */
  profileScore: number;
  works: ExplainedWork[];
  /** The terms summed over those works, most contributing first (multi-word and single words). */
  terms: Array<{ label: string; contribution: number; multiWord: boolean }>;
  /** The manuscript's concepts these works share, most contributing first. */
  concepts: string[];
}

/** Works and terms the dashboard shows of an explanation (candidateWhy). */
const WHY_WORKS = 5;
const WHY_TERMS = 8;
const WHY_WORK_TERMS = 4;

/**
 * Why a candidate is there, as an editor reads it (the dashboard's manuscript page): the two parts
 * of the score, and the terms and works behind it as shares of the evidence instead of raw scores.
 */
export interface CandidateWhy {
  /** The document model's part: how well the candidate's best works match (rank-authors.ts). */
  docScore: number;
  /** The candidate model's part: how well all the candidate's works, as one profile, match. */
  profileScore: number;
  /** The matched terms (at most 8), most contributing first, each with its share (0-1) of what all matched. */
  terms: Array<{ label: string; share: number }>;
  /**
   * The works that contributed most (at most 5, after recency and authorship position), each with
   * its share (0-1) of the explained works' evidence and the terms it matched most (at most 4). By
   * id: the page reads their titles when it is shown, so an upload stores no more than the ranking's.
   */
  works: Array<{ id: number; share: number; terms: string[] }>;
  /** The folder's group boost, when it multiplied this candidate's score (absent otherwise). */
  boost?: number;
}

/**
 * Terms as an editor reads them: each folded into the first of the candidate's concept phrases that
 * holds all its words ("graph", "neural networks" into "graph neural networks"); a term in no phrase
 * stands alone. Returns the label a term is shown under (memoized: a work's terms are among the
 * candidate's).
 */
function phraseLabeller(phrases: readonly string[]): (term: string) => string {
  const phraseWords = phrases.map((label) => ({ label, words: new Set(label.toLowerCase().split(' ')) }));
  const shownAs = new Map<string, string>();
  return (term) => {
    let label = shownAs.get(term);
    if (label === undefined) {
      const words = term.toLowerCase().split(/\s+/);
      label = phraseWords.find((p) => words.every((w) => p.words.has(w)))?.label ?? term;
      shownAs.set(term, label);
    }
    return label;
  };
}

/** Terms summed under the labels they are shown as, most contributing first. */
function sumByLabel(
  terms: ReadonlyArray<{ label: string; contribution: number }>,
  labelOf: (term: string) => string,
): Array<{ label: string; contribution: number }> {
  const totals = new Map<string, number>();
  for (const t of terms) {
    const label = labelOf(t.label);
    totals.set(label, (totals.get(label) ?? 0) + t.contribution);
  }
  return [...totals]
    .map(([label, contribution]) => ({ label, contribution }))
    .sort((a, b) => b.contribution - a.contribution || (a.label < b.label ? -1 : 1));
}

/** Shares and scores as stored and shown: three decimals say all a percentage needs. */
const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** An explanation as the dashboard shows it. */
export function candidateWhy(explanation: Explanation): CandidateWhy {
  const labelOf = phraseLabeller(explanation.concepts);
  const terms = sumByLabel(explanation.terms, labelOf);
  const termTotal = terms.reduce((t, x) => t + x.contribution, 0);
  const workTotal = explanation.works.reduce((t, w) => t + w.weighted, 0);
  return {
    docScore: rounded(explanation.docScore),
    profileScore: rounded(explanation.profileScore),
    terms:
      termTotal > 0
        ? terms
            .slice(0, WHY_TERMS)
            .map((t) => ({ label: t.label, share: rounded(t.contribution / termTotal) }))
        : [],
    works: explanation.works
      .filter((w) => w.weighted > 0)
      .sort((a, b) => b.weighted - a.weighted || a.workId - b.workId)
      .slice(0, WHY_WORKS)
      .map((w) => ({
        id: w.workId,
        share: rounded(w.weighted / workTotal),
        terms: sumByLabel(w.terms, labelOf)
          .slice(0, WHY_WORK_TERMS)
          .map((t) => t.label),
      })),
  };
}

export interface ConceptsAndExplanations {
  /** The manuscript's key concepts, most explaining first. */
  concepts: string[];
  explanations: Map<number, Explanation>;
}

/**
 * The manuscript's concepts and, for each author given (best first), the explanation of their
 * place: one read of each author's top works' rows. `texts` are the manuscript's fields the query
 * was made from (manuscriptFields), where bigrams written one after the other are found.
 */
export async function explainRanking(
  index: WorkIndex,
  query: PreparedQuery,
  authors: readonly RankedAuthor[],
  texts: readonly string[] = [],
): Promise<ConceptsAndExplanations> {
  const workIds = [
    ...new Set(authors.flatMap((a) => a.works.slice(0, EXPLAINED_WORKS).map((w) => w.workId))),
  ];
  const matched = workIds.length
    ? await index.matchedTerms({ query, workIds })
    : new Map<number, MatchedTerm[]>();

  // Candidate concepts: the query's bigrams that are known beyond one work; those titles hold
  // significantly less often than their df predicts are wording, each with its test's p-value.
  const conceptTerms = new Map<string, { label: string; prior: number; explained: number; df: number }>();
  const wording = new Map<string, number>();
  for (const t of query.terms) {
    if (!t.bigram || t.df < PHRASE_RULES.minDocFreq || t.feedback || !informative(t.term)) continue;
    conceptTerms.set(t.term, {
      label: t.surface || t.term,
      prior: t.queryWeight * t.idf,
      explained: 0,
      df: t.df,
    });
    if (t.titleDf === undefined || query.titleShare === undefined) continue;
    const odds = wordingOdds(t.df, t.titleDf, query.titleShare);
    if (odds !== null) wording.set(t.term, odds);
  }

  // The phrases those bigrams make in the manuscript, and the phrases each bigram is part of. A
  // bigram too common to be a query term ("language models" in a corpus of language models) may join
  // a phrase ("large language models"), never make one alone.
  const common = new Set(query.commonTerms.filter((t) => isBigram(t) && informative(t)));
  const phrases = new Map<string, string[]>();
  const phrasesOf = new Map<string, string[]>();
  const addPhrase = (run: readonly string[], surface: string) => {
    const bigrams = run.filter((b) => conceptTerms.has(b));
    if (bigrams.length === 0 || phrases.has(surface)) return;
    phrases.set(surface, bigrams);
    for (const b of bigrams) appendTo(phrasesOf, b, surface);
  };
  // The bigrams a long run was cut at: where two phrases of the field meet ("resource neural" in
  // "low resource neural machine translation"), a term of no one's.
  const joints = new Set<string>();
  const dfOf = (b: string) => conceptTerms.get(b)?.df ?? null;
  const isWording = (b: string) => wording.has(b);
  // Read in pieces, the event loop given a turn between them: a 100,000-character abstract is
  // read here a second time (after the query's analysis).
  const slicer = new TimeSlicer();
  for (const text of texts) {
    const reading = forEachPhraseInPieces(
      text,
      (bigram) => conceptTerms.has(bigram) || common.has(bigram),
      (run, surface) => {
        const words = surface.split(' ');
        for (const [from, to] of phraseRanges(run, dfOf, isWording, joints))
          addPhrase(run.slice(from, to), words.slice(from, to + 1).join(' '));
      },
      ANALYSIS_PIECE_CHARS,
    );
    await runSliced(reading, slicer);
  }
  for (const joint of joints) if (!phrasesOf.has(joint)) conceptTerms.delete(joint);
  // Wording outside any phrase is no concept, unless fewer than MIN_CONCEPTS would remain: then the
  // least clearly wording (highest p-value) come back first.
  const alone = [...conceptTerms.keys()].filter((t) => !phrasesOf.has(t));
  const dropped = alone
    .filter(isWording)
    .sort((x, y) => wording.get(y)! - wording.get(x)! || (x < y ? -1 : 1));
  const kept = alone.length - dropped.length + phrases.size;
  for (const term of dropped.slice(Math.max(0, MIN_CONCEPTS - kept))) conceptTerms.delete(term);
  /** The concepts a bigram shows as: the phrases it is part of, else itself. */
  const shownAs = (term: string): string[] => phrasesOf.get(term) ?? [conceptTerms.get(term)!.label];

  const explanations = new Map<number, Explanation>();
  for (const author of authors) {
    const totals = new Map<string, { label: string; contribution: number; multiWord: boolean }>();
    const works: ExplainedWork[] = author.works.slice(0, EXPLAINED_WORKS).map((w) => {
      const terms = matched.get(w.workId) ?? [];
      for (const m of terms) {
        const label = m.surface || m.term;
        const t = totals.get(m.term) ?? { label, contribution: 0, multiWord: m.bigram };
        t.contribution += m.contribution;
        totals.set(m.term, t);
        const c = conceptTerms.get(m.term);
        if (c) c.explained += m.contribution;
      }
      return {
        workId: w.workId,
        score: w.score,
        weighted: w.weighted,
        terms: terms
          .slice(0, TERMS_PER_WORK)
          .map((m) => ({ label: m.surface || m.term, contribution: m.contribution })),
      };
    });
    const ranked = [...totals.entries()].sort(
      (x, y) => y[1].contribution - x[1].contribution || (x[0] < y[0] ? -1 : 1),
    );
    explanations.set(author.authorId, {
      authorId: author.authorId,
      score: author.score,
      docScore: author.docScore,
      profileScore: author.profileScore,
      works,
      terms: ranked.map(([, t]) => t),
      concepts: conceptsOf(
        ranked.filter(([term]) => conceptTerms.has(term)),
        shownAs,
      ),
    });
  }
  // A phrase carries what its bigrams carry; a bigram inside a phrase is not shown alone.
  const entries: Array<{ label: string; prior: number; explained: number }> = [...conceptTerms.entries()]
    .filter(([term]) => !phrasesOf.has(term))
    .map(([, c]) => c);
  entries.push(
    ...[...phrases].map(([label, bigrams]) => {
      const parts = bigrams.map((b) => conceptTerms.get(b)!);
      return {
        label,
        prior: Math.max(...parts.map((c) => c.prior)),
        explained: [...new Set(parts)].reduce((t, c) => t + c.explained, 0),
      };
    }),
  );
  const concepts = uniqueLabels(
    entries
      .sort((x, y) => y.explained - x.explained || y.prior - x.prior || x.label.localeCompare(y.label))
      .map((c) => c.label),
  ).slice(0, MAX_CONCEPTS);
  const shown = new Set(concepts);
  for (const e of explanations.values()) e.concepts = e.concepts.filter((c) => shown.has(c));
  return { concepts, explanations };
}

/**
 * Whether a bigram found in `df` works, `titleDf` of them in the title, is an abstract's wording
 * rather than a term of the field: its p-value when it is (WORDING_RULES), else null. Terms of the field are what titles are made of ("question
 * answering": 291 of its 912 works in the demo corpus have it in the title, against a base rate
 * `titleShare`, the index's share of (work, bigram) pairs that are title ones, of 9.6%); an
 * abstract's wording almost never is ("large amounts": 0 of 75). A small df can never be
 * significant, so a rare bigram stays.
 */
export function wordingOdds(df: number, titleDf: number, titleShare: number): number | null {
  if (titleDf >= df * titleShare * WORDING_RULES.rateShare) return null;
  const odds = binomialAtMost(df, titleDf, titleShare);
  return odds < WORDING_RULES.significance ? odds : null;
}

/** P(X <= k) for X ~ Binomial(n, p): the one-sided test of a rate below p. */
function binomialAtMost(n: number, k: number, p: number): number {
  if (p <= 0 || k >= n * p) return 1;
  if (p >= 1) return 0;
  // The terms i = 0..k relative to the first, (1 - p)^n, whose log is kept apart (it underflows
  // for n in the thousands); below the mode they only grow, so the sum is rescaled as it does.
  const odds = p / (1 - p);
  let logScale = n * Math.log1p(-p);
  let term = 1;
  let sum = 1;
  for (let i = 0; i < k; i++) {
    term *= ((n - i) / (i + 1)) * odds;
    sum += term;
    if (sum > 1e200) {
      logScale += Math.log(sum);
      term /= sum;
      sum = 1;
    }
  }
  return Math.min(1, Math.exp(logScale + Math.log(sum)));
}

/**
 * The phrases of a run of adjacent bigrams, as [from, to) ranges of two to PHRASE_RULES.maxBigrams
 * bigrams: the run trimmed at its ends (phraseRange); one still too long is cut at its rarest bigram
 * when that is found in fewer than PHRASE_RULES.dfRatio of the works of each neighbour ("low resource" +
 * "neural machine translation": "resource neural" is in 36 ACL works, its neighbours in 1,400-2,400),
 * and each side read again; the bigrams cut at are added to `joints`. A long run with no such
 * bigram makes no phrase (its terms stand alone).
 */
function phraseRanges(
  run: readonly string[],
  df: (bigram: string) => number | null,
  isWording: (bigram: string) => boolean,
  joints: Set<string>,
  offset = 0,
): Array<[number, number]> {
  const range = phraseRange(run, df, isWording);
  if (!range) return [];
  const [from, to] = range;
  if (to - from <= PHRASE_RULES.maxBigrams) return [[offset + from, offset + to]];
  let cut = -1;
  for (let i = from + 1; i < to - 1; i++) {
    const here = df(run[i]!);
    const left = df(run[i - 1]!);
    const right = df(run[i + 1]!);
    if (here === null || left === null || right === null) continue;
    if (here >= PHRASE_RULES.dfRatio * Math.min(left, right)) continue;
    if (cut < 0 || here < df(run[cut]!)!) cut = i;
  }
  if (cut < 0) return [];
  joints.add(run[cut]!);
  return [
    ...phraseRanges(run.slice(from, cut), df, isWording, joints, offset + from),
    ...phraseRanges(run.slice(cut + 1, to), df, isWording, joints, offset + cut + 1),
  ];
}

/**
 * The part of a run of adjacent bigrams that makes a phrase, as a [from, to) range of at least two
 * bigrams, or null: a bigram at either end is trimmed while it is wording (wordingOdds) or found in
 * fewer than PHRASE_RULES.dfRatio of the works its neighbour is (the verb that stuck to a term of the
 * field: "analyzing knowledge distillation", "effectively improves knowledge distillation"). A
 * weak bigram inside is kept, since the terms at both ends hold it: "document level relation
 * extraction" is one phrase though "level relation" is rarer than its neighbours. `df` is null for
 * a bigram too common to be a query term, which never trims.
 */
function phraseRange(
  run: readonly string[],
  df: (bigram: string) => number | null,
  isWording: (bigram: string) => boolean,
): [number, number] | null {
  const weaker = (x: string, than: string) => {
    if (isWording(x)) return true;
    const a = df(x);
    const b = df(than);
    return a !== null && b !== null && a < PHRASE_RULES.dfRatio * b;
  };
  let from = 0;
  let to = run.length;
  for (;;) {
    if (to - from < 2) return null;
    if (weaker(run[from]!, run[from + 1]!)) from++;
    else if (weaker(run[to - 1]!, run[to - 2]!)) to--;
    else return [from, to];
  }
}

/**
 * A candidate's concepts from their matched concept bigrams (most contributing first): each shown
 * as the phrases it is part of, a phrase ranked by what its bigrams contributed together.
 */
function conceptsOf(
  matched: ReadonlyArray<readonly [string, { contribution: number }]>,
  shownAs: (term: string) => string[],
): string[] {
  const totals = new Map<string, number>();
  for (const [term, t] of matched)
    for (const label of shownAs(term)) totals.set(label, (totals.get(label) ?? 0) + t.contribution);
  return [...totals].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([label]) => label);
}

// "neural networks" and "neural network" stem alike and are one term; exact repeats of a label go.
function uniqueLabels(labels: string[]): string[] {
  return [...new Set(labels)];
}
