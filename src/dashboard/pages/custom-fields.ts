// Custom fields (editor): create, edit, delete, options; the value rule of each kind (spec 2.5), and
// the field exactly as the API's list of custom fields (4.7) shows it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { errors } from '../../infra/errors.ts';
import {
  createCustomField,
  deleteCustomField,
  isOptionKind,
  listCustomFields,
  listOwnerCustomFields,
  requireOwnedCustomField,
  updateCustomField,
} from '../../custom-fields/store.ts';
import { DATA_KINDS, KIND_LABELS, OWNERS, type DataKind, type Owner } from '../../custom-fields/kinds.ts';
import { MAX_STR_CHARS } from '../../custom-fields/values.ts';
import {
  askFirst,
  unlessDeletedAlready,
  concerning,
  Confirmable,
  csrfField,
  fieldState,
  dashboardRoute,
  mayDo,
  orgOf,
  postedForm,
  redirectTo,
  refuseChangedMeanwhile,
  renderPage,
  seenField,
  onlyRolesMay,
} from '../framework.ts';
import { lines, list, text, type FormBody } from '../form-values.ts';
import { dashboardPath, formatCount, html, isolateText, labelledChoice, type Html } from '../html.ts';
import { dataTable } from '../table.ts';

export const OWNER_LABELS: Readonly<Record<Owner, string>> = {
  author_from_group: 'Authors from groups',
  folder: 'Folders',
  proposal: 'Manuscripts (proposals)',
};

/** The value rule of each kind, as the API enforces it (src/custom-fields/values.ts). */
export const KIND_RULES: Readonly<Record<DataKind, string>> = {
  number: 'A number (a JSON number such as 3 or 2.5); text is refused.',
  str: `Text of at most ${formatCount(MAX_STR_CHARS)} characters.`,
  date: 'A calendar date written YYYY-MM-DD; a day that does not exist (2023-02-29) is refused.',
  single_option: "One of the field's options, given by its api_id.",
  multi_option: "A list of the field's options, each given once by its api_id.",
};

/** The same rules as a form's hints: what to type or choose, not how the API writes it. */
export const KIND_FORM_HINTS: Readonly<Record<DataKind, string>> = {
  number: 'A number, such as 3 or 2.5. A decimal comma (2,5) is read as a point.',
  // The API's words: the limit is also what to type.
  str: KIND_RULES.str,
  date: 'A date written YYYY-MM-DD, such as 2026-03-31.',
  single_option: 'Choose one option, or none.',
  multi_option: 'Tick any of the options.',
};

const FieldParams = Type.Object({ fieldId: Type.String({ maxLength: 64 }) });
const CreateBody = Type.Object({
  _csrf: Type.String(),
  owner: Type.String(),
  data_kind: Type.String(),
  name: Type.String({ maxLength: 1000 }),
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  options: Type.Optional(Type.String({ maxLength: 100_000 })),
});
const UpdateBody = Type.Object({
  _csrf: Type.String(),
  name: Type.String({ maxLength: 1000 }),
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  add_options: Type.Optional(Type.String({ maxLength: 100_000 })),
  remove_option: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  // What the form was filled from (seenField): a save over a change made since is refused.
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});

/**
 * What a field's edit form is filled from and replaces: its name and description, as the store keeps
 * them (trimmed name, no empty description). Options are added and removed one by one, never
 * replaced, so they are not part of it.
 */
function editedField(field: { name: string; description: string | null }): unknown {
  return { name: field.name.trim(), description: field.description?.trim() ? field.description : null };
}

/** The input of the add form a refusal concerns, by what its message names. */
function newFieldInput(message: string): string | null {
  if (/option/i.test(message)) return 'options';
  if (/owner/i.test(message)) return 'owner';
  if (/kind/i.test(message)) return 'data_kind';
  return /name/i.test(message) ? 'name' : null;
}

