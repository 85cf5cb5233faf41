// Author metrics, defined once. Both load paths feed a person's authorships to one accumulator and
// write what it answers: the initial load as the works stream through its parse thread
// (ingest/initial-load.ts), the incremental recompute from the authorships it reads back (metrics-refresh.ts). A
// test (test/corpus/initial-load.test.ts) checks the two give the same rows on real records.
import { cachedAffiliationCore } from './affiliations.ts';

/** An affiliation counts as recent when stated in a work of this many years before the current year, or later. */
export const RECENT_AFFILIATION_YEARS = 3;

// Entries kept per author (newest first): enough for joint appointments and moves, while a
// consortium author's long list of differently spelled strings cannot grow the row without bound.
const MAX_RECENT_AFFILIATIONS = 25;

/** The first publication year whose affiliations are recent in `currentYear`. */
export function recentSince(currentYear: number): number {
  return currentYear - RECENT_AFFILIATION_YEARS;
}

/**
 * One affiliation the author stated in a recent work (authors.recent_affiliations, migration 0091):
 * an institution (its id and name) or an affiliation string, with the normalised name the conflict
 * check compares (corpus/authors/affiliations.ts affiliationCore) and the latest year it was stated.
 */
export interface RecentAffiliation {
  institution_id: number | null;
  name: string;
  core: string;
  year: number;
}

/** What the metrics columns of authors hold (every record of a person holds the person's). */
export interface AuthorMetrics {
  articles_count: number;
  citations_count: number;
  h_index: number;
  first_publication_year: number | null;
  last_publication_year: number | null;
  /** The newest work's first stated affiliation (institution name before raw string); null when no work states one. */
  recent_affiliation: string | null;
  recent_institution_id: number | null;
  /** Whether any work states an affiliation (if none does, the row keeps what an author entity gave it). */
  states_affiliation: boolean;
  recent_affiliations: RecentAffiliation[];
}

/** h-index: with the works ranked by citations (1 = most cited), how many have at least their rank. */
export function hIndex(citations: readonly number[]): number {
  const sorted = [...citations].sort((a, b) => b - a);
  let h = 0;
  while (h < sorted.length && sorted[h]! >= h + 1) h++;
  return h;
}

/** Academic age as the candidate and author pages show it: years since the first publication. */
export function academicAge(firstPublicationYear: number | null, now = new Date()): number | null {
  return firstPublicationYear === null ? null : now.getUTCFullYear() - firstPublicationYear;
}

/** `list` (key, year, key, year...) with `key` stated in `year`: added, or its year raised. */
function stated<K extends string | number>(list: Array<K | number>, key: K, year: number): Array<K | number> {
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === key) {
      if ((list[i + 1] as number) < year) list[i + 1] = year;
      return list;
    }
  }
  list.push(key, year);
  return list;
}

function pairs<K>(list: Array<K | number> | null): Array<[K, number]> {
  const out: Array<[K, number]> = [];
  if (list) for (let i = 0; i < list.length; i += 2) out.push([list[i] as K, list[i + 1] as number]);
  return out;
}

/** Newest year first (no year last), then the highest work id, then the lowest position. */
function newer(
  year: number | null,
  workId: number,
  position: number,
  than: { year: number | null; workId: number; position: number },
): boolean {
  if (year !== than.year) {
    if (year === null) return false;
    if (than.year === null) return true;
    return year > than.year;
  }
  if (workId !== than.workId) return workId > than.workId;
  return position < than.position;
}

/**
 * A person's metrics from their authorships. A work's authorships must come together (the same
 * author twice on one work counts the work once); the order of the works does not matter.
 */
export class AuthorMetricsAccumulator {
  private readonly citations: number[] = [];
  private firstYear: number | null = null;
  private lastYear: number | null = null;
  private lastWorkId = -1;
  private newest: {
    year: number | null;
    workId: number;
    position: number;
    institutionId: number | null;
    raw: string | null;
  } | null = null;
  /**
   * Recent institutions and affiliation strings, each followed by the latest year it was stated
   * (made when needed). Flat lists of a handful, searched in turn: the initial load keeps one
   * accumulator per author of the run, and a Map costs several times their memory.
   */
  private recentInstitutions: number[] | null = null;
  private recentNames: Array<string | number> | null = null;

  /** `since`: the first year whose affiliations are recent (recentSince). */
  constructor(private readonly since: number) {}

  add(
    workId: number,
    citedByCount: number,
    year: number | null,
    position: number,
    institutionIds: readonly number[],
    rawAffiliations: readonly string[],
  ): void {
    if (workId !== this.lastWorkId) {
      this.lastWorkId = workId;
      this.citations.push(citedByCount);
      if (year !== null) {
        if (this.firstYear === null || year < this.firstYear) this.firstYear = year;
        if (this.lastYear === null || year > this.lastYear) this.lastYear = year;
      }
    }
    if (institutionIds.length === 0 && rawAffiliations.length === 0) return;
    if (this.newest === null || newer(year, workId, position, this.newest)) {
      this.newest = {
        year,
        workId,
        position,
        institutionId: institutionIds[0] ?? null,
        raw: rawAffiliations[0] ?? null,
      };
    }
    if (year === null || year < this.since) return;
    for (const id of institutionIds)
      this.recentInstitutions = stated(this.recentInstitutions ?? [], id, year);
    for (const raw of rawAffiliations) this.recentNames = stated(this.recentNames ?? [], raw, year);
  }

  /** The metrics; `institutionName` answers an institution's name (undefined when unknown). */
  metrics(institutionName: (id: number) => string | undefined): AuthorMetrics {
    const aff = this.newest;
    return {
      articles_count: this.citations.length,
      citations_count: this.citations.reduce((n, c) => n + c, 0),
      h_index: hIndex(this.citations),
      first_publication_year: this.firstYear,
      last_publication_year: this.lastYear,
      recent_affiliation:
        aff === null
          ? null
          : ((aff.institutionId !== null ? institutionName(aff.institutionId) : undefined) ?? aff.raw),
      recent_institution_id: aff?.institutionId ?? null,
      states_affiliation: aff !== null,
      recent_affiliations: this.recentAffiliations(institutionName),
    };
  }

  /**
   * One entry per organization: institutions by id, then strings whose normalised name no institution
   * or other string has (of two, the one stated later, then the first in order), each with the
   * latest year any of them was stated. Newest first. Independent of the order of the authorships.
   */
  private recentAffiliations(institutionName: (id: number) => string | undefined): RecentAffiliation[] {
    const out: RecentAffiliation[] = [];
    const byCore = new Map<string, RecentAffiliation>();
    const institutions = pairs(this.recentInstitutions).sort((a, b) => a[0] - b[0]);
    for (const [id, year] of institutions) {
      const name = institutionName(id);
      if (name === undefined) continue;
      const entry = { institution_id: id, name, core: cachedAffiliationCore(name), year };
      out.push(entry);
      if (entry.core && !byCore.has(entry.core)) byCore.set(entry.core, entry);
    }
    const names = pairs(this.recentNames).sort(
      (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
    );
    for (const [name, year] of names) {
      const core = cachedAffiliationCore(name);
      if (!core) continue;
      const same = byCore.get(core);
      if (same) {
        same.year = Math.max(same.year, year);
        continue;
      }
      const entry = { institution_id: null, name, core, year };
      out.push(entry);
      byCore.set(core, entry);
    }
    out.sort(
      (a, b) =>
        b.year - a.year ||
        (a.institution_id ?? Infinity) - (b.institution_id ?? Infinity) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    return out.slice(0, MAX_RECENT_AFFILIATIONS);
  }
}
