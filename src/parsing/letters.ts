// The letters an author binds before a revised manuscript in one file: a cover letter, the
// response to the reviewers. Read by the PDF reader (which reads the links of more pages when a
// file opens on a letter) and by the header (which passes the letters over).

/**
 * What opens a letter to a journal's editor or reviewers, in the first lines of its first page:
 * a salutation ("Dear Dr. Roe,", "To the Editorial Board Member,"), a response's heading
 * ("Response to Reviewers", "Reply to the referees", "Editor's comments", "Reviewer #1"), a cover
 * letter's or a rebuttal's.
 */
export const LETTER_OPENING =
  /^(?:dear\b|to (?:the )?(?:handling |associate |academic )?(?:editors?|editorial\b|reviewers?|referees?)\b|(?:authors?['’]?s? )?(?:responses?|repl(?:y|ies)|answers?|rebuttal) to (?:the )?(?:editors?|reviewers?|referees?|reviews?|comments|decision)\b|(?:editor|reviewer|referee)s?['’]?s?\s*(?:#?\s*\d+\s*)?(?:comments?|reports?|remarks)\b|(?:reviewer|referee)\s*#?\s*\d+\s*$|point[- ]by[- ]point\b|cover(?:ing)? letter\b|rebuttal\b)/iu;

/** A letter's words in a page's head: a manuscript's title page names no reviewer and greets no one. */
export const LETTER_WORDS = /\b(?:dear|reviewers?|referees?|rebuttal|cover letter)\b/iu;

/** How many pages the letters bound before a revised manuscript may take (a response runs long). */
export const MAX_LETTER_PAGES = 40;

/** How many of the first page's first lines (blocks, or a PDF page's text pieces) are looked at. */
export const FIRST_LINES = 6;

/** The first page's first lines open as a letter does. */
export function opensAsLetter(firstLines: readonly string[]): boolean {
  return firstLines.some((l) => LETTER_OPENING.test(l.trim()));
}
