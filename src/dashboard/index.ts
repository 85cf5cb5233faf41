// The integrations dashboard at /dashboard/: every page registered by name (docs/dashboard.md).
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerDashboardFramework } from './framework.ts';
export { sendFrameworkErrorPage } from './framework.ts';
import { registerSignInPages } from './pages/sign-in.ts';
import { registerHomePage } from './pages/home.ts';
import { registerSettingsPages } from './pages/settings.ts';
import { registerApiKeyPages } from './pages/api-keys.ts';
import { registerUserPages } from './pages/users.ts';
import { registerCustomFieldPages } from './pages/custom-fields.ts';
import { registerAuthorsGroupPages } from './pages/authors-groups.ts';
import { registerGroupImportPages } from './pages/group-import.ts';
import { registerGroupExportPages } from './pages/group-export.ts';
import { registerFolderPages } from './pages/folders.ts';
import { registerManuscriptPages } from './pages/manuscripts.ts';
import { registerManuscriptUploadPages } from './pages/manuscript-upload.ts';
import { registerWebhookPages } from './pages/webhooks.ts';

export const DASHBOARD_PREFIX = '/dashboard';

/** Whether a request's URL is the dashboard's (its pages, not the API): `/dashboard`, `/dashboard/...`. */
export function isDashboardPath(url: string): boolean {
  return url === DASHBOARD_PREFIX || /^\/dashboard[/?#]/.test(url);
}

const STYLESHEET = readFileSync(new URL('./assets/dashboard.css', import.meta.url), 'utf8');

export async function registerDashboard(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.decorate('dashboardRoutes', []);
  await app.register(
    async (scope) => {
      registerDashboardFramework(scope, ctx);
      scope.get('/assets/dashboard.css', { schema: { hide: true } }, async (_request, reply) =>
        reply
          .type('text/css; charset=utf-8')
          .header('cache-control', 'public, max-age=3600')
          .send(STYLESHEET),
      );
      registerSignInPages(scope, ctx);
      registerHomePage(scope, ctx);
      registerSettingsPages(scope, ctx);
      registerApiKeyPages(scope, ctx);
      registerUserPages(scope, ctx);
      registerCustomFieldPages(scope, ctx);
      registerAuthorsGroupPages(scope, ctx);
      registerGroupImportPages(scope, ctx);
      registerGroupExportPages(scope, ctx);
      registerFolderPages(scope, ctx);
      registerManuscriptUploadPages(scope, ctx);
      registerManuscriptPages(scope, ctx);
      registerWebhookPages(scope, ctx);
    },
    { prefix: DASHBOARD_PREFIX },
  );
}
