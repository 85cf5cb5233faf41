// What counts as an email address where one is typed or given (a dashboard user's, a manuscript
// author's, a group record's): something@domain.tld, no space, one "@". Deliberately loose (no list
// of top-level domains, any letters in the local part): it turns away what is plainly no address ("n/a",
// a name, two addresses on one line), never a real one.
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(text: string): boolean {
  return EMAIL_ADDRESS.test(text);
}

/** An address within a longer text: what lies between the separators a mail program writes. */
const ADDRESS_WITHIN = /[^\s<>"'(),;@]+@[^\s<>"'(),;@]+/g;

/**
 * The addresses within a text that is not one ("Ada Lovelace <ada@uni.example>", two on a line, as a
 * mail program copies them): what to write instead, said where such a text is refused.
 */
export function addressesWithin(text: string): string[] {
  return (text.match(ADDRESS_WITHIN) ?? []).filter(isEmailAddress);
}
