/**
 * Where a server's CPU went in one window of a V8 CPU profile against another, per function (self
 * time, ms per 10 s of each window), largest increase first:
 *
 *   node bench/live/cpu-profile-diff.mjs FILE.cpuprofile A_FROM A_TO B_FROM B_TO [TOP]
 *
 * Windows are seconds from the profile's start. The profile comes from cpu-profile.mjs, which any
 * bench server loads with NODE_OPTIONS="--import $PWD/bench/live/cpu-profile.mjs" LIVE_CPU_PROF_DIR=DIR
 * (for instance the recording bench's live-only and recording windows; its log gives the server's
 * start, so a window's time in the profile is its time in the log minus that).
 */
import fs from 'node:fs';

const [file, a0, a1, b0, b1, top = '40'] = process.argv.slice(2);
if (!file || b1 === undefined) {
  console.error('usage: cpu-profile-diff.mjs FILE A_FROM A_TO B_FROM B_TO [TOP]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
const windows = [
  { from: Number(a0), to: Number(a1), ms: new Map() },
  { from: Number(b0), to: Number(b1), ms: new Map() },
];
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  const s = (t - profile.startTime) / 1e6;
  // A sample stands for the time until the next one.
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const key = label(nodes.get(profile.samples[i]));
  for (const w of windows) if (s >= w.from && s < w.to) w.ms.set(key, (w.ms.get(key) ?? 0) + ms);
}
const per10s = (w, key) => ((w.ms.get(key) ?? 0) * 10) / (w.to - w.from);
const keys = [...new Set([...windows[0].ms.keys(), ...windows[1].ms.keys()])].filter((k) => !k.startsWith('(idle)'));
const rows = keys.map((k) => ({ k, a: per10s(windows[0], k), b: per10s(windows[1], k) })).sort((x, y) => y.b - y.a - (x.b - x.a));
const busy = (i) => keys.reduce((n, k) => n + per10s(windows[i], k), 0);
console.log(`busy ms per 10 s: A ${busy(0).toFixed(0)}, B ${busy(1).toFixed(0)}, B - A ${(busy(1) - busy(0)).toFixed(0)}`);
console.log('  B - A       A       B  function');
for (const r of rows.slice(0, Number(top))) console.log(`${(r.b - r.a).toFixed(1).padStart(7)} ${r.a.toFixed(1).padStart(7)} ${r.b.toFixed(1).padStart(7)}  ${r.k}`);
