/**
 * The move dialog of /device/group is one dialog opened again and again: a move still running (or failed) when
 * it was closed must not leave the next opening with a loading OK button or the last group's parent.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { LabelRow } from '@opencvr/shared';
import { LabelTree } from '../src/features/devices/components/LabelTree';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, expectIdle, holdRequests, okButton, type Release } from './helpers/dialogs';

const label = (ID: number, Name: string, ParentID: number, ChildNum = 0): LabelRow => ({ ID, Name, ParentID, ChannelNum: 0, DeviceNum: 0, ChildNum });
// Hall is inside Gate; Lobby is at the top.
const labels = [label(3, 'Gate', 0, 1), label(5, 'Lobby', 0), label(7, 'Hall', 3)];

/** Moves held back until the test answers them: true = OK, false = HTTP 500. */
let held: Release[];

beforeEach(() => {
  captureNotices();
  const api = stubApi({
    '/api/v1/labellist': (c) => {
      const level = labels.filter((l) => l.ParentID === Number(c.query.get('parentid') ?? 0));
      return v1({ Labels: level, Count: level.length });
    },
    '/api/v1/alllabel': () => v1({ Labels: labels, Count: labels.length }),
    'POST /api/v1/updatelabel': () => v1({}),
  });
  held = holdRequests(api, '/api/v1/updatelabel');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness() {
  const [selected, setSelected] = useState<LabelRow | null>(null);
  return <LabelTree selected={selected} onSelect={setSelected} />;
}

/** Selects the group in the tree and opens its move dialog, once it shows `parent` as the current parent. */
const move = async (name: string, parent: string) => {
  fireEvent.click(await screen.findByText(`${name} (0)`));
  await waitFor(() => expect(screen.getByRole('button', { name: '移动' })).toBeEnabled());
  fireEvent.click(screen.getByRole('button', { name: '移动' }));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog.querySelector('.ant-select-content')).toHaveTextContent(parent));
  return dialog;
};
const expandGate = async () => {
  const gate = (await screen.findByText('Gate (0)')).closest<HTMLElement>('.ant-tree-treenode')!;
  fireEvent.click(gate.querySelector('.ant-tree-switcher')!);
  await screen.findByText('Hall (0)');
};

describe('LabelTree: the move dialog opened again', { timeout: 60_000 }, () => {
  it('closed while the move runs: the next opening is idle and shows the next group', async () => {
    renderConsole(<Harness />);
    await expandGate();
    const first = await move('Hall', 'Gate');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(okButton(first)).toHaveClass('ant-btn-loading'));
    cancel(first);

    const second = await move('Lobby', '顶层');
    expectIdle(second);
    held[0]!(false);
  });

  it('closed after a failed move: the next opening is idle and shows the next group', async () => {
    renderConsole(<Harness />);
    await expandGate();
    const first = await move('Hall', 'Gate');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!(false);
    await waitFor(() => expect(okButton(first)).not.toHaveClass('ant-btn-loading'));
    cancel(first);

    const second = await move('Lobby', '顶层');
    expectIdle(second);
  });
});
