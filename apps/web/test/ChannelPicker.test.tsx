/**
 * The channel picker (plans, groups, roles): a search's channels can be taken all at once, with what
 * each row says of the channel (its device's name, its own recording switch), so 1,500 cameras are
 * not ticked one by one.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ChannelPicker } from '../src/components/ChannelPicker';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

adminSessionPerTest();

const channel = (i: number) => ({ ParentDeviceID: String(i), ChannelID: '1', Name: `Gate ${i}`, DeviceName: `NVR ${i}`, GBID: '1', Parental: 0, EnableRecord: i % 2 });

describe('ChannelPicker', { timeout: 30_000 }, () => {
  it('takes every channel a search found, and gives none back when unticked', async () => {
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [], TotalCount: 0 }),
      '/api/v1/all/channels': (c) => v1(c.query.get('q') === 'gate' ? { Channels: [1, 2, 3].map(channel), ChannelCount: 3 } : { Channels: [], ChannelCount: 0 }),
    });
    const onOk = vi.fn();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={onOk} />);
    fireEvent.change(await screen.findByPlaceholderText('搜索通道名称 / ID'), { target: { value: 'gate' } });
    const all = await screen.findByRole('checkbox', { name: '全选搜索结果（3 个）' });
    fireEvent.click(all);
    expect(screen.getByText('已选 3 项')).toBeInTheDocument();
    fireEvent.click(all);
    expect(screen.getByText('已选 0 项')).toBeInTheDocument();
    fireEvent.click(all);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onOk).toHaveBeenCalledTimes(1));
    expect(onOk.mock.calls[0]![0].channels).toEqual([1, 2, 3].map((i) => ({ DeviceID: String(i), ChannelID: '1', Name: `Gate ${i}`, DeviceName: `NVR ${i}`, EnableRecord: i % 2 })));
  });
});
