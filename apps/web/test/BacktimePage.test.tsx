/**
 * /video/backtime/{devid}/{chnid}/{day}: the day's recordings as a list. Its breadcrumb and title
 * name the device and channel as the backchannel page does (not their ids), the range being written
 * says so, and marking a range important is confirmed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BacktimePage from '../src/features/playback/pages/BacktimePage';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';
import { wideWindow } from './helpers/viewport';

const DAY = '20261127';
const range = (from: string, to: string, extra: object = {}) => ({
  name: `${DAY}${from}-${DAY}${to}`,
  startAt: `${DAY}${from}`,
  endAt: `${DAY}${to}`,
  duration: 0,
  important: 0,
  recording: 0,
  ids: [7],
  ...extra,
});

const admin = adminSessionPerTest();

function open() {
  const api = stubApi({
    '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'Gate recorder', Name: 'Gate camera' }], ChannelCount: 1 }),
    '/api/v1/record/querydaily': () => ({ total: 2, list: [range('070047', '070324', { size: 1.5 * 1024 * 1024 }), range('070425', '071000', { recording: 1, ids: [8] })] }),
    'POST /api/v1/record/setimportant': () => v1({ Count: 1, Important: 1 }),
  });
  renderConsole(
    <Routes>
      <Route path="/video/backtime/:devid/:chnid/:day" element={<BacktimePage />} />
    </Routes>,
    { path: `/video/backtime/5/1/${DAY}` },
  );
  return api;
}

describe('/video/backtime', { timeout: 30_000 }, () => {
  afterEach(() => vi.restoreAllMocks());
  it('names the device and channel in the breadcrumb and title, with the day before the list', async () => {
    open();
    const crumbs = await screen.findByTestId('recording-breadcrumb');
    await waitFor(() => expect(crumbs).toHaveTextContent('Gate recorder'));
    const items = [...crumbs.querySelectorAll('li')].map((li) => li.textContent?.trim()).filter((s) => s && s !== '/');
    expect(items).toEqual(['录像回放', 'Gate recorder', 'Gate camera', '2026-11-27', '录像列表']);
    // The day crumb goes back to the timeline of that day.
    expect(within(crumbs).getByText('2026-11-27').closest('a')).toHaveAttribute('href', `/video/backchannel/5/1/${DAY}`);
    expect(screen.getByRole('heading', { level: 4 })).toHaveTextContent('录像列表 · Gate camera · 2026-11-27');
  });

  it('keeps a row’s time, duration and size on one line each on a desktop (English broke "3.86 MB" in two)', async () => {
    wideWindow();
    open();
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tbody tr.ant-table-row');
      expect(r).not.toBeNull();
      return r!;
    });
    const cells = [...row.querySelectorAll<HTMLElement>('td')].slice(0, 3);
    expect(cells.map((c) => c.textContent)).toEqual(['07:00:47 – 07:03:24', '00:00:00', '1.50 MB']);
    for (const c of cells) expect(c.style.whiteSpace).toBe('nowrap');
  });

  it('tags the range being written and confirms a mark', async () => {
    const api = open();
    const rows = await waitFor(() => {
      const r = [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
      expect(r).toHaveLength(2);
      return r;
    });
    expect(rows[0]).not.toHaveTextContent('录像中');
    // querydaily's size (bytes of the files) in base 1024.
    expect(rows[0]).toHaveTextContent('1.50 MB');
    expect(rows[1]).toHaveTextContent('—');
    expect(rows[1]).toHaveTextContent('录像中');
    fireEvent.click(within(rows[0]).getByRole('button', { name: /标记为重要/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/record/setimportant', 'POST')).toHaveLength(1));
    await waitFor(() => expect(admin.notices).toContain('success:已标记为重要录像'));
  });

  it('on a phone pins its actions narrow beside the times (they covered the whole table)', async () => {
    open();
    const play = await screen.findAllByRole('button', { name: /播放/ });
    const cell = play[0].closest('td')!;
    expect(cell).toHaveClass('ant-table-cell-fix-end');
    const cols = cell.closest('table')!.querySelectorAll('colgroup col');
    expect((cols[cell.cellIndex] as HTMLElement).style.width).toBe('104px');
  });
});
