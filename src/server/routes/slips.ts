import { getRequestHeader, readMultipartFormData, type H3Event } from 'h3';
import { z } from 'zod';
import { shapeRow, type Tier } from '../../domain/tiers.js';
import { AppError, badInput } from '../../errors.js';
import { runScan } from '../../jobs/scan.js';
import { evaluateProp } from '../../reads/evaluate-prop.js';
import { checkImage, UPLOAD_CAP_BYTES } from '../../slips/image.js';
import { SlipReader, UndecodableImageError, type SlipReaderOptions } from '../../slips/ocr.js';
import { readSlipImage, readSlipText, type GradeLeg } from '../../slips/reader.js';
import type { SlipResult } from '../../slips/schema.js';
import type { ServerDeps } from '../context.js';
import { bearerChallenge } from '../envelope.js';
import { readCappedBody, readJsonBody, validate } from '../input.js';
import { releaseMetered, reserveMetered, retryAfterFor, SLIP_PARSES_PER_DAY } from '../../accounts/meter.js';
import { clientKey, defineRoute, type Route } from '../route.js';
import { slipAnswerSchema } from '../wire/answers-core.js';

/** usage_events kind for a counted slip parse. */
export const SLIP_PARSE_KIND = 'slip_parse';

export const SLIP_PARSE_PATH = '/api/slips/parse';

/** Room for the multipart boundaries, part headers and the `book` field around a capped image. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const MULTIPART_BODY_CAP_BYTES = UPLOAD_CAP_BYTES + MULTIPART_OVERHEAD_BYTES;

/** Pasted slips are a few hundred characters; the cap only keeps a stray paste from being parsed. */
const TEXT_MAX_CHARS = 20_000;

export const slipBookSchema = z.enum(['auto', 'fanduel', 'draftkings', 'hardrock', 'prizepicks']);

export const slipTextRequestSchema = z.object({
  text: z.string().trim().min(1, 'the pasted slip text is empty').max(TEXT_MAX_CHARS, `at most ${TEXT_MAX_CHARS} characters`),
  book: slipBookSchema.default('auto'),
});

const multipartFieldsSchema = z.object({ book: slipBookSchema.default('auto') });

/**
 * The server's one OCR worker: started on the first image parse (a server that never reads an
 * image never pays for it), shared by every request after that, terminated on close. A start
 * that fails is dropped so the next image tries again; `starts` counts worker starts.
 */
export class SharedSlipReader {
  starts = 0;
  private ready: Promise<SlipReader> | null = null;
  private closed = false;

  constructor(private readonly options: SlipReaderOptions = {}) {}

  reader(): Promise<SlipReader> {
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'the server is shutting down'));
    if (!this.ready) {
      const reader = new SlipReader(this.options);
      this.starts += 1;
      this.ready = reader.start().then(
        () => reader,
        async (error: unknown) => {
          this.ready = null;
          await reader.close().catch(() => undefined);
          throw error;
        },
      );
    }
    return this.ready;
  }

  /** Whether a worker has been started (or is starting) and not yet closed. */
  get active(): boolean {
    return this.ready !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.ready;
    this.ready = null;
    if (!pending) return;
    const reader = await pending.catch(() => null);
    if (reader) await reader.close();
  }
}

interface SlipInput {
  kind: 'image' | 'text';
  book: z.infer<typeof slipBookSchema>;
  image?: Uint8Array;
  text?: string;
}

/** Multipart with an `image` file (and optional `book`), or JSON `{ text, book? }`; anything else is a 400. */
async function readSlipInput(event: H3Event, jsonLimit: number): Promise<SlipInput> {
  const contentType = (getRequestHeader(event, 'content-type') ?? '').toLowerCase();
  if (contentType.startsWith('multipart/form-data')) {
    const body = await readCappedBody(
      event,
      MULTIPART_BODY_CAP_BYTES,
      () => new AppError('TOO_LARGE', `upload exceeds ${MULTIPART_BODY_CAP_BYTES} bytes (the image cap is 4 MB)`, { details: { limit: MULTIPART_BODY_CAP_BYTES, imageCap: UPLOAD_CAP_BYTES } }),
    );
    // h3 caches a read body under this symbol; handing it the capped bytes keeps its own uncapped read from running.
    (event.node.req as unknown as Record<symbol, unknown>)[Symbol.for('h3RawBody')] = Promise.resolve(body);
    const parts = await readMultipartFormData(event);
    if (!parts) throw badInput('invalid form: a multipart body with a boundary and an `image` file field is expected');
    const image = parts.find((p) => p.name === 'image');
    if (!image) throw badInput('invalid form: image: missing file field (send the slip screenshot as `image`)');
    const bookPart = parts.find((p) => p.name === 'book');
    const fields = validate(multipartFieldsSchema, 'form')(bookPart ? { book: bookPart.data.toString('utf8').trim() } : {});
    return { kind: 'image', book: fields.book, image: image.data };
  }
  if (contentType.startsWith('application/json')) {
    const body = await readJsonBody(event, slipTextRequestSchema, jsonLimit);
    return { kind: 'text', book: body.book, text: body.text };
  }
  throw badInput('send multipart/form-data with an `image` file field, or application/json `{ "text": "..." }` for pasted slip text');
}

/**
 * Each leg through the normal scan engine (never the ledger, never the scan meter: the slip
 * parse is metered on its own). Graded views and refusals are tier-shaped like every row.
 */
