import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseWork } from '../../src/corpus/openalex/openalex-work.ts';
import { openRecords, readJsonLines, splitLines } from '../../src/corpus/openalex/record-reader.ts';
import { FIXTURES, OPENALEX, tempDir } from './helpers.ts';
import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

async function lines(chunks: Buffer[]): Promise<string[]> {
  const out: string[] = [];
  for await (const line of splitLines(
    (async function* () {
      yield* chunks;
    })(),
  ))
    out.push(line);
  return out;
}

describe('splitLines', () => {
  it('splits at LF, drops the CR of CRLF, keeps empty lines and a last line without LF', async () => {
    expect(await lines([Buffer.from('a\r\nb\n\nc')])).toEqual(['a', 'b', '', 'c']);
    expect(await lines([Buffer.from('a\n')])).toEqual(['a']);
    expect(await lines([])).toEqual([]);
  });

  it('joins a line, and a UTF-8 character, cut between chunks', async () => {
    const text = Buffer.from('{"name":"Jürgen Šmíd"}\r\n{"name":"李"}\n');
    // Cut inside "ü" (two bytes), between CR and LF, and inside "李" (three bytes).
    const inside = (part: string, into: number) => text.indexOf(Buffer.from(part)) + into;
    const cuts = [inside('ü', 1), inside('\r\n', 1), inside('李', 2)];
    const chunks = [0, ...cuts].map((from, i) => text.subarray(from, cuts[i] ?? text.length));
    expect(await lines(chunks)).toEqual(['{"name":"Jürgen Šmíd"}', '{"name":"李"}']);
  });
});

// The reading as it was before lines were parsed from their bytes: the whole stream decoded, split
// at LF, a CR before it dropped, blank lines left out, each line JSON.parsed.
function reference(bytes: Buffer, skipLines = 0): Array<{ line: number; work?: unknown; error?: string }> {
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: Array<{ line: number; work?: unknown; error?: string }> = [];
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (i < skipLines || line.trim() === '') return;
    try {
      out.push({ line: i + 1, work: parseWork(JSON.parse(line)) });
    } catch (error) {
      out.push({ line: i + 1, error: `invalid JSON: ${(error as Error).message}` });
    }
  });
  return out;
}

async function read(bytes: Buffer, chunkSize: number, skipLines = 0) {
  const chunks: Buffer[] = [];
  for (let from = 0; from < bytes.length; from += chunkSize)
    chunks.push(bytes.subarray(from, from + chunkSize));
  const out: Array<{ line: number; work?: unknown; error?: string }> = [];
  for await (const item of readJsonLines(
    (async function* () {
      yield* chunks;
    })(),
    skipLines,
  ))
    out.push(
      item.error !== undefined
        ? { line: item.line, error: item.error }
        : { line: item.line, work: parseWork(item.value) },
    );
  return out;
}

const acl = readFileSync(path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl'));
const openalex = readFileSync(path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl'));

describe("readJsonLines: records parsed from the lines' bytes, as decoding the whole stream gives", () => {
  it('real ACL and OpenAlex works, in chunks that cut lines and characters anywhere', async () => {
    for (const bytes of [acl, openalex]) {
      const expected = reference(bytes);
      expect(expected.length).toBeGreaterThan(0);
      for (const size of [bytes === acl ? 1 : 7, 1000, 4096, bytes.length])
        expect(await read(bytes, size)).toEqual(expected);
    }
  });

  it('CRLF lines, blank and space-only lines (also Unicode spaces), a last line without LF', async () => {
    const lines = acl.toString('utf8').trimEnd().split('\n');
    const bytes = Buffer.from(
      `${lines[0]}\r\n\r\n   \t\n${lines[1]}\r\n\u00a0\u2028\n\ufeff\n${lines.slice(2).join('\r\n')}`,
    );
    const expected = reference(bytes);
    expect(expected.map((r) => r.line)).toEqual([1, 4, 7, 8, 9, 10, 11, 12]);
    for (const size of [1, 5, 333, bytes.length]) expect(await read(bytes, size)).toEqual(expected);
  });

  it('skips the first lines for a resume, numbering lines as before', async () => {
    expect(await read(acl, 100, 3)).toEqual(reference(acl, 3));
    expect((await read(acl, 100, 3))[0]!.line).toBe(4);
  });

  it('a block that is not valid UTF-8 is decoded as before (replacement characters)', async () => {
    const lines = acl.toString('utf8').split('\n');
    const bad = Buffer.concat([
      Buffer.from(`${lines[0]}\n`),
      Buffer.from(lines[1]!.replace('"title": "', '"title": "\u0000').replace('\u0000', 'X'), 'utf8'),
      Buffer.from('\n'),
    ]);
    // A lone continuation byte in the title, and a truncated three-byte character in a word of the index.
    bad[bad.indexOf('"title": "X', lines[0]!.length) + '"title": "'.length] = 0x80;
    const word = bad.indexOf('"In": [', lines[0]!.length);
    const withCut = Buffer.concat([
      bad.subarray(0, word + 1),
      Buffer.from([0xe2, 0x82]),
      bad.subarray(word + 1),
    ]);
    const expected = reference(withCut);
    expect(JSON.stringify(expected)).toContain('\ufffd');
    for (const size of [3, 4096, withCut.length]) expect(await read(withCut, size)).toEqual(expected);
  });

  it('words that are different bytes but decode alike (invalid UTF-8) are one word, as decoded', async () => {
    // 0x80 and 0x81 both decode to U+FFFD: decoded, the index repeats a key and the later one wins.
    const bytes = Buffer.concat([
      Buffer.from('{"id": "W1", "title": "T", "abstract_inverted_index": {"a": [0], "'),
      Buffer.from([0x80]),
      Buffer.from('": [1], "'),
      Buffer.from([0x81]),
      Buffer.from('": [2]}}\n'),
    ]);
    const expected = reference(bytes);
    expect(expected).toMatchObject([{ work: { abstract: 'a \ufffd' } }]);
    expect(await read(bytes, bytes.length)).toEqual(expected);
  });

  it("lines that are not valid JSON give JSON.parse's error, whichever path read them", async () => {
    const line = acl.toString('utf8').split('\n')[0]!;
    const bytes = Buffer.from(
      `${line.slice(0, -1)}\n\ufeff${line}\n${line.replace('"authorships"', '"authorships" x')}\n`,
    );
    const expected = reference(bytes);
    expect(expected.map((r) => r.error !== undefined)).toEqual([true, true, true]);
    expect(await read(bytes, 64)).toEqual(expected);
  });
});

describe('a file that starts with a byte-order mark', () => {
  // Some Windows tools write one: it is not part of the first record.
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const records = [
    { id: 'W1', title: 'One' },
    { id: 'W2', title: 'Two' },
  ];

  it.each([
    ['JSON lines', Buffer.from(records.map((r) => JSON.stringify(r)).join('\n'))],
    ['JSON lines, gzip', Buffer.from(records.map((r) => JSON.stringify(r)).join('\n'))],
    ['one JSON array', Buffer.from(JSON.stringify(records, null, 2))],
  ])('%s: every record, none bad', async (kind, text) => {
    const file = path.join(await tempDir(), 'bom.json');
    const bytes = Buffer.concat([BOM, text]);
    await writeFile(file, kind.endsWith('gzip') ? gzipSync(bytes) : bytes);
    const read = [];
    for await (const item of (await openRecords(file)).lines) read.push(item);
    expect(read).toEqual(records.map((value, i) => ({ line: i + 1, value })));
  });
});
