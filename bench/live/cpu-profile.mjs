/**
 * Preload for profiling a bench server (`--hub-cpu-prof=DIR` in run.ts): Node 20 refuses --cpu-prof in
 * NODE_OPTIONS, so this starts the V8 profiler through the inspector and writes
 * DIR/hub-PID.cpuprofile when the process exits (the server exits on SIGTERM).
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.LIVE_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // The in-process session answers synchronously, so this works inside 'exit'.
    session.post('Profiler.stop', (err, res) => {
      if (!err) fs.writeFileSync(path.join(dir, `hub-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
