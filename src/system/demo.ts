// First start on an empty database: create a demo organization and print its key and a curl line,
// so a newcomer can call the API at once. The key is shown only then: only its hash is stored.
import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/index.ts';
import { createOrganization } from '../organizations/organizations.ts';
import { loadDemoCorpusInBackground, type DemoCorpusLoad } from '../corpus/ingest/demo-corpus.ts';
import { createUser, findUserByEmail } from '../users/users.ts';

export const DEMO_ADMIN_EMAIL = 'admin@demo.refmatch.example';

export async function ensureDemo(
  db: Database,
  config: Config,
  url: string,
  out: (line: string) => void,
): Promise<DemoCorpusLoad> {
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
    await ensureDemoAdmin(db, existing.rows[0].id, url, out);
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
  await ensureDemoAdmin(db, org.id, url, out);
}

/** The demo organization's integrations admin, so the dashboard can be tried at once. */
export async function ensureDemoAdmin(
  db: Database,
  organizationId: number,
  url: string,
  out: (line: string) => void,
): Promise<void> {
  const existing = await findUserByEmail(db, organizationId, DEMO_ADMIN_EMAIL);
  if (existing) {
    out(`Dashboard: ${url}/dashboard/ (sign in as ${DEMO_ADMIN_EMAIL}).`);
    out(`  Lost the password? npx refmatch user password --user ${existing.id}`);
    return;
  }
  const admin = await createUser(db, { organizationId, email: DEMO_ADMIN_EMAIL, role: 'integrations_admin' });
  out(`Dashboard: ${url}/dashboard/ — sign in as the demo organization's integrations admin:`);
  out(`  Email: ${admin.email}`);
  out(`  One-time password (choose your own at first sign-in): ${admin.password}`);
}
