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
import { cancel, expectIdle, holdRequests, okButton, type Release } from './helpers/dialogs';

const label = (ID: number, Name: string): LabelRow => ({ ID, Name, ParentID: 0, ChannelNum: 0, DeviceNum: 0, ChildNum: 0 });
const labels = [label(3, 'Gate'), label(5, 'Lobby')];

/** Saves held back until the test answers them: true = OK, false = HTTP 500. */
let held: Release[];

beforeEach(() => {
  captureNotices();
  const api = stubApi({
    '/api/v1/labellist': () => v1({ Labels: labels, Count: labels.length }),
    'POST /api/v1/updatelabelName': () => v1({}),
  });
  held = holdRequests(api, '/api/v1/updatelabelName');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness() {
  const [selected, setSelected] = useState<LabelRow | null>(null);
  return <LabelTree selected={selected} onSelect={setSelected} />;
}

const rename = async (name: string) => {
  fireEvent.click(await screen.findByText(`${name} (0)`));
  await waitFor(() => expect(screen.getByRole('button', { name: '重命名' })).toBeEnabled());
  fireEvent.click(screen.getByRole('button', { name: '重命名' }));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(within(dialog).getByLabelText('分组名称')).toHaveValue(name));
  return dialog;
};

describe('LabelTree: the group name dialog opened again', { timeout: 60_000 }, () => {
  it('closed while the rename runs: the next opening is idle and shows the next group', async () => {
    renderConsole(<Harness />);
    const first = await rename('Gate');
    fireEvent.change(within(first).getByLabelText('分组名称'), { target: { value: 'Front gate' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(okButton(first)).toHaveClass('ant-btn-loading'));
    cancel(first);

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
    cancel(first);

    const second = await rename('Lobby');
    expectIdle(second);
  });
});
