// Identifier forms as stored in the corpus: bare, lower-case where case carries no meaning, so that a
// DOI typed by a client, found in a reference list, or read from OpenAlex compares equal.

/** `https://doi.org/10.1/ABC`, `doi:10.1/abc` or `10.1/abc` → `10.1/abc`; anything else → null. */
export function normalizeDoi(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /10\.\d{4,9}\/\S+/i.exec(value.trim());
  if (!match) return null;
  // The trailing run from where it starts (`[.,;]+$` read a run of stops again from each of them:
  // a DOI of 200,000 stops before a letter took 15 s).
  return match[0].replace(/(?<![.,;])[.,;]+$/, '').toLowerCase();
}

/**
 * A reference's title, when it is long enough to look a work up by (title_key, migration 0034):
 * at least 10 characters; shorter ones ("Editorial", "Reply") name too many works. Else null.
 */
export function matchableTitle(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length >= 10 ? value : null;
}

/**
 * Any ORCID form → `0000-0002-1825-0097`; null when it is not one, its check digit included: a
 * placeholder ("0000-0000-0000-0000", which two people of the ACL corpus carry) or a mistyped iD
 * names no one, and taken for an iD it made two people one and flagged one's conflicts on the other.
 */
export function normalizeOrcid(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dXx])/.exec(value.trim());
  if (!match) return null;
  const orcid = `${match[1]}-${match[2]}-${match[3]}-${match[4]!.toUpperCase()}`;
  return validOrcid(orcid) ? orcid : null;
}

/** ISO 7064 11,2 check digit of an ORCID iD (hyphens optional). */
export function validOrcid(id: string): boolean {
  const digits = id.replace(/-/g, '');
  if (!/^\d{15}[\dX]$/.test(digits)) return false;
  let total = 0;
  for (const ch of digits.slice(0, 15)) total = (total + Number(ch)) * 2;
  const check = (12 - (total % 11)) % 11;
  return digits[15] === (check === 10 ? 'X' : String(check));
}

/** `https://pubmed.ncbi.nlm.nih.gov/29456894`, `PMID: 29456894` or `29456894` → `29456894`. */
export function normalizePmid(value: unknown): string | null {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value !== 'string') return null;
  const match = /^(?:https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/|pmid:?\s*)?0*(\d{1,9})\/?$/i.exec(value.trim());
  return match && match[1] !== '0' ? match[1]! : null;
}

/**
 * arXiv ids in new (`2101.00001`, version dropped) and old (`hep-th/9901001`) form, bare or in an
 * arxiv.org URL, `arXiv:` prefix, or the arXiv DOI `10.48550/arXiv.2101.00001`.
 */
export function normalizeArxivId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const modern = /(?:^|arxiv[.:/]|abs\/|pdf\/)(\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?\/?$/i.exec(text);
  if (modern) return modern[1]!;
  const old = /(?:^|arxiv:|abs\/|pdf\/)([a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?(?:\.pdf)?\/?$/i.exec(text);
  return old ? old[1]!.toLowerCase() : null;
}

/** OpenAlex ids arrive as URLs (`https://openalex.org/W123`); the corpus keys them bare (`W123`). */
export function openAlexKey(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  // A key is stored in a text column, which holds no NUL, and read back in URLs and files: an id
  // holding a control character is no id (its record is refused, or keyed by what else it gives).
  if (/\p{Cc}/u.test(text)) return null;
  const match = /^https?:\/\/(?:api\.)?openalex\.org\/(?:[a-z]+\/)?([A-Za-z]\d+)$/.exec(text);
  return match ? match[1]!.toUpperCase() : text;
}
