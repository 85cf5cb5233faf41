// Key concepts: the manuscript's multi-word terms (adjacent-word bigrams) that the corpus knows,
// weighted by how often the manuscript uses them times how informative they are in the corpus (IDF
// over the whole corpus). Shown as the words the manuscript wrote, not as stems.
import { idf, type RankingIndex } from './ranking-index.ts';
import { informative, type WeightedQuery } from './query.ts';

export interface Concept {
  termId: number;
  label: string;
  weight: number;
}

const MAX_CONCEPTS = 15;
// Phrases seen in a single work are more often accidents of wording than concepts.
const MIN_DOC_FREQ = 2;

export function manuscriptConcepts(index: RankingIndex, q: WeightedQuery): Concept[] {
  const concepts: Concept[] = [];
  for (const [term, count] of q.metaCounts) {
    if (!term.includes(' ') || !informative(term)) continue;
    const termId = index.termId(term);
    if (termId < 0 || index.docFreq(termId) < MIN_DOC_FREQ) continue;
    const label = q.surfaces.get(term) ?? term;
    concepts.push({ termId, label, weight: (1 + Math.log(count)) * idf(index, termId) });
  }
  concepts.sort((a, b) => b.weight - a.weight || a.label.localeCompare(b.label));
  // "neural machine" and "machine translation" from one phrase: keep both; drop exact repeats.
  const seen = new Set<string>();
  return concepts.filter((c) => !seen.has(c.label) && seen.add(c.label)).slice(0, MAX_CONCEPTS);
}

/** For each author, the manuscript's concepts that their given works contain, in concept order. */
export function sharedConcepts(
  index: RankingIndex,
  concepts: readonly Concept[],
  worksByAuthor: ReadonlyMap<number, readonly number[]>,
): Map<number, string[]> {
  const authorsOfDoc = new Map<number, number[]>();
  for (const [authorId, workIds] of worksByAuthor) {
    for (const workId of workIds) {
      const doc = index.docOf(workId);
      if (doc < 0) continue;
      const list = authorsOfDoc.get(doc);
      if (list) list.push(authorId);
      else authorsOfDoc.set(doc, [authorId]);
    }
  }
  const shared = new Map<number, Set<string>>();
  for (const concept of concepts) {
    const { docs } = index.postings(concept.termId);
    for (let j = 0; j < docs.length; j++) {
      for (const authorId of authorsOfDoc.get(docs[j]!) ?? []) {
        (shared.get(authorId) ?? shared.set(authorId, new Set()).get(authorId)!).add(concept.label);
      }
    }
  }
  return new Map([...shared].map(([id, labels]) => [id, [...labels]]));
}
