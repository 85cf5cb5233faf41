// The corpora the retrieval bench runs on: the real ACL works read from the shared file, and a
// generator that scales them up to any size.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Database } from '../src/infra/db/index.ts';
import { ACL_WORKS_PATH, abstractFromInvertedIndex, seededRandom } from './lib/acl-holdout.ts';

export interface BenchWork {
  id: number;
  title: string;
  abstract: string;
  year: number | null;
}

interface AclRecord {
  title?: string;
  publication_year?: number;
  abstract_inverted_index?: Record<string, number[]>;
}

export function readAclWorks(file = ACL_WORKS_PATH): BenchWork[] {
  if (!existsSync(file)) throw new Error(`ACL corpus missing: ${file} (see ../shared/data/README.md)`);
  const works: BenchWork[] = [];
  for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as AclRecord;
    works.push({
      id: works.length + 1,
      title: r.title ?? '',
      abstract: abstractFromInvertedIndex(r.abstract_inverted_index),
      year: r.publication_year ?? null,
    });
  }
  return works;
}

/**
 * Scales the real works up to `count` synthetic ones. Each synthetic work picks a real "topic"
 * work and builds its title and abstract from sentences of that work and of four random works near
 * it in the file (the file is ordered by venue and year, so neighbours share a field). Vocabulary,
 * phrases and sentence statistics are therefore real; only the mixing is synthetic, and ids are
 * fresh. Generated lazily in batches to keep memory flat.
 */
export interface ScaledWork extends BenchWork {
  /** Id of the real "topic" work it was built around (bench:referees gives it that work's authors). */
  builtFrom: number;
}

export function* scaleUp(
  base: BenchWork[],
  count: number,
  firstId: number,
  seed = 42,
): Generator<ScaledWork> {
  const rnd = seededRandom(seed); // deterministic: the same corpus on every run
  const sentences = base.map((w) => w.abstract.split(/(?<=[.!?])\s+/).filter((s) => s.length > 0));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  for (let i = 0; i < count; i++) {
    const topic = Math.floor(rnd() * base.length);
    const near = (): number =>
      Math.min(base.length - 1, Math.max(0, topic + Math.floor((rnd() - 0.5) * 200)));
    const pool = [topic, near(), near(), near(), near()];
    const n = 4 + Math.floor(rnd() * 6);
    const parts: string[] = [];
    for (let s = 0; s < n; s++) {
      const from = sentences[pick(pool)]!;
      if (from.length > 0) parts.push(pick(from));
    }
    const titleFrom = base[pick(pool)]!.title.split(/\s+/);
    const cut = Math.max(3, Math.floor(titleFrom.length * (0.5 + rnd() * 0.5)));
    yield {
      id: firstId + i,
      title: titleFrom.slice(0, cut).join(' '),
      abstract: parts.join(' '),
      year: base[topic]!.year,
      builtFrom: base[topic]!.id,
    };
  }
}

function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  return '"' + v.replace(/"/g, '""') + '"';
}

/** COPYs works (title, abstract, year; key `bench:<id>`) into `works`, 5,000 a batch; returns the count. */
export async function loadWorks(db: Database, works: Iterable<BenchWork>): Promise<number> {
  let batch: string[] = [];
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await db.copyCsv('works', ['work_key', 'title', 'abstract', 'publication_year'], batch.join('\n') + '\n');
    batch = [];
  };
  for (const w of works) {
    batch.push(
      [csvField(`bench:${w.id}`), csvField(w.title), csvField(w.abstract), csvField(w.year)].join(','),
    );
    n++;
    if (batch.length === 5000) await flush();
  }
  await flush();
  return n;
}
