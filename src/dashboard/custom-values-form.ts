// Custom field values on a form: one input per field, shaped by its kind, named cf_<api_id>; what a
// posted form holds, read back as the values the store checks (src/custom-fields/values.ts); and a
// stored value as people read it. Used by every page that enters values (authors from groups,
// folders, manuscripts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import {
  readCustomValues,
  saveCustomValues,
  type ValueOwner,
} from '../custom-fields/folder-manuscript-values.ts';
import { listOwnerCustomFields, type CustomField } from '../custom-fields/store.ts';
import type { CustomValue } from '../custom-fields/values.ts';
import { RowId } from '../http/schemas.ts';
import type { Queryable } from '../infra/db/index.ts';
import { AppError } from '../infra/errors.ts';
import type { Action } from '../users/roles.ts';
import {
  csrfField,
  dashboardRoute,
  fieldState,
  mayDo,
  messageBeside,
  onlyRolesMay,
  orgOf,
  postedForm,
  redirectTo,
  refuseChangedMeanwhile,
  seenField,
} from './framework.ts';
import { list, text, typedNumber, type FormBody } from './form-values.ts';
import { html, isolateText, labelledChoice, quotedBack, type Html } from './html.ts';
import { KIND_FORM_HINTS } from './pages/custom-fields.ts';

/** A form of custom values: its fields are cf_<api_id>, so the body names only the token. */
export const CustomValuesBody = Type.Object(
  {
    _csrf: Type.String(),
    form: Type.Optional(Type.String({ maxLength: 50 })),
    // What the form was filled from (seenField): a save over a change made since is refused.
    seen: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: true },
);

export function customInputName(field: Pick<CustomField, 'api_id'>): string {
  return `cf_${field.api_id}`;
}

/**
 * One input for a custom field, shaped by its kind, with its rule as its description; after a
 * refusal of this field, its message beside it (`fieldState`).
 */
export function customInput(
  request: FastifyRequest,
  field: CustomField,
  value: CustomValue | undefined,
): Html {
  const id = customInputName(field);
  const state = fieldState(request, id, { hints: [`${id}-rule`] });
  const rule = html`<p id="${id}-rule" class="hint">${KIND_FORM_HINTS[field.data_kind]}</p>`;
  switch (field.data_kind) {
    case 'number':
    case 'str':
    case 'date':
      return html`<label for="${id}">${field.name}</label>
        ${state.message}
        <input
          id="${id}"
          name="${id}"
          type="${field.data_kind === 'date' ? 'date' : 'text'}"
          ${field.data_kind === 'number' ? html`inputmode="decimal"` : null}
          value="${value === undefined ? '' : String(value)}"
          ${state.attrs}
        />
        ${rule}`;
    case 'single_option':
      return html`<label for="${id}">${field.name}</label>
        ${state.message}
        <select id="${id}" name="${id}" ${state.attrs}>
          <option value="">(none)</option>
          ${(field.options ?? []).map(
            (o) =>
              html`<option value="${o.api_id}" ${value === o.api_id ? html`selected` : null}>
                ${o.option}
              </option>`,
          )}
        </select>
        ${rule}`;
    case 'multi_option':
      return html`<fieldset ${state.attrs}>
        <legend dir="auto">${field.name}</legend>
        ${state.message}
        ${(field.options ?? []).map((o) =>
          labelledChoice(
            {
              type: 'checkbox',
              name: id,
              value: o.api_id,
              checked: Array.isArray(value) && value.includes(o.api_id),
            },
            o.option,
          ),
        )}
        ${rule}
      </fieldset>`;
  }
}

/**
 * What an editor is told of a value a number field refused (text typed that is no number): in their
 * words, where the API's check says "must be a finite number", the wording of its contract with JSON
 * clients, kept as it is there.
 */
export const NOT_A_NUMBER = 'is not a number; enter a number, like 3 or 2.5';

