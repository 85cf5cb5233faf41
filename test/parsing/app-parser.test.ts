// The app carries one parser pool for the upload to use, and closing the app closes it.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { makeArticlePdf } from './make-files.ts';

describe('ctx.parser', () => {
  it('parses through the app’s pool and is closed with the app', async () => {
    const t = await createTestApp();
    const parser = t.app.refmatch.parser;
    try {
      const r = await parser.parse(makeArticlePdf(), 'a.pdf');
      expect(r.error).toBeNull();
      expect(r.title).toBe('A Study of Things That Parse Well');
    } finally {
      await t.close();
    }
    const after = await parser.parse(makeArticlePdf(), 'a.pdf');
    expect(after.error?.code).toBe('parser_failed');
  });
});
