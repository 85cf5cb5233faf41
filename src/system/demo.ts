// First start on an empty database: create a demo organization and print its key and a curl line,
// so a newcomer can call the API at once. The key is shown only then: only its hash is stored.
import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/index.ts';
import { createOrganization } from '../organizations/organizations.ts';
import { loadDemoCorpusInBackground } from '../corpus/demo-corpus.ts';

export async function ensureDemo(
  db: Database,
  config: Config,
  url: string,
  out: (line: string) => void,
): Promise<{ stop(): Promise<void> }> {
  await ensureDemoOrganization(db, config, url, out);
  // After the organization's lines, so the key is on screen while the corpus loads; shutdown stops it.
  return loadDemoCorpusInBackground(db, out);
}

async function ensureDemoOrganization(
  db: Database,
  _config: Config,
  url: string,
  out: (line: string) => void,
): Promise<void> {
  const existing = await db.query<{ id: number }>('SELECT id FROM organizations WHERE is_demo LIMIT 1');
  if (existing.rows[0]) {
    out(`refmatch is listening on ${url} (docs: ${url}/docs)`);
    out(
      `Demo organization: id ${existing.rows[0].id}. New key: npx refmatch key create --org ${existing.rows[0].id}`,
    );
    return;
  }
  const org = await createOrganization(db, {
    name: 'Demo organization',
    features: ['referee_finder', 'recommend_journals'],
    isDemo: true,
  });
  out(`refmatch is listening on ${url} (docs: ${url}/docs)`);
  out(`Created the demo organization (id ${org.id}). Its API key, shown only now:`);
  out(`  ${org.api_key}`);
  out('Try it:');
  out(`  curl -s -H 'X-ApiKey: ${org.api_key}' ${url}/api/external/custom-fields/all/`);
}
