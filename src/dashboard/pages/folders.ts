// Folders: the referee finder settings of each (groups, effect, boost multiplier; editor), its custom
// field values (editor, as settings) and the journals linked to it (account manager), through the
// stores the CLI uses.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import { errors } from '../../infra/errors.ts';
import { listGroups } from '../../authors-groups/store.ts';
import { findOrganizationGroups } from '../../folders/groups.ts';
import {
  checkFolderSettings,
  GROUPS_EFFECTS,
  listFolderPage,
  type FolderRow,
  requireFolder,
  saveFolderSettings,
} from '../../folders/folders.ts';
import {
  findSourceTitle,
  linkJournal,
  listLinks,
  searchSources,
  unlinkJournal,
} from '../../journals/links.ts';
import { listOwnerCustomFields } from '../../custom-fields/store.ts';
import { readCustomValues } from '../../custom-fields/folder-manuscript-values.ts';
import {
  concerning,
  fieldInvalid,
  fieldState,
  actionButton,
  dashboardRoute,
  mayDo,
  orgOf,
  postedForm,
  redirectTo,
  renderPage,
  CsrfOnly,
  refuseChangedMeanwhile,
  seenField,
  SEARCH_MAX,
  settingsForm,
} from '../framework.ts';
import { pagerNav, PagedSearchQuery, searchedPage, type PagedSearch } from '../pager.ts';
import { list, postedRowId, text, typedNumber, type FormBody } from '../form-values.ts';
import { journalNames, loadJournalInWords, loadVenueIds, venueLine } from '../venues.ts';
import { dataTable } from '../table.ts';
import {
  CUSTOM_FIELDS_ID,
  customValuesSection,
  NOT_A_NUMBER,
  postedCustomValuesForm,
  registerCustomValuesSave,
} from '../custom-values-form.ts';
import {
  countOf,
  dashboardPath,
  html,
  isolate,
  isolateText,
  labelledChoice,
  quotedBack,
  sectionLinks,
  type Html,
} from '../html.ts';

/** Folders shown a page: an organization may hold 10,000 (`limits.folders`). */
const PAGE_SIZE = 100;
const Id = RowId();
const FolderParams = Type.Object({ folderId: Id });
const LinkParams = Type.Object({ folderId: Id, sourceId: Id });
const FolderQuery = Type.Object({ journal: Type.Optional(Type.String({ maxLength: SEARCH_MAX })) });
const SettingsBody = Type.Object({
  _csrf: Type.String(),
  groups: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  effect: Type.String(),
  boost: Type.Optional(Type.String({ maxLength: 50 })),
  // What the form was filled from (seenField): a save over a change made since is refused.
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});
const LinkBody = Type.Object({
  _csrf: Type.String(),
  source_id: Type.String({ maxLength: 20 }),
  // The search the Link button was found by: the page comes back with it, for the next link.
  journal: Type.Optional(Type.String({ maxLength: SEARCH_MAX })),
});

const EFFECT_LABELS = {
  highlight: "Highlight the groups' authors among the candidates",
  limit_to: "Limit the candidates to the groups' authors",
  boost: "Boost the groups' authors' scores by a multiplier",
} as const;

/** What the referee finder settings form is filled from and sends: groups in id order, effect, multiplier. */
function editedSettings(s: {
  groupIds: readonly number[];
  effect: string | null;
  boost: number | string | null;
}): unknown {
  return [[...s.groupIds].sort((a, b) => a - b), s.effect, s.boost === null ? null : Number(s.boost)];
}

const storedSettings = (folder: FolderRow) =>
  editedSettings({
    groupIds: folder.authors_group_ids,
    effect: folder.effect,
    boost: folder.boost_multiplier,
  });

/**
 * The multiplier a settings save stores. A multiplier applies with the boost effect only
 * (`checkFolderSettings`, the CLI's rule too). One typed while another effect is chosen was dropped
 * without a word; now it is refused, saying why and what to do, since the editor may have meant to
 * boost and forgotten the effect. The multiplier the page was filled with, left as it was while the
 * editor chose another effect, is what every move away from boost sends (the form has no script to
 * empty it): it is cleared, and the save's message says so.
 */
