// Identifiers can never be parameters; this is the one checked way to put one into SQL text.
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function quoteIdent(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`refusing unsafe SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}
