// The demo corpus (demo/acl-sample.jsonl.gz, ACL Anthology, CC BY 4.0) is ingested when a demo
// server starts with an empty corpus, with progress lines, so that a newcomer's first upload finds
// real candidates. It loads in the background while the server already answers, stops between
// batches on shutdown, and resumes from its checkpoint on the next start.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../infra/db/index.ts';
import { terminalText } from '../../infra/cli/terminal-json.ts';
import { DEFAULT_BATCH_SIZE, ingestFiles } from './ingest.ts';
import { worksKind } from '../openalex/entities.ts';

export const DEMO_CORPUS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../demo/acl-sample.jsonl.gz',
);
const LINE_EVERY = 2_000;

async function needsLoading(db: Database, file: string): Promise<boolean> {
  const unfinished = await db.query(
    'SELECT 1 FROM ingest_checkpoints WHERE file_key = $1 AND NOT completed',
    [`works:${path.resolve(file)}`],
  );
  if (unfinished.rows.length > 0) return true;
  const any = await db.query('SELECT 1 FROM works LIMIT 1');
  return any.rows.length === 0;
}

/** Loads the demo corpus if the corpus is empty (or its loading was interrupted); awaits the whole load. */
export async function ensureDemoCorpus(
  db: Database,
  out: (line: string) => void,
  file = DEMO_CORPUS,
  signal?: AbortSignal,
): Promise<void> {
  if (!(await needsLoading(db, file))) return;
  if (!existsSync(file)) {
    out(
      `The corpus is empty and the demo corpus ${terminalText(file)} is missing: load works with \`refmatch ingest works FILE\`.`,
    );
    return;
  }
  out('Loading the demo corpus (ACL Anthology, aclanthology.org, CC BY 4.0) in the background...');
  const started = Date.now();
  let next = LINE_EVERY;
  const report = await ingestFiles(
    {
      db,
      progress(event) {
        if (event.done < next) return;
        next = event.done + LINE_EVERY;
        out(`  demo corpus: ${event.done} works loaded`);
      },
    },
    worksKind,
    [file],
    DEFAULT_BATCH_SIZE,
    { signal },
  );
  out(`Demo corpus loaded: ${report.records} works in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

export interface DemoCorpusLoad {
  /** Settles when the load has ended (finished, failed, stopped) or was not needed. */
  done: Promise<void>;
  /** Interrupts between batches and waits for the load to end. */
  stop(): Promise<void>;
}

/** Starts loading in the background. */
export function loadDemoCorpusInBackground(db: Database, out: (line: string) => void): DemoCorpusLoad {
  const controller = new AbortController();
  const done = ensureDemoCorpus(db, out, DEMO_CORPUS, controller.signal).catch((error: unknown) => {
    if (controller.signal.aborted) out('Demo corpus loading stopped; it resumes on the next start.');
    else out(`Demo corpus loading failed: ${terminalText((error as Error).message)}`);
  });
  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}
