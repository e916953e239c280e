/**
 * A GB28181 NVR whose 30 cameras sit under folders (a civil-code directory, a business group, a
 * virtual organisation), the stubbed server answering as the real one: the channel lists one folder
 * level unless cameras=1, all/channels every channel with the folders unless cameras=1, and
 * devices/{id}/channels?channel= the one camera of that ID.
 * - the playback list shows the cameras, 20 a page (it showed the 2 cameras of the top level);
 * - the square's every channel shows 20 cards a page, counted as cameras (17 cards, 33 counted);
 * - the timeline and segment list pages of a camera under a folder have its name and the device's
 *   recordings (the top level read with limit 9999 had no such camera: neither), one camera read.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { ChannelRow } from '@opencvr/shared';
import BacklistPage from '../src/features/playback/pages/BacklistPage';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import BacktimePage from '../src/features/playback/pages/BacktimePage';
import SquarePage from '../src/features/live/pages/SquarePage';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1, type Call } from './helpers/console';
import { channelsPage } from './helpers/lists';
import { loginAdmin } from './helpers/dialogs';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const DEV = '34020000001110000009';
const DAY = '20261127';
const row = (ChannelID: string, Name: string, Parental: 0 | 1, ParentID: string) =>
  ({ ChannelID, Name, Parental, ParentID, ParentDeviceID: DEV, DeviceName: 'NVR', DeviceType: 'GB28181', Online: 1, Enable: 1 }) as unknown as ChannelRow & { ParentID: string };
const GROUP = '34020000002150000001';
const ORG = '34020000002160000001';
const FOLDERS = [row('340200', '合肥市', 1, ''), row(GROUP, '业务分组', 1, ''), row(ORG, '虚拟组织', 1, GROUP)];
const CAMERAS = Array.from({ length: 30 }, (_, i) =>
  row(`34020000001310${String(i + 1).padStart(6, '0')}`, `摄像机 ${i + 1}`, 0, i < 3 ? '340200' : i >= 28 ? '' : ORG),
);
const ALL = [...FOLDERS, ...CAMERAS];
const DEEP = CAMERAS[5];

const cameras = (c: Call) => c.query.get('cameras') === '1';

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  loginAdmin();
  captureNotices();
  api = stubApi({
    '/api/v1/devices': () => v1({ Devices: [{ DeviceID: DEV, DeviceName: 'NVR', DeviceType: 'GB28181' }], TotalCount: 1 }),
    '/api/v1/record/querydevices': () => v1({ Channels: [], Total: 0 }),
    '/api/v1/favorites': () => v1({ Channels: [], ChannelCount: 0 }),
    '/api/v1/channels': (c) => channelsPage(c, cameras(c) ? CAMERAS : ALL.filter((x) => x.ParentID === (c.query.get('subset') ?? ''))),
    '/api/v1/all/channels': (c) => channelsPage(c, cameras(c) ? CAMERAS : ALL),
    '/api/v1/getchannels': (c) => channelsPage(c, ALL),
    [`/api/v1/devices/${DEV}/channels`]: (c) => channelsPage(c, CAMERAS.filter((x) => !c.query.get('channel') || x.ChannelID === c.query.get('channel'))),
    '/api/v1/record/querymonthly': () => '0'.repeat(30),
    '/api/v1/record/querydaily': () => ({ total: 0, list: [] }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const open = (path: string, pattern: string, element: React.ReactNode) =>
  renderConsole(
    <Routes>
      <Route path={pattern} element={element} />
    </Routes>,
    { path },
  );

describe('cameras of a GB NVR under folders', { timeout: 60_000 }, () => {
  it('the playback list shows them, 20 a page, and the second page the rest', async () => {
    open(`/video/backlist/${DEV}`, '/video/backlist/:devid', <BacklistPage />);
    expect(await screen.findByText('摄像机 20')).toBeInTheDocument();
    expect(screen.getAllByText(/^摄像机 \d+$/)).toHaveLength(20);
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('摄像机 30')).toBeInTheDocument();
    expect(screen.getAllByText(/^摄像机 \d+$/)).toHaveLength(10);
    for (const c of api.callsTo('/api/v1/channels')) expect(c.query.get('cameras')).toBe('1');
  });

  it('the square of every channel has 20 cards a page, counted as cameras', async () => {
    open('/video/square/0', '/video/square/:devid', <SquarePage />);
    fireEvent.click(await screen.findByText('全部通道'));
    expect(await screen.findByText('摄像机 20')).toBeInTheDocument();
    expect(screen.getAllByTestId('square-channel')).toHaveLength(20);
    expect(screen.getByText('共 30 个通道')).toBeInTheDocument();
  });

  it('the timeline page of a camera under a folder has its name and the device recordings, reading that camera only', async () => {
    open(`/video/backchannel/${DEV}/${DEEP.ChannelID}/${DAY}`, '/video/backchannel/:devid/:chnid/:day', <BackchannelPage />);
    expect(await screen.findByRole('heading', { name: /摄像机 6/ })).toBeInTheDocument();
    expect(await screen.findByTestId('record-source')).toBeInTheDocument();
    expectOneCameraRead();
  });

  it('the segment list page of a camera under a folder has its name and the device recordings, reading that camera only', async () => {
    open(`/video/backtime/${DEV}/${DEEP.ChannelID}/${DAY}`, '/video/backtime/:devid/:chnid/:day', <BacktimePage />);
    expect(await screen.findByRole('heading', { name: /摄像机 6/ })).toBeInTheDocument();
    expect(await screen.findByTestId('record-source')).toBeInTheDocument();
    expectOneCameraRead();
  });
});

function expectOneCameraRead() {
  expect(api.callsTo('/api/v1/channels')).toHaveLength(0);
  expect(api.callsTo('/api/v1/getchannels')).toHaveLength(0);
  const reads = api.callsTo(`/api/v1/devices/${DEV}/channels`);
  expect(reads.length).toBeGreaterThan(0);
  for (const c of reads) {
    expect(c.query.get('channel')).toBe(DEEP.ChannelID);
    expect(c.query.get('limit')).toBe('1');
  }
}
