/**
 * The sidebar's channels open from the keyboard. antd's Tree moves its active row with the arrow keys
 * and answers Enter with a select, never a click: the trees opened a channel on click only, so an
 * operator could walk to a camera with the keyboard and not open it (audit, session 24: Chromium,
 * Tab into the video tree, arrows, Enter did nothing). The trees open on select, which a click also is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { clearEarly } from '../src/lib/early';
import { captureNotices } from './helpers/console';
import { stubTreeServer } from './helpers/tree-server';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const device = { DeviceID: '2', DeviceName: 'Hall', DeviceType: 'RTSP', Enable: 1, Online: 1, ChannelNum: 1, onlineChannelNums: 1 };
const channel = { ChannelID: '5', ParentDeviceID: '2', DeviceName: 'Hall', Name: 'Hall desk', Parental: 0, GBID: '5', Online: 1, Enable: 1, DeviceEnable: 1, FavoritesChannel: 0 };

beforeEach(() => {
  captureNotices();
  stubTreeServer((url) =>
    url.pathname === '/api/v1/devices' ? { Devices: [device], TotalCount: 1 } : url.pathname === '/api/v1/channels' ? { Channels: [channel], ChannelCount: 1 } : {},
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearEarly();
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

describe('the video tree from the keyboard', () => {
  it('arrows to a channel and Enter opens its player', async () => {
    const { container } = render(
      <MemoryRouter initialEntries={['/video/square/0']}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <VideoTree />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>,
    );
    const hall = (await screen.findByText('Hall')).closest('.ant-tree-treenode')!;
    fireEvent.click(hall.querySelector('.ant-tree-switcher')!);
    await screen.findByText('Hall desk');
    const keys = container.querySelector('.ant-tree-list')!;
    fireEvent.focus(keys);
    const press = (keyCode: number) => fireEvent.keyDown(keys, { keyCode, which: keyCode });
    const active = () => container.querySelector('.ant-tree-treenode-active');
    // Down until the channel is the active row (the click on the switcher may have made Hall active).
    for (let i = 0; i < 3 && !active()?.textContent?.includes('Hall desk'); i++) {
      press(40);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(active()).toHaveTextContent('Hall desk');
    press(13); // Enter
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/video/player/2/5/0'));
  });
});
