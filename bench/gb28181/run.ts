/**
 * gb28181 benchmark (`npm run bench -- gb28181`). For now the PS demux figure (bench/gb28181/ps.ts);
 * the SIP figures (REGISTER/keepalive per CPU-second, p99 with 2,000 devices, 10,000-item catalog)
 * are to be added beside it.
 */
import { writeFigures } from '../lib/figures';
import { runBench } from '../lib/server';
import { measurePsDemux } from './ps';

await runBench('gb28181', async () => {
  const ps = await measurePsDemux();
  console.log(`[gb28181] PS demux: ${ps.detail}`);
  writeFigures('gb28181', ps.figures);
  return 0;
});
