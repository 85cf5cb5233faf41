// Identifiers can never be parameters; this is the one checked way to put one into SQL text.
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function quoteIdent(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`refusing unsafe SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/**
 * A search's words as LIKE patterns, each matching the word anywhere (its `%`, `_` and `\` taken
 * literally): at most 10, each being a scan of the text searched.
 */
export function likeWordPatterns(search: string): string[] {
  return search
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, 10)
    .map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
