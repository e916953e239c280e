/**
 * `npm run build -w @opencvr/web` (`node build/build.mjs [folder]`, dist/ by default): `vite build`
 * into a folder of its own beside the target (.tmp/, same disk), then put in place of the target by
 * two renames once it is complete.
 *
 * vite empties its outDir first and writes the new build file by file, so for the 10-40 s of a build
 * a server serving dist/ (the e2e servers of a run in the same checkout, a console upgraded in place)
 * answered 404 for index.html and for the previous build's chunks. Session 26's e2e run failed twice
 * so, both while another build of the checkout ran: foundation's bell (NewsModal-*.js 404 on its
 * first click) and gb28181's tree (/video/square/0 404, no console). Now the target holds the
 * previous build, whole, until the new one is: only the instant between the renames has none.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.resolve(process.argv[2] ?? path.join(webRoot, 'dist'));
const work = path.join(path.dirname(target), '.tmp');
const next = path.join(work, `${path.basename(target)}-next-${process.pid}`);
const old = path.join(work, `${path.basename(target)}-old-${process.pid}`);

const code = (err) => /** @type {NodeJS.ErrnoException} */ (err).code ?? '';

fs.mkdirSync(work, { recursive: true });
try {
  await build({ root: webRoot, build: { outDir: next, emptyOutDir: true } });
  if (!fs.existsSync(path.join(next, 'index.html'))) throw new Error(`vite wrote no index.html to ${next}`);
  // Another build may put its folder in place between our two renames: then ours is refused (the
  // name is taken), and that one is moved aside in turn; the last to finish stays.
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(target, old);
    } catch (err) {
      if (code(err) !== 'ENOENT') throw err;
    }
    try {
      fs.renameSync(next, target);
      break;
    } catch (err) {
      if (attempt >= 5 || !['ENOTEMPTY', 'EEXIST'].includes(code(err))) throw err;
      fs.rmSync(old, { recursive: true, force: true });
    }
  }
} finally {
  fs.rmSync(old, { recursive: true, force: true });
  fs.rmSync(next, { recursive: true, force: true });
}
