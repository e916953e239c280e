/**
 * Page helpers for the specs: the session put straight into localStorage, antd's buttons, the
 * console's Chinese texts, and a <video> whose clock advances.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { MESSAGES } from '../../packages/shared/src/messages';
import type { Session } from './api';

/** A message's Chinese text, as the console shows it (locale zh-CN). */
export const zh = (key: keyof typeof MESSAGES) => MESSAGES[key]['zh-CN'];

/** antd puts a space between the two characters of a two-character Chinese button label. */
export const button = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`^\\s*${[...label].join('\\s*')}\\s*$`) });

/**
 * The dialog (antd Modal) once its opening zoom has ended: rc-motion takes its motion classes off at
 * the animation's end. A click during the zoom can lose itself: the button grows and moves toward the
 * centre between the mouse going down and coming up, so no click reaches it (CI: live.spec's share
 * dialog, 生成链接 clicked 190 ms after it opened on a loaded machine, never asked for a link).
 */
export async function openedDialog(scope: Page | Locator): Promise<Locator> {
  const dialog = scope.locator('.ant-modal').last();
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/-(appear|enter)\b/);
  return dialog;
}

/**
 * The console opened with a session already stored (as the login page stores it: the user info
 * carrying its Token under 'userinfo'). E2E_DEBUG (or LIVE_DEBUG, REC_DEBUG) prints the page's console.
 */
export async function openAs(page: Page, s: Session, path: string) {
  if (process.env.E2E_DEBUG || process.env.LIVE_DEBUG || process.env.REC_DEBUG) {
    page.on('console', (m) => console.log('[console]', m.type(), m.text()));
    page.on('pageerror', (e) => console.log('[pageerror]', e.message));
  }
  await page.addInitScript((u) => localStorage.setItem('userinfo', JSON.stringify(u)), {
    ...s.UserInfo,
    Token: s.Token,
  });
  await page.goto(path);
}

export const currentTime = (video: Locator) => video.evaluate((v: HTMLVideoElement) => v.currentTime);

/**
 * The video decodes: its clock moves by more than a second within `withinMs` (two seconds) of wall
 * time. Done as soon as it has: only a reading taken after `withinMs` may fail it, as when the
 * clock was read once after a fixed wait.
 */
export async function expectAdvancing(video: Locator, label = 'video', withinMs = 2000) {
  await expect.poll(() => currentTime(video), { message: `${label} starts`, timeout: 30_000 }).toBeGreaterThan(0);
  const t0 = await currentTime(video);
  const from = Date.now();
  for (;;) {
    const last = Date.now() - from >= withinMs;
    const t1 = await currentTime(video);
    if (t1 - t0 > 1) return;
    if (last) expect(t1 - t0, `${label} currentTime ${t0} → ${t1} in ${Date.now() - from} ms`).toBeGreaterThan(1);
    await video.page().waitForTimeout(Math.min(100, Math.max(0, withinMs - (Date.now() - from))));
  }
}

/** Draws the frame to a canvas and counts distinct grey levels: a black or blank frame has one or two. */
export async function frameVariety(video: Locator): Promise<{ width: number; height: number; levels: number }> {
  return video.evaluate((v: HTMLVideoElement) => {
    const c = document.createElement('canvas');
    c.width = v.videoWidth;
    c.height = v.videoHeight;
    const g = c.getContext('2d')!;
    g.drawImage(v, 0, 0);
    const { data } = g.getImageData(0, 0, c.width, c.height);
    const levels = new Set<number>();
    for (let i = 0; i < data.length; i += 4 * 7) levels.add((data[i]! + data[i + 1]! + data[i + 2]!) >> 4);
    return { width: c.width, height: c.height, levels: levels.size };
  });
}
