// A manuscript uploaded from the dashboard (editor): the API's upload (spec 4.5, the same parse,
// store and ranking, through the app's one upload lane: upload-route.ts) from a form a person fills,
// for a manuscript that did not come through an editorial system, or to try one. A file that cannot
// be used (too large, empty, not a PDF or a DOCX by its content, not read: locked with a password,
// damaged, no text) is refused before anything is stored, saying what happened and what to do,
// beside the file's control, focused; what was typed comes back in the form (a file input cannot be
// filled again: the message says to choose it again).
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { normalizeOrcid } from '../../corpus/openalex/ids.ts';
import { listFolderNames } from '../../folders/folders.ts';
import { AppError } from '../../infra/errors.ts';
import { sniffSourceFormat } from '../../manuscripts/file-type.ts';
import { uploadLane } from '../../manuscripts/upload-route.ts';
import { formTextBytes, validateUploadForm, type UploadedFile } from '../../manuscripts/upload-form.ts';
import { requireOrganization } from '../../organizations/organizations.ts';
import {
  csrfField,
  dashboardRoute,
  fieldState,
  orgOf,
  postedForm,
  readMultipartForm,
  redirectTo,
  renderPage,
  type SentFile,
} from '../framework.ts';
import { text } from '../form-values.ts';
import { countOf, dashboardPath, html, isolateText, mebibytes } from '../html.ts';

const URL = '/manuscripts/upload/';

/** The form's text inputs, by their posted names. */
const TEXT_INPUTS = ['folder', 'origin_id', 'title', 'abstract', 'authors'] as const;
type TextInput = (typeof TEXT_INPUTS)[number];
type Typed = Record<TextInput, string>;
const FILE_INPUT = 'source_file';
type Input = TextInput | typeof FILE_INPUT;

/** The folders offered as the folder's suggestions (a datalist): any other name may be typed. */
const FOLDER_SUGGESTIONS = 500;

/**
 * A refusal of the form: each input's message, said beside it (the first focused); or, about none of
 * them (the service busy), a message at the page's top.
 */
type Refusal = { status: number; problems: Partial<Record<Input, string>>; message?: string };

/** What to do about a file the parser could not read, by the parse's reason (src/parsing/types.ts). */
const UNREAD_ADVICE: Readonly<Record<string, string>> = {
  encrypted:
    'it is locked with a password. Save a copy without the password (in the PDF reader, print it to a new PDF, or remove its security) and choose that copy',
  corrupt_file:
    'it is damaged or incomplete (cut short while it was saved or downloaded?). Open it on your computer to check it; save or export it again and choose the new file',
  no_text:
    'it holds no text to read: pages scanned as pictures. Choose the PDF exported from the word processor, or the DOCX',
  missing_part:
    'the DOCX is incomplete: a part Word writes is missing. Open it in Word, save it again, and choose the saved file',
  too_many_pages:
    'it has more pages than a manuscript is read to. Choose the manuscript alone, without appendices or supplements',
};

/** The way round any file that cannot be used. */
const WITHOUT_FILE = 'upload without a file: the title, abstract and authors are then ranked alone';

/** The advice for a reason not listed: the parser's own words, and the way round it. */
function unreadAdvice(code: string, message: string): string {
  return (
    UNREAD_ADVICE[code] ??
    `it could not be read (${message.replace(/\.$/, '')}). Save or export it again as PDF or DOCX and choose that file`
  );
}

/** The authors typed one a line ("Name; email; ORCID iD; affiliation", all but the name optional). */
function authorFields(typed: string): Map<string, string> {
  const fields = new Map<string, string>();
  const lines = typed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  lines.forEach((line, i) => {
    const [name = '', ...rest] = line.split(';').map((part) => part.trim());
    const k = i + 1;
    fields.set(`author${k}_name`, name);
    const affiliations: string[] = [];
    for (const part of rest.filter(Boolean)) {
      if (part.includes('@') && !fields.has(`author${k}_email`)) fields.set(`author${k}_email`, part);
      else if (normalizeOrcid(part) && !fields.has(`author${k}_orcid`)) fields.set(`author${k}_orcid`, part);
      else affiliations.push(part);
    }
    if (affiliations.length > 0) fields.set(`author${k}_aff`, affiliations.join('; '));
  });
  fields.set('authors_count', String(lines.length));
  return fields;
}

