// Blocks and a PDF's document model written as the PDF reader gives them, for tests that state a
// layout directly (a title page, a list's pages) without drawing a PDF.
import type { Block, DocumentModel, Run } from '../../src/parsing/types.ts';

export interface BlockShape {
  /** Size relative to the body's. */
  size?: number;
  page?: number;
  bold?: boolean;
  /** The block's runs; one plain run of its text when not given. */
  runs?: Run[];
  /** The block's lines; one line of its text when not given. */
  lines?: string[];
}

export function block(
  text: string,
  { size = 1, page = 1, bold = false, runs, lines }: BlockShape = {},
): Block {
  return {
    text,
    relSize: size,
    emphasis: bold,
    styleLevel: null,
    page,
    runs: runs ?? [{ text, sup: false }],
    links: [],
    lines: (lines ?? [text]).map((l) => ({ text: l, indent: 0, gapAbove: 1 })),
  };
}

export function pdf(blocks: Block[]): DocumentModel {
  return {
    format: 'pdf',
    blocks,
    pages: Math.max(...blocks.map((b) => b.page)),
    declared: { title: null, keywords: [], authors: [] },
    notes: [],
    warnings: [],
  };
}
