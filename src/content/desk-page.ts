import { randomBytes } from 'node:crypto';
import { blocksToHtml, escapeHtml } from './document.js';
import { dayText } from './format.js';
import type { DeskPack, PackTemplate, ReadyTemplate } from './pack.js';
import { recordTableHtml, renderRecordChart, type RecordChartData } from './record-chart.js';
import { TWEET_LIMIT } from './tweets.js';

/**
 * The founder desk page: the day's pack as one self-contained HTML page (no external asset, no
 * inline style attribute, one inline style and one inline script, both allowed by a per-response
 * nonce in a strict Content-Security-Policy). Each tweet shows its weighted count and a copy
 * button; the variants and the data brief sit under each template. Readable at phone width.
 */

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The page's CSP: nothing loads from anywhere; only the nonce'd style and script run. The header
 * carries frame-ancestors too; the copy in a <meta> tag (for the file `propgrade desk --out` writes)
 * leaves it out, as browsers ignore it there.
 */
export function deskCsp(nonce: string, where: 'header' | 'meta' = 'header'): string {
  const directives = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ];
  return directives.filter((d) => where === 'header' || !d.startsWith('frame-ancestors')).join('; ');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#16181d;background:#f4f5f7}
main{max-width:760px;margin:0 auto;padding:12px}
header h1{font-size:1.3rem;margin:8px 0 4px}
.meta{color:#555;font-size:.9rem;margin:0 0 12px}
nav ul{list-style:none;padding:0;margin:0 0 12px;display:flex;flex-wrap:wrap;gap:6px}
nav a{display:inline-block;padding:4px 8px;border-radius:6px;background:#fff;border:1px solid #d4d7dd;color:#16181d;text-decoration:none;font-size:.85rem}
nav a.omitted{color:#8a8f98;text-decoration:line-through}
section.template{background:#fff;border:1px solid #d4d7dd;border-radius:10px;padding:12px 14px;margin:0 0 14px;overflow-wrap:anywhere}
section.template h2{font-size:1.1rem;margin:0 0 4px;letter-spacing:.04em}
.status{font-size:.8rem;font-weight:600;text-transform:uppercase;color:#1d7a45}
.omitted .status{color:#9a5b00}
.reason{color:#5b4a2a;background:#fff7e6;border-radius:6px;padding:8px}
.headline{font-weight:600}
h3{font-size:1rem;margin:14px 0 6px}
ol.thread{padding-left:0;list-style:none;margin:0}
li.tweet{border:1px solid #e0e3e8;border-radius:8px;padding:8px;margin:0 0 8px;background:#fafbfc}
li.tweet p{white-space:pre-wrap;margin:0 0 6px}
.count{font-variant-numeric:tabular-nums;font-size:.85rem;color:#1d7a45}
.count.over{color:#b00020;font-weight:700}
button.copy{font:inherit;font-size:.85rem;padding:6px 12px;min-height:36px;border-radius:6px;border:1px solid #8a93a3;background:#fff;cursor:pointer;margin-left:8px}
button.copy[data-copied="true"]{border-color:#1d7a45;color:#1d7a45}
.copy-status{font-size:.8rem;color:#1d7a45;margin-left:6px}
pre{white-space:pre-wrap;background:#f0f2f5;border-radius:6px;padding:8px;font-size:.85rem;overflow-x:auto}
details{margin:8px 0}
summary{cursor:pointer;font-weight:600}
footer{color:#555;font-size:.85rem;padding:8px 0 24px}
section.record{background:#fff;border:1px solid #d4d7dd;border-radius:10px;padding:12px 14px;margin:0 0 14px}
section.record h2{font-size:1.1rem;margin:0 0 8px;letter-spacing:.04em}
svg.record-chart{display:block;width:100%;max-width:560px;height:auto}
.table-wrap{overflow-x:auto}
table.record-table{border-collapse:collapse;font-size:.8rem;font-variant-numeric:tabular-nums}
table.record-table th,table.record-table td{border:1px solid #d4d7dd;padding:3px 6px;text-align:left;white-space:nowrap}
p.legend{font-size:.8rem;color:#555;margin:4px 0}
`;

/*
 * Copy buttons: the clipboard API where the page may use it, else a selected textarea and
 * execCommand. Either way the button gets data-copied="true" and the status text says what
 * happened, so the result is visible (and testable) without reading the clipboard.
 */
const SCRIPT = `
(function () {
  function mark(button, ok) {
    button.setAttribute('data-copied', ok ? 'true' : 'false');
    var status = button.parentNode.querySelector('.copy-status');
    if (status) status.textContent = ok ? 'Copied' : 'Copy failed: select the text by hand';
  }
  function fallback(text, button) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    mark(button, ok);
  }
  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button.copy') : null;
    if (button === null) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (source === null) return;
    var text = source.textContent;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { mark(button, true); }, function () { fallback(text, button); });
    } else {
      fallback(text, button);
    }
  });
})();
`;

function copyButton(targetId: string, label = 'Copy'): string {
  return `<button type="button" class="copy" data-copy="${targetId}" data-copied="false">${escapeHtml(label)}</button><span class="copy-status" role="status"></span>`;
}

function readySection(t: ReadyTemplate): string {
  const tweets = t.thread
    .map((tw) => {
      const id = `${t.id}-tweet-${tw.n}`;
      const over = tw.weighted > TWEET_LIMIT ? ' over' : '';
      return `<li class="tweet" data-weighted="${tw.weighted}"><p id="${id}">${escapeHtml(tw.text)}</p><span class="count${over}">${tw.weighted}/${TWEET_LIMIT}</span>${copyButton(id)}</li>`;
    })
    .join('\n');
  const threadText = t.thread.map((tw) => tw.text).join('\n\n');
  const longId = `${t.id}-long`;
  return `<section class="template ready" id="${t.id}" data-template="${t.id}" data-status="ready">
<h2>${escapeHtml(t.name)} <span class="status">ready</span></h2>
<p class="headline">${escapeHtml(t.headline)}</p>
<h3>Long copy ${copyButton(longId, 'Copy long copy')}</h3>
<div class="long">${blocksToHtml(t.body, 'h3')}</div>
<pre id="${longId}" hidden>${escapeHtml(t.long)}</pre>
<h3>Thread, ${t.thread.length} ${t.thread.length === 1 ? 'post' : 'posts'} ${copyButton(`${t.id}-thread`, 'Copy thread')}</h3>
<pre id="${t.id}-thread" hidden>${escapeHtml(threadText)}</pre>
<ol class="thread">
${tweets}
</ol>
<details class="variant" data-variant="wire"><summary>Wire-only variant</summary><pre id="${t.id}-wire">${escapeHtml(t.wire.join('\n'))}</pre>${copyButton(`${t.id}-wire`)}</details>
<details class="variant" data-variant="numbers"><summary>Numbers-only variant</summary><pre id="${t.id}-numbers">${escapeHtml(t.numbers.join('\n'))}</pre>${copyButton(`${t.id}-numbers`)}</details>
<details class="brief"><summary>Data brief, ${t.brief.length} figures</summary><pre id="${t.id}-brief">${escapeHtml(JSON.stringify(t.brief.map((f) => ({ key: f.key, label: f.label, display: f.display, value: f.value, n: f.n, source: f.source })), null, 1))}</pre></details>
</section>`;
}

function omittedSection(t: Extract<PackTemplate, { status: 'omitted' }>): string {
  return `<section class="template omitted" id="${t.id}" data-template="${t.id}" data-status="omitted">
<h2>${escapeHtml(t.name)} <span class="status">omitted</span></h2>
<p class="reason">${escapeHtml(t.reason)}</p>
</section>`;
}

/**
 * The 30-day record drawn (record-chart.ts), its figures as a table under a disclosure for
 * whoever needs the numbers to copy; or why there is no picture yet.
 */
function recordSection(record: RecordChartData): string {
  const chart = renderRecordChart(record, 'record-chart');
  const body =
    chart === null
      ? `<p class="reason">No settled public entry and no captured close in ${escapeHtml(record.window.from)} to ${escapeHtml(record.window.to)}: nothing to draw yet.</p>`
      : `${chart}\n<details class="record-table"><summary>The same figures as a table</summary><div class="table-wrap">${recordTableHtml(record)}</div></details>`;
  return `<section class="record" id="record" aria-labelledby="record-heading">
<h2 id="record-heading">The record as a picture</h2>
${body}
</section>`;
}

/**
 * The whole page for a pack. `nonce` must be the one in the response's CSP header; `record` is the
 * same 30-day window the RECEIPTS template is written from (record-chart.ts recordChartData).
 */
export function renderDeskPage(pack: DeskPack, nonce: string, record: RecordChartData): string {
  const nav = pack.templates.map((t) => `<li><a href="#${t.id}" class="${t.status}">${escapeHtml(t.name)}</a></li>`).join('');
  const sources = pack.sources.snapshots.map((s) => `${s.sport} snapshot ${s.snapshotId} (${s.takenAt})`).join(', ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(deskCsp(nonce, 'meta'))}">
<meta name="robots" content="noindex, nofollow">
<title>propgrade desk, ${escapeHtml(pack.date)}</title>
<style nonce="${nonce}">${STYLE}.offscreen{position:fixed;left:-9999px;top:0}</style>
</head>
<body>
<main>
<header>
<h1>Desk pack, ${escapeHtml(dayText(pack.date))}</h1>
<p class="meta" data-ready="${pack.ready}" data-total="${pack.templates.length}">${pack.ready} of ${pack.templates.length} templates ready. Built ${escapeHtml(pack.generatedAt)} from ${escapeHtml(sources || 'no snapshot of the day')}${pack.sources.settleDate ? `; settle of ${escapeHtml(pack.sources.settleDate)}` : ''}; record ${escapeHtml(pack.sources.window.from)} to ${escapeHtml(pack.sources.window.to)}.</p>
<nav><ul>${nav}<li><a href="#record">Record chart</a></li></ul></nav>
</header>
${recordSection(record)}
${pack.templates.map((t) => (t.status === 'ready' ? readySection(t) : omittedSection(t))).join('\n')}
<footer>Every figure comes from the stored snapshots and ledger; each template's data brief lists them with their source rows. Counts are weighted as X counts them (twitter-text).</footer>
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;
}
