import { getRequestHeader, type H3Event } from 'h3';
import { z } from 'zod';
import { shapeRow, type Tier } from '../../domain/tiers.js';
import { AppError, badInput } from '../../errors.js';
import { runScan } from '../../jobs/scan.js';
import { evaluateProp } from '../../reads/evaluate-prop.js';
import { checkImage } from '../../slips/image.js';
import { OcrPool, type OcrTicket } from '../../slips/ocr-pool.js';
import { readSlipImage, readSlipText, type GradeLeg } from '../../slips/reader.js';
import type { SlipResult } from '../../slips/schema.js';
import type { ServerDeps } from '../context.js';
import { bearerChallenge } from '../envelope.js';
import { readJsonBody, validate } from '../input.js';
import { reserveMetered, retryAfterFor, SLIP_PARSES_PER_DAY } from '../../accounts/meter.js';
import { clientKey, defineRoute, type Route } from '../route.js';
import { slipAnswerSchema } from '../wire/answers-core.js';
import { readSlipUpload } from './slip-upload.js';

export { MULTIPART_BODY_CAP_BYTES } from './slip-upload.js';

/** usage_events kind for a counted slip parse. */
export const SLIP_PARSE_KIND = 'slip_parse';

export const SLIP_PARSE_PATH = '/api/slips/parse';

/** Pasted slips are a few hundred characters; the cap only keeps a stray paste from being parsed. */
const TEXT_MAX_CHARS = 20_000;

export const slipBookSchema = z.enum(['auto', 'fanduel', 'draftkings', 'hardrock', 'prizepicks']);

export const slipTextRequestSchema = z.object({
  text: z.string().trim().min(1, 'the pasted slip text is empty').max(TEXT_MAX_CHARS, `at most ${TEXT_MAX_CHARS} characters`),
  book: slipBookSchema.default('auto'),
});

const multipartFieldsSchema = z.object({ book: slipBookSchema.default('auto') });

/**
 * The server's OCR pool (src/slips/ocr-pool.ts) under the name the app has always held it by:
 * engine threads start on the first image parse (a server that never reads an image never pays
 * for them) and end on close; `starts` counts thread starts over every slot.
 */
export class SharedSlipReader extends OcrPool {}

interface SlipInput {
  kind: 'image' | 'text';
  book: z.infer<typeof slipBookSchema>;
  image?: Uint8Array;
  text?: string;
}

const isMultipart = (event: H3Event) => (getRequestHeader(event, 'content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/** Multipart with an `image` file (and optional `book`), or JSON `{ text, book? }`; anything else is a 400. */
async function readSlipInput(event: H3Event, jsonLimit: number): Promise<SlipInput> {
  const contentType = (getRequestHeader(event, 'content-type') ?? '').toLowerCase();
  if (isMultipart(event)) {
    const upload = await readSlipUpload(event.node.req);
    if (!upload.image) throw badInput('invalid form: image: missing file field (send the slip screenshot as `image`)');
    const fields = validate(multipartFieldsSchema, 'form')(upload.fields['book'] === undefined ? {} : { book: upload.fields['book'].trim() });
    return { kind: 'image', book: fields.book, image: upload.image };
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
  /** Callers with a parse in this server now: one each, text or image (per process, like the pool). */
  const inFlight = new Set<string>();
  const route = defineRoute({
    method: 'POST',
    path: SLIP_PARSE_PATH,
    tag: 'slips',
    access: 'auth',
    response: slipAnswerSchema,
    summary: 'Read a bet slip (screenshot or pasted text) into legs and grade each leg',
    description:
      'Auth required (Bearer token; none or invalid: 401). multipart/form-data with an `image` file (PNG, JPEG, GIF, BMP, WebP or TIFF, at most 4 MB) and optional `book`, or application/json `{ text, book? }`. Every field carries a confidence and needs_review; each gradeable leg is graded by the scan engine, its view tier-shaped. Parses per rolling 24 h: free 1, analyst and desk 10 (429 with Retry-After beyond). Every parse is counted before it starts, whatever its end (a result, bad input, a refused upload, noise, an undecodable image, the OCR budget). One parse at a time per caller (a second meanwhile: 429 with Retry-After, not counted). The upload is judged by its first bytes as it arrives: not an image, 400; a header declaring more than 25 megapixels or 10,000 pixels a side, or over 4 MB, 413; the rest of the body is not read. An image that thresholds to noise is a 400 before OCR. OCR runs on a small pool with a bounded line and a 10 s budget per image: pool busy or a parse stopped by the budget, 503 with Retry-After (busy is not counted).',
    errors: [401, 413, 429],
    handle: async ({ event, caller }): Promise<SlipResult & { meter: { used: number; limit: number; windowHours: number } }> => {
      if (!caller.authenticated || !caller.user) {
        throw new AppError('UNAUTHORIZED', 'slip parsing needs a valid API token: send Authorization: Bearer <token>', { challenge: bearerChallenge(caller.presentedToken) });
      }
      // Parses are metered on the wall clock; each leg is graded on its sport's data clock.
      const wall = deps.wallNow();
      const subject = clientKey(event, caller, deps.config);
      const limit = SLIP_PARSES_PER_DAY[caller.tier];
      // Admission costs nothing and counts nothing: one parse per caller, and a place in the OCR
      // line for an image, both taken before a byte of the body is read.
      if (inFlight.has(subject)) {
        throw new AppError('RATE_LIMITED', 'slip parses: one at a time per caller; this one waits for the parse in flight', { retryAfter: ocr.retryAfter() });
      }
      let ticket: OcrTicket | null = isMultipart(event) ? ocr.admit() : null;
      inFlight.add(subject);
      try {
        // Counted before any work, whatever the end: the slot is taken in one exclusive
        // transaction with the count (parallel uploads to any server on the store cannot pass the
        // limit) and never given back, so a failing or hostile upload cannot be sent without end.
        const slot = await reserveMetered(deps.store, subject, SLIP_PARSE_KIND, limit, wall);
        if (!slot.ok) {
          throw new AppError('RATE_LIMITED', `slip parses: ${limit} per rolling 24 hours for the ${caller.tier} tier`, {
            retryAfter: retryAfterFor(slot.oldest, wall),
            details: { used: slot.used, limit },
          });
        }
        const input = await readSlipInput(event, deps.limits.bodyBytes);
        const gradeLeg = gradeLegFor(deps, caller.tier);
        let result: SlipResult;
        if (input.kind === 'image' && ticket) {
          // The whole file's header (GIF frames, TIFF pages further on) before a thread is taken.
          checkImage(input.image!);
          result = await readSlipImage(ticket, input.image!, { book: input.book, gradeLeg });
        } else {
          // The ticket is not needed past the upload: grading text never touches the pool.
          ticket?.release();
          ticket = null;
          result = await readSlipText(input.text!, { book: input.book, gradeLeg });
        }
        return { ...result, meter: { used: slot.used, limit, windowHours: 24 } };
      } finally {
        inFlight.delete(subject);
        ticket?.release();
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
  responses['503'] = {
    description: 'OCR busy (every engine thread reading and the line full; not counted), a parse stopped at its OCR budget (counted), the OCR engine could not start, or the server is shutting down',
    headers: { 'Retry-After': { required: true, description: 'Seconds until an engine thread is sure to be free', schema: { type: 'integer', minimum: 0 } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}
