/**
 * Why a provider read failed, in words a public answer may carry (issue 33): never an upstream
 * URL, host name, resolver or socket error text, nor a server file path. The full text goes to the
 * log; an HTTP body or a CLI result carries what `publicReason` makes of it.
 */

/** Classifies a transport's or adapter's failure text into one public phrase. */
export function publicReason(internal: string): string {
  return classifyFailure(internal) ?? 'the provider read failed';
}

/** The public phrase of a failure text, or null when it is none of the known kinds. */
export function classifyFailure(internal: string): string | null {
  const text = internal.toLowerCase();
  const after = /only recordings after (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/.exec(internal);
  if (text.includes('not recorded')) return after ? `not recorded yet (only recordings after ${after[1]})` : 'not recorded in the replay folder';
  const recorded = /recorded http (\d{3})/.exec(text);
  if (recorded) return `the recording holds an HTTP ${recorded[1]} answer`;
  if (text.includes('replay') && /manifest|folder|file|entry/.test(text)) return 'the replay folder could not be read';
  // The credit guard's own sentence (odds-api/credits.ts) names counts, never a host.
  const budget = /(?:daily credit budget|provider credit quota) reached: [\w ,]+/.exec(internal);
  if (budget) return budget[0].trim();
  if (/timed? ?out|timeout|aborterror/.test(text)) return 'the provider did not answer in time';
  if (/enotfound|eai_again|getaddrinfo|econnrefused|econnreset|ehostunreach|enetunreach|socket|network|fetch failed|und_err|tls|certificate/.test(text)) return 'the provider could not be reached';
  const http = /\bhttp (\d{3})\b/.exec(text);
  if (http) return `the provider answered HTTP ${http[1]}`;
  if (/not json|unknown shape|unreadable|content-encoding/.test(text)) return 'the provider’s answer could not be read';
  if (/no priced selection/.test(text)) return 'no priced selection in the answer';
  return null;
}

const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'")]+/gi;
const HOST_RE = /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|net|org|io|dev|app|co|us|uk|local|internal|localhost)\b/gi;
const IP_RE = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const RESOLVER_RE = /\b(?:getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|UND_ERR_[A-Z_]+)\b/g;
// An absolute path of two or more segments (/srv/x/manifest.json, C:\x\y): never a ratio like 3/4.
const PATH_RE = /(?:[A-Za-z]:\\|(?<![\w.])\/)(?:[\w.@+-]+[/\\])+[\w.@+-]*/g;

/**
 * The last guard before a body leaves the server: anything left in a reason or note that looks
 * like a URL, host, address, resolver code or file path is replaced. The reads build public
 * reasons already (publicReason); this catches a text a future change forgets to classify.
 */
export function scrubPublic(text: string): string {
  if (!/[/\\:.]|E[A-Z]{3,}|UND_ERR/.test(text)) return text;
  return text.replace(URL_RE, '(upstream)').replace(RESOLVER_RE, '(network error)').replace(IP_RE, '(address)').replace(HOST_RE, '(upstream)').replace(PATH_RE, '(path)');
}

/** Keys whose string values are explanations (reason, stale_reason, notes): scrubbed, every other value left alone. */
const EXPLAINS = /reason|note|why|message/i;

/** A copy of a read's answer with every explanation string scrubbed (scrubPublic). */
export function scrubAnswer<T>(value: T): T {
  return walk(value, false) as T;
}

function walk(value: unknown, explains: boolean): unknown {
  if (typeof value === 'string') return explains ? scrubPublic(value) : value;
  if (Array.isArray(value)) return value.map((v) => walk(v, explains));
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = walk(v, EXPLAINS.test(k));
  return out;
}
