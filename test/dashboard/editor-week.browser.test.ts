// An editor's week in Chromium at 375 and 1280 px, what round 26 walked by inject tests only: two
// manuscripts uploaded through the upload page's form, a conflict flagged on the second's page and a
// referee marked, the three export links of its page and the files they give, the marked referees
// "as records" imported into a new group, and that group's "Export every record" (the file its import
// reads back); each page passes axe (docs/dashboard.md, "Exports").
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';

const t = useBrowserApp();
let ids: Awaited<ReturnType<typeof buildCorpus>>;
beforeAll(async () => {
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Nell Neutral', affiliation: 'University of Lisbon' }] },
    { authors: [{ name: 'Wei Zhang', affiliation: 'Harbin Institute of Technology' }] },
  ]);
  await t.app.refmatch.index.refresh();
});

/** The file a link gives: its suggested name, its path and its lines (CRLF-ended, BOM first). */
async function downloaded(page: Page, click: () => Promise<void>) {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = `${await download.path()}`;
  return { name: download.suggestedFilename(), path, lines: (await readFile(path, 'utf8')).split('\r\n') };
}

describe("an editor's week: uploads, a conflict flagged, the exports and an import", () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px`, async () => {
      const org = await createTestOrg(t);
      await updateSettings(t.db, org.id, { include_without_email: true });
      const page = await signedInPage(t, org.id, 'editor', { width });
      const date = new Date().toISOString().slice(0, 10);
      for (const origin of [`JCL-${width}-1`, `JCL-${width}-2`]) {
        await page.goto(`${t.url}/dashboard/manuscripts/upload/`);
        await expectAccessible(page);
        await page.getByLabel('Folder').fill('JCL');
        await page.getByLabel('Origin id').fill(origin);
        await page.getByLabel('Title').fill('Molecular graphs, again');
        await page.getByLabel('Abstract').fill(TOPIC);
        await page.getByLabel('Authors').fill('Ana Álvarez; ana@uni.example; Universidad de Sevilla');
        await page.getByRole('button', { name: 'Upload and find candidates' }).click();
        await page.waitForURL(/\/dashboard\/manuscripts\/\d+\/$/);
        expect(await page.locator('main').innerText()).toContain(origin);
      }
      const nell = ids.authorId('Nell Neutral');
      await page.locator(`#referee-${nell}`).click();
      await page.waitForURL(/#referee-\d+-message$/);
      await page.getByRole('button', { name: 'Flag a conflict of interest with Wei Zhang' }).click();
      await page.waitForURL(/#conflict-\d+-message$/);
      await expectAccessible(page);
      const manuscript = page.url().replace(/#.*$/, '');

      const all = await downloaded(page, () => page.getByRole('link', { name: 'all 2 candidates' }).click());
      expect(all.name).toBe(`candidates-JCL-${width}-2-${date}.csv`);
      expect(all.lines[0]).toMatch(/^\uFEFFManuscript origin id,Author id,Name,/);
      expect(all.lines.find((l) => l.includes('Wei Zhang'))).toContain(",Organization's flag,");
      const marked = await downloaded(page, () =>
        page.getByRole('link', { name: 'the 1 marked referee only' }).click(),
      );
      expect(marked.name).toBe(`referees-JCL-${width}-2-${date}.csv`);
      expect(marked.lines.filter((l) => l !== '')).toHaveLength(2);
      expect(marked.lines[1]).toMatch(
        new RegExp(`^JCL-${width}-2,${nell},Nell Neutral,.*,None found,editor`),
      );
      const records = await downloaded(page, () =>
        page.getByRole('link', { name: 'as records for an authors group' }).click(),
      );
      expect(records.name).toBe(`referees-records-JCL-${width}-2-${date}.csv`);
      expect(records.lines.slice(0, 2)).toEqual([
        '\uFEFFclient_id,name,emails,orcids,affiliations',
        `author-${nell},Nell Neutral,,,University of Lisbon`,
      ]);

      await page.goto(`${t.url}/dashboard/groups/`);
      await page.getByLabel('Group name').fill(`Referees ${width}`);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/dashboard\/groups\/\d+\/$/);
      await page.getByRole('link', { name: 'Import records' }).click();
      await expectAccessible(page);
      await page.getByLabel('Or a CSV file').setInputFiles(records.path);
      await page.getByRole('button', { name: 'Import records' }).click();
      await page.waitForURL(/\/dashboard\/groups\/\d+\/$/);
      expect(await page.locator('main').innerText()).toContain('1 record added');
      await expectAccessible(page);
      const group = await downloaded(page, () =>
        page.getByRole('link', { name: 'Export every record' }).click(),
      );
      expect(group.name).toBe(`group-Referees-${width}-${date}.csv`);
      expect(group.lines.slice(0, 2)).toEqual([
        '\uFEFFclient_id,name,emails,orcids,articles,affiliations',
        `author-${nell},Nell Neutral,,,,University of Lisbon`,
      ]);
      // The first manuscript's page knows nothing of the second's flag and mark.
      await page.goto(manuscript.replace(/\/(\d+)\/$/, (_, n: string) => `/${Number(n) - 1}/`));
      expect(await page.locator('main').innerText()).toContain(`JCL-${width}-1`);
      expect(await page.getByRole('link', { name: /marked referee/ }).count()).toBe(0);
      await page.context().close();
    });
  }
});