function boostToSave(folder: FolderRow, effect: string, typed: number | null): number | null {
  if (effect === 'boost' || typed === null) return typed;
  if (folder.effect === 'boost' && typed === folder.boost_multiplier) return null;
  throw fieldInvalid(
    'boost',
    `A boost multiplier (${typed}) applies with the effect “${EFFECT_LABELS.boost}” only: choose that effect to boost the groups' authors by it, or empty the multiplier to save the effect you chose.`,
  );
}

/**
 * A folder's referee finder settings as text, for a role that may not change them: the groups chosen
 * and, when there are some, their effect; without a group there is no effect to name (the form
 * keeps one chosen, "Highlight" by default, which acts on nobody).
 */
function storedSettingsList(
  folder: FolderRow,
  groups: ReadonlyArray<{ group_id: number; name: string }>,
): Html {
  const chosen = groups.filter((g) => folder.authors_group_ids.includes(g.group_id));
  if (chosen.length === 0 || folder.effect === null) {
    return html`<p>
      No authors group is chosen: this folder's uploads are ranked without any group effect.
    </p>`;
  }
  return html`<dl>
    <dt>Authors groups</dt>
    <dd>${chosen.map((g, i) => html`${i > 0 ? ', ' : null}${isolate(g.name)}`)}</dd>
    <dt>Effect</dt>
    <dd>
      ${EFFECT_LABELS[folder.effect]}${folder.effect === 'boost' ? ` (×${folder.boost_multiplier})` : null}
    </dd>
  </dl>`;
}

