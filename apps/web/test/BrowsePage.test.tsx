/**
 * The multi-screen wall's toolbar and tour: layouts are named with a plural in English ("1 screen",
 * not "1 screens"), and while a tour runs its empty cells no longer invite a drop or a click that
 * the touring wall ignores. An empty cell is a button: reached with Tab, Enter or Space opens the
 * picker for it (it was a bare div, out of the keyboard's reach: audit, session 24). The tour's
 * chooser stays open for several picks: a pick adds a channel (its row marked 已添加), a pick of one
 * already in the tour takes it out again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@opencvr/shared';
import BrowsePage from '../src/features/live/pages/BrowsePage';
import { setLang } from '../src/i18n';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { channelsPage, siteChannels } from './helpers/lists';

afterEach(() => {
  vi.unstubAllGlobals();
  setLang('zh-CN');
});

describe('BrowsePage', () => {
  it('names the browser tab 分屏展示 / Multi-screen (it said OpenCVR, the one page of the video menu without a name)', () => {
    document.title = 'OpenCVR';
    renderConsole(<BrowsePage />);
    expect(document.title).toBe('分屏展示');
    act(() => setLang('en-US'));
    expect(document.title).toBe('Multi-screen');
  });

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

  it('a cell whose channel does not exist offers to take it off the wall, not Retry', async () => {
    clearSession();
    captureNotices();
    // No channelstream stub: the server's 404, as for a channel deleted since it was put on the wall.
    stubApi({});
    localStorage.setItem(STORAGE_KEYS.multiScreenLayout, JSON.stringify({ layout: 4, cells: [{ device: '9', channel: '1', name: 'Gone' }] }));
    renderConsole(<BrowsePage />);
    const cell = await screen.findByTestId('live-player');
    await waitFor(() => expect(cell).toHaveAttribute('data-phase', 'error'));
    expect(within(cell).queryByRole('button', { name: /重\s*试/ })).toBeNull();
    fireEvent.click(within(cell).getByRole('button', { name: /^移\s*除$/ }));
    expect(screen.queryByTestId('live-player')).toBeNull();
    expect(screen.getAllByTestId('wall-empty')).toHaveLength(4);
    localStorage.removeItem(STORAGE_KEYS.multiScreenLayout);
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

  it('the tour chooser adds a channel, marks it, and a second pick takes it out', async () => {
    clearSession();
    captureNotices();
    stubApi({ '/api/v1/all/channels': (c) => channelsPage(c, siteChannels(3)) });
    renderConsole(<BrowsePage />);
    fireEvent.click(screen.getByRole('button', { name: /轮巡设置/ }));
    const settings = await screen.findByRole('dialog', { name: '轮巡设置' });
    fireEvent.click(within(settings).getByRole('button', { name: /添加通道/ }));
    const row = async () => (await within(await screen.findByTestId('wall-picker')).findByText('Camera 2')).closest('[data-testid="wall-picker-item"]')!;
    fireEvent.click(await row());
    expect(await row()).toHaveTextContent('已添加');
    expect(within(settings).getByText('Camera 2')).toBeInTheDocument();
    fireEvent.click(await row());
    expect(await row()).not.toHaveTextContent('已添加');
    expect(within(settings).queryByText('Camera 2')).toBeNull();
  });
});