/** The input a problem of the API's form check concerns (`body.author3_name`: the authors). */
function inputOf(path: string): Input | null {
  const name = path.replace(/^body\./, '');
  if (/^author\d+_/.test(name) || name === 'authors_count') return 'authors';
  return (TEXT_INPUTS as readonly string[]).includes(name) || name === FILE_INPUT ? (name as Input) : null;
}

/** The API's words for one field ("must be at most 2000 characters") as said beside its input. */
function problemInWords(path: string, message: string): string {
  const author = /^body\.author(\d+)_/.exec(path);
  const said = `${message[0]!.toUpperCase()}${message.slice(1)}`;
  return author ? `Line ${author[1]}: ${message}` : said;
}

interface SentUpload {
  typed: Typed;
  file: SentFile | null;
}

/** Reads the form: its token first (checked before anything else), then the fields and the file. */
async function readUploadPost(request: FastifyRequest): Promise<SentUpload> {
  const { fields, file } = await readMultipartForm(request, {
    name: 'upload',
    fields: TEXT_INPUTS,
    file: FILE_INPUT,
  });
  const typed = Object.fromEntries(TEXT_INPUTS.map((name) => [name, fields.get(name)?.value ?? ''])) as Typed;
  return { typed, file };
}

/** Why the chosen file cannot be used, said as what happened and what to do; null when it can be tried. */
function fileProblem(file: SentUpload['file'], limit: number): Refusal | null {
  if (!file) return null;
  const name = `The file ${isolateText(file.name || 'chosen')}`;
  if (file.tooLarge) {
    return {
      status: 413,
      problems: {
        source_file: `${name} is larger than the ${mebibytes(limit)} a manuscript's file may have. Choose a smaller copy (the manuscript without its supplements, or with its images saved smaller), or ${WITHOUT_FILE}.`,
      },
    };
  }
  if (file.bytes.length === 0) {
    return {
      status: 400,
      problems: {
        source_file: `${name} is empty (0 bytes). Choose the file again; if it is still being saved or synced, wait for that to finish first.`,
      },
    };
  }
  if (!sniffSourceFormat(file.bytes)) {
    return {
      status: 415,
      problems: {
        source_file: `${name} is neither a PDF nor a DOCX document (told by what it holds, not by its name). Save or export the manuscript as PDF or as Word (.docx) and choose that file.`,
      },
    };
  }
  return null;
}

/** A file the parser could not read, refused before anything is stored (`refuseUnreadFile`). */
class UnreadFile extends Error {
  constructor(readonly refusal: Refusal) {
    super('the file was not read');
  }
}

