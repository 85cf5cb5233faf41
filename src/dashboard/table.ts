// The dashboard's one way of showing rows: every listing page wrote the same table by hand.
import { html, type Html } from './html.ts';

/**
 * A table with a caption saying what it lists and a header cell per column. With no rows, `empty`
 * (when given) is one muted row across every column saying why, rather than a bare header.
 * `stacked`: on a phone-wide screen each row is drawn as a block, its cells one under another, each
 * led by its column's name (`stackedCell`), where a table of long texts side by side scrolled
 * sideways (what was supplied, parsed and used: 453 px on a 375 px screen). The table's roles are
 * said explicitly, so that a screen reader still reads it as a table when its parts are drawn as
 * blocks.
 */
export function dataTable(input: {
  caption: Html | string;
  columns: readonly string[];
  rows: readonly Html[];
  empty?: Html | string;
  stacked?: boolean;
}): Html {
  const role = (name: string) => (input.stacked ? html` role="${name}"` : null);
  return html`<table${input.stacked ? html` class="stacked" role="table"` : null}>
    <caption>
      ${input.caption}
    </caption>
    <thead${role('rowgroup')}>
      <tr${role('row')}>
        ${input.columns.map((c) =>
          // Written whole either way: a role spliced into the tag left '<th scope="col" >' behind.
          input.stacked
            ? html`<th scope="col" role="columnheader">${c}</th>`
            : html`<th scope="col">${c}</th>`,
        )}
      </tr>
    </thead>
    <tbody${role('rowgroup')}>
      ${
        input.rows.length === 0 && input.empty !== undefined
          ? html`<tr>
              <td colspan="${input.columns.length}" class="muted">${input.empty}</td>
            </tr>`
          : input.rows
      }
    </tbody>
  </table>`;
}

/**
 * A cell of a `stacked` table: led by its column's name, shown only where the cells are drawn one
 * under another (hidden from a screen reader, which says the column's header itself).
 */
export function stackedCell(column: string, content: Html | string): Html {
  return html`<td role="cell"><span class="cell-label" aria-hidden="true">${column}</span>${content}</td>`;
}
