/**
 * The certificate steps shared by the specs of channels held to a pinned certificate (rtsps://
 * cameras, https:// stream servers): the channel's TlsCert as the API gives it, and an administrator
 * trusting the presented certificate from the channel form.
 */
import crypto from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { KeyAndCert } from '../../apps/server/test/fixtures/tls-certs';
import { v1, type Session } from './api';
import { expect } from './fixtures';
import { button, openAs } from './page';

export interface TlsCert {
  State: string;
  Pin: string;
  Presented?: string;
}

/** The SHA-256 fingerprint the server pins and the form shows (AA:BB:…). */
export const fingerprint = (c: KeyAndCert) => new crypto.X509Certificate(c.cert).fingerprint256;

/** The device's first channel as channelsconfig gives it to an administrator. */
export async function firstChannel(api: APIRequestContext, token: string, dev: string) {
  const body = await v1<{ Channels: { Online: number; TlsCert?: TlsCert }[] }>(
    await api.get('/api/v1/channelsconfig', { params: { device: dev }, headers: { token } }),
  );
  return body.Channels[0]!;
}

/**
 * In the channel form, the section (摄像机证书 or 服务器证书) shows the pinned and the presented
 * fingerprints; 信任新证书 and its confirmation (naming both) pin the presented one, after which
 * nothing is shown as presented.
 */
export async function trustPresentedInForm(page: Page, admin: Session, dev: string, section: string, oldPin: string, newPin: string) {
  await openAs(page, admin, `/device/channelform/${dev}/1?deviceName=E2E&deviceType=RTSP`);
  const state = page.getByTestId('tls-cert-state');
  // The section shows once the form's channel call has answered, and that call goes out when the page
  // has rendered: on a loaded machine (two workers, each with a Chromium, a server and cameras, beside
  // other load) a trace of the failure showed it sent 7.5 s after the page's code had arrived and
  // answered in 89 ms, the section then 2 s later: a renderer short of CPU, not a retry (the console's
  // queries do not retry). A first render gets the first-load allowance the other specs give it.
  await expect(page.getByText(section, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(state.getByTestId('tls-pin')).toHaveText(oldPin);
  await expect(state.getByTestId('tls-presented')).toHaveText(newPin);

  await state.getByRole('button', { name: '信任新证书' }).click();
  const confirm = page.getByTestId('tls-trust-confirm');
  await expect(confirm).toContainText(oldPin);
  await expect(confirm).toContainText(newPin);
  await button(page.locator('.ant-popconfirm'), '确定').click();

  await expect(state.getByTestId('tls-pin')).toHaveText(newPin);
  await expect(state.getByTestId('tls-presented')).toHaveCount(0);
}
