// Makes demo/acl-sample.jsonl.gz, the demo corpus ingested on the first `npm start`: every work of
// the ACL Anthology's main venues (ACL, EMNLP, NAACL, EACL, TACL, CL, CoNLL) of 2023-2025 and of
// their Findings of 2024-2025, whole, so that a manuscript in the field finds real candidates. Fields the
// service does not read are dropped to stay under the 10 MB the repository allows.
// Usage: npx tsx scripts/make-demo-corpus.ts [../shared/data/acl-anthology/works.jsonl.gz]
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip, constants } from 'node:zlib';

const SOURCE = path.resolve(
  process.argv[2] ?? path.join(import.meta.dirname, '../../shared/data/acl-anthology/works.jsonl.gz'),
);
const TARGET = path.join(import.meta.dirname, '../demo/acl-sample.jsonl.gz');
const VENUES = new Set(
  [
    'acl',
    'emnlp',
    'naacl',
    'eacl',
    'tacl',
    'cl',
    'conll',
    'findings-acl',
    'findings-emnlp',
    'findings-naacl',
    'findings-eacl',
  ].map((v) => `acl:venue/${v}`),
);
const FIRST_YEAR = 2023;
// The 2023 Findings would take the file past 10 MB.
const FIRST_FINDINGS_YEAR = 2024;
const LIMIT_BYTES = 10 * 1024 * 1024;

type Json = Record<string, unknown>;

function slim(work: Json): Json {
  const { display_name: _displayName, language: _language, ...rest } = work;
  const authorships = (rest.authorships as Json[]).map((a) => {
    const { raw_author_name: raw, ...kept } = a;
    const author = a.author as Json;
    return raw && raw !== author.display_name ? a : kept;
  });
  return { ...rest, authorships };
}

async function* selected(): AsyncGenerator<string> {
  const lines = createInterface({
    input: createReadStream(SOURCE).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  let kept = 0;
  for await (const line of lines) {
    if (!line.trim()) continue;
    const work = JSON.parse(line) as Json;
    const source = (work.primary_location as Json | null)?.source as Json | null;
    if (!source || !VENUES.has(String(source.id))) continue;
    const first = String(source.id).startsWith('acl:venue/findings-') ? FIRST_FINDINGS_YEAR : FIRST_YEAR;
    if (Number(work.publication_year) < first) continue;
    kept++;
    yield `${JSON.stringify(slim(work))}\n`;
  }
  console.log(`${kept} works selected`);
}

await pipeline(
  Readable.from(selected()),
  createGzip({ level: constants.Z_BEST_COMPRESSION }),
  createWriteStream(TARGET),
);
const size = (await stat(TARGET)).size;
console.log(`${TARGET}: ${(size / 1024 / 1024).toFixed(2)} MB`);
if (size > LIMIT_BYTES) {
  console.error('Larger than 10 MB: raise FIRST_YEAR or drop a venue.');
  process.exit(1);
}