/**
 * A custom value's refusal by the API's check (`checkCustomValues`) as the dashboard says it, of the
 * field by its name (`item`: a list's choice, " (choice 2)"): a number field's in the editor's words,
 * quoting what was typed (`typed`); the other kinds' as the check says them.
 */
export function valueRefusal(
  field: Pick<CustomField, 'name' | 'data_kind'>,
  message: string,
  typed: string,
  item = '',
): string {
  const name = `${isolateText(field.name)}${item}`;
  return field.data_kind === 'number'
    ? `${name}: ${quotedBack(typed)} ${NOT_A_NUMBER}`
    : `${name} ${message}`;
}

/**
 * Runs `work`, a store's check of the custom values of `fields` posted in `body`; its refusal's
 * problems, which name each field by `custom.<api_id>`, are said to concern the form's inputs
 * (`cf_<api_id>`), each with the field's name ("Due must be a calendar date"), so that the page shows
 * it beside its input, and the message at the top is theirs, joined (`valueRefusal`).
 */
export async function valuesConcerningInputs<T>(
  fields: ReadonlyArray<Pick<CustomField, 'api_id' | 'name' | 'data_kind'>>,
  body: FormBody,
  work: () => Promise<T> | T,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400 || !error.details?.length) throw error;
    const byId = new Map(fields.map((f) => [f.api_id, f]));
    const details = error.details.map((d) => {
      const match = /^custom\.([^.]+)(?:\.(\d+))?$/.exec(d.path);
      if (!match) return d;
      const id = match[1]!;
      // A multi option's item ("Topics.1 is not an option") is said of the field, as the store's
      // message says it (folder-manuscript-values.ts), so that the page's message says it once.
      const item = match[2] === undefined ? '' : ` (choice ${Number(match[2]) + 1})`;
      const field = byId.get(id) ?? { name: id, data_kind: 'str' as const };
      const input = customInputName({ api_id: id });
      return {
        path: `body.${input}`,
        message: valueRefusal(field, d.message, text(body, input).trim(), item),
      };
    });
    throw new AppError(error.status, error.code, details.map((d) => d.message).join('; '), details);
  }
}

/** The value a refused form held for a field (`keepsForm`), to show again as it was typed. */
export function postedCustomValue(posted: FormBody, field: CustomField): CustomValue | undefined {
  const value = posted[customInputName(field)];
  return field.data_kind === 'multi_option' && typeof value === 'string' ? [value] : value;
}

/**
 * The posted values of `fields`, by api_id, as the store takes them: a number typed as one becomes a
 * number (`typedNumber`; other text stays text, for the store to refuse), and a field left empty (no
 * text, no option) is null, which clears its value.
 */
export function postedCustomValues(
  body: FormBody,
  fields: ReadonlyArray<Pick<CustomField, 'api_id' | 'data_kind' | 'name'>>,
): Array<[string, unknown]> {
  return fields.map((field) => {
    const name = customInputName(field);
    if (field.data_kind === 'multi_option') {
      const chosen = list(body, name);
      return [field.api_id, chosen.length > 0 ? chosen : null];
    }
    const raw = text(body, name).trim();
    if (raw === '') return [field.api_id, null];
    const number = field.data_kind === 'number' ? typedNumber(raw, isolateText(field.name), name) : null;
    return [field.api_id, number ?? raw];
  });
}

/**
 * Of `fields`, those the posted form showed (`on_form`): a field added since the page was loaded is
 * not on it, and its value, which may have been set elsewhere meanwhile, is left alone.
 */
export function fieldsOnForm<F extends Pick<CustomField, 'api_id'>>(
  body: FormBody,
  fields: readonly F[],
): F[] {
  const shown = new Set(list(body, 'on_form'));
  return fields.filter((f) => shown.has(f.api_id));
}

/**
 * What a custom values form of `fields` is filled from and sends, for `seenField` and
 * `refuseChangedMeanwhile`: each field's value by api_id (none for an empty one), a multi option's
 * options in any order.
 */
