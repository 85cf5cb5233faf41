// The OpenAlex fixture's works that carry a title and a real abstract (over 300 characters): the
// small real corpus the index tests search.
import { readFileSync } from 'node:fs';

export interface FixtureWork {
  id: string;
  title: string | null;
  abstract: string | null;
  publication_year: number | null;
}

const FIXTURE = new URL(
  '../fixtures/openalex/openalexPro-biodiversity-finance-200works.jsonl',
  import.meta.url,
);

export function fixtureWorksWithAbstracts(): FixtureWork[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FixtureWork)
    .filter((r) => r.title && r.abstract && r.abstract.length > 300);
}
