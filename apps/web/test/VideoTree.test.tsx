import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { setLang } from '../src/i18n';
import { clearEarly } from '../src/lib/early';
import { prefetchTreeDevices } from '../src/features/video/api';
import { envelope, stubTreeServer } from './helpers/tree-server';

const device = { DeviceID: '34020000001320000001', DeviceName: 'NVR east', DeviceType: 'GB28181', Online: 1, ChannelNum: 1, onlineChannelNums: 1 };
const channel = { ChannelID: '9', ParentDeviceID: device.DeviceID, DeviceName: 'NVR east', Name: 'Lobby', Parental: 0, GBID: '9', Online: 1, Enable: 1, FavoritesChannel: 0 };

let calls: URL[];

beforeEach(() => {
  setLang('zh-CN');
  calls = stubTreeServer((url) =>
    url.pathname === '/api/v1/devices'
      ? { Devices: [device], TotalCount: 1 }
      : url.pathname === '/api/v1/channels'
        ? { Channels: [channel], ChannelCount: 1 }
        : {},
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearEarly();
});

describe('video tree', () => {
  it('loads devices by 50, then a device’s channels only when it is expanded', async () => {
    render(
      <MemoryRouter>
        <VideoTree />
      </MemoryRouter>,
    );
    await screen.findByText('NVR east');
    expect(calls.map((u) => u.pathname)).toEqual(['/api/v1/devices']);
    expect(calls[0].searchParams.get('start')).toBe('0');
    expect(calls[0].searchParams.get('limit')).toBe('50');

    const node = screen.getByText('NVR east').closest('.ant-tree-treenode')!;
    fireEvent.click(node.querySelector('.ant-tree-switcher')!);

    await screen.findByText('Lobby');
    const expand = calls.find((u) => u.pathname === '/api/v1/channels')!;
    expect(expand.searchParams.get('device')).toBe(device.DeviceID);
    expect(expand.searchParams.get('start')).toBe('0');
    expect(expand.searchParams.get('limit')).toBe('50');
    expect(expand.searchParams.has('subset')).toBe(false);
  });

  it('shows a first page that start-up already fetched in its first render, without asking again', async () => {
    prefetchTreeDevices();
    await waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 0));
    render(
      <MemoryRouter>
        <VideoTree />
      </MemoryRouter>,
    );
    expect(screen.getByText('NVR east')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.map((u) => u.pathname)).toEqual(['/api/v1/devices']);
  });

  it('makes the star’s tooltip only while the pointer is on it', async () => {
    render(
      <MemoryRouter>
        <VideoTree />
      </MemoryRouter>,
    );
    const node = (await screen.findByText('NVR east')).closest('.ant-tree-treenode')!;
    fireEvent.click(node.querySelector('.ant-tree-switcher')!);
    const star = await screen.findByRole('button', { name: '收藏' });
    expect(document.querySelector('.ant-tooltip')).toBeNull();
    fireEvent.mouseEnter(star);
    await waitFor(() => expect(document.querySelector('.ant-tooltip')?.textContent).toBe('收藏'));
  });

  it('searches every device’s channels with a non-empty query after the debounce', async () => {
    render(
      <MemoryRouter>
        <VideoTree />
      </MemoryRouter>,
    );
    await screen.findByText('NVR east');
    fireEvent.change(screen.getByPlaceholderText('搜索通道'), { target: { value: 'lob' } });
    await waitFor(() => expect(calls.some((u) => u.pathname === '/api/v1/all/channels')).toBe(true), { timeout: 2000 });
    const search = calls.find((u) => u.pathname === '/api/v1/all/channels')!;
    expect(search.searchParams.get('q')).toBe('lob');
    expect(search.searchParams.get('limit')).toBe('9999');
  });

  it('mounts only the rows in view once the sidebar has a layout (virtual list), and every row without one', async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ ...device, DeviceID: `340200000013200${String(i).padStart(5, '0')}`, DeviceName: `NVR ${i}` }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(envelope({ Devices: many, TotalCount: 1000 })), { status: 200, headers: { 'Content-Type': 'application/json' } })),
    );
    // jsdom has no layout: no width means no layout, and then every row mounts.
    const plain = render(
      <MemoryRouter>
        <VideoTree />
      </MemoryRouter>,
    );
    await plain.findByText('NVR 0');
    expect(plain.getAllByText(/^NVR \d+$/)).toHaveLength(50);
    plain.unmount();

    // A 280 px wide sidebar in a 300 px high window: a window's worth of rows.
    const width = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(280);
    vi.stubGlobal('innerHeight', 300);
    try {
      const laid = render(
        <MemoryRouter>
          <VideoTree />
        </MemoryRouter>,
      );
      await laid.findByText('NVR 0');
      const rows = laid.getAllByText(/^NVR \d+$/).length;
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(30);
    } finally {
      width.mockRestore();
    }
  });
});