async function uploadPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  sent: { typed: Typed; refusal: Refusal } | null,
): Promise<string> {
  const folders = await listFolderNames(ctx.db, orgOf(request), FOLDER_SUGGESTIONS);
  const problems = sent?.refusal.problems ?? {};
  const typed = sent?.typed;
  const state = (name: Input, hints: readonly string[] = []) => {
    const problem = problems[name];
    return fieldState(request, name, { hints, ...(problem ? { problem } : {}) });
  };
  // The first refused input in the form's order is the one focused (`autofocus` on each: the first wins).
  const folder = state('folder', ['folder-hint']);
  const originId = state('origin_id', ['origin_id-hint']);
  const title = state('title');
  const abstract = state('abstract', ['abstract-hint']);
  const authors = state('authors', ['authors-hint']);
  const file = state(FILE_INPUT, ['source_file-hint']);
  const count = Object.keys(problems).length;
  const summary =
    count === 0
      ? (sent?.refusal.message ?? null)
      : problems.source_file && count === 1
        ? 'The manuscript was not uploaded: its file could not be used. What you typed is kept; choose the file again.'
        : `The manuscript was not uploaded: ${countOf(count, 'field', 'fields')} to correct, ${count === 1 ? 'its message beside it' : 'each with its message beside it'}. What you typed is kept${problems.source_file ? '; choose the file again' : ''}.`;
  // A form sent after the session ended comes back with what was typed (framework.ts,
  // keepUploadSentAfterSessionEnded); its file is chosen again.
  const posted = postedForm(request);
  const value = (name: TextInput) => typed?.[name] ?? (posted ? text(posted, name) : '');
  return renderPage(ctx, request, reply, {
    title: 'Upload a manuscript',
    status: sent?.refusal.status ?? 200,
    ...(summary
      ? {
          flash: {
            kind: 'error' as const,
            message: summary,
            ...(count > 0 ? { fields: problems as Record<string, string>, saysWhatToChange: true } : {}),
          },
        }
      : {}),
    body: html`<p>
        The manuscript is read, stored and ranked as an upload from your editorial system is: its candidates
        appear on its page, and a webhook hears of it. Uploading again with the same origin id replaces that
        manuscript's data and candidates.
      </p>
      <form
        method="post"
        action="${dashboardPath('manuscripts', 'upload')}"
        class="stack"
        enctype="multipart/form-data"
      >
        ${csrfField(request)}
        <label for="folder">Folder</label>
        ${folder.message}
        <input
          id="folder"
          name="folder"
          type="text"
          required
          maxlength="256"
          list="folder-names"
          value="${value('folder')}"
          ${folder.attrs}
        />
        <datalist id="folder-names">
          ${folders.map((f) => html`<option value="${f.name}"></option>`)}
        </datalist>
        <p id="folder-hint" class="hint">The journal code or panel name; a new name makes a new folder.</p>
        <label for="origin_id">Origin id</label>
        ${originId.message}
        <input
          id="origin_id"
          name="origin_id"
          type="text"
          required
          maxlength="256"
          value="${value('origin_id')}"
          ${originId.attrs}
        />
        <p id="origin_id-hint" class="hint">
          Your editorial system's id for the manuscript, such as JCL-2026-0142: marks and webhook events name
          it.
        </p>
        <label for="title">Title</label>
        ${title.message}
        <input id="title" name="title" type="text" required value="${value('title')}" ${title.attrs} />
        <label for="abstract">Abstract</label>
        ${abstract.message}
        <textarea id="abstract" name="abstract" rows="6" ${abstract.attrs}>${value('abstract')}</textarea>
        <p id="abstract-hint" class="hint">May be left empty when the file has one.</p>
        <label for="authors">Authors</label>
        ${authors.message}
        <textarea id="authors" name="authors" rows="4" ${authors.attrs}>${value('authors')}</textarea>
        <p id="authors-hint" class="hint">
          One a line: the name, then, if you have them, the email, the ORCID iD and the affiliation, separated
          by semicolons (<code>Ada Lovelace; ada@example.org; University of London</code>). Conflicts of
          interest are found from them. May be left empty when the file names them.
        </p>
        <label for="${FILE_INPUT}">Manuscript file (optional)</label>
        ${file.message}
        <input
          id="${FILE_INPUT}"
          name="${FILE_INPUT}"
          type="file"
          accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
          ${file.attrs}
        />
        <p id="source_file-hint" class="hint">
          A PDF or a Word document (.docx) of at most ${mebibytes(ctx.config.fileLimitBytes)}: its text,
          authors and references are read, and find candidates the title and abstract alone would not.
        </p>
        <button type="submit">Upload and find candidates</button>
      </form>`,
  });
}