function gradeLegFor(deps: ServerDeps, tier: Tier): GradeLeg {
  return async (leg) => {
    const scan = await runScan(deps.store, { player: leg.player, stat: leg.stat, line: leg.line, direction: leg.side }, { now: (sport) => deps.now(sport), userId: null, evaluate: evaluateProp });
    const { ledger: _ledger, metered: _metered, ...view } = scan;
    const shaped = shapeRow(view, tier);
    return scan.status === 'graded' ? { status: 'graded', view: shaped } : { status: 'refused', refusal: shaped };
  };
}

export function slipRoutes(deps: ServerDeps, ocr: SharedSlipReader): Route[] {
  const route = defineRoute({
    method: 'POST',
    path: SLIP_PARSE_PATH,
    tag: 'slips',
    access: 'auth',
    response: slipAnswerSchema,
    summary: 'Read a bet slip (screenshot or pasted text) into legs and grade each leg',
    description:
      'Auth required (Bearer token; none or invalid: 401). multipart/form-data with an `image` file (PNG, JPEG, GIF, BMP, WebP or TIFF, at most 4 MB) and optional `book`, or application/json `{ text, book? }`. Every field carries a confidence and needs_review; each gradeable leg is graded by the scan engine, its view tier-shaped. Parses per rolling 24 h: free 1, analyst and desk 10 (429 with Retry-After beyond); a request refused before OCR (validation, a non-image, oversize) is not counted; an image the OCR engine fails to decode is. Over 4 MB, or an image whose header declares more than 25 megapixels or 10,000 pixels a side: 413 before any decoding; not an image or a corrupt image: 400.',
    errors: [401, 413, 429],
    handle: async ({ event, caller }): Promise<SlipResult & { meter: { used: number; limit: number; windowHours: number } }> => {
      if (!caller.authenticated || !caller.user) {
        throw new AppError('UNAUTHORIZED', 'slip parsing needs a valid API token: send Authorization: Bearer <token>', { challenge: bearerChallenge(caller.presentedToken) });
      }
      // Parses are metered on the wall clock; each leg is graded on its sport's data clock.
      const wall = deps.wallNow();
      const subject = clientKey(event, caller, deps.config);
      const limit = SLIP_PARSES_PER_DAY[caller.tier];
      // The slot is taken before the parse, in one exclusive transaction with the count, so parallel
      // uploads (to this server or another on the same store) cannot pass the limit; a parse that
      // turns out not to count gives it back.
      const slot = await reserveMetered(deps.store, subject, SLIP_PARSE_KIND, limit, wall);
      if (!slot.ok) {
        throw new AppError('RATE_LIMITED', `slip parses: ${limit} per rolling 24 hours for the ${caller.tier} tier`, {
          retryAfter: retryAfterFor(slot.oldest, wall),
          details: { used: slot.used, limit },
        });
      }
      let counted = false;
      try {
        const input = await readSlipInput(event, deps.limits.bodyBytes);
        const gradeLeg = gradeLegFor(deps, caller.tier);
        let result: SlipResult;
        if (input.kind === 'image') {
          const image = input.image!;
          // Refused before the worker starts: a non-image or an image over the pixel budget never costs an OCR start.
          checkImage(image);
          const reader = await ocr.reader();
          try {
            result = await readSlipImage(reader, image, { book: input.book, gradeLeg });
          } catch (error) {
            // The engine spent a decode on it: counted, so a failing image cannot be sent without end.
            if (error instanceof UndecodableImageError) counted = true;
            throw error;
          }
        } else {
          result = await readSlipText(input.text!, { book: input.book, gradeLeg });
        }
        counted = true;
        return { ...result, meter: { used: slot.used, limit, windowHours: 24 } };
      } finally {
        if (!counted) await releaseMetered(deps.store, slot.id);
      }
    },
  });
  // The handler reads its own body (multipart or JSON); the JSON schema is kept for /openapi.json.
  return [{ ...route, body: slipTextRequestSchema }];
}

/**
 * What the route table cannot say about this route in /openapi.json: the multipart alternative to
 * the JSON body, the upload cap behind its 413, and the 503 of an OCR engine that cannot start.
 */
export function describeSlipRoute(openapi: Record<string, unknown>): void {
  const paths = openapi['paths'] as Record<string, Record<string, Record<string, unknown>>> | undefined;
  const op = paths?.[SLIP_PARSE_PATH]?.['post'];
  if (!op) return;
  const requestBody = op['requestBody'] as { content: Record<string, unknown> } | undefined;
  if (requestBody) {
    requestBody.content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['image'],
        properties: {
          image: { type: 'string', contentMediaType: 'image/*', description: 'slip screenshot: PNG, JPEG, GIF, BMP, WebP or TIFF, at most 4 MB' },
          book: { type: 'string', enum: slipBookSchema.options, default: 'auto' },
        },
      },
    };
  }
  const responses = op['responses'] as Record<string, Record<string, unknown>>;
  if (responses['413']) responses['413'] = { ...responses['413'], description: 'Upload over the 4 MB image cap, an image whose header declares more than 25 megapixels or 10,000 pixels a side, or JSON over the body cap' };
  responses['503'] = { $ref: '#/components/responses/Unavailable', description: 'The OCR engine could not start or did not finish in time' };
}
