/**
 * Spec 9 "network dialog loads addresses after 1 s": the network form opens at once, waiting; it asks
 * the server for the addresses 1000 ms later (not before), once, and fills in the current one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { NETWORK_DIALOG_DELAY_MS } from '@opencvr/shared';
import { NetworkForm } from '../src/features/setup/components/NetworkForm';
import { adminSessionPerTest } from './helpers/session';
import { renderConsole, stubApi, v1 } from './helpers/console';

adminSessionPerTest();
afterEach(() => vi.useRealTimers());

describe('network dialog address loading', { timeout: 30_000 }, () => {
  it('asks for the addresses 1 s after it opens, then shows the current one', async () => {
    const api = stubApi({ '/api/v1/ip': () => v1({ LocalIPs: ['192.168.1.20', '10.0.0.5'], Current: { sip_host: '10.0.0.5' } }) });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderConsole(<NetworkForm onDone={() => {}} />);
    const address = screen.getByRole('combobox') as HTMLInputElement;
    expect(document.querySelector('.ant-spin-spinning')).not.toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(NETWORK_DIALOG_DELAY_MS - 1));
    expect(api.callsTo('/api/v1/ip')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(NETWORK_DIALOG_DELAY_MS).toBe(1000);
    expect(api.callsTo('/api/v1/ip')).toHaveLength(1);

    vi.useRealTimers();
    await waitFor(() => expect(address.value).toBe('10.0.0.5'));
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(api.callsTo('/api/v1/ip')).toHaveLength(1);
  });

  it('closed within the second: asks for nothing', async () => {
    const api = stubApi({ '/api/v1/ip': () => v1({ LocalIPs: [], Current: {} }) });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const view = renderConsole(<NetworkForm onDone={() => {}} />);
    await act(() => vi.advanceTimersByTimeAsync(NETWORK_DIALOG_DELAY_MS / 2));
    view.unmount();
    await act(() => vi.advanceTimersByTimeAsync(NETWORK_DIALOG_DELAY_MS * 2));
    expect(api.callsTo('/api/v1/ip')).toHaveLength(0);
  });
});
