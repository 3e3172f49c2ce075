// Measures the match page in real Chromium over the DevTools protocol: time until the board
// shows the server's position (`#board[data-v]`), DOMContentLoaded, and the bytes fetched,
// cold (fresh browser context) and warm (reload). Run by hand, against a running server:
//   node --experimental-websocket web/bench/load-time.mjs http://127.0.0.1:7878 /m/{id} [runs]
// Figures for BENCHMARKS.md; not a test (speed is never asserted).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [base, path, runs = '5'] = process.argv.slice(2);
const PORT = 9400 + Math.floor(Math.random() * 500);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const profile = mkdtempSync(join(tmpdir(), 'bc-load-time-'));
const chromium = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--no-first-run', `--remote-debugging-port=${PORT}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });

let info;
for (let i = 0; i < 100 && !info; i++) {
  try { info = await (await fetch(`http://127.0.0.1:${PORT}/json/version`)).json(); } catch { await sleep(100); }
}
const ws = new WebSocket(info.webSocketDebuggerUrl);
await new Promise((r) => { ws.onopen = r; });
let next = 0;
const waiting = new Map();
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); }
};
const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
  const id = ++next;
  waiting.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
  ws.send(JSON.stringify({ id, method, params, sessionId }));
});
const evaluate = async (session, expression) =>
  (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, session)).result.value;

const READY = `new Promise((r) => { const t = () => document.querySelector('#board[data-v]') ? r(performance.now()) : requestAnimationFrame(t); t(); })`;
const STATS = `(() => { const n = performance.getEntriesByType('navigation')[0];
  const all = [n, ...performance.getEntriesByType('resource')];
  return { dcl: n.domContentLoadedEventEnd, files: all.length,
    bytes: all.reduce((s, r) => s + r.decodedBodySize, 0), wire: all.reduce((s, r) => s + r.transferSize, 0) }; })()`;

const rows = [];
try {
  for (let i = 0; i < Number(runs); i++) {
    const { browserContextId } = await send('Target.createBrowserContext');
    const { targetId } = await send('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    for (const kind of ['cold', 'warm']) {
      if (kind === 'cold') await send('Page.navigate', { url: base + path }, sessionId);
      else await send('Page.reload', {}, sessionId);
      await sleep(50);
      const ready = await evaluate(sessionId, READY);
      await sleep(300);
      rows.push({ kind, ready: Math.round(ready), ...(await evaluate(sessionId, STATS)) });
    }
    await send('Target.disposeBrowserContext', { browserContextId });
  }
} finally {
  chromium.kill();
  await sleep(300);
  rmSync(profile, { recursive: true, force: true });
}
for (const kind of ['cold', 'warm']) {
  const r = rows.filter((x) => x.kind === kind);
  const ready = r.map((x) => x.ready).sort((a, b) => a - b);
  console.log(`${kind}: board ready ms ${ready.join(' ')} (median ${ready[Math.floor(ready.length / 2)]}), `
    + `DOMContentLoaded median ${Math.round(r.map((x) => x.dcl).sort((a, b) => a - b)[Math.floor(r.length / 2)])} ms, `
    + `${r[0].files} files, ${r[0].bytes} bytes decoded, ${r[0].wire} bytes on the wire`);
}
