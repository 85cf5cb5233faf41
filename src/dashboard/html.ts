// The dashboard's writing helpers. The template itself (`html`, escaping, direction isolation) is the
// server's one, in src/http/html.ts, which the public corpus pages use too; it is named here, where
// pages take their writing helpers from.

import { cutShort } from '../infra/counts.ts';
import { html, Html, isolateText } from '../http/html.ts';

export {
  Html,
  escapeHtml,
  html,
  withDirectionClosed,
  isolate,
  isolateText,
  isolatedHtml,
  withoutIsolates,
} from '../http/html.ts';

/** A path under /dashboard/ with each segment percent-encoded: ids and names in links stay inert. */
export function dashboardPath(...segments: Array<string | number>): string {
  return `/dashboard/${segments.map((s) => encodeURIComponent(String(s))).join('/')}${segments.length ? '/' : ''}`;
}

/**
 * A value the user wrote, quoted back in a sentence ("“abc”"), isolated for direction: a long one (a
 * pasted search, a long cell) by its start and its length, where pasting it back whole drowned the
 * sentence.
 */
export function quotedBack(value: string): string {
  return `“${isolateText(cutShort(value, 40, 20))}”`;
}

// A count as every page of the dashboard says it, thousands separated: pages wrote
// `n.toLocaleString('en')` in some places and `${n}` in others, so a list's caption said "1234
// folders" beside a records list's "2,000 records". Defined below the dashboard (a store's messages
// use it too) and named here, where pages take their writing helpers from.
export { countOf, formatCount } from '../infra/counts.ts';

/** A size limit as a page says it: "50 MiB", "1.5 MiB", "64 KiB". */
export function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * The longest part of an address (its mailbox with the @, or its domain) kept whole, in characters:
 * about half a phone's screen. Longer, a part may wrap before its dots too.
 */
const WHOLE_ADDRESS_PART = 24;

/**
 * An email address in a table's cell, free to wrap where a reader expects it, never mid-word (`<wbr>`,
 * which adds no character to what is copied; its cell, `td.address`, keeps the parts whole): after the
 * @, and before a dot only in a part longer than WHOLE_ADDRESS_PART. A squeezed column broke one
 * anywhere ("…refmatch.exampl / e" in the users table at 1280 px); free to wrap before every dot, a
 * table squeezed to its columns' narrowest on a phone made a column one dotted piece wide, and every
 * address read down it a piece a line ("admin@ / demo / .refmatch / .example").
 */
export function wrappableAddress(address: string): Html {
  const at = address.lastIndexOf('@');
  const parts = at < 0 ? [address] : [address.slice(0, at + 1), address.slice(at + 1)];
  return html`${parts.map(
    (part, i) =>
      html`${i === 0 ? '' : html`<wbr />`}${
        part.length > WHOLE_ADDRESS_PART
          ? part.split(/(?=\.)/).map((piece, j) => (j === 0 ? piece : html`<wbr />${piece}`))
          : part
      }`,
  )}`;
}

/**
 * The href of a link that writes to `address`: its mailbox and its domain percent-encoded (RFC 6068).
 * A stored address is checked for one "@" and a dot, not for what a mailto URL reads: written as it
 * was, "ann@uni.example?bcc=spy%40evil.example" (from an upload's author email) made the candidate's
 * link open a message with a hidden copy to another address, and a "?body=" wrote the message.
 */
export function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return `mailto:${encodeURIComponent(address)}`;
  return `mailto:${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
}

/** Addresses in one cell, each free to wrap as `wrappableAddress` lets it, separated by ", ". */
export function wrappableAddresses(addresses: readonly string[]): Html {
  return html`${addresses.map((address, i) => html`${i === 0 ? '' : ', '}${wrappableAddress(address)}`)}`;
}

/**
 * A checkbox or a radio button inside its label, the two on one line (the `check` class): the one
 * way the pages draw a choice, so its markup and its attributes' order are the same on every form.
 */
export function labelledChoice(
  input: {
    type: 'checkbox' | 'radio';
    name: string;
    value?: string | number;
    checked: boolean;
    disabled?: boolean;
  },
  label: Html | string,
): Html {
  return html`<label class="check"
    ><input
      type="${input.type}"
      name="${input.name}"
      ${input.value === undefined ? null : html`value="${input.value}"`}
      ${input.checked ? html`checked` : null}
      ${input.disabled ? html`disabled` : null}
    />
    ${label}</label
  >`;
}

/**
 * The links to a long page's sections, under its heading: on a phone, a folder's "Linked journals"
 * (the account manager's one task there) came some 900 px down, after settings the role cannot
 * change, and a manuscript's recommended journals after every candidate. Every role gets the same
 * list, in the page's order: each link moves the focus to its section's heading (`id`).
 */
export function sectionLinks(sections: ReadonlyArray<{ id: string; label: string }>): Html {
  return html`<nav class="sections" aria-label="On this page">
    <ul>
      ${sections.map((s) => html`<li><a href="#${s.id}">${s.label}</a></li>`)}
    </ul>
  </nav>`;
}
