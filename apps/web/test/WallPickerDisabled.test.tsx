/**
 * The wall's channel chooser says why a camera is offline when it is switched off (its own Enable or
 * its device's), as the square's card and the video tree do, instead of a plain grey dot.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { PickChannelModal } from '../src/features/live/components/PickChannelModal';
import { renderConsole, stubApi, v1 } from './helpers/console';

const row = (ChannelID: string, Name: string, extra: Record<string, number>) => ({
  ParentDeviceID: 'D1', ChannelID, Name, DeviceName: 'NVR', Parental: 0, Online: 0, Enable: 1, DeviceEnable: 1, ...extra,
});

describe('PickChannelModal: switched-off channels', () => {
  it('labels a switched-off channel 未开启 and one of a switched-off device 设备未开启; others not', async () => {
    stubApi({
      '/api/v1/all/channels': () =>
        v1({
          Channels: [row('1', 'Gate', { Online: 1 }), row('2', 'Yard', { Enable: 0 }), row('3', 'Dock', { DeviceEnable: 0 }), row('4', 'Hall', {})],
          ChannelCount: 4,
        }),
    });
    renderConsole(<PickChannelModal open title="选择通道" onPick={() => undefined} onClose={() => undefined} />);
    await screen.findByText('Gate');
    const item = (name: string) => screen.getByText(name).closest('[data-testid="wall-picker-item"]') as HTMLElement;
    expect(item('Yard')).toHaveTextContent('未开启 · NVR');
    expect(item('Dock')).toHaveTextContent('设备未开启 · NVR');
    expect(item('Gate')).not.toHaveTextContent('未开启');
    expect(item('Hall')).not.toHaveTextContent('未开启');
  });
});
