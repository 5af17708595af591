// The bench's plots, as SVG text written here (no dependencies): cold vs warm per corpus (log
// scale) and the broker hop's latency distribution (CDF, direct vs broker, one panel per method).
// `node test/bench/plots.mjs` redraws docs/plots/*.svg from docs/plots/bench-data.json;
// `node test/bench/plots.mjs --self-check` renders synthetic figures and checks the SVG.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PLOTS_DIR = fileURLToPath(new URL('../../docs/plots', import.meta.url));
export const DATA_FILE = join(PLOTS_DIR, 'bench-data.json');

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';
const COLORS = { cold: '#d9622b', warm: '#2b7bd9', server: '#8a8a8a', direct: '#2b7bd9', broker: '#d9622b' };

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (x) => Math.round(x * 10) / 10;

/** A duration for labels: "850 ms", "1.8 s", "0.42 ms". */
export function formatMs(ms) {
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(ms >= 1 ? 1 : 2)} ms`;
}

/** A log10 scale from [lo, hi] (ms) onto [x0, x1] pixels. */
function logScale(lo, hi, x0, x1) {
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  return (v) => x0 + ((Math.log10(Math.min(hi, Math.max(lo, v))) - a) / (b - a)) * (x1 - x0);
}

/** Tick values 1, 2, 5 × 10^k inside [lo, hi] (fewer when the range is wide, so labels do not collide). */
function logTicks(lo, hi) {
  const ticks = [];
  const decades = Math.log10(hi / lo);
  const steps = decades <= 2 ? [1, 2, 5] : decades <= 3.5 ? [1, 3] : [1];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const f of steps) {
      const v = f * 10 ** k;
      if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v);
    }
  }
  return ticks;
}

function svg(width, height, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">
<rect width="${width}" height="${height}" fill="#ffffff"/>
${body.join('\n')}
</svg>
`;
}

function legend(x, y, items) {
  let lx = x;
  return items.map(([label, color, dash]) => {
    const at = lx;
    lx += 22 + label.length * 6.4 + 24; // ~6.4 px per character at 12 px
    return legendItem(at, y, label, color, dash);
  });
}

/** A filled square (bars) or, with `dash` given, a line (curves), then the label. */
function legendItem(lx, y, label, color, dash) {
  const mark = dash === undefined
    ? `<rect x="${lx}" y="${y - 9}" width="12" height="10" fill="${color}"/>`
    : `<line x1="${lx}" y1="${y - 4}" x2="${lx + 18}" y2="${y - 4}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
  return `${mark}<text x="${lx + 22}" y="${y}">${esc(label)}</text>`;
}

/** A tick's label: "0.2 ms", "300 ms", "3 s". */
const tickLabel = (v) => (v >= 1000 ? `${+(v / 1000).toPrecision(3)} s` : `${+v.toPrecision(3)} ms`);

/** The largest 1, 2 or 5 × 10^k at most `v`. */
function floor125(v) {
  const p = 10 ** Math.floor(Math.log10(v));
  return [5, 2, 1].map((f) => f * p).find((c) => c <= v) ?? p;
}

/**
 * Cold vs warm per corpus, horizontal bars on one log axis (milliseconds).
 * rows: [{ label, files, run?, coldMs, warmMs, serverMs? }] (`run`: when and under what load)
 */
export function coldWarmSvg(rows) {
  const width = 820;
  const left = 290;
  const right = width - 70;
  const top = 62;
  const bar = 13;
  const hasServer = rows.some((r) => r.serverMs !== undefined);
  const group = bar * (hasServer ? 3 : 2) + 18;
  const height = top + rows.length * group + 40;
  const values = rows.flatMap((r) => [r.coldMs, r.warmMs, r.serverMs].filter((v) => v !== undefined && v > 0));
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const x = logScale(lo, hi, left, right);
  const body = [
    `<text x="16" y="22" font-size="15" font-weight="600">Time to the first complete find_references answer: cold vs warm (log scale)</text>`,
    ...legend(16, 44, [['cold (fresh front, new broker)', COLORS.cold], ['warm (fresh front, warm broker)', COLORS.warm], ...(hasServer ? [['server alone, warm', COLORS.server]] : [])]),
  ];
  for (const t of logTicks(lo, hi)) {
    const tx = r1(x(t));
    body.push(`<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${height - 34}" stroke="#e3e3e3"/>`);
    body.push(`<text x="${tx}" y="${height - 20}" text-anchor="middle" fill="#555">${esc(tickLabel(t))}</text>`);
  }
  rows.forEach((r, i) => {
    const y0 = top + i * group;
    body.push(`<text x="${left - 8}" y="${y0 + bar}" text-anchor="end" font-weight="600">${esc(r.label)}</text>`);
    body.push(`<text x="${left - 8}" y="${y0 + 2 * bar + 2}" text-anchor="end" fill="#555">${esc(`${r.files} files${r.run ? ` · ${r.run}` : ''}`)}</text>`);
    const bars = [['cold', r.coldMs], ['warm', r.warmMs], ...(hasServer ? [['server', r.serverMs]] : [])];
    bars.forEach(([kind, v], j) => {
      if (v === undefined) return;
      const y = y0 + j * bar;
      const w = Math.max(1, r1(x(v) - left));
      body.push(`<rect x="${left}" y="${y}" width="${w}" height="${bar - 2}" fill="${COLORS[kind]}"/>`);
      body.push(`<text x="${r1(left + w + 4)}" y="${y + bar - 3}" font-size="11">${esc(formatMs(v))}</text>`);
    });
  });
  body.push(`<line x1="${left}" y1="${top - 6}" x2="${left}" y2="${height - 34}" stroke="#333"/>`);
  return svg(width, height, body);
}

