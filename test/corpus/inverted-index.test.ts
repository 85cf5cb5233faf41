import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  parseBytesWithInvertedIndex,
  parseWithInvertedIndex,
  RebuiltAbstract,
  restartLineStampsAt,
} from '../../src/corpus/openalex/inverted-index.ts';
import { parseWork } from '../../src/corpus/openalex/openalex-work.ts';
import { FIXTURES } from './helpers.ts';

const base = '"id": "https://openalex.org/W1", "title": "T"';

function both(line: string) {
  return { fast: parseWithInvertedIndex(line), plain: JSON.parse(line) as unknown };
}

describe('abstract_inverted_index scanned beside JSON.parse: the same work as JSON.parse gives', () => {
  it('rebuilds the same abstract, with duplicate and integer-like words resolved as an object would', () => {
    const line = `{${base}, "abstract_inverted_index": {"b": [1], "2016": [0], "a\\"x": [2], "b": [3], "7": [0], "c" : [ 4 , 5 ]}}`;
    const { fast, plain } = both(line);
    expect(fast).toBeDefined();
    expect(parseWork(fast)).toEqual(parseWork(plain));
    expect(parseWork(fast).abstract).toBe('2016 a"x b c c');
  });

  it('rebuilds straight from the scan: holes skipped, integer-like words in place, far positions ignored', () => {
    const line = `{${base}, "abstract_inverted_index": {"we": [0, 5], "2019": [1], "": [2], "far": [100000], "x\\"y": [6], "é": [4]}}`;
    const { fast, plain } = both(line);
    expect(parseWork(fast)).toEqual(parseWork(plain));
    expect(parseWork(fast).abstract).toBe('we 2019 é we x"y');
  });

  it('notices a repeated key, also when spelled with an escape, and resolves it as an object would', () => {
    const line = `{${base}, "abstract_inverted_index": {"a": [0], "b": [2], "\\u0061": [1]}}`;
    const { fast, plain } = both(line);
    expect(parseWork(fast)).toEqual(parseWork(plain));
    expect(parseWork(fast).abstract).toBe('a b');
  });

  it('handles an index of more distinct words than the scan tracks (5,000)', () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `"w${i}": [${i}]`).join(', ');
    const { fast, plain } = both(`{${base}, "abstract_inverted_index": {${words}}}`);
    expect(parseWork(fast)).toEqual(parseWork(plain));
  });

  it('leaves every other shape to JSON.parse (undefined), so results and errors stay JSON.parse ones', () => {
    for (const index of [
      '{"a": [01]}',
      '{"a": [1.5]}',
      '{"a": [-1]}',
      '{"a": 1}',
      '{"a": [1],}',
      '{"a\u0001": [1]}',
    ])
      expect(parseWithInvertedIndex(`{${base}, "abstract_inverted_index": ${index}}`)).toBeUndefined();
    expect(parseWithInvertedIndex(`{${base}, "x": {"abstract_inverted_index": {"a": [0]}}}`)).toBeUndefined();
    const twice = `{${base}, "abstract_inverted_index": {"a": [0]}, "abstract_inverted_index": null}`;
    expect(parseWithInvertedIndex(twice)).toBeUndefined();
    expect(parseWithInvertedIndex(`{${base}, "abstract_inverted_index": {"a": [0]}`)).toBeUndefined();
  });

  it("leaves to JSON.parse a member spelled with escapes, which JSON.parse takes for the index's name", () => {
    // The search for the name does not see these; JSON.parse reads them as the record's index.
    const escaped = '"abstract\\u005finverted_index"';
    for (const line of [
      `{${base}, "abstract_inverted_index": {"a": [0]}, ${escaped}: null}`,
      `{${base}, ${escaped}: null, "x": {"abstract_inverted_index": {"a": [0]}}}`,
    ]) {
      expect(JSON.parse(line)).toMatchObject({ abstract_inverted_index: null });
      expect(parseWithInvertedIndex(line)).toBeUndefined();
      expect(parseBytesWithInvertedIndex(Buffer.from(line))).toBeUndefined();
    }
    // Non-ASCII characters escaped (as Python writes them) cannot spell it: the scan still applies.
    const accented = `{${base}, "title": "Caf\\u00e9", "abstract_inverted_index": {"a": [0]}}`;
    expect(parseWithInvertedIndex(accented)).toMatchObject({ title: 'Café' });
    expect(parseBytesWithInvertedIndex(Buffer.from(accented))).toMatchObject({ title: 'Café' });
  });

  it('keeps an empty index as no abstract', () => {
    const { fast, plain } = both(`{${base}, "abstract_inverted_index": {}}`);
    expect(parseWork(fast)).toEqual(parseWork(plain));
    expect(parseWork(fast).abstract).toBeNull();
  });
});

