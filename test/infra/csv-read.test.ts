// The shared CSV reader (src/infra/csv-read.ts): a record's line is the line it starts on, lines
// counted as `linesAtMost` counts them, whatever its quoted fields span and the empty lines skipped.
import { describe, expect, it } from 'vitest';
import {
  columnsByName,
  CsvRowError,
  forEachCsvRecord,
  linesAtMost,
  LineTooLongError,
} from '../../src/infra/csv-read.ts';

async function* inPieces(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

const read = async (text: string, size = 7) => {
  const lines: Array<[string, number]> = [];
  await forEachCsvRecord(
    linesAtMost(inPieces(text, size), 1000),
    { relax_column_count: true, skip_empty_lines: true, trim: true },
    (record, _i, line) => {
      lines.push([record[0]!, line]);
    },
  );
  return lines;
};

describe("columnsByName: a header row's columns", () => {
  it('trims the names, and a name written twice is its first column', () => {
    expect(columnsByName([' doi ', 'id', 'doi', '\tReason'])).toEqual(
      new Map([
        ['doi', 0],
        ['id', 1],
        ['Reason', 3],
      ]),
    );
  });
});

describe('forEachCsvRecord: the line a record starts on', () => {
  it('counts the lines of quoted fields (CR, LF, CRLF) and of skipped empty lines, by either ending', async () => {
    // Records written with the line each starts on known, in pieces of every size from 1.
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (const end of ['\n', '\r\n']) {
      const parts: string[] = [];
      const expected: Array<[string, number]> = [];
      let line = 1;
      for (let r = 0; r < 40; r++) {
        for (let e = random(3); e > 0; e--, line++) parts.push(random(2) ? end : `  ${end}`);
        const breaks = ['\n', '\r\n', '\r'].slice(0, random(3) + 1).slice(random(2));
        expected.push([`r${r}`, line]);
        parts.push(`r${r},"a${breaks.join('b')}c"${end}`);
        line += 1 + breaks.length;
      }
      const text = parts.join('');
      for (const size of [1, 2, 3, 5, 64, text.length]) expect(await read(text, size)).toEqual(expected);
    }
  });

  it('names the line a refused record starts on, where the parser counts a CRLF in quotes twice', async () => {
    const text = 'a,"x\r\ny"\r\n\r\nb,"unclosed\r\n';
    const error = await read(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvRowError);
    expect(error).toMatchObject({ code: 'CSV_QUOTE_NOT_CLOSED', line: 4 });
  });

  it('agrees with linesAtMost on the line it refuses', async () => {
    const text = `a,"x\r\ny"\r\n\r\nb,${'z'.repeat(1001)}`;
    await expect(read(text)).rejects.toEqual(new LineTooLongError(4, 1000));
    expect(await read(`a,"x\r\ny"\r\n\r\nb,${'z'.repeat(998)}`)).toEqual([
      ['a', 1],
      ['b', 4],
    ]);
  });
});
