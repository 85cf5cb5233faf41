// Word paragraph style names that say what a paragraph is: the document's title or its byline.
// The DOCX reader gives a title style level 0; the header reader looks for both by name, since a
// paragraph's own outline level may override its style's.

/** Words a custom title style's name may add to "title": the document's own title, not a part's. */
const TITLE_QUALIFIERS = new Set([
  'paper',
  'article',
  'document',
  'manuscript',
  'main',
  'report',
  'thesis',
  'book',
  'contribution',
  'doc',
]);

/** A style name or id split into lower-case words: "paper title", "PaperTitle", "Article_Title1". */
function styleWords(name: string): string[] {
  return name
    .slice(0, 100)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/**
 * A style that sets the document's title: Word's built-in "Title", or a template's own ("paper
 * title" in IEEE's Word template, "Article Title", "Document Title"). "Subtitle", "Running title",
 * "Table title", "Section title" name other things and are not.
 */
export function isTitleStyle(name: string, id = ''): boolean {
  const test = (words: string[]) =>
    words.length >= 1 &&
    words.length <= 2 &&
    words[words.length - 1] === 'title' &&
    (words.length === 1 || TITLE_QUALIFIERS.has(words[0]!));
  return test(styleWords(name)) || (id !== '' && test(styleWords(id)));
}

const AUTHOR_STYLE = /^(?:authors? names?|authors?|authornames?|authors? list|byline)$/;
/** Words before "author" that make the style another part's: a correspondence note, a biography. */
const NOT_BYLINE = new Set(['corresponding', 'contributing', 'about', 'biography', 'bio', 'contact']);

/**
 * A style that sets the byline: "Author" in IEEE's Word template and in pandoc's output, "Authors",
 * "Author Name", "Author List", "Byline", and the same after a template's tag ("Els-Author" in
 * Elsevier's Word template, "MDPI_1.3_authornames"). A template may set its title in the byline's
 * style as well; the title is read before the byline is looked for.
 */
export function isAuthorStyle(name: string): boolean {
  const words = styleWords(name);
  if (AUTHOR_STYLE.test(words.join(' '))) return true;
  return words.length >= 2 && !NOT_BYLINE.has(words[0]!) && AUTHOR_STYLE.test(words.slice(1).join(' '));
}