describe("abstract_inverted_index scanned from the line's bytes: the plain case, else the string path", () => {
  const lines = readFileSync(path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl'), 'utf8').trimEnd().split('\n');

  it('gives the work JSON.parse gives for real ACL lines, non-ASCII words included', () => {
    expect(lines.some((line) => [...line].some((c) => c.charCodeAt(0) > 0xff))).toBe(true);
    for (const line of lines) {
      const fast = parseBytesWithInvertedIndex(Buffer.from(line));
      expect(fast).toBeDefined();
      expect((fast as Record<string, unknown>).abstract_inverted_index).toBeInstanceOf(RebuiltAbstract);
      expect(parseWork(fast)).toEqual(parseWork(JSON.parse(line)));
    }
  });

  it("gives the string path's result on plain indexes: holes, empty and far words, spacing", () => {
    for (const index of [
      '{"we": [0, 5], "2019": [1], "": [2], "far": [100000], "é": [4], "李": [7]}',
      '{ "a" : [ 3 ] , "b":[1,2] }',
      '{}',
      '{"": [0]}',
    ]) {
      const line = `{${base}, "abstract_inverted_index": ${index}, "x": [1]}`;
      const fast = parseBytesWithInvertedIndex(Buffer.from(line));
      expect(fast).toEqual(parseWithInvertedIndex(line));
      expect(parseWork(fast)).toEqual(parseWork(JSON.parse(line)));
    }
  });

  it("takes the record's member name as a word of the abstract (a key of the index, not a member)", () => {
    const line = `{${base}, "abstract_inverted_index": {"the": [0], "abstract_inverted_index": [1], "x": [2]}}`;
    const fast = parseBytesWithInvertedIndex(Buffer.from(line));
    expect(fast).toBeDefined();
    expect(parseWork(fast)).toEqual(parseWork(JSON.parse(line)));
    expect(parseWork(fast).abstract).toBe('the abstract_inverted_index x');
  });

  it('leaves escapes, repeated keys, shared positions and every other shape to the string path', () => {
    const line = lines[0]!;
    const many = Array.from({ length: 5_000 }, (_, i) => `"w${i}": [${i}]`).join(', ');
    for (const changed of [
      line.replace('"In": [', '"I\\u006e": ['),
      line.replace('"In": [', '"In\\"": ['),
      line.replace('"conversational": [', '"In": ['),
      line.replace('"conversational": [1, ', '"conversational": [0, '),
      line.replace(/"abstract_inverted_index": \{[^}]*\}/, `"abstract_inverted_index": {${many}}`),
      line.replace('"In": [0, 41]', '"In": [0, 041]'),
      line.replace('"In": [0, 41]', '"In": [0, 4.1]'),
      line.replace('"In": [0, 41]', '"In": 0'),
      line.replace('"In": [0, 41]', '"In\u0001": [0, 41]'),
      line.replace('"abstract_inverted_index"', '"x": {"abstract_inverted_index": {}}, "abstract"'),
      line.replace('{"id"', '{"abstract_inverted_index": null, "id"'),
      line.replace('"id"', '"a \\"abstract_inverted_index": {"a": [0]}, "id"'),
      // The member repeated: JSON.parse keeps the last (null), whatever the first was.
      line.replace(/\}$/, ', "abstract_inverted_index": null}'),
      line.slice(0, -1),
    ]) {
      expect(changed).not.toBe(line);
      expect(parseBytesWithInvertedIndex(Buffer.from(changed))).toBeUndefined();
    }
  });
});

describe('the per-line stamps of the scan at their Int32 bound', () => {
  it('still notices a repeated key and a shared position on the lines past 2^31 - 1', () => {
    const repeatedKey = `{${base}, "abstract_inverted_index": {"a": [0], "b": [1], "a": [2]}}`;
    const sharedPosition = `{${base}, "abstract_inverted_index": {"a": [0], "b": [0], "c": [1]}}`;
    // Lines numbered 2^31 - 3 on: the bound falls among them, on both paths.
    restartLineStampsAt(0x7fffffff - 3);
    try {
      for (let i = 0; i < 4; i++) {
        for (const line of [repeatedKey, sharedPosition]) {
          // The byte path leaves both shapes to the string path, which resolves them as JSON.parse does.
          expect(parseBytesWithInvertedIndex(Buffer.from(line))).toBeUndefined();
          const fast = parseWithInvertedIndex(line);
          expect(fast).toBeDefined();
          expect(parseWork(fast)).toEqual(parseWork(JSON.parse(line)));
        }
      }
      expect(parseWork(parseWithInvertedIndex(repeatedKey)).abstract).toBe('b a');
    } finally {
      restartLineStampsAt(0);
    }
  });
});
