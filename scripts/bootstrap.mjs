#!/usr/bin/env node
/**
 * Installs what is missing on a fresh Debian machine: Debian packages (apt) and npm dependencies.
 * Plain Node, no npm dependencies: it runs before node_modules exists.
 *
 *   node scripts/bootstrap.mjs [start|test]      # default: start
 *
 * Also importable: ensureDebian(pkgs), ensureNpm(), bootstrap(set), freePort(), ROOT.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Debian packages each entry point needs. */
export const PACKAGE_SETS = {
  start: ['ffmpeg'],
  test: [
    'ffmpeg', 'chromium', 'postgresql', 'fonts-noto-cjk', 'sip-tester',
    // A real RTSP camera for the protocol tests: GStreamer's RTSP server driven from /usr/bin/python3.
    'python3-gi', 'gir1.2-gst-rtsp-server-1.0', 'gstreamer1.0-plugins-base', 'gstreamer1.0-plugins-good',
    'gstreamer1.0-plugins-bad', 'gstreamer1.0-plugins-ugly', 'gstreamer1.0-libav',
    // A real relaying RTMP server for the native RTMP pull's tests (run as the test's own process, never the service).
    'nginx-light', 'libnginx-mod-rtmp',
  ],
};

/**
 * Debian services that come with packages of the sets and are never used: the tests start their own
 * PostgreSQL (scripts/pg.mjs) and nginx (test/fixtures/nginx-rtmp.ts) in temp folders on free ports.
 * Installed by us, they are neither started (apt would start nginx on port 80 of every interface, and
 * a start that fails, e.g. port 80 taken in some ways or no init system, fails the whole install) nor
 * enabled at boot.
 */
const UNUSED_SERVICES = { 'nginx-light': 'nginx', postgresql: 'postgresql' };
const POLICY_RC_D = '/usr/sbin/policy-rc.d';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export function log(msg) {
  console.log(`[bootstrap] ${msg}`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd} failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** True when dpkg reports the package as installed. */
export function isDebianInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  if (r.error) return false;
  return r.status === 0 && /\binstall ok installed\b/.test(r.stdout);
}

/** Names of packages from `pkgs` that are not installed. */
export function missingDebian(pkgs) {
  return pkgs.filter((p) => !isDebianInstalled(p));
}

/**
 * Installs the missing Debian packages with apt-get (update once, then install), as root or
 * through sudo. Throws with a message naming the packages when that is not possible.
 */
export function ensureDebian(pkgs) {
  if (!hasCommand('dpkg-query')) {
    log(`dpkg-query not found (not Debian?): make sure these are installed: ${pkgs.join(' ')}`);
    return [];
  }
  const missing = missingDebian(pkgs);
  if (missing.length === 0) return [];
  let prefix = [];
  if (!isRoot) {
    const sudoOk = hasCommand('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
    if (!sudoOk) {
      throw new Error(
        `missing Debian packages: ${missing.join(' ')}\n` +
          `  run as root: apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`,
      );
    }
    prefix = ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'];
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const exec = (args) =>
    prefix.length ? run(prefix[0], [...prefix.slice(1), ...args], { env }) : run(args[0], args.slice(1), { env });
  log(`installing Debian packages: ${missing.join(' ')} (apt-get update first; this can take a few minutes)`);
  const t0 = Date.now();
  exec(['apt-get', 'update']);
  const services = missing.map((p) => UNUSED_SERVICES[p]).filter(Boolean);
  // policy-rc.d answering 101 is Debian's way to say "start no service" to invoke-rc.d and
  // deb-systemd-invoke while packages install; a machine's own policy file is left as it is.
  const ownPolicy = services.length > 0 && !fs.existsSync(POLICY_RC_D);
  if (ownPolicy) exec(['sh', '-c', `printf '#!/bin/sh\\nexit 101\\n' > ${POLICY_RC_D} && chmod 755 ${POLICY_RC_D}`]);
  try {
    exec(['apt-get', 'install', '-y', '--no-install-recommends', ...missing]);
  } finally {
    if (ownPolicy) exec(['rm', '-f', POLICY_RC_D]);
  }
  for (const service of services) {
    const off = fs.existsSync('/run/systemd/system') ? ['systemctl', 'disable', '--quiet', service] : ['update-rc.d', service, 'disable'];
    try {
      exec(off);
    } catch (err) {
      log(`could not disable the ${service} service at boot (${err.message}); the tests do not use it`);
    }
  }
  const still = missingDebian(missing);
  if (still.length) throw new Error(`apt-get did not install: ${still.join(' ')}`);
  log(`Debian packages installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return missing;
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** True when node_modules is missing or older than package-lock.json. */
export function npmNeedsInstall(root = ROOT) {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(marker)) return true;
  const lock = mtime(path.join(root, 'package-lock.json'));
  return lock > mtime(marker);
}

/** Runs `npm ci` when node_modules is missing or stale. */
export function ensureNpm(root = ROOT) {
  if (!npmNeedsInstall(root)) return false;
  log('installing npm dependencies with `npm ci` (may take ~2 min: better-sqlite3 compiles from source)');
  const t0 = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // better-sqlite3 builds against the machine's Node headers; its prebuilt download cannot be reached.
  const env = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir || '/usr' };
  // npm ci skips devDependencies when NODE_ENV=production; the build and tests need them.
  run(npm, ['ci', '--include=dev', '--no-audit', '--no-fund'], { cwd: root, env });
  log(`npm dependencies installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return true;
}

/** Debian packages of the named set, then npm dependencies. */
export function bootstrap(set = 'start') {
  const pkgs = PACKAGE_SETS[set];
  if (!pkgs) throw new Error(`unknown package set ${set}; use one of ${Object.keys(PACKAGE_SETS).join(', ')}`);
  ensureDebian(pkgs);
  ensureNpm();
}

/** A TCP port that is free on `host` right now. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      srv.close(() => resolve(addr.port));
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    bootstrap(process.argv[2] ?? 'start');
    log('ready');
  } catch (err) {
    console.error(`[bootstrap] ${err.message}`);
    process.exit(1);
  }
}
