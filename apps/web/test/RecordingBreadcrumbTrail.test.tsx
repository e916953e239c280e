/**
 * Spec 3 UI state recordingBreadcrumb {stime, records} and spec 4 "a node is added with its parents,
 * or the trail is cut to a given length", as the playback pages show it: the trail is the node's
 * ancestry ending at it, each crumb before the last links to its page, and a click cuts the trail
 * there and goes to that page. A crumb is one line, cut past CRUMB_MAX_PX with its whole name as its
 * tooltip (a GB catalogue's long NVR and camera names wrapped the trail onto two lines).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { emptyBreadcrumb, useRecordingBreadcrumb } from '../src/features/playback/breadcrumb';
import { CRUMB_MAX_PX, RecordingBreadcrumb } from '../src/features/playback/components/RecordingBreadcrumb';
import { renderConsole } from './helpers/console';
import { atAnyPath } from './helpers/where';

const list = { key: 'list', label: '录像回放', to: '/video/backlist/0' };
const device = { key: 'd:7', label: 'NVR east', to: '/video/backlist/7' };
const channel = { key: 'c:7:2', label: 'Gate', to: '/video/backchannel/7/2/20240501' };
const day = { key: 'day', label: '2024-05-01 08:00' };

beforeEach(() => useRecordingBreadcrumb.setState(emptyBreadcrumb()));

describe('recordings breadcrumb trail', { timeout: 30_000 }, () => {
  it('shows the node with its parents, keeps the day in stime, and a crumb click cuts the trail and goes there', () => {
    renderConsole(
      atAnyPath(<RecordingBreadcrumb node={day} parents={[list, device, channel]} stime="20240501" />),
      { path: '/video/backtime/7/2/20240501' },
    );
    const trail = screen.getByTestId('recording-breadcrumb');
    expect(within(trail).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['录像回放', 'NVR east', 'Gate', '2024-05-01 08:00']);
    expect(useRecordingBreadcrumb.getState().stime).toBe('20240501');
    // The last crumb is where the user is: text, not a link.
    expect(within(trail).queryByRole('link', { name: '2024-05-01 08:00' })).toBeNull();
    expect(within(trail).getByRole('link', { name: 'Gate' })).toHaveAttribute('href', channel.to);

    fireEvent.click(within(trail).getByRole('link', { name: 'NVR east' }));
    expect(useRecordingBreadcrumb.getState().records.map((c) => c.key)).toEqual(['list', 'd:7']);
    expect(screen.getByTestId('where')).toHaveTextContent('/video/backlist/7');
  });

  it('cuts a long name to one line, its whole name its tooltip, linked or not', () => {
    const nvr = { key: 'd:7', label: '北区停车场 NVR-07 Hikvision DS-9664N-I8 地下二层弱电间 Rack B', to: '/video/backlist/7' };
    const cam = { key: 'c:7:2', label: '北区停车场入口东侧道闸抓拍相机（高清，带补光灯）第二车道 Entrance East Barrier Lane 2' };
    renderConsole(atAnyPath(<RecordingBreadcrumb node={cam} parents={[list, nvr]} stime="20240501" />), { path: '/video/backchannel/7/2/20240501' });
    const trail = screen.getByTestId('recording-breadcrumb');
    for (const el of [within(trail).getByRole('link', { name: nvr.label }), within(trail).getByText(cam.label)]) {
      expect(el).toHaveAttribute('title', el.textContent);
      expect(el).toHaveStyle({ maxWidth: `${CRUMB_MAX_PX}px`, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' });
    }
  });
});
