/**
 * A wall cell's toolbar after a drop. The cell's player mounts under the pointer that dropped the
 * channel; Chromium then counts the pointer as over it (:hover) without ever sending it a
 * mouseenter, so a toolbar kept by enter/leave alone stayed hidden until the pointer left the cell
 * and came back (e2e wall-hover.spec.ts shows it in Chromium). A pointer moving over the player
 * shows it. The keyboard reaches it too: a wall cell's player takes the focus (Tab) and shows its
 * toolbar while the focus is in it, so its buttons (remove, full screen) follow in the tab order;
 * without a mouse they were out of reach (audit, session 24).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import BrowsePage from '../src/features/live/pages/BrowsePage';
import { CHANNEL_DRAG_TYPE } from '../src/lib/channelDrag';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The drag data the sidebar puts on a channel. */
const dragOf = (c: { device: string; channel: string; name: string }) => ({
  types: [CHANNEL_DRAG_TYPE, 'text/plain'],
  getData: (type: string) => (type === CHANNEL_DRAG_TYPE ? JSON.stringify(c) : ''),
  dropEffect: 'none',
});

describe('wall cell toolbar after a drop', () => {
  it('shows once the pointer moves over the dropped player, without a mouseenter; hides when it leaves', () => {
    clearSession();
    captureNotices();
    stubApi({ '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '' }) });
    renderConsole(<BrowsePage />);
    const cell = screen.getAllByTestId('wall-cell')[2]!;
    const dataTransfer = dragOf({ device: '1', channel: '1', name: 'Gate' });
    fireEvent.dragOver(cell, { dataTransfer });
    fireEvent.drop(cell, { dataTransfer });
    const player = within(cell).getByTestId('live-player');
    expect(within(player).queryByTestId('player-stats')).toBeNull();

    fireEvent.mouseMove(player);
    expect(within(player).getByTestId('player-stats')).toBeInTheDocument();
    fireEvent.mouseLeave(player);
    expect(within(player).queryByTestId('player-stats')).toBeNull();
  });

  it('shows while the focus is in the player (Tab), its buttons reachable; hides when the focus leaves', () => {
    clearSession();
    captureNotices();
    stubApi({ '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '' }) });
    localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 4, cells: [{ device: '1', channel: '1', name: 'Gate' }, null, null, null] }));
    renderConsole(<BrowsePage />);
    const player = screen.getByTestId('live-player');
    expect(player).toHaveAttribute('tabindex', '0');
    expect(player).toHaveAccessibleName('Gate');
    fireEvent.focus(player);
    const remove = within(player).getByRole('button', { name: '移除' });
    // Focus moving on to a button inside keeps the bar.
    fireEvent.blur(player, { relatedTarget: remove });
    fireEvent.focus(remove);
    expect(within(player).getByTestId('player-stats')).toBeInTheDocument();
    fireEvent.blur(remove, { relatedTarget: document.body });
    expect(within(player).queryByTestId('player-stats')).toBeNull();
  });
});
