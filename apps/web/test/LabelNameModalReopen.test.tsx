/**
 * The group name dialog of /device/group (add, add child, rename) is one dialog opened again and again: a save
 * still running (or failed) when it was closed must not leave the next opening with a loading OK button or
 * the last opening's name.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LabelRow } from '@opencvr/shared';
import { LabelTree } from '../src/features/devices/components/LabelTree';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

const label = (ID: number, Name: string): LabelRow => ({ ID, Name, ParentID: 0, ChannelNum: 0, DeviceNum: 0, ChildNum: 0 });
const labels = [label(3, 'Gate'), label(5, 'Lobby')];

/** Saves held back until the test answers them: true = OK, false = HTTP 500. */
let held: ((ok: boolean) => void)[];

beforeEach(() => {
  held = [];
  captureNotices();
  const api = stubApi({
    '/api/v1/labellist': () => v1({ Labels: labels, Count: labels.length }),
    'POST /api/v1/updatelabelName': () => v1({}),
  });
  const answer = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    if (new URL(String(input), 'http://console.test').pathname !== '/api/v1/updatelabelName') return answer(input, init);
    const ok = await new Promise<boolean>((release) => held.push(release));
    return ok ? answer(input, init) : new Response(JSON.stringify({ code: 500, msg: 'boom' }), { status: 500 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness() {
  const [selected, setSelected] = useState<LabelRow | null>(null);
  return <LabelTree selected={selected} onSelect={setSelected} />;
}

const okButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /确\s*定/ });
const rename = async (name: string) => {
  fireEvent.click(await screen.findByText(`${name} (0)`));
  await waitFor(() => expect(screen.getByRole('button', { name: '重命名' })).toBeEnabled());
  fireEvent.click(screen.getByRole('button', { name: '重命名' }));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(within(dialog).getByLabelText('分组名称')).toHaveValue(name));
  return dialog;
};
const expectIdle = (dialog: HTMLElement) => {
  expect(okButton(dialog)).not.toHaveClass('ant-btn-loading');
  expect(within(okButton(dialog)).queryByRole('img', { name: 'loading' })).toBeNull();
};

describe('LabelTree: the group name dialog opened again', { timeout: 60_000 }, () => {
  it('closed while the rename runs: the next opening is idle and shows the next group', async () => {
    renderConsole(<Harness />);
    const first = await rename('Gate');
    fireEvent.change(within(first).getByLabelText('分组名称'), { target: { value: 'Front gate' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(okButton(first)).toHaveClass('ant-btn-loading'));
    fireEvent.click(within(first).getByRole('button', { name: /取\s*消/ }));

    const second = await rename('Lobby');
    expectIdle(second);
    held[0]!(false);
  });

  it('closed after a failed rename: the next opening is idle and shows the next group', async () => {
    renderConsole(<Harness />);
    const first = await rename('Gate');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!(false);
    await waitFor(() => expect(okButton(first)).not.toHaveClass('ant-btn-loading'));
    fireEvent.click(within(first).getByRole('button', { name: /取\s*消/ }));

    const second = await rename('Lobby');
    expectIdle(second);
  });
});
