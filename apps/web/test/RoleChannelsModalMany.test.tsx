/**
 * The role channels dialog with a site's worth of single-channel grants: a page of them at a time;
 * its group tree counts each group's devices and channels as the group page's tree does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import RolesPage from '../src/features/users/pages/RolesPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin, logout, role } from './helpers/dialogs';

beforeEach(() => {
  captureNotices();
  loginAdmin();
  stubApi({
    '/api/v1/rolelist': () => ({ count: 2, data: [role(1, 'admin', 1), role(4, 'operators')] }),
    '/api/v1/alllabel': () => v1({ Labels: [], Count: 0 }),
    'GET /api/v1/role/channels': () => v1({ Channels: Array.from({ length: 120 }, (_, i) => ({ DeviceID: String(i + 1), ChannelID: '1', Name: `Camera ${i + 1}` })), Labels: [] }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

describe('RolesPage: a role with 120 channels', { timeout: 60_000 }, () => {
  it('lists them 50 to a page', async () => {
    renderConsole(<RolesPage />);
    const row = (await screen.findByText('operators describe')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /通\s*道/ }));
    const list = await screen.findByTestId('role-channels');
    expect(await within(list).findByText('Camera 1')).toBeInTheDocument();
    expect(within(list).getAllByText(/^Camera \d+$/)).toHaveLength(50);
    fireEvent.click(within(list).getByTitle('3'));
    await waitFor(() => expect(within(list).getByText('Camera 101')).toBeInTheDocument());
    expect(within(list).getAllByText(/^Camera \d+$/)).toHaveLength(20);
  });

  it("counts each group's devices and channels in its tree, as the group page does", async () => {
    // The role's tree named the groups only, where /device/group said Building A (3).
    stubApi({
      '/api/v1/rolelist': () => ({ count: 2, data: [role(1, 'admin', 1), role(4, 'operators')] }),
      '/api/v1/alllabel': () =>
        v1({
          Labels: [
            { ID: 1, Name: 'Building A', ParentID: 0, ChannelNum: 0, DeviceNum: 3, ChildNum: 1 },
            { ID: 3, Name: 'Parking', ParentID: 0, ChannelNum: 30, DeviceNum: 0, ChildNum: 0 },
            { ID: 2, Name: 'Floor 1', ParentID: 1, ChannelNum: 2, DeviceNum: 1, ChildNum: 0 },
          ],
          Count: 3,
        }),
      'GET /api/v1/role/channels': () => v1({ Channels: [], Labels: [1] }),
    });
    renderConsole(<RolesPage />);
    const row = (await screen.findByText('operators describe')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /通\s*道/ }));
    const tree = await screen.findByTestId('role-labels');
    expect(await within(tree).findByText('Building A (3)')).toBeInTheDocument();
    expect(within(tree).getByText('Floor 1 (3)')).toBeInTheDocument();
    expect(within(tree).getByText('Parking (30)')).toBeInTheDocument();
    // The two columns stack below md (a phone): side by side at 390 px each was 150 px wide and
    // wrapped every group and camera name.
    expect(tree.closest('.ant-col')).toHaveClass('ant-col-xs-24', 'ant-col-md-11');
    expect(screen.getByTestId('role-channels').closest('.ant-col')).toHaveClass('ant-col-xs-24', 'ant-col-md-13');
  });
});