function editedCustomValues(
  fields: ReadonlyArray<Pick<CustomField, 'api_id'>>,
  values: Readonly<Record<string, unknown>>,
): unknown {
  return Object.fromEntries(
    fields.map((f) => {
      const value = values[f.api_id];
      return [f.api_id, Array.isArray(value) ? [...(value as string[])].sort() : (value ?? null)];
    }),
  );
}

/**
 * Refuses (409, nothing saved) a custom values form opened before another save of these values (in
 * another tab, by another editor) changed them to other than what it sends: `fields` are those on
 * the form (`fieldsOnForm`), `stored` the values stored now.
 */
export function refuseValuesChangedMeanwhile(
  body: FormBody,
  what: string,
  fields: ReadonlyArray<Pick<CustomField, 'api_id' | 'data_kind' | 'name'>>,
  stored: Readonly<Record<string, CustomValue>>,
): void {
  refuseChangedMeanwhile(
    body,
    what,
    editedCustomValues(fields, stored),
    editedCustomValues(fields, Object.fromEntries(postedCustomValues(body, fields))),
  );
}

/** A stored value as people read it: options by their text; '' for none. */
export function shownCustomValue(field: CustomField, value: CustomValue | undefined): string {
  if (value === undefined) return '';
  const names = new Map((field.options ?? []).map((o) => [o.api_id, o.option]));
  return Array.isArray(value)
    ? value.map((v) => names.get(v) ?? v).join(', ')
    : (names.get(String(value)) ?? String(value));
}

/**
 * The hidden field that tells a refused custom values form from another form of the same page: the
 * page keeps one refused form (`postedForm`), and only its own form should show those values.
 */
export const CUSTOM_VALUES_FORM = html`<input type="hidden" name="form" value="custom_values" />`;

/** The refused custom values form of this page, if that is the form that was refused. */
export function postedCustomValuesForm(request: FastifyRequest): FormBody | null {
  const posted = postedForm(request);
  return posted && posted.form === 'custom_values' ? posted : null;
}

/** The id of a page's custom values section, which its save comes back to. */
export const CUSTOM_FIELDS_ID = 'custom-fields';

/**
 * What a save of custom values says: saved, and which fields of the form are empty now. A date input
 * holds no value for a day that does not exist (2025-02-30 set by a script, a test driver or an
 * extension; typed, Chromium's own check stops the form) and the form sends nothing for it: "saved" alone let
 * the editor believe a date was stored. Naming each empty field says what the server received.
 */
function customValuesSavedMessage(
  what: string,
  saved: ReadonlyArray<[string, unknown]>,
  fields: ReadonlyArray<Pick<CustomField, 'api_id' | 'name'>>,
): string {
  const empty = new Set(saved.filter(([, value]) => value === null).map(([apiId]) => apiId));
  const names = fields.filter((f) => empty.has(f.api_id)).map((f) => isolateText(f.name));
  return `The ${what}'s custom fields were saved.${names.length ? ` Empty now: ${names.join(', ')}.` : ''}`;
}

/**
 * The custom fields of a folder or manuscript with their values: for an editor, a form to set or
 * clear them, posting to `action`; else the values as a list.
 */
