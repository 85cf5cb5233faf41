// The dashboard's one way of showing rows: every listing page wrote the same table by hand.
import { html, type Html } from './html.ts';

/**
 * A table with a caption saying what it lists and a header cell per column. With no rows, `empty`
 * (when given) is one muted row across every column saying why, rather than a bare header.
 */
export function dataTable(input: {
  caption: Html | string;
  columns: readonly string[];
  rows: readonly Html[];
  empty?: Html | string;
}): Html {
  return html`<table>
    <caption>
      ${input.caption}
    </caption>
    <thead>
      <tr>
        ${input.columns.map((c) => html`<th scope="col">${c}</th>`)}
      </tr>
    </thead>
    <tbody>
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
