// The authors-group API, in a scope of its own: its bodies are JSON only, so the text/plain parser
// Fastify adds by default is removed here and any other content type answers 415.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerAuthorFromGroupRoutes } from './routes.ts';

export function registerAuthorsGroupApi(external: FastifyInstance, ctx: AppContext): void {
  void external.register(async (scope) => {
    scope.removeContentTypeParser('text/plain');
    registerAuthorFromGroupRoutes(scope, ctx);
  });
}
