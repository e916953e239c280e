/**
 * The multi-screen wall's toolbar and tour: layouts are named with a plural in English ("1 screen",
 * not "1 screens"), and while a tour runs its empty cells no longer invite a drop or a click that
 * the touring wall ignores. An empty cell is a button: reached with Tab, Enter or Space opens the
 * picker for it (it was a bare div, out of the keyboard's reach: audit, session 24).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { STORAGE_KEYS } from '@opencvr/shared';
import BrowsePage from '../src/features/live/pages/BrowsePage';
import { setLang } from '../src/i18n';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

afterEach(() => {
  vi.unstubAllGlobals();
  setLang('zh-CN');
});

describe('BrowsePage', () => {
  it('names the layouts with a plural in English', () => {
    renderConsole(<BrowsePage />);
    act(() => setLang('en-US'));
    const layouts = screen.getByTestId('wall-layout');
    expect(layouts).toHaveTextContent('1 screen4 screens9 screens16 screens');
    act(() => setLang('zh-CN'));
    expect(layouts).toHaveTextContent('1 画面4 画面9 画面16 画面');
  });

  it('a touring wall shows no invitation in its empty cells', () => {
    clearSession();
    captureNotices();
    stubApi({ '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '' }) });
    localStorage.setItem(
      STORAGE_KEYS.loopChannels,
      JSON.stringify({ channels: [{ device: '1', channel: '1', name: 'Gate' }], interval: 10 }),
    );
    renderConsole(<BrowsePage />);
    expect(screen.getAllByTestId('wall-empty')[0]).toHaveTextContent('拖入通道或点击选择');
    fireEvent.click(screen.getByTestId('wall-loop'));
    const empty = screen.getAllByTestId('wall-empty');
    expect(empty).toHaveLength(3);
    for (const cell of empty) expect(cell).toHaveTextContent(/^$/);
    fireEvent.click(empty[0]!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an empty cell is a button reached by Tab: Enter opens the picker for that screen', async () => {
    clearSession();
    captureNotices();
    stubApi({ '/api/v1/all/channels': () => v1({ Channels: [], ChannelCount: 0 }) });
    renderConsole(<BrowsePage />);
    const cells = screen.getAllByRole('button', { name: '拖入通道或点击选择' });
    expect(cells.length).toBeGreaterThanOrEqual(4);
    expect(cells[1]).toHaveAttribute('tabindex', '0');
    fireEvent.keyDown(cells[1]!, { key: 'Enter' });
    expect(await screen.findByRole('dialog')).toHaveTextContent('放到第 2 个画面');
  });
});
