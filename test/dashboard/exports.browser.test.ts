// A managing editor's referees taken out and back in, in Chromium at 375 and 1280 px (docs/dashboard.md,
// "Exports"): a referee marked on a manuscript's page, the marked referees downloaded as records for
// an authors group (the file named for what it holds), that file imported into a new group through
// the import form's file input, and the referee found back there by a search; each page passes axe.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
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

describe('referees taken out of a manuscript and into a group', () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px: marked, downloaded as records, imported into a new group, found by a search`, async () => {
      const org = await createTestOrg(t);
      await updateSettings(t.db, org.id, { include_without_email: true });
      const fields = rankingFields({
        origin_id: `ms-week-${width}`,
        title: 'Molecular graphs',
        abstract: TOPIC,
      });
      const id = (await upload(t.app, { apiKey: org.apiKey, fields })).json().manuscript_id as number;
      const page = await signedInPage(t, org.id, 'editor', { width });
      const nell = ids.authorId('Nell Neutral');

      await page.goto(`${t.url}/dashboard/manuscripts/${id}/`);
      await page.locator(`#referee-${nell}`).click();
      await page.waitForURL(/#referee-\d+-message$/);
      const link = page.getByRole('link', { name: 'as records for an authors group' });
      await expectAccessible(page);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const date = new Date().toISOString().slice(0, 10);
      expect(download.suggestedFilename()).toBe(`referees-records-ms-week-${width}-${date}.csv`);
      const path = `${await download.path()}`;
      expect((await readFile(path, 'utf8')).split('\r\n')[0]).toBe(
        '\uFEFFclient_id,name,emails,orcids,affiliations',
      );

      await page.goto(`${t.url}/dashboard/groups/`);
      await page.getByLabel('Group name').fill(`Referees ${width}`);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/dashboard\/groups\/\d+\/$/);
      await page.getByRole('link', { name: 'Import records' }).click();
      await page.getByLabel('Or a CSV file').setInputFiles(path);
      await page.getByRole('button', { name: 'Import records' }).click();
      await page.waitForURL(/\/dashboard\/groups\/\d+\/$/);
      expect(await page.locator('[role="status"], .flash').first().textContent()).toContain('1 record added');

      await page.getByLabel('Search by name, client id or email').fill('nell');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.locator('caption').textContent()).resolves.toContain('1 record matching');
      expect(await page.locator('tbody').textContent()).toContain(`author-${nell}`);
      await expectAccessible(page);
      await page.context().close();
    });
  }
});
