// Journal recommendations already computed, by everything they depend on: the manuscript's version,
// the corpus the search index has read (its change_seq), the organization's linked journals, the
// corpus asked for and the limit. Recomputing one costs ~0.13 s of CPU (two cores serve fifteen a
// second), and a client asking the same manuscript's journals again and again, as an editorial
// system polling or a flood does, was served each time at that cost.
import type { RecommendedJournal } from './recommend.ts';

/** Entries kept: a few recent manuscripts per organization; an entry is ~20 journals' descriptions. */
export const JOURNAL_RESULTS_KEPT = 2_000;
/**
 * Age past which an entry is computed again. The people and metrics relinked after an ingest move
 * the authors' venues without moving the index's change_seq: at most this long an answer reflects
 * them late.
 */
export const JOURNAL_RESULT_MAX_AGE_MS = 10 * 60_000;

export class JournalResultCache {
  private readonly entries = new Map<string, { at: number; journals: RecommendedJournal[] }>();

  constructor(
    private readonly onLookup: (hit: boolean) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): RecommendedJournal[] | undefined {
    const entry = this.entries.get(key);
    const fresh = entry !== undefined && this.now() - entry.at <= JOURNAL_RESULT_MAX_AGE_MS;
    if (entry && !fresh) this.entries.delete(key);
    this.onLookup(fresh);
    if (!fresh) return undefined;
    // Most recently used last: the first entries are the ones dropped when full.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.journals;
  }

  set(key: string, journals: RecommendedJournal[]): void {
    this.entries.delete(key);
    this.entries.set(key, { at: this.now(), journals });
    while (this.entries.size > JOURNAL_RESULTS_KEPT) {
      this.entries.delete(this.entries.keys().next().value!);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