export function registerFolderPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/folders/',
    action: 'read',
    schema: { querystring: PagedSearchQuery },
    handler: async (request, reply) => {
      const organizationId = orgOf(request);
      const base = dashboardPath('folders');
      const listing = await searchedPage(request.query as PagedSearch, base, PAGE_SIZE, (asked) =>
        listFolderPage(ctx.db, organizationId, asked),
      );
      // A page past the last (an old link, folders deleted since) is the last page.
      if (listing.pastLast) return redirectTo(ctx, request, reply, listing.pastLast);
      const { q, page, pages, total, rows: folders, link: pageLink } = listing;
      // Only the groups this page's folders name (an organization may hold 2,000).
      const named = await findOrganizationGroups(ctx.db, organizationId, [
        ...new Set(folders.flatMap((f) => f.authors_group_ids)),
      ]);
      const groupName = new Map(named.map((g) => [g.id, g.name]));
      return renderPage(ctx, request, reply, {
        title: 'Folders',
        body: html`<p>A folder is a journal code or panel name; uploads create them.</p>
          <form method="get" action="${base}" class="row" role="search">
            <div>
              <label for="q">Search by name</label>
              <input id="q" name="q" type="search" value="${q}" />
            </div>
            <button type="submit">Search</button>
          </form>
          ${dataTable({
            caption: html`${countOf(total, 'folder', 'folders')}${q ? html` matching “${isolate(q)}”` : null}`,
            columns: ['Folder', 'Authors groups', 'Effect', 'Linked journals'],
            empty: q ? 'No folder matches.' : 'No folders yet: the first upload naming one creates it.',
            rows: folders.map(
              (f) =>
                html`<tr>
                  <td class="given"><a href="${dashboardPath('folders', f.id)}">${f.name}</a></td>
                  <td class="given">
                    ${
                      f.authors_group_ids
                        .map((id) => groupName.get(id))
                        .filter(Boolean)
                        .join(', ') || '—'
                    }
                  </td>
                  <td>
                    ${
                      f.effect && f.authors_group_ids.length > 0
                        ? `${EFFECT_LABELS[f.effect]}${f.effect === 'boost' ? ` (×${f.boost_multiplier})` : ''}`
                        : '—'
                    }
                  </td>
                  <td>${f.journals}</td>
                </tr>`,
            ),
          })}
          ${pagerNav({ page, pages, link: pageLink })}`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/folders/:folderId/',
    action: 'read',
    schema: { params: FolderParams, querystring: FolderQuery },
    handler: async (request, reply) => {
      const { folderId } = request.params as { folderId: number };
      const { journal = '' } = request.query as { journal?: string };
      const organizationId = orgOf(request);
      const folder = await requireFolder(ctx.db, organizationId, folderId);
      const [groups, links, fields, values] = await Promise.all([
        listGroups(ctx.db, organizationId),
        listLinks(ctx.db, organizationId),
        listOwnerCustomFields(ctx.db, organizationId, 'folder'),
        readCustomValues(ctx.db, organizationId, 'folder', folderId),
      ]);
      const linked = links.filter((l) => l.folder_id === folderId);
      // A journal has one folder an organization: linking it here takes it from the other, so the
      // row says where it is now and offers to move it, rather than a Link that silently moves it.
      const elsewhere = new Map(
        links.filter((l) => l.folder_id !== folderId).map((l) => [l.source_id, l.folder_name]),
      );
      const matches = journal.trim() ? await searchSources(ctx.db, journal, 20) : [];
      const venues = await loadVenueIds(ctx.db, [
        ...linked.map((l) => l.source_id),
        ...matches.map((m) => m.id),
      ]);
      // Each button says which journal, and which folder, in words: venues may share a title.
      const names = journalNames(
        [...linked.map((l) => ({ id: l.source_id, title: l.source_title })), ...matches],
        venues,
      );
      const linkCell = (m: { id: number; title: string }) => {
        if (linked.some((l) => l.source_id === m.id)) return html`<span class="muted">Linked</span>`;
        const other = elsewhere.get(m.id);
        return html`${other === undefined ? null : html`<div class="hint">Linked to ${isolate(other)}</div>`}
        ${actionButton(request, {
          action: `${path}journals/`,
          label: other === undefined ? 'Link' : html`Move to ${isolate(folder.name)}`,
          accessibleName:
            other === undefined
              ? `Link ${names.get(m.id)!} to ${isolateText(folder.name)}`
              : // Begins with the visible label, which speech input users say to press it: as
                // shown, without the isolation of the names after it.
                `Move to ${folder.name}: ${names.get(m.id)!}, linked to ${isolateText(other)}`,
          hidden: { source_id: m.id, journal },
        })}`;
      };
      const editSettings = mayDo(request, 'folder_settings_write');
      const editLinks = mayDo(request, 'journals_link');
      // After a refusal, what was chosen and typed (`keepsForm`); else what is stored. The refused
      // form may be the custom values one, which shows its own.
      const posted = postedCustomValuesForm(request) ? null : postedForm(request);
      const shown = posted
        ? {
            groupIds: list(posted, 'groups'),
            effect: text(posted, 'effect'),
            boost: text(posted, 'boost'),
          }
        : {
            groupIds: folder.authors_group_ids.map(String),
            effect: folder.effect ?? 'highlight',
            boost: folder.boost_multiplier === null ? '' : String(folder.boost_multiplier),
          };
      const path = dashboardPath('folders', folderId);
      const groupsState = fieldState(request, 'groups');
      const effectState = fieldState(request, 'effect');
      const boostState = fieldState(request, 'boost', { hints: ['boost-hint'] });
      return renderPage(ctx, request, reply, {
        title: `Folder ${isolateText(folder.name)}`,
        body: html`${sectionLinks([
            { id: 'referee-finder', label: 'Referee finder' },
            { id: CUSTOM_FIELDS_ID, label: 'Custom fields' },
            { id: 'linked-journals', label: 'Linked journals' },
          ])}
          <h2 id="referee-finder">Referee finder</h2>
          ${
            groups.length === 0
              ? // No group to choose, so no effect to apply (a deleted group leaves every folder's
                // settings): the form's Effect and multiplier had nothing to act on.
                html`<p class="muted">
                  The organization has no authors groups yet, so this folder's uploads are ranked without any
                  group effect.
                  ${
                    mayDo(request, 'authors_groups_write')
                      ? html`Make one on the <a href="/dashboard/groups/">authors groups</a> page, then choose
                          it here.`
                      : null
                  }
                </p>`
              : settingsForm(
                  request,
                  {
                    action: 'folder_settings_write',
                    url: `${path}settings/`,
                    before: seenField(storedSettings(folder)),
                    submit: 'Save referee finder settings',
                  },
                  html` <fieldset ${groupsState.attrs}>
                      <legend>Authors groups</legend>
                      ${groupsState.message}
                      ${groups.map((g) =>
                        labelledChoice(
                          {
                            type: 'checkbox',
                            name: 'groups',
                            value: g.group_id,
                            checked: shown.groupIds.includes(String(g.group_id)),
                          },
                          isolate(g.name),
                        ),
                      )}
                    </fieldset>
                    <fieldset ${effectState.attrs}>
                      <legend>Effect</legend>
                      ${effectState.message}
                      ${GROUPS_EFFECTS.map((e) =>
                        labelledChoice(
                          { type: 'radio', name: 'effect', value: e, checked: shown.effect === e },
                          EFFECT_LABELS[e],
                        ),
                      )}
                    </fieldset>
                    <label for="boost">Boost multiplier (with the boost effect only)</label>
                    ${boostState.message}
                    <input
                      id="boost"
                      name="boost"
                      type="text"
                      inputmode="decimal"
                      value="${shown.boost}"
                      ${boostState.attrs}
                    />
                    <p id="boost-hint" class="hint">
                      Greater than 0, at most 1000; for example 1.5 (or 1,5).
                    </p>`,
                  storedSettingsList(folder, groups),
                )
          }
          ${customValuesSection(request, {
            fields,
            values,
            action: `${path}custom-values/`,
            editable: editSettings,
            what: 'folder',
          })}
          <h2 id="linked-journals">Linked journals</h2>
          <p class="hint">Journal recommendations limited to the organization's journals come from these.</p>
          ${dataTable({
            caption: html`Journals linked to ${isolate(folder.name)}`,
            // Each row's button beside its title, the id last: after the id, a phone's screen showed
            // the button only once the table was scrolled sideways. A role that may not unlink (an
            // editor, a viewer) has no such column: it read "Unlink" over empty cells.
            columns: editLinks ? ['Journal', 'Unlink', 'Id'] : ['Journal', 'Id'],
            empty: 'None.',
            rows: linked.map(
              (l) =>
                html`<tr>
                  <td>
                    ${isolate(l.source_title)}
                    <div class="hint">${venueLine(null, venues.get(l.source_id))}</div>
                  </td>
                  ${
                    editLinks
                      ? html`<td>
                          ${actionButton(request, {
                            action: `${path}journals/${l.source_id}/unlink/`,
                            label: 'Unlink',
                            accessibleName: `Unlink ${names.get(l.source_id)!} from ${isolateText(folder.name)}`,
                            kind: 'secondary',
                          })}
                        </td>`
                      : null
                  }
                  <td>${l.source_id}</td>
                </tr>`,
            ),
          })}
          ${
            editLinks
              ? // The answer opens at this section: at the page's top, the matches were below the
                // settings' forms, out of view (a phone's screens down), as if Find had done nothing.
                html`<form method="get" action="${path}#linked-journals" class="row" role="search">
                    <div>
                      <label for="journal">Find a journal to link</label>
                      <input id="journal" name="journal" type="search" value="${journal}" />
                    </div>
                    <button type="submit">Find</button>
                  </form>
                  ${
                    journal.trim()
                      ? dataTable({
                          caption: html`Journals matching “${isolate(journal)}”`,
                          // The Link button beside its title, as the Unlink above.
                          columns: ['Journal', 'Link', 'Works (years)', 'Id'],
                          empty: 'No journal of the corpus matches.',
                          rows: matches.map(
                            (m) =>
                              html`<tr>
                                <td>
                                  ${isolate(m.title)}
                                  <div class="hint">${venueLine(m.publisher, venues.get(m.id))}</div>
                                </td>
                                <td>${linkCell(m)}</td>
                                <td>
                                  ${m.works}${m.first_year === null ? null : html` (${m.first_year === m.last_year ? m.first_year : `${m.first_year}-${m.last_year}`})`}
                                </td>
                                <td>${m.id}</td>
                              </tr>`,
                          ),
                        })
                      : null
                  }`
              : null
          }`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/folders/:folderId/settings/',
    action: 'folder_settings_write',
    schema: { params: FolderParams, body: SettingsBody },
    back: (request) => dashboardPath('folders', (request.params as { folderId: number }).folderId),
    keepsForm: true,
    handler: async (request, reply) => {
      const { folderId } = request.params as { folderId: number };
      const organizationId = orgOf(request);
      const folder = await requireFolder(ctx.db, organizationId, folderId);
      const body = request.body as FormBody;
      const groupIds = list(body, 'groups').map((id) => postedRowId(id, 'an authors group', 'groups'));
      // A group ticked on a page shown before another tab or editor deleted it: said on the folder's
      // page, with the form as sent (409), where the store's 404 was an error page that lost it.
      const existing = new Set((await listGroups(ctx.db, organizationId)).map((g) => g.group_id));
      const gone = groupIds.filter((id) => !existing.has(id));
      if (gone.length > 0) {
        throw errors.conflict(
          `The authors group${gone.length > 1 ? 's' : ''} ${gone.join(', ')} ${gone.length > 1 ? 'were' : 'was'} deleted meanwhile (in another tab, or by another editor): nothing was saved. The form is as you sent it, without ${gone.length > 1 ? 'them' : 'it'}: check it and save again.`,
        );
      }
      const effect = text(body, 'effect');
      // 1,5 as well as 1.5 (typedNumber); the range is checked by checkFolderSettings.
      const typed = text(body, 'boost').trim();
      const typedBoost = typed === '' ? null : typedNumber(typed, 'The boost multiplier', 'boost');
      if (typed === '' && effect === 'boost') {
        // It said "“” is not a number" of a field left empty.
        throw fieldInvalid('boost', 'The boost effect needs a multiplier: type one, such as 1.5.');
      }
      if (typed !== '' && typedBoost === null) {
        // Worded as a custom value's number is, quoting what was typed.
        throw fieldInvalid('boost', `The boost multiplier: ${quotedBack(typed)} ${NOT_A_NUMBER}`);
      }
      const boost = boostToSave(folder, effect, typedBoost);
      const settings = await concerning(
        (message) => (/multiplier/.test(message) ? 'boost' : /effect/.test(message) ? 'effect' : null),
        () => checkFolderSettings(ctx.db, organizationId, { groupIds, effect, boostMultiplier: boost }),
      );
      refuseChangedMeanwhile(
        body,
        "The folder's referee finder settings were",
        storedSettings(folder),
        editedSettings({
          groupIds: settings.groupIds,
          effect: settings.effect,
          boost: settings.boostMultiplier,
        }),
      );
      await saveFolderSettings(ctx.db, folderId, settings);
      const cleared =
        typedBoost !== null && boost === null
          ? ` The boost multiplier ×${typedBoost} was cleared: it applies with the boost effect only.`
          : '';
      return redirectTo(ctx, request, reply, dashboardPath('folders', folderId), {
        kind: 'ok',
        // An effect without a group acts on nobody: say so, rather than "saved" as if it would.
        message: groupIds.length
          ? `The referee finder settings were saved.${cleared}`
          : `No authors group is chosen, so the folder has no referee finder settings: its uploads are ranked without any group effect.${cleared}`,
      });
    },
  });

  // A folder's custom values are part of its settings: the same action changes them.
  registerCustomValuesSave(scope, ctx, {
    owner: 'folder',
    url: '/folders/:folderId/custom-values/',
    param: 'folderId',
    action: 'folder_settings_write',
    page: (folderId) => dashboardPath('folders', folderId),
    requireRow: requireFolder,
    what: 'folder',
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/folders/:folderId/journals/',
    action: 'journals_link',
    schema: { params: FolderParams, body: LinkBody },
    back: (request) => dashboardPath('folders', (request.params as { folderId: number }).folderId),
    handler: async (request, reply) => {
      const { folderId } = request.params as { folderId: number };
      const organizationId = orgOf(request);
      const folder = await requireFolder(ctx.db, organizationId, folderId);
      const sourceId = postedRowId(text(request.body as FormBody, 'source_id'), 'a journal', null);
      const search = text(request.body as FormBody, 'journal').trim();
      if ((await findSourceTitle(ctx.db, sourceId)) === null) {
        return journalGonePage(ctx, request, reply, { folderId, sourceId: sourceId, search });
      }
      const before = (await listLinks(ctx.db, organizationId)).find(
        (l) => l.source_id === sourceId && l.folder_id !== folderId,
      );
      const link = await linkJournal(ctx.db, organizationId, folder.name, sourceId);
      const back = search ? `?${new URLSearchParams({ journal: search }).toString()}` : '';
      const journal = await loadJournalInWords(ctx.db, { id: link.source_id, title: link.source_title });
      return redirectTo(ctx, request, reply, `${dashboardPath('folders', folderId)}${back}`, {
        kind: 'ok',
        // Linking moves a journal linked elsewhere: that folder's recommendations lose it, said here.
        message: before
          ? `${journal} is moved from ${isolateText(before.folder_name)} to ${isolateText(folder.name)}: ${isolateText(before.folder_name)} no longer has it.`
          : `${journal} is linked to ${isolateText(folder.name)}.`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/folders/:folderId/journals/:sourceId/unlink/',
    action: 'journals_link',
    schema: { params: LinkParams, body: CsrfOnly },
    handler: async (request, reply) => {
      const { folderId, sourceId } = request.params as { folderId: number; sourceId: number };
      const organizationId = orgOf(request);
      const folder = await requireFolder(ctx.db, organizationId, folderId);
      const title = await findSourceTitle(ctx.db, sourceId);
      // Its link went with it (journal_links cascades).
      if (title === null) return journalGonePage(ctx, request, reply, { folderId, sourceId, search: '' });
      const journal = await loadJournalInWords(ctx.db, { id: sourceId, title });
      const linked = (await listLinks(ctx.db, organizationId)).some(
        (l) => l.source_id === sourceId && l.folder_id === folderId,
      );
      // Unlink pressed twice, or in a tab opened before another unlinked or moved it: what the form
      // asks is so already. It was a 404 naming the organization's id.
      if (!linked) {
        return redirectTo(ctx, request, reply, dashboardPath('folders', folderId), {
          kind: 'ok',
          message: `${journal} is not linked to ${isolateText(folder.name)} (unlinked or moved meanwhile): nothing changed.`,
        });
      }
      await unlinkJournal(ctx.db, organizationId, sourceId, folder.name);
      return redirectTo(ctx, request, reply, dashboardPath('folders', folderId), {
        kind: 'ok',
        message: `${journal} is unlinked from ${isolateText(folder.name)}.`,
      });
    },
  });
}

/**
 * A journal id the corpus no longer holds (an ingest removed it, or merged it into another venue),
 * sent from a folder page or a tab opened before: the dashboard's page, still a 404, that says so and
 * leads back to the folder's journal search (with what was searched), where a bare "Journal (source)
 * 123 was not found" led only to the dashboard's home.
 */
async function journalGonePage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  gone: { folderId: number; sourceId: number; search: string },
): Promise<string> {
  const query = gone.search ? `?${new URLSearchParams({ journal: gone.search }).toString()}` : '';
  return renderPage(ctx, request, reply, {
    title: 'Journal no longer in the catalogue',
    status: 404,
    body: html`<p role="alert">
        The journal with id ${gone.sourceId} is no longer in the catalogue: an update of the corpus removed it
        or merged it into another journal. Nothing was changed.
      </p>
      <p>
        <a href="${dashboardPath('folders', gone.folderId)}${query}#linked-journals"
          >Find the journal again</a
        >
        by its title in the folder's journal search.
      </p>`,
  });
}
