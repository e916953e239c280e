/**
 * The PTZ pad's presets (a GB28181 operator's daily tool): the device's list is shown, a preset is
 * called and deleted, and the current position is saved under a number (GB presets are numbers).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PtzPanel } from '../src/components/player/PtzPanel';
import { clearSession } from '../src/lib/session';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const DEV = '34020000001180000001';
const CH = '34020000001310000001';

describe('PTZ presets', () => {
  // Each step of the pad from a fresh render: one test walking list, call, save and delete was the
  // heaviest of the file (1.8-1.9 CPU-s as a worker's first test, 14-18 s at load 15-19; it timed out
  // at load 23), against 1.3-1.6 for the list and call alone (see also helpers/antdWarmUp.tsx).
  const presetsApi = () =>
    stubApi({
      '/api/v1/onvifgetpresetlist': () => v1({ PresetCount: 2, Presets: [{ Token: '1', Name: '大门' }, { Token: '2', Name: 'Parking' }] }),
      '/api/v1/onvifgotopreset': (c) => v1({ Token: c.query.get('token') }),
      '/api/v1/onvifsetpreset': (c) => v1({ Token: c.query.get('token'), Name: c.query.get('name') }),
      '/api/v1/onvifremovepreset': (c) => v1({ Token: c.query.get('token') }),
    });

  /** Renders the pad and picks the device's preset 1 (大门) in the list; returns the presets block. */
  async function pickGate() {
    renderConsole(<PtzPanel device={DEV} channel={CH} />);
    const presets = await screen.findByTestId('ptz-presets');
    fireEvent.mouseDown(within(presets).getByRole('combobox'));
    fireEvent.click(await screen.findByText('1 大门', { selector: '.ant-select-item-option-content' }));
    return presets;
  }

  it('lists the device presets and calls the one picked', async () => {
    const api = presetsApi();
    const presets = await pickGate();
    fireEvent.click(within(presets).getByRole('button', { name: /调\s*用/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/onvifgotopreset')).toHaveLength(1));
    expect(Object.fromEntries(api.callsTo('/api/v1/onvifgotopreset')[0].query)).toMatchObject({ device: DEV, channel: CH, token: '1' });
    expect(screen.queryByTestId('ptz-error')).toBeNull();
  });

  it('saves the position under a free number as 预置位 3, then reads the list again', async () => {
    const api = presetsApi();
    renderConsole(<PtzPanel device={DEV} channel={CH} />);
    const presets = await screen.findByTestId('ptz-presets');
    await waitFor(() => expect(api.callsTo('/api/v1/onvifgetpresetlist')).toHaveLength(1));
    await screen.findByText('选择预置位');
    fireEvent.change(within(presets).getByLabelText('编号'), { target: { value: '3' } });
    fireEvent.click(within(presets).getByRole('button', { name: /设\s*置/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/onvifsetpreset')).toHaveLength(1));
    expect(Object.fromEntries(api.callsTo('/api/v1/onvifsetpreset')[0].query)).toMatchObject({ device: DEV, channel: CH, token: '3', name: '预置位 3' });
    // The list is asked again after a change.
    await waitFor(() => expect(api.callsTo('/api/v1/onvifgetpresetlist')).toHaveLength(2));
    expect(screen.queryByTestId('ptz-error')).toBeNull();
  });

  it('deletes the preset picked once asked', async () => {
    const api = presetsApi();
    const presets = await pickGate();
    fireEvent.click(within(presets).getByRole('button', { name: /删\s*除/ }));
    const ok = await screen.findByRole('button', { name: /^(OK|确\s*定)$/ });
    expect(api.callsTo('/api/v1/onvifremovepreset')).toHaveLength(0);
    fireEvent.click(ok);
    await waitFor(() => expect(api.callsTo('/api/v1/onvifremovepreset')).toHaveLength(1));
    expect(Object.fromEntries(api.callsTo('/api/v1/onvifremovepreset')[0].query)).toMatchObject({ device: DEV, channel: CH, token: '1' });
    await waitFor(() => expect(api.callsTo('/api/v1/onvifgetpresetlist')).toHaveLength(2));
    expect(screen.queryByTestId('ptz-error')).toBeNull();
  });

  it('asks before saving over a preset the device has, and keeps its name', async () => {
    const api = stubApi({
      '/api/v1/onvifgetpresetlist': () => v1({ PresetCount: 1, Presets: [{ Token: '1', Name: '大门' }] }),
      '/api/v1/onvifsetpreset': (c) => v1({ Token: c.query.get('token'), Name: c.query.get('name') }),
    });
    renderConsole(<PtzPanel device={DEV} channel={CH} />);
    const presets = await screen.findByTestId('ptz-presets');
    await waitFor(() => expect(api.callsTo('/api/v1/onvifgetpresetlist')).toHaveLength(1));
    await screen.findByText('选择预置位');
    fireEvent.change(within(presets).getByLabelText('编号'), { target: { value: '1' } });
    fireEvent.click(within(presets).getByRole('button', { name: /设\s*置/ }));
    expect(await screen.findByText('预置位 1 大门 已存在，用当前位置覆盖？')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/onvifsetpreset')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: /^(OK|确\s*定)$/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/onvifsetpreset')).toHaveLength(1));
    expect(Object.fromEntries(api.callsTo('/api/v1/onvifsetpreset')[0].query)).toMatchObject({ token: '1', name: '大门' });
  });

  it('shows the device error of a preset call under the pad', async () => {
    stubApi({
      '/api/v1/onvifgetpresetlist': () => v1({ PresetCount: 1, Presets: [{ Token: '1', Name: '' }] }),
    });
    renderConsole(<PtzPanel device={DEV} channel={CH} />);
    const presets = await screen.findByTestId('ptz-presets');
    fireEvent.mouseDown(within(presets).getByRole('combobox'));
    fireEvent.click(await screen.findByText('1', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(presets).getByRole('button', { name: /调\s*用/ }));
    // The stub answers 404 with its msg, as the server answers a device that does not: its text shows.
    expect(await screen.findByTestId('ptz-error')).toHaveTextContent('no stub for GET /api/v1/onvifgotopreset');
  });
});
