// What the ranking needs from a text index over the corpus's works. The in-process retrieval index
// (src/retrieval/) is adapted to this; the quality bench builds one in memory from the ACL records.
// Postings give raw term frequencies, which the candidate model needs to score an author's whole
// body of work as one profile, something a plain top-k search cannot answer.

export interface Postings {
  /** Document numbers (the index's own), ascending. */
  docs: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

export interface RankingIndex {
  /** Documents counted by BM25 (N). */
  readonly docCount: number;
  /** Upper bound (exclusive) of document numbers, which may exceed `docCount` after updates. */
  readonly slotCount: number;
  readonly avgDocLength: number;
  /** Index terms of a text, stemmed unigrams and bigrams, with surface forms when asked. */
  analyze(text: string, keepSurfaces?: boolean): { terms: string[]; surfaces: Map<string, string> };
  /** -1 for a term the corpus does not hold. */
  termId(term: string): number;
  docFreq(termId: number): number;
  postings(termId: number): Postings;
  docLength(doc: number): number;
  workIdOf(doc: number): number;
  /** -1 when the work is not indexed. */
  docOf(workId: number): number;
  /** Publication year of the work behind a document, or 0 when unknown. */
  yearOf(doc: number): number;
}

/** An author on a work, as the ranking weighs it. */
export interface Authorship {
  workId: number;
  authorId: number;
  position: number;
  /** Authors on the work, or 0 when the source did not count them. */
  authorsCount: number;
}

/** Where authorships come from: the database in the service, memory in the quality bench. */
export interface AuthorshipSource {
  ofWorks(workIds: number[]): Promise<Authorship[]>;
  ofAuthors(authorIds: number[]): Promise<Authorship[]>;
}

export function idf(index: RankingIndex, termId: number): number {
  const df = index.docFreq(termId);
  return Math.log(1 + (index.docCount - df + 0.5) / (df + 0.5));
}
