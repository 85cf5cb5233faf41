import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { csvBytes, csvRows, csvRowsJoined, type CsvValue } from '../../src/corpus/ingest/csv.ts';
import { workRow } from '../../src/corpus/ingest/load-works.ts';
import { parseWork } from '../../src/corpus/openalex/openalex-work.ts';
import { FIXTURES, OPENALEX } from './helpers.ts';

const long = (text: string) => text.repeat(70);

describe('csvRows: COPY csv text written as bytes, the same text as joining the fields', () => {
  it('quotes, backslashes, NULL, numbers, booleans and arrays, in short and long texts', () => {
    const rows: CsvValue[][] = [
      [1, 'plain', null, true, false, 2.5, -3, ''],
      ['say "hi"', 'back\\slash', long('a "q" b '), long('no quote ')],
      [['a', 'b"c', 'd\\e', ''], [1, 22, 333], [], ['{x}', 'y,z']],
      [null, null],
      [],
    ];
    expect(csvRows(rows)).toBe(csvRowsJoined(rows));
    expect(csvRows([])).toBe('');
  });

  it('characters of two, three and four UTF-8 bytes, in fields and array elements', () => {
    const text = 'Jürgen Šmíd, 李明, “quoted”, 😀 emoji';
    const rows: CsvValue[][] = [
      [text, long(text), [text, `"${text}"`, '\\😀']],
      [long(`${text} "x"`), '\u00ff\u0100\u07ff\u0800\uffff'],
    ];
    expect(csvRows(rows)).toBe(csvRowsJoined(rows));
  });

  it('a lone surrogate (UTF-8 cannot carry it) gives the joined text unchanged', () => {
    for (const odd of ['a\ud800b', 'end\udc00', long('x\udbff'), '\ud83d']) {
      const rows: CsvValue[][] = [['before', odd], [[odd]]];
      expect(csvRows(rows)).toBe(csvRowsJoined(rows));
    }
    // The buffer is reused: the next call starts afresh.
    expect(csvRows([['after']])).toBe('"after"\n');
  });

  it("the fixtures' works give the same rows either way", () => {
    for (const file of [
      path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl'),
      path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl'),
    ]) {
      const rows = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => workRow(parseWork(JSON.parse(line)), 7));
      expect(csvRows(rows)).toBe(csvRowsJoined(rows));
    }
  });

  it('csvBytes: the same text as UTF-8 bytes, a copy of its own', () => {
    const rows: CsvValue[][] = [['Jürgen "J" 李 😀', long('x'), ['a"b', 'c\\d'], 7, null]];
    const bytes = csvBytes(rows);
    expect(Buffer.from(bytes).toString('utf8')).toBe(csvRowsJoined(rows));
    csvRows([['overwrites the shared buffer']]);
    expect(Buffer.from(bytes).toString('utf8')).toBe(csvRowsJoined(rows));
    expect(Buffer.from(csvBytes([['a\ud800']]))).toEqual(Buffer.from('"a\ufffd"\n'));
  });
});
