// The one way dashboard HTML is written: a tagged template that escapes every interpolation unless it
// is itself Html (built by this same tag). A title, a name or a custom field value is user input; it
// can only reach a page through here, so it is always escaped.

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Text for a template slot: Html as it is, arrays joined, null/undefined/false as nothing, the rest escaped. */
function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** A path under /dashboard/ with each segment percent-encoded: ids and names in links stay inert. */
export function dashboardPath(...segments: Array<string | number>): string {
  return `/dashboard/${segments.map((s) => encodeURIComponent(String(s))).join('/')}${segments.length ? '/' : ''}`;
}
