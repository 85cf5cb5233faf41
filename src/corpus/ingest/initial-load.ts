// The initial load: works ingested into an empty corpus skip the staging tables and the upserts. The
// thread that parses the file assigns the new rows' ids itself (the corpus was empty, so every key it
// has not seen yet is new), COPYs works, authors and authorships straight into their tables, and
// computes the authors' metrics as it goes, so the end of the run writes only those that changed
// after an author's first batch. `initial-load-db.ts` writes what this stages and guards the premise:
// each batch checks, under a table lock, that the id sequences are exactly where this run left them,
// i.e. that no one else wrote works or authors meanwhile; if anything breaks the premise, the run
// goes on through the normal path (docs/corpus.md, "Initial load").
//
// Nothing here touches the database: ids of sources and institutions, which may exist already, come
// from `resolve` (which inserts the new sources and upserts institutions); the batch upserts its new
// or changed sources' rows.
import { availableParallelism } from 'node:os';
import { AuthorMetricsAccumulator, recentSince } from '../authors/metrics.ts';
import { csvBytes, type CsvValue } from './csv.ts';
import { mergeBatchAuthors, stageSources, workColumns, workRow, type StagedCopy } from './load-works.ts';
import { METRIC_COLUMNS, metricValues } from '../authors/metrics-refresh.ts';
import type { AuthorRow, InstitutionRow, SourceRow, WorkRecord } from '../openalex/openalex-work.ts';

/** Upserts these sources and institutions and answers their ids, by key. */
export type ResolveEntities = (
  sources: SourceRow[],
  institutions: InstitutionRow[],
) => Promise<{ sources: Array<[string, number]>; institutions: Array<[string, number]> }>;

/** Where the run's ids start: the next values of the works' and authors' id sequences. */
export interface InitialLoadStart {
  nextWorkId: number;
  nextAuthorId: number;
}

/** One batch staged for the initial load. */
export interface InitialBatch {
  /** The id sequences must be at these values when the batch is written, and are left at the next. */
  firstWorkId: number;
  nextWorkId: number;
  firstAuthorId: number;
  nextAuthorId: number;
  /**
   * COPYs into works, authors and authorships, and into the staging tables of the sources new to the
   * run or changed (upserted with the batch) and of the changed authors.
   */
  copies: StagedCopy[];
  /**
   * The run's first author id: the batch queues the authors from it to nextAuthorId for the metrics
   * recompute, as one range (a crash or a hand-over leaves them queued; the end takes them off).
   */
  runFirstAuthorId: number;
  /** The batch's sources, in id order, and how many of the batch's works each has (added to works_count). */
  sourceIds: number[];
  sourceWorks: number[];
}

/** The metrics the run computed, for the authors whose metrics changed after their first batch. */
export interface InitialLoadMetrics {
  firstAuthorId: number;
  nextAuthorId: number;
  /** Where the works' sequence must still be: the premise's last check. */
  nextWorkId: number;
  /**
   * The metrics' rows in parts of about equal size, one per core (none when no author changed): on
   * the server each part is written on a connection of its own (finishInitialLoad).
   */
  copies: StagedCopy[];
}

// The bound on what the run keeps in memory (a few hundred bytes an author, ~300 MB at the bound);
// past it the rest of the file goes through the normal path, which needs no memory per author.
export const MAX_INITIAL_LOAD_AUTHORS = 1_000_000;

export const WORK_COLUMNS = ['id', ...workColumns('source_id')];

export const AUTHOR_COLUMNS = [
  'id',
  'author_key',
  'display_name',
  'orcid',
  'name_variants',
  'name_key',
  ...METRIC_COLUMNS,
] as const;

export const AUTHORSHIP_COLUMNS = [
  'work_id',
  'position',
  'author_id',
  'institution_ids',
  'raw_affiliations',
  'is_corresponding',
] as const;

export const AUTHOR_UPDATE_COLUMNS = ['id', 'display_name', 'orcid', 'name_variants', 'name_key'] as const;

export const METRICS_COLUMNS = ['author_id', ...METRIC_COLUMNS] as const;

interface AuthorState {
  id: number;
  key: string;
  displayName: string;
  orcid: string | null;
  /** Every name variant written so far (a handful: a list is lighter than a Set). */
  variants: string[];
  nameKey: string | null;
  /** The author's metrics so far (authors/metrics.ts, as the recompute computes them). */
  metrics: AuthorMetricsAccumulator;
  insertedInBatch: number;
  /** Gained works after the batch that inserted it: its metrics must be written at the end. */
  changed: boolean;
}

function byAuthorKey(a: AuthorRow, b: AuthorRow): number {
  return a.author_key < b.author_key ? -1 : a.author_key > b.author_key ? 1 : 0;
}