function cdfPath(sorted, x, y, hi) {
  const pts = [];
  const n = sorted.length;
  for (let i = 0; i < n; i++) {
    if (sorted[i] > hi) break;
    const px = r1(x(sorted[i]));
    pts.push(`${px},${r1(y(i / n))}`, `${px},${r1(y((i + 1) / n))}`);
  }
  return `M${pts.join(' L')}`;
}

const median = (sorted) => sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)];
const p99 = (sorted) => sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)];

/**
 * The broker hop: the CDF of each method's latencies, direct stdio vs through the broker.
 * samples: { [method]: { direct: number[], broker: number[] } } in ms; `run`: when and under what load.
 */
export function hopLatencySvg(samples, run) {
  const methods = Object.keys(samples);
  const panelW = 400;
  const width = Math.max(1, methods.length) * panelW + 20;
  const height = 344;
  const top = 84;
  const bottom = height - 48;
  const sorted = Object.fromEntries(methods.map((m) => [m, { direct: [...samples[m].direct].sort((a, b) => a - b), broker: [...samples[m].broker].sort((a, b) => a - b) }]));
  const p1 = (s) => s[Math.floor(s.length * 0.01)];
  const lo = floor125(Math.max(1e-3, Math.min(...methods.flatMap((m) => [p1(sorted[m].direct), p1(sorted[m].broker)]))));
  const hi = Math.max(...methods.flatMap((m) => [p99(sorted[m].direct), p99(sorted[m].broker)]));
  const body = [
    `<text x="16" y="22" font-size="15" font-weight="600">The broker hop: latency of one warm request, direct stdio vs through the broker (CDF)</text>`,
    ...legend(60, 46, [['direct (stdio)', COLORS.direct, ''], ['through the broker', COLORS.broker, '']]),
    `<text x="${width - 16}" y="46" text-anchor="end" fill="#555">${esc(`${run ? `${run}; ` : ''}log scale, from the fastest p1 to the slowest p99`)}</text>`,
  ];
  methods.forEach((method, k) => {
    const x0 = 20 + k * panelW + 44;
    const x1 = 20 + (k + 1) * panelW - 16;
    const x = logScale(lo, hi, x0, x1);
    const y = (f) => bottom - f * (bottom - top);
    body.push(`<text x="${x0}" y="${top - 8}" font-weight="600">${esc(method)}</text>`);
    for (const f of [0, 0.25, 0.5, 0.75, 1]) {
      body.push(`<line x1="${x0}" y1="${r1(y(f))}" x2="${x1}" y2="${r1(y(f))}" stroke="${f === 0.5 ? '#bbb' : '#eee'}"/>`);
      body.push(`<text x="${x0 - 6}" y="${r1(y(f) + 4)}" text-anchor="end" fill="#555">${f}</text>`);
    }
    for (const t of logTicks(lo, hi)) {
      body.push(`<line x1="${r1(x(t))}" y1="${top}" x2="${r1(x(t))}" y2="${bottom}" stroke="#eee"/>`);
      body.push(`<text x="${r1(x(t))}" y="${bottom + 16}" text-anchor="middle" fill="#555">${esc(tickLabel(t))}</text>`);
    }
    body.push(`<rect x="${x0}" y="${top}" width="${r1(x1 - x0)}" height="${r1(bottom - top)}" fill="none" stroke="#333"/>`);
    for (const kind of ['direct', 'broker']) {
      const s = sorted[method][kind];
      if (s.length === 0) continue;
      body.push(`<path d="${cdfPath(s, x, y, hi)}" fill="none" stroke="${COLORS[kind]}" stroke-width="2"/>`);
    }
    const d = median(sorted[method].direct);
    const b = median(sorted[method].broker);
    body.push(`<text x="${x0}" y="${bottom + 34}" fill="#333">${esc(`p50 direct ${formatMs(d)}, broker ${formatMs(b)} (${b >= d ? '+' : '−'}${formatMs(Math.abs(b - d))}); n = ${sorted[method].broker.length}`)}</text>`);
  });
  return svg(width, height, body);
}