/** The input of the edit form a refusal concerns, by what its message names. */
function editedFieldInput(message: string): string | null {
  if (/is not an option|keep at least one option/.test(message)) return 'remove_option';
  if (/option/i.test(message)) return 'add_options';
  return /name/i.test(message) ? 'name' : null;
}

function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  if (!(values as readonly string[]).includes(value)) throw errors.validation(`Unknown ${what}: ${value}`);
  return value as T;
}

export function registerCustomFieldPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/custom-fields/',
    action: 'read',
    handler: async (request, reply) => {
      const fields = await listCustomFields(ctx.db, orgOf(request));
      const editable = mayDo(request, 'custom_fields_write');
      return renderPage(ctx, request, reply, {
        title: 'Custom fields',
        body: html`<p>
            Fields your organization adds to authors from groups, folders and manuscripts. The API lists them
            at
            <code>GET /api/external/custom-fields/all/</code>.
          </p>
          ${OWNERS.map((owner) =>
            dataTable({
              caption: OWNER_LABELS[owner],
              columns: ['Name', 'Kind', 'Description', 'Options'],
              empty: 'No fields yet.',
              rows: fields[owner].map(
                (field) =>
                  html`<tr>
                    <td class="given">
                      <a href="${dashboardPath('custom-fields', field.api_id)}">${field.name}</a>
                    </td>
                    <td>${KIND_LABELS[field.data_kind]}</td>
                    <td class="given">${field.description ?? ''}</td>
                    <td class="given">${(field.options ?? []).map((o) => o.option).join(', ')}</td>
                  </tr>`,
              ),
            }),
          )}
          ${editable ? addFieldForm(request) : onlyRolesMay(request, 'custom_fields_write', 'add or change fields')}`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/custom-fields/',
    action: 'custom_fields_write',
    schema: { body: CreateBody },
    back: () => '/dashboard/custom-fields/',
    keepsForm: true,
    handler: async (request, reply) => {
      const body = request.body as FormBody;
      const description = text(body, 'description').trim();
      const sent = {
        owner: oneOf(OWNERS, text(body, 'owner'), 'owner'),
        dataKind: oneOf(DATA_KINDS, text(body, 'data_kind'), 'kind of value'),
        name: text(body, 'name'),
        description: description === '' ? null : description,
        options: lines(body, 'options'),
      };
      // The form sent twice (a double click; Back and send again): the field it added, said to be
      // there once, where the second post's "a field of that name already exists" read as if nothing
      // had been added. A field of that name that differs from the form is refused as taken.
      const same = (await listOwnerCustomFields(ctx.db, orgOf(request), sent.owner)).find(
        (f) =>
          f.name === sent.name.trim() &&
          f.data_kind === sent.dataKind &&
          f.description === sent.description &&
          JSON.stringify((f.options ?? []).map((o) => o.option)) === JSON.stringify(sent.options),
      );
      if (same) {
        return redirectTo(ctx, request, reply, dashboardPath('custom-fields', same.api_id), {
          kind: 'ok',
          // True of both ways here: this form sent twice, or a fresh form typed as a field made before (it
          // said "the form was sent again" to an editor who had not).
          message: `The field ${isolateText(same.name)} is there as sent (added before, or this form sent twice): nothing new was added, and the field is there once.`,
        });
      }
      const field = await concerning(newFieldInput, () => createCustomField(ctx.db, orgOf(request), sent));
      return redirectTo(ctx, request, reply, dashboardPath('custom-fields', field.api_id), {
        kind: 'ok',
        message: `The field ${isolateText(field.name)} was added.`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/custom-fields/:fieldId/',
    action: 'read',
    schema: { params: FieldParams },
    handler: async (request, reply) => {
      const { fieldId } = request.params as { fieldId: string };
      const { owner, ...field } = await requireOwnedCustomField(ctx.db, fieldId, orgOf(request));
      const editable = mayDo(request, 'custom_fields_write');
      const path = dashboardPath('custom-fields', field.api_id);
      const states = {
        remove: fieldState(request, 'remove_option', { id: 'remove-options' }),
        add: fieldState(request, 'add_options'),
      };
      // After a refusal, what was typed and ticked (`keepsForm`); else what is stored.
      const posted = postedForm(request);
      const shown = posted
        ? {
            name: text(posted, 'name'),
            description: text(posted, 'description'),
            removeOptions: list(posted, 'remove_option'),
            addOptions: text(posted, 'add_options'),
          }
        : { name: field.name, description: field.description ?? '', removeOptions: [], addOptions: '' };
      const addOptions = html`<textarea id="add_options" name="add_options" ${states.add.attrs}>
${shown.addOptions}</textarea>`;
      return renderPage(ctx, request, reply, {
        title: `Custom field ${isolateText(field.name)}`,
        body: html`<dl>
            <dt>For</dt>
            <dd>${OWNER_LABELS[owner]}</dd>
            <dt>Kind of value</dt>
            <dd>${KIND_LABELS[field.data_kind]}: ${KIND_RULES[field.data_kind]}</dd>
          </dl>
          ${
            editable
              ? html`<form method="post" action="${path}" class="stack">
                    ${csrfField(request)} ${seenField(editedField(field))}
                    ${nameAndDescriptionInputs(request, shown)}
                    ${
                      isOptionKind(field.data_kind)
                        ? html`<fieldset ${states.remove.attrs}>
                              <legend>Remove options</legend>
                              ${states.remove.message}
                              ${(field.options ?? []).map((o) =>
                                labelledChoice(
                                  {
                                    type: 'checkbox',
                                    name: 'remove_option',
                                    value: o.api_id,
                                    checked: shown.removeOptions.includes(o.api_id),
                                  },
                                  o.option,
                                ),
                              )}
                              <p class="hint">
                                A removed option is also removed from every value that held it.
                              </p>
                            </fieldset>
                            <label for="add_options">Add options, one a line</label>
                            ${states.add.message} ${addOptions}`
                        : null
                    }
                    <button type="submit">Save field</button>
                  </form>
                  <form method="post" action="${path}delete/">
                    ${csrfField(request)}
                    <p class="hint">Deleting the field also deletes every value stored for it.</p>
                    <button type="submit" class="danger">Delete field</button>
                  </form>`
              : null
          }
          <h2>As the API lists it (4.7)</h2>
          <pre><code>${JSON.stringify(field, null, 2)}</code></pre>`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/custom-fields/:fieldId/',
    action: 'custom_fields_write',
    schema: { params: FieldParams, body: UpdateBody },
    back: (request) => dashboardPath('custom-fields', (request.params as { fieldId: string }).fieldId),
    keepsForm: true,
    handler: async (request, reply) => {
      const { fieldId } = request.params as { fieldId: string };
      const body = request.body as FormBody;
      const stored = await requireOwnedCustomField(ctx.db, fieldId, orgOf(request));
      refuseChangedMeanwhile(
        body,
        'This field was',
        editedField(stored),
        editedField({ name: text(body, 'name'), description: text(body, 'description') }),
      );
      // Options the field already has, or no longer has, are as the form asks: the form sent twice
      // (a double click on Save field) said "the field already has the option" of the one it added,
      // or that the option it removed was not one, as if nothing had been saved.
      // By sets: each line compared with every stored option was 42,000 × 1,000 comparisons.
      const options = stored.options ?? [];
      const texts = new Set(options.map((s) => s.option));
      const ids = new Set(options.map((s) => s.api_id));
      const field = await concerning(editedFieldInput, () =>
        updateCustomField(
          ctx.db,
          fieldId,
          {
            name: text(body, 'name'),
            description: text(body, 'description'),
            addOptions: lines(body, 'add_options').filter((o) => !texts.has(o)),
            removeOptions: list(body, 'remove_option').filter((id) => ids.has(id.toLowerCase())),
          },
          orgOf(request),
        ),
      );
      return redirectTo(ctx, request, reply, dashboardPath('custom-fields', field.api_id), {
        kind: 'ok',
        message: 'The field was saved.',
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/custom-fields/:fieldId/delete/',
    action: 'custom_fields_write',
    asksFirst: true,
    schema: { params: FieldParams, body: Confirmable },
    handler: async (request, reply) => {
      const { fieldId } = request.params as { fieldId: string };
      const gone = {
        what: `The field ${isolateText(fieldId)}`,
        to: '/dashboard/custom-fields/',
        toLabel: 'the custom fields',
      };
      return unlessDeletedAlready(ctx, request, reply, gone, async () => {
        const field = await requireOwnedCustomField(ctx.db, fieldId, orgOf(request));
        const asking = await askFirst(ctx, request, reply, {
          title: `Delete the custom field ${isolateText(field.name)}?`,
          consequence: `Every value stored for it on ${OWNER_LABELS[field.owner].toLowerCase()} is deleted with it, for good.`,
          label: 'Delete field and its values',
          cancel: dashboardPath('custom-fields', field.api_id),
        });
        if (asking !== null) return asking;
        await deleteCustomField(ctx.db, fieldId, orgOf(request));
        return redirectTo(ctx, request, reply, '/dashboard/custom-fields/', {
          kind: 'ok',
          message: 'The field was deleted.',
        });
      });
    },
  });
}

/** A field's name and description inputs, the same in the form that adds a field and the one that edits it. */
function nameAndDescriptionInputs(
  request: FastifyRequest,
  shown: { name: string; description: string },
): Html {
  const name = fieldState(request, 'name');
  const description = fieldState(request, 'description');
  return html`<label for="name">Name</label>
    ${name.message}
    <input id="name" name="name" type="text" required maxlength="200" value="${shown.name}" ${name.attrs} />
    <label for="description">Description</label>
    ${description.message}
    <input
      id="description"
      name="description"
      type="text"
      value="${shown.description}"
      ${description.attrs}
    />`;
}

/** The form that adds a field; after a refusal it shows what was typed (`keepsForm`). */
function addFieldForm(request: FastifyRequest): Html {
  const posted = postedForm(request) ?? {};
  const owner = fieldState(request, 'owner', { hints: ['owner-hint'] });
  const kind = fieldState(request, 'data_kind', { hints: ['kind-rules'] });
  const options = fieldState(request, 'options');
  return html`<h2>Add a field</h2>
    <form method="post" action="/dashboard/custom-fields/" class="stack">
      ${csrfField(request)}
      <label for="owner">Owner</label>
      ${owner.message}
      <select id="owner" name="owner" ${owner.attrs}>
        ${OWNERS.map((o) => html`<option value="${o}" ${text(posted, 'owner') === o ? html`selected` : null}>${OWNER_LABELS[o]}</option>`)}
      </select>
      <p id="owner-hint" class="hint">
        Values of fields for authors from groups are entered on each group record (and sent through the API).
        Values of fields for folders and manuscripts are entered on each folder's and each manuscript's page;
        the API lists these fields (4.7) but carries none of their values.
      </p>
      <label for="data_kind">Kind of value</label>
      ${kind.message}
      <select id="data_kind" name="data_kind" ${kind.attrs}>
        ${DATA_KINDS.map((k) => html`<option value="${k}" ${text(posted, 'data_kind') === k ? html`selected` : null}>${KIND_LABELS[k]}</option>`)}
      </select>
      <ul id="kind-rules" class="hint">
        ${DATA_KINDS.map((k) => html`<li><strong>${KIND_LABELS[k]}</strong>: ${KIND_RULES[k]}</li>`)}
      </ul>
      ${nameAndDescriptionInputs(request, { name: text(posted, 'name'), description: text(posted, 'description') })}
      <label for="options">Options, one a line (for the option kinds only)</label>
      ${options.message}
      <textarea id="options" name="options" ${options.attrs}>${text(posted, 'options')}</textarea>
      <button type="submit">Add field</button>
    </form>`;
}