export function registerManuscriptUploadPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: URL,
    action: 'manuscripts_upload',
    handler: async (request, reply) => uploadPage(ctx, request, reply, null),
  });

  void scope.register(async (withFiles) => {
    await withFiles.register(multipart, {
      limits: {
        fileSize: ctx.config.fileLimitBytes,
        // An abstract of the API's longest, and the authors of a large collaboration.
        fieldSize: 4 * 1024 * 1024,
        files: 1,
        fields: TEXT_INPUTS.length + 1,
        parts: TEXT_INPUTS.length + 2,
      },
    });
    dashboardRoute(withFiles, {
      method: 'POST',
      url: URL,
      action: 'manuscripts_upload',
      multipart: { bodyBytes: ctx.config.fileLimitBytes + 5 * 4 * 1024 * 1024 },
      back: () => dashboardPath('manuscripts', 'upload'),
      keepsForm: true,
      handler: async (request, reply) => {
        const organizationId = orgOf(request);
        const sent = await readUploadPost(request);
        const refused = (refusal: Refusal) => uploadPage(ctx, request, reply, { typed: sent.typed, refusal });

        const fields = new Map<string, string>([
          ['folder', sent.typed.folder],
          ['origin_id', sent.typed.origin_id],
          ['title', sent.typed.title],
          ['abstract', sent.typed.abstract],
          ...authorFields(sent.typed.authors),
        ]);
        const problems: Refusal['problems'] = {};
        let form: ReturnType<typeof validateUploadForm> | null = null;
        try {
          const checked = validateUploadForm({ fields, file: null, problems: [] });
          // The form states no count of authors (the API's `authors_count`, a client's check that all
          // were read): the lines typed are no such statement. Taken as one, 0 typed read
          // "authors_count is 0 but 12 authors were found" on the manuscript's page, and one typed
          // beside a file read under the "parsed" setting "authors_count is 1 but 21 authors were
          // found", a field the editor never saw, of every such upload.
          form = { ...checked, authorsCount: null };
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          for (const detail of error.details ?? []) {
            const input = inputOf(detail.path);
            if (!input) throw error;
            const said = problemInWords(detail.path, detail.message);
            problems[input] = problems[input] ? `${problems[input]}; ${said}` : said;
          }
        }
        const unusable = fileProblem(sent.file, ctx.config.fileLimitBytes);
        if (unusable) Object.assign(problems, unusable.problems);
        if (!form || unusable) return refused({ status: unusable?.status ?? 400, problems });

        const file: UploadedFile | null = sent.file
          ? { fileName: sent.file.name || null, bytes: sent.file.bytes }
          : null;
        const { gate, upload } = uploadLane(ctx);
        let result;
        let release = () => {};
        try {
          // While the corpus loads, or the process or the organization has as many uploads as it
          // takes at once: said beside the button, the form kept, to send again in a moment.
          ctx.readiness.assertReady(reply);
          release = gate.admit(organizationId);
          const organization = await requireOrganization(ctx.db, organizationId);
          // What an upload stores counts against the sender's address as the API's upload counts it
          // against its key and address (the typed text now, what is read from the file once read):
          // the places above bound uploads at once, not how much one browser stores in a minute.
          const countStored = (bytes: number) => ctx.auth.countBody(request, bytes);
          await countStored(formTextBytes(fields));
          result = await upload(organization, form, file, {
            log: request.log,
            countStored,
            refuseUnreadFile: (why) =>
              new UnreadFile({
                status: 422,
                problems: {
                  source_file: `The file ${isolateText(sent.file?.name || 'chosen')} could not be read: ${unreadAdvice(why.code, why.message)}. Or ${WITHOUT_FILE}.`,
                },
              }),
          });
        } catch (error) {
          if (error instanceof UnreadFile) return refused(error.refusal);
          // Busy (503) or past the address's rate limit (429): nothing stored, the form kept.
          if (error instanceof AppError && (error.status === 503 || error.status === 429)) {
            if (error.headers) void reply.headers(error.headers);
            return refused({
              status: error.status,
              problems: {},
              message: `Nothing was uploaded: ${error.message.replace(/\.$/, '')}. What you typed is kept: send the form again then${file ? ', choosing the file again' : ''}.`,
            });
          }
          throw error;
        } finally {
          release();
        }
        const candidates =
          result.candidates === null
            ? 'no candidates asked (the plan has no referee finder)'
            : countOf(result.candidates.length, 'candidate', 'candidates');
        // Named by the title used, as the manuscript's page heads it: the title typed named it under
        // the "parsed" setting, another title than the page's heading.
        const { rows } = await ctx.db.query<{ title: string }>(
          'SELECT title FROM manuscripts WHERE id = $1 AND organization_id = $2',
          [result.manuscript_id, organizationId],
        );
        const title = rows[0]?.title || form.title;
        return redirectTo(ctx, request, reply, dashboardPath('manuscripts', result.manuscript_id), {
          kind: 'ok',
          message: `The manuscript ${isolateText(title)} was uploaded to the folder ${isolateText(form.folder)}: ${candidates}.`,
        });
      },
    });
  });
}
