// Section structure from typography: which blocks are headings, where the front matter ends, where
// the references are. Section names are matched only for the few that every discipline shares.
import type { Block } from './types.ts';

export const REFERENCES_HEADING =
  /^(?:[\dIVX]+\.?\s*)?(?:(?:cited )?references?(?: and notes| cited)?|bibliography|literature(?: cited)?|works cited|cited literature|citations)\s*:?$/i;
const CAPTION_LABEL = /^(?:supplementary\s+)?(?:fig(?:ure)?\.?|table)\s+[A-Z]?\d+[.:]\s/i;
export const ABSTRACT_LABEL = /^(?:abstract|summary)\b\s*[:.—–-]?\s*/i;
export const KEYWORDS_LABEL = /^(?:key\s?-?words?|index terms|mots[- ]cl[ée]s)\s*[:.—–-]?\s*/i;

export function isHeading(block: Block): boolean {
  if (block.styleLevel !== null && block.styleLevel >= 1) return true;
  if (block.styleLevel === 0) return false;
  const text = block.text;
  const words = text.split(/\s+/).length;
  if (text.length > 120 || words > 14 || block.lines.length > 2) return false;
  if (/[,;]$/.test(text) || /@/.test(text)) return false;
  if (/[.]$/.test(text) && !/^[\dIVX]+\.\s*\S+$/.test(text)) return false;
  if (!/^[\p{Lu}\d]/u.test(text)) return false;
  return (block.emphasis && block.relSize >= 0.95) || block.relSize >= 1.15;
}

const SECTION_NUMBER = /^(?:\d+|[A-Z]|[IVX]+)(?:\.\d+)*\.?\s+(?=\p{Lu})/u;

/**
 * Stricter test inside a reference list, where bold names or journal titles are common. `listed`
 * holds the texts of the list's blocks so far: an entry set in bold whose number goes on
 * from theirs ("5. Foundations of ...") is no heading.
 */
export function endsReferenceList(block: Block, listed: string[] = []): boolean {
  if (block.styleLevel !== null && block.styleLevel >= 1) return true;
  // Figure and table captions set after the list (a draft that puts its figures at the end)
  // open with their label; no reference does.
  if (CAPTION_LABEL.test(block.text)) return true;
  if (!isHeading(block)) return false;
  // A section number ("4. Appendix", "A.1 Proofs") may open a heading that has no other digit,
  // comma or period; digits elsewhere (a volume in bold) do not make one.
  const numbered = SECTION_NUMBER.exec(block.text);
  const text = numbered ? block.text.slice(numbered[0].length) : block.text;
  if (numbered) {
    if (text.includes('.')) return false;
    const n = Number(/^\d+/.exec(numbered[0])?.[0] ?? NaN);
    const form = (s: string) => s.replace(/\d+/, '#').trim();
    const goesOn = listed.some((l) => {
      const m = SECTION_NUMBER.exec(l);
      return m !== null && Number(/^\d+/.exec(m[0])?.[0]) === n - 1 && form(m[0]) === form(numbered[0]);
    });
    if (goesOn) return false;
  }
  return !/\d/.test(text) && !/,/.test(text) && text.split(/\s+/).length <= 6;
}

export function isProse(block: Block): boolean {
  return block.text.length > 250 && !/@|\b\d{4}-\d{4}-\d{4}-\d{3}[\dX]\b/.test(block.text);
}

export interface ReferenceRange {
  start: number;
  end: number;
  headingIndex: number | null;
  /** Lines of the start block before the list: 1 when the heading was set into the list's block. */
  skipLines: number;
}

export function findReferences(blocks: Block[]): ReferenceRange | null {
  const bibliography = blocks.findIndex((b) => /^bibliography$/i.test(b.styleName ?? ''));
  let headingIndex: number | null = null;
  let inBlock: number | null = null;
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (
      b.text.length < 60 &&
      REFERENCES_HEADING.test(b.text.trim()) &&
      (isHeading(b) || b.lines.length === 1)
    ) {
      headingIndex = i;
      break;
    }
    // A heading in the entries' own face and size, with no space under it, is read as the first
    // line of the list's first paragraph.
    if (b.lines.length > 1 && REFERENCES_HEADING.test(b.lines[0]!.text.trim())) {
      inBlock = i;
      break;
    }
  }
  let start: number;
  if (headingIndex !== null) start = headingIndex + 1;
  else if (inBlock !== null) start = inBlock;
  else if (bibliography >= 0) start = bibliography;
  else return null;
  let end = start;
  const listed: string[] = [];
  while (end < blocks.length && !(end > start && endsReferenceList(blocks[end]!, listed))) {
    listed.push(blocks[end]!.text);
    end++;
  }
  return end > start ? { start, end, headingIndex, skipLines: inBlock !== null ? 1 : 0 } : null;
}