export function customValuesSection(
  request: FastifyRequest,
  input: {
    fields: readonly CustomField[];
    values: Record<string, CustomValue>;
    action: string;
    editable: boolean;
    /** "folder" or "manuscript", in the hints (made plural with an s). */
    what: string;
  },
): Html {
  const { fields, values } = input;
  // The heading, and the message of a save of these fields beside it (`messageBeside`).
  const heading = html`<h2 id="${CUSTOM_FIELDS_ID}">Custom fields</h2>
    ${messageBeside(request, CUSTOM_FIELDS_ID)}`;
  if (fields.length === 0) {
    // Where they are made, for a role that makes them; whose role makes them, for the others (a
    // viewer was sent to a page where they could make none: round 31).
    return mayDo(request, 'custom_fields_write')
      ? html`${heading}
          <p class="muted">
            No custom fields for ${input.what}s yet: they are made on the
            <a href="/dashboard/custom-fields/">custom fields</a> page.
          </p>`
      : html`${heading}
          <p class="muted">No custom fields for ${input.what}s yet.</p>
          ${onlyRolesMay(request, 'custom_fields_write', 'make them')}`;
  }
  if (!input.editable) {
    return html`${heading}
      <dl>
        ${fields.map(
          (f) =>
            html`<dt dir="auto">${f.name}</dt>
              <dd>${shownCustomValue(f, values[f.api_id]) || '—'}</dd>`,
        )}
      </dl>`;
  }
  // After a refusal, what was typed and chosen (`keepsForm`); else what is stored.
  const posted = postedCustomValuesForm(request);
  return html`${heading}
    <form method="post" action="${input.action}" class="stack">
      ${csrfField(request)} ${CUSTOM_VALUES_FORM}
      ${
        // The values as stored now, also after a refusal: the form sent again replaces them knowingly.
        seenField(editedCustomValues(fields, values))
      }
      ${fields.map(
        (f) =>
          html`<input type="hidden" name="on_form" value="${f.api_id}" />
            ${customInput(request, f, posted ? postedCustomValue(posted, f) : values[f.api_id])}`,
      )}
      <p class="hint">A field left empty, or with no option chosen, has its value cleared.</p>
      <button type="submit">Save custom fields</button>
    </form>`;
}

/**
 * The route that saves the custom values of one folder or manuscript from its page's section
 * (customValuesSection): POST `url`, whose one parameter `param` is the row's id. Only the fields the
 * form showed are saved (fieldsOnForm); a form opened before another save changed them is refused
 * (refuseValuesChangedMeanwhile); a refused value comes back beside its input, as typed.
 */
export function registerCustomValuesSave(
  scope: FastifyInstance,
  ctx: AppContext,
  input: {
    owner: ValueOwner;
    url: string;
    param: string;
    action: Action;
    /** The page of the row of that id, whose section the form is. */
    page: (id: number) => string;
    /** Refuses (404) an id that is not the organization's row. */
    requireRow: (db: Queryable, organizationId: number, id: number) => Promise<unknown>;
    /** "folder" or "manuscript", in the messages. */
    what: string;
  },
): void {
  const idOf = (request: FastifyRequest) => (request.params as Record<string, number>)[input.param]!;
  const section = (request: FastifyRequest) => `${input.page(idOf(request))}#${CUSTOM_FIELDS_ID}`;
  dashboardRoute(scope, {
    method: 'POST',
    url: input.url,
    action: input.action,
    schema: { params: Type.Object({ [input.param]: RowId() }), body: CustomValuesBody },
    back: section,
    keepsForm: true,
    handler: async (request, reply) => {
      const id = idOf(request);
      const organizationId = orgOf(request);
      await input.requireRow(ctx.db, organizationId, id);
      const body = request.body as FormBody;
      const fields = fieldsOnForm(body, await listOwnerCustomFields(ctx.db, organizationId, input.owner));
      refuseValuesChangedMeanwhile(
        body,
        `The ${input.what}'s custom fields were`,
        fields,
        await readCustomValues(ctx.db, organizationId, input.owner, id),
      );
      const posted = postedCustomValues(body, fields);
      await valuesConcerningInputs(fields, body, () =>
        saveCustomValues(ctx.db, organizationId, input.owner, id, posted),
      );
      // Back at the message, beside the fields: at the section's heading, the page's top (where the
      // message was) is out of view.
      return redirectTo(ctx, request, reply, input.page(id), {
        kind: 'ok',
        message: customValuesSavedMessage(input.what, posted, fields),
        beside: CUSTOM_FIELDS_ID,
      });
    },
  });
}
