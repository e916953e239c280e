/**
 * The tour settings dialog of /video/browse fills in the saved tour as it opens, not when its opening
 * motion ends (antd's afterOpenChange): in Chromium an interval typed during the motion was put back
 * to the saved one when it ended, so the tour kept its old interval without a word. jsdom has no
 * motion end, like a browser still in the motion: there a dialog opened again showed what had been
 * typed and cancelled (the second test failed before the fix).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@opencvr/shared';
import BrowsePage from '../src/features/live/pages/BrowsePage';
import { loadLoop } from '../src/features/live/wall';
import { renderConsole } from './helpers/console';

afterEach(() => {
  vi.useRealTimers();
  localStorage.removeItem(STORAGE_KEYS.loopChannels);
});

describe('BrowsePage: the tour settings dialog', () => {
  it('keeps an interval typed before its opening motion ended', async () => {
    localStorage.setItem(STORAGE_KEYS.loopChannels, JSON.stringify({ channels: [{ device: '1', channel: '1', name: 'Gate' }], interval: 10 }));
    renderConsole(<BrowsePage />);
    fireEvent.click(screen.getByRole('button', { name: /轮巡设置/ }));
    const dialog = await screen.findByRole('dialog');
    const interval = within(dialog).getByRole('spinbutton');
    expect(interval).toHaveValue('10');
    fireEvent.change(interval, { target: { value: '7' } });
    // The opening motion ends (antd's deadline is under a second).
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    expect(within(dialog).getByRole('spinbutton')).toHaveValue('7');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(loadLoop().interval).toBe(7);
    expect(loadLoop().channels.map((c) => c.name)).toEqual(['Gate']);
  });

  it('opened again, shows the saved tour, not what was typed and cancelled', async () => {
    localStorage.setItem(STORAGE_KEYS.loopChannels, JSON.stringify({ channels: [{ device: '1', channel: '1', name: 'Gate' }], interval: 10 }));
    renderConsole(<BrowsePage />);
    fireEvent.click(screen.getByRole('button', { name: /轮巡设置/ }));
    let dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('spinbutton'), { target: { value: '30' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    fireEvent.click(screen.getByRole('button', { name: /轮巡设置/ }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('spinbutton')).toHaveValue('10');
  });
});
