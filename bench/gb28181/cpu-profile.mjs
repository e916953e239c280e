/**
 * Preloaded into the server when GB_BENCH_PROF=DIR (NODE_OPTIONS=--import, where --cpu-prof is not
 * allowed): samples the process's CPU with the inspector from start to exit and writes
 * DIR/server-PID.cpuprofile (open it in Chrome DevTools or speedscope).
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.GB_BENCH_PROF;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  // The in-thread session answers synchronously, so this works inside an 'exit' handler.
  process.on('exit', () => {
    session.post('Profiler.stop', (err, res) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
