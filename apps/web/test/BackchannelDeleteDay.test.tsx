/**
 * /video/backchannel: deleting a day asks about the day as the page shows it (2026-11-27, as in the
 * breadcrumb), not as the URL carries it (20261127).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

const DAY = '20261127';
adminSessionPerTest();

describe('/video/backchannel', { timeout: 30_000 }, () => {
  it('asks to delete the day by its shown date', async () => {
    stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'Gate recorder', Name: 'Gate camera' }], ChannelCount: 1 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(26) + '1000',
      '/api/v1/record/querydaily': () => ({ total: 1, list: [{ name: 'a', startAt: `${DAY}070047`, endAt: `${DAY}070324`, duration: 157, important: 0, recording: 0, ids: [1] }] }),
    });
    renderConsole(
      <Routes>
        <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
      </Routes>,
      { path: `/video/backchannel/5/1/${DAY}` },
    );
    const del = await screen.findByRole('button', { name: /删除当天录像/ });
    await waitFor(() => expect(del).toBeEnabled());
    fireEvent.click(del);
    const confirm = await waitFor(() => {
      const el = document.querySelector('.ant-popconfirm');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(confirm).toHaveTextContent('确定删除 2026-11-27 的全部录像吗');
  });
});
