import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError, badInput } from '../../errors.js';
import { judgeFirstBytes, UPLOAD_CAP_BYTES } from '../../slips/image.js';

/**
 * A slip upload read as it streams in (issue 40): the image part's first bytes are judged as they
 * arrive (its kind by the magic bytes, the size its header declares), so a file that is not an
 * image, or whose header breaks the pixel budget, is refused before the rest of the body is read
 * or parsed. The rest is drained unparsed. busboy parses the multipart framing incrementally; h3's
 * readMultipartFormData parsed a whole 4 MB body on the event loop first (218-413 ms of CPU).
 */

/** Room for the multipart boundaries, part headers and the `book` field around a capped image. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const MULTIPART_BODY_CAP_BYTES = UPLOAD_CAP_BYTES + MULTIPART_OVERHEAD_BYTES;

/** Judged again on each chunk up to this many bytes: a JPEG's frame header may follow its EXIF and ICC segments. */
const JUDGED_BYTES = 64 * 1024;

export interface SlipUpload {
  /** The `image` part, or null when the form had none. */
  image: Buffer | null;
  fields: Record<string, string>;
  /** Body bytes read off the socket before the answer was decided. */
  bytesRead: number;
}

const tooLarge = () =>
  new AppError('TOO_LARGE', `upload exceeds ${MULTIPART_BODY_CAP_BYTES} bytes (the image cap is 4 MB)`, { details: { limit: MULTIPART_BODY_CAP_BYTES, imageCap: UPLOAD_CAP_BYTES } });

/** Reads a multipart slip upload off `req`; the request must not have been read yet. */
export function readSlipUpload(req: IncomingMessage): Promise<SlipUpload> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > MULTIPART_BODY_CAP_BYTES) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { fileSize: UPLOAD_CAP_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 256, headerPairs: 16 } });
  } catch {
    req.resume();
    return Promise.reject(badInput('invalid form: a multipart body with a boundary and an `image` file field is expected'));
  }
  return new Promise<SlipUpload>((resolve, reject) => {
    let bytesRead = 0;
    let done = false;
    const chunks: Buffer[] = [];
    let imageBytes = 0;
    let sawImage = false;
    const fields: Record<string, string> = {};

    const count = (chunk: Buffer) => {
      bytesRead += chunk.length;
      if (bytesRead > MULTIPART_BODY_CAP_BYTES) fail(tooLarge());
    };
    /** Stops parsing and lets the rest of the body drain unread, so the connection can carry the answer. */
    const fail = (error: AppError) => {
      if (done) return;
      done = true;
      req.unpipe(parser);
      req.off('data', count);
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      req.resume();
      reject(error);
    };

    parser.on('file', (name, stream) => {
      if (name !== 'image' || sawImage) {
        stream.resume();
        fail(badInput(`invalid form: ${name}: unexpected file field (send one slip screenshot as \`image\`)`));
        return;
      }
      sawImage = true;
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        chunks.push(chunk);
        imageBytes += chunk.length;
        if (imageBytes - chunk.length < JUDGED_BYTES) {
          try {
            judgeFirstBytes(chunks.length === 1 ? chunk : Buffer.concat(chunks));
          } catch (error) {
            fail(error as AppError);
          }
        }
      });
      stream.on('limit', () => fail(new AppError('TOO_LARGE', 'image is over 4 MB; the upload cap is 4 MB')));
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(badInput(`invalid form: ${name}: longer than 256 bytes`));
      else fields[name] = value;
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(badInput('invalid form: one `image` file and a `book` field are expected')));
    }
    parser.on('error', (error: Error) => fail(badInput(`invalid form: ${error.message}`)));
    parser.on('close', () => {
      if (done) return;
      done = true;
      req.off('data', count);
      resolve({ image: sawImage ? Buffer.concat(chunks) : null, fields, bytesRead });
    });
    req.on('data', count);
    req.on('error', (error) => fail(badInput(`the upload broke off: ${error.message}`)));
    req.pipe(parser);
  });
}