function sameRow(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class InitialLoadStager {
  private nextWorkId: number;
  private nextAuthorId: number;
  private readonly firstAuthorId: number;
  /** The first year whose affiliations are recent (authors/metrics.ts), as the recompute takes it. */
  private readonly recentSince = recentSince(new Date().getUTCFullYear());
  private readonly authors = new Map<string, AuthorState>();
  private readonly sources = new Map<string, { id: number; row: SourceRow }>();
  private readonly institutions = new Map<string, { id: number; row: InstitutionRow }>();
  /** Institution names by id, as last upserted by this run (what RECOMPUTE would join). */
  private readonly institutionNames = new Map<number, string>();
  private batches = 0;
  private active = true;
  /** metrics() as computed after the last batch staged (the reader asks early, at the end of the file). */
  private computedMetrics: InitialLoadMetrics | null = null;

  constructor(
    start: InitialLoadStart,
    private readonly resolve: ResolveEntities,
  ) {
    this.nextWorkId = start.nextWorkId;
    this.nextAuthorId = start.nextAuthorId;
    this.firstAuthorId = start.nextAuthorId;
  }

  /** The run leaves the initial load for good (the caller writes the rest through the normal path). */
  end(): void {
    this.active = false;
    this.authors.clear();
    this.computedMetrics = null;
  }

  /**
   * The batch staged for the initial load, or null when it cannot be: the run has ended it, the
   * database refused one of its sources or institutions, or the memory bound is reached. Null ends
   * the initial load for the rest of the run. (A work that came in an earlier batch is not looked
   * for here: its key makes the batch's COPY fail, and the caller hands the run to the normal path,
   * whose business updates are.)
   */
  async stage(records: readonly WorkRecord[]): Promise<InitialBatch | null> {
    if (!this.active) return null;
    this.computedMetrics = null;
    if (this.authors.size + records.reduce((n, w) => n + w.authors.length, 0) > MAX_INITIAL_LOAD_AUTHORS) {
      this.end();
      return null;
    }
    let sourceRows: SourceRow[];
    try {
      sourceRows = await this.resolveEntities(records);
    } catch {
      // A source or institution the database refuses: the normal path reports its record as bad
      // (and fails the run as well if the database is gone).
      this.end();
      return null;
    }
    const batch = this.batches++;
    const firstWorkId = this.nextWorkId;
    const firstAuthorId = this.nextAuthorId;

    // Ids in key order, as the normal path's INSERT ... ORDER BY work_key gives them.
    const works = [...records].sort((a, b) =>
      a.work_key < b.work_key ? -1 : a.work_key > b.work_key ? 1 : 0,
    );
    const workIds = works.map(() => this.nextWorkId++);

    const { newAuthors, updates } = this.stageAuthors(works, batch);
    const { workRows, authorships, worksBySource } = this.stageWorkRows(works, workIds, batch);
    const batchSources = [...worksBySource.keys()].sort((a, b) => a - b);

    const authorRows: CsvValue[][] = newAuthors.map((a) => [
      a.id,
      a.key,
      a.displayName,
      a.orcid,
      a.variants,
      a.nameKey,
      ...this.metricsOf(a),
    ]);

    const copies: StagedCopy[] = [];
    const copy = (table: string, columns: readonly string[], rows: CsvValue[][]) => {
      if (rows.length > 0) copies.push({ table, columns, csv: csvBytes(rows) });
    };
    copy('works', WORK_COLUMNS, workRows);
    copy('authors', AUTHOR_COLUMNS, authorRows);
    copy('authorships', AUTHORSHIP_COLUMNS, authorships);
    copy('stage_author_updates', AUTHOR_UPDATE_COLUMNS, updates);
    copies.push(...stageSources(sourceRows));
    return {
      firstWorkId,
      nextWorkId: this.nextWorkId,
      firstAuthorId,
      nextAuthorId: this.nextAuthorId,
      copies,
      runFirstAuthorId: this.firstAuthorId,
      sourceIds: batchSources,
      sourceWorks: batchSources.map((id) => worksBySource.get(id)!),
    };
  }

  /** New authors get ids and state; known ones whose name, ORCID or variants changed, an update row. */
  private stageAuthors(works: readonly WorkRecord[], batch: number) {
    const fresh: AuthorRow[] = [];
    const changed: Array<{ row: AuthorRow; known: AuthorState }> = [];
    for (const a of mergeBatchAuthors(works)) {
      const known = this.authors.get(a.author_key);
      if (!known) fresh.push(a);
      // UPSERT_AUTHORS's rule: the latest name and name key, an ORCID once known kept, variants added.
      else if (
        known.displayName !== a.display_name ||
        (a.orcid !== null && known.orcid !== a.orcid) ||
        a.name_variants.some((v) => !known.variants.includes(v)) ||
        known.nameKey !== a.name_key
      )
        changed.push({ row: a, known });
    }
    // New ids and update rows in key order, as the normal path's ORDER BY author_key gives them. Only
    // the new and changed authors are sorted: most of a later batch's authors are known already.
    fresh.sort(byAuthorKey);
    changed.sort((x, y) => byAuthorKey(x.row, y.row));
    const newAuthors = fresh.map((a) => {
      const state: AuthorState = {
        id: this.nextAuthorId++,
        key: a.author_key,
        displayName: a.display_name,
        orcid: a.orcid,
        variants: [...a.name_variants],
        nameKey: a.name_key,
        metrics: new AuthorMetricsAccumulator(this.recentSince),
        insertedInBatch: batch,
        changed: false,
      };
      this.authors.set(a.author_key, state);
      return state;
    });
    const updates = changed.map(({ row: a, known }): CsvValue[] => {
      known.displayName = a.display_name;
      known.orcid = a.orcid ?? known.orcid;
      for (const v of a.name_variants) if (!known.variants.includes(v)) known.variants.push(v);
      known.nameKey = a.name_key;
      return [known.id, a.display_name, a.orcid, a.name_variants, a.name_key];
    });
    return { newAuthors, updates };
  }

  /** The works' and authorships' rows; each authorship also counts toward its author's metrics. */
  private stageWorkRows(works: readonly WorkRecord[], workIds: readonly number[], batch: number) {
    const authorships: CsvValue[][] = [];
    const worksBySource = new Map<number, number>();
    const workRows: CsvValue[][] = works.map((w, i) => {
      const workId = workIds[i]!;
      const sourceId = w.source ? this.sources.get(w.source.source_key)!.id : null;
      if (sourceId !== null) worksBySource.set(sourceId, (worksBySource.get(sourceId) ?? 0) + 1);
      for (const s of w.authorships) {
        const author = this.authors.get(s.author_key)!;
        const institutionIds = s.institution_keys.map((k) => this.institutions.get(k)!.id);
        authorships.push([
          workId,
          s.position,
          author.id,
          institutionIds,
          s.raw_affiliations,
          s.is_corresponding,
        ]);
        author.metrics.add(
          workId,
          w.cited_by_count,
          w.publication_year,
          s.position,
          institutionIds,
          s.raw_affiliations,
        );
        if (author.insertedInBatch !== batch) author.changed = true;
      }
      return [workId, ...workRow(w, sourceId)];
    });

    return { workRows, authorships, worksBySource };
  }

  /** At the end of the run: the metrics of the authors that gained works after their first batch. */
  metrics(): InitialLoadMetrics | null {
    if (!this.active) return null;
    this.computedMetrics ??= this.computeMetrics();
    return this.computedMetrics;
  }

  private computeMetrics(): InitialLoadMetrics {
    const rows: CsvValue[][] = [];
    for (const a of this.authors.values()) if (a.changed) rows.push([a.id, ...this.metricsOf(a)]);
    const parts = Math.min(availableParallelism(), rows.length);
    const size = Math.ceil(rows.length / Math.max(parts, 1));
    return {
      firstAuthorId: this.firstAuthorId,
      nextAuthorId: this.nextAuthorId,
      nextWorkId: this.nextWorkId,
      copies: Array.from({ length: parts }, (_, i) => ({
        table: 'stage_author_metrics',
        columns: METRICS_COLUMNS,
        csv: csvBytes(rows.slice(i * size, (i + 1) * size)),
      })),
    };
  }

  /** The metric columns' values, as the recompute computes them (authors/metrics.ts). */
  private metricsOf(a: AuthorState): CsvValue[] {
    return metricValues(a.metrics.metrics((id) => this.institutionNames.get(id)));
  }

  /**
   * Has the sources and institutions that are new to the run or changed resolved to ids, and keeps
   * them; returns those sources, whose rows the batch upserts.
   */
  private async resolveEntities(records: readonly WorkRecord[]): Promise<SourceRow[]> {
    // The batch's last occurrence of each, as the normal path's staging keeps.
    const sources = new Map<string, SourceRow>();
    const institutions = new Map<string, InstitutionRow>();
    for (const w of records) {
      if (w.source) sources.set(w.source.source_key, w.source);
      for (const i of w.institutions) institutions.set(i.institution_key, i);
    }
    const newSources = [...sources.values()].filter((s) => !sameRow(this.sources.get(s.source_key)?.row, s));
    const newInstitutions = [...institutions.values()].filter(
      (i) => !sameRow(this.institutions.get(i.institution_key)?.row, i),
    );
    if (newSources.length === 0 && newInstitutions.length === 0) return [];
    const ids = await this.resolve(newSources, newInstitutions);
    const sourceIds = new Map(ids.sources);
    const institutionIds = new Map(ids.institutions);
    for (const s of newSources) this.sources.set(s.source_key, { id: sourceIds.get(s.source_key)!, row: s });
    for (const i of newInstitutions) {
      const id = institutionIds.get(i.institution_key)!;
      this.institutions.set(i.institution_key, { id, row: i });
      this.institutionNames.set(id, i.name);
    }
    return newSources;
  }
}
