import { describe, expect, it } from 'vitest';
import { splitLines } from '../../src/corpus/record-reader.ts';

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