/** Both plots from the bench's recorded figures (docs/plots/bench-data.json's shape). */
export function renderPlots(data) {
  const out = {};
  const rows = [...(data.coldWarm ?? []), ...(data.large ?? [])];
  if (rows.length) out['cold-warm.svg'] = coldWarmSvg(rows);
  if (data.hop && Object.keys(data.hop).length) out['hop-latency.svg'] = hopLatencySvg(data.hop, data.hopRun);
  return out;
}

export function readBenchData() {
  return existsSync(DATA_FILE) ? JSON.parse(readFileSync(DATA_FILE, 'utf8')) : {};
}

/** Merges `patch` into docs/plots/bench-data.json and redraws the plots; returns the files written. */
export function updateBenchData(patch) {
  const data = { ...readBenchData(), ...patch };
  mkdirSync(PLOTS_DIR, { recursive: true });
  // one line per array of numbers (the latency samples), so the file stays short
  const json = JSON.stringify(data, null, 1).replace(/\[[-\d.,\s]+\]/g, (a) => a.replace(/\s+/g, ''));
  writeFileSync(DATA_FILE, `${json}\n`);
  const written = [];
  for (const [name, text] of Object.entries(renderPlots(data))) {
    writeFileSync(join(PLOTS_DIR, name), text);
    written.push(join('docs', 'plots', name));
  }
  return written;
}

/** Latency samples rounded to 0.01 ms, for the data file. */
export function roundSamples(samples) {
  const round = (xs) => xs.map((v) => Math.round(v * 100) / 100);
  return Object.fromEntries(Object.entries(samples).map(([m, s]) => [m, { direct: round(s.direct), broker: round(s.broker) }]));
}

/** Throws unless `text` is one well-formed <svg> element with finite numbers only. */
export function checkSvg(text) {
  if (!text.startsWith('<svg ') || !text.trimEnd().endsWith('</svg>')) throw new Error('not an <svg> document');
  if (/NaN|undefined|Infinity|null/.test(text)) throw new Error(`a value did not render: ${/.{0,40}(NaN|undefined|Infinity|null).{0,40}/.exec(text)[0]}`);
  const stack = [];
  const content = text.replace(/<text[^>]*>[^<]*<\/text>/g, '<text/>');
  for (const [, close, name, selfClosing] of content.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (selfClosing) continue;
    if (!close) stack.push(name);
    else if (stack.pop() !== name) throw new Error(`unbalanced </${name}>`);
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (/[&](?!amp;|lt;|gt;|quot;)/.test(text)) throw new Error('unescaped &');
}

function selfCheck() {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const lognormal = (median, n) => Array.from({ length: n }, () => median * Math.exp(0.5 * Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random())));
  const data = {
    coldWarm: [
      { label: 'Python stdlib', files: 1611, coldMs: 21_600, warmMs: 1837, serverMs: 1215 },
      { label: 'effect src/ <TS> & co', files: 361, coldMs: 5140, warmMs: 663, serverMs: 103 },
    ],
    large: [{ label: 'Python 3× stdlib', files: 5054, coldMs: 80_000, warmMs: 4000 }],
    hop: { 'textDocument/hover': { direct: lognormal(1.1, 200), broker: lognormal(1.9, 200) }, 'textDocument/definition': { direct: lognormal(0.6, 200), broker: lognormal(1.0, 200) } },
  };
  const plots = renderPlots(data);
  for (const name of ['cold-warm.svg', 'hop-latency.svg']) {
    if (!plots[name]) throw new Error(`${name} was not rendered`);
    checkSvg(plots[name]);
  }
  const bars = plots['cold-warm.svg'].match(/<rect x="\d/g)?.length ?? 0;
  if (bars !== 2 * 3 + 2 + 3) throw new Error(`cold-warm.svg: ${bars} bars and legend marks, expected 11`);
  const curves = plots['hop-latency.svg'].match(/<path /g)?.length ?? 0;
  if (curves !== 4) throw new Error(`hop-latency.svg: ${curves} curves, expected 4`);
  if (!plots['cold-warm.svg'].includes('&lt;TS&gt; &amp; co')) throw new Error('labels are not escaped');
  checkSvg(hopLatencySvg({ only: { direct: [0.5], broker: [0.7] } }));
  process.stdout.write(`plots self-check ok: cold-warm.svg ${plots['cold-warm.svg'].length} B, hop-latency.svg ${plots['hop-latency.svg'].length} B\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--self-check')) selfCheck();
  else for (const f of updateBenchData({})) process.stdout.write(`${f}\n`);
}
