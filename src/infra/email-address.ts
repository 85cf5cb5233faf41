// What counts as an email address where one is typed or given (a dashboard user's, a manuscript
// author's, a group record's): something@domain.tld, no space, one "@". Deliberately loose (no list
// of top-level domains, any letters in the local part): it turns away what is plainly no address ("n/a",
// a name, two addresses on one line), never a real one.
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(text: string): boolean {
  return EMAIL_ADDRESS.test(text);
}
