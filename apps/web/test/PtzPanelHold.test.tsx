/**
 * The PTZ pad moves while a button is held and stops when it is let go: a move lasts on the device
 * until `stop` (ONVIF ContinuousMove, GB PTZCmd), so every way a hold can end (release, the pointer
 * leaving the button, the window losing focus, the pad going away on a route change, a key let go)
 * sends `stop`, and the stop goes out only after the move it ends has been answered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PtzPanel } from '../src/components/player/PtzPanel';
import { clearSession } from '../src/lib/session';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const DEV = '1001';
const CH = '1';

function setup(ptz: (cmd: string) => unknown = () => v1({})) {
  const api = stubApi({
    '/api/v1/onvifgetpresetlist': () => v1({ PresetCount: 0, Presets: [] }),
    '/api/v1/ptzcontrol': (c) => ptz(c.query.get('command')!),
  });
  const view = renderConsole(<PtzPanel device={DEV} channel={CH} />);
  const pad = screen.getByTestId('ptz-panel');
  const commands = () => api.callsTo('/api/v1/ptzcontrol').map((c) => c.query.get('command'));
  return { api, view, pad, commands };
}

describe('PTZ pad press and hold', () => {
  it('moves while held and stops on release; a click alone does not leave the camera moving', async () => {
    const { pad, commands, api } = setup();
    const up = within(pad).getByRole('button', { name: '上' });
    fireEvent.pointerDown(up, { button: 0 });
    await waitFor(() => expect(commands()).toEqual(['up']));
    expect(up.getAttribute('aria-pressed')).toBe('true');
    fireEvent.pointerUp(up);
    fireEvent.click(up);
    await waitFor(() => expect(commands()).toEqual(['up', 'stop']));
    expect(Object.fromEntries(api.callsTo('/api/v1/ptzcontrol')[0].query)).toMatchObject({ device: DEV, channel: CH, speed: '50' });
    expect(up.getAttribute('aria-pressed')).toBe('false');
  });

  it('stops when the pointer leaves the held button, and when the window loses focus', async () => {
    const { pad, commands } = setup();
    const zoom = within(pad).getByRole('button', { name: '放大' });
    // The focus was on another button (the last one pressed): pressing this one moves it here, and
    // the other's blur does not stop this move.
    within(pad).getByRole('button', { name: '上' }).focus();
    fireEvent.pointerDown(zoom, { button: 0 });
    act(() => zoom.focus());
    await new Promise((r) => setTimeout(r, 20));
    expect(commands()).toEqual(['zoomin']);
    fireEvent.pointerLeave(zoom);
    await waitFor(() => expect(commands()).toEqual(['zoomin', 'stop']));
    fireEvent.pointerDown(within(pad).getByRole('button', { name: '左下' }), { button: 0 });
    act(() => void window.dispatchEvent(new Event('blur')));
    await waitFor(() => expect(commands()).toEqual(['zoomin', 'stop', 'downleft', 'stop']));
  });

  it('stops when the button is let go over another one (the pad grew under the held pointer)', async () => {
    const { pad, commands } = setup();
    fireEvent.pointerDown(within(pad).getByRole('button', { name: '上' }), { button: 0 });
    await waitFor(() => expect(commands()).toEqual(['up']));
    fireEvent.pointerUp(within(pad).getByRole('button', { name: '下' }));
    await waitFor(() => expect(commands()).toEqual(['up', 'stop']));
  });

  it('stops a held move when the pad goes away (route change, player closed)', async () => {
    const { pad, commands, view } = setup();
    fireEvent.pointerDown(within(pad).getByRole('button', { name: '右' }), { button: 0 });
    view.unmount();
    await waitFor(() => expect(commands()).toEqual(['right', 'stop']));
  });

  it('stops a held move as the tab closes or reloads, with a call that outlives the page', async () => {
    const { pad, commands, api } = setup();
    fireEvent.pointerDown(within(pad).getByRole('button', { name: '上' }), { button: 0 });
    await waitFor(() => expect(commands()).toEqual(['up']));
    act(() => void window.dispatchEvent(new Event('pagehide')));
    await waitFor(() => expect(commands()).toEqual(['up', 'stop']));
    const init = api.fetchMock.mock.calls.find(([url]) => String(url).includes('command=stop'))?.[1] as RequestInit;
    expect(init.keepalive).toBe(true);
  });

  it('moves while Enter or Space is held on a button and stops when the key is let go', async () => {
    const { pad, commands } = setup();
    const down = within(pad).getByRole('button', { name: '下' });
    fireEvent.keyDown(down, { key: ' ' });
    fireEvent.keyDown(down, { key: ' ', repeat: true });
    await waitFor(() => expect(commands()).toEqual(['down']));
    fireEvent.keyUp(down, { key: ' ' });
    await waitFor(() => expect(commands()).toEqual(['down', 'stop']));
  });

  it('sends the stop only after the move it ends was answered', async () => {
    let answerMove: () => void = () => {};
    const { pad, commands } = setup((cmd) =>
      cmd === 'stop' ? v1({}) : new Promise((resolve) => (answerMove = () => resolve(v1({})))),
    );
    const left = within(pad).getByRole('button', { name: '左' });
    fireEvent.pointerDown(left, { button: 0 });
    await waitFor(() => expect(commands()).toEqual(['left']));
    fireEvent.pointerUp(left);
    await new Promise((r) => setTimeout(r, 20));
    expect(commands()).toEqual(['left']);
    answerMove();
    await waitFor(() => expect(commands()).toEqual(['left', 'stop']));
  });

  it('says an unreachable device once, not under the presets and again under the pad', async () => {
    const gone = 'Cannot reach the device at 10.0.0.9: connection refused';
    stubApi({}).fetchMock.mockImplementation(async () => new Response(JSON.stringify({ code: 502, msg: gone }), { status: 502 }));
    renderConsole(<PtzPanel device={DEV} channel={CH} />);
    const pad = screen.getByTestId('ptz-panel');
    await screen.findByTestId('ptz-presets-error');
    fireEvent.pointerDown(within(pad).getByRole('button', { name: '上' }), { button: 0 });
    fireEvent.pointerUp(within(pad).getByRole('button', { name: '上' }));
    const said = (await screen.findByTestId('ptz-error')).textContent!;
    expect(said).toContain('10.0.0.9');
    expect(screen.queryByTestId('ptz-presets-error')).toBeNull();
    expect(screen.getAllByText(said)).toHaveLength(1);
  });
});
