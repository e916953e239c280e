/**
 * A late rename or move of an earlier dialog opening in the group tree (/device/group) must not act on the next
 * opening: the first group's save is held back, its dialog closed, another group selected and the dialog opened
 * for it, then the first save answers. The tree is refreshed (the save happened), but the second dialog stays
 * open with its values and the second group stays selected (before, a late rename re-selected the first group
 * and a late move cleared the selection, and both closed the second dialog).
 */
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LabelRow } from '@opencvr/shared';
import { LabelTree } from '../src/features/devices/components/LabelTree';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, holdRequests, okButton, shownDialog, shownDialogWhen, type Release } from './helpers/dialogs';

const label = (ID: number, Name: string, ParentID: number, ChildNum = 0): LabelRow => ({ ID, Name, ParentID, ChannelNum: 0, DeviceNum: 0, ChildNum });
// Hall is inside Gate; Lobby is at the top.
const labels = [label(3, 'Gate', 0, 1), label(5, 'Lobby', 0), label(7, 'Hall', 3)];

/** Saves held back until the test answers them. */
let held: Release[];
let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  notices = captureNotices();
  api = stubApi({
    '/api/v1/labellist': (c) => {
      const level = labels.filter((l) => l.ParentID === Number(c.query.get('parentid') ?? 0));
      return v1({ Labels: level, Count: level.length });
    },
    '/api/v1/alllabel': () => v1({ Labels: labels, Count: labels.length }),
    'POST /api/v1/updatelabelName': () => v1({}),
    'POST /api/v1/updatelabel': () => v1({}),
  });
  held = holdRequests(api, ['/api/v1/updatelabelName', '/api/v1/updatelabel']);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Only the accessible dialogs count here: the tree leaves hidden ones in the document. */
const visible = { hidden: false };

function Harness() {
  const [selected, setSelected] = useState<LabelRow | null>(null);
  return (
    <>
      <div data-testid="selected">{selected ? `${selected.ID}:${selected.Name}` : 'none'}</div>
      <LabelTree selected={selected} onSelect={setSelected} />
    </>
  );
}

const select = async (name: string) => {
  fireEvent.click(await screen.findByText(`${name} (0)`));
  await waitFor(() => expect(screen.getByTestId('selected')).toHaveTextContent(`:${name}`));
};
const rename = async (name: string) => {
  await select(name);
  fireEvent.click(screen.getByRole('button', { name: '重命名' }));
  return shownDialogWhen((dialog) => expect(within(dialog).getByLabelText('分组名称')).toHaveValue(name), visible);
};
const move = async (name: string, parent: string) => {
  await select(name);
  fireEvent.click(screen.getByRole('button', { name: '移动' }));
  return shownDialogWhen((dialog) => expect(dialog.querySelector('.ant-select-content')).toHaveTextContent(parent), visible);
};
const labellists = () => api.callsTo('/api/v1/labellist').length;

describe('LabelTree: a late save of an earlier dialog opening', { timeout: 60_000 }, () => {
  it('rename: refreshes the tree but keeps the next group selected and its dialog open with its name', async () => {
    renderConsole(<Harness />);
    const first = await rename('Gate');
    fireEvent.change(within(first).getByLabelText('分组名称'), { target: { value: 'Front gate' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    cancel(first);

    const second = await rename('Lobby');
    fireEvent.change(within(second).getByLabelText('分组名称'), { target: { value: 'Lobby hall' } });
    const listed = labellists();
    held[0]!();
    await waitFor(() => expect(labellists()).toBeGreaterThan(listed));
    // Told once the rename and its tree refresh are done.
    await waitFor(() => expect(notices).toEqual(['success:修改成功!']));
    expect(screen.getByTestId('selected')).toHaveTextContent('5:Lobby');
    expect(second).not.toHaveClass('ant-zoom-leave');
    expect(shownDialog(visible)).toBe(second);
    expect(within(second).getByLabelText('分组名称')).toHaveValue('Lobby hall');

    // And it still renames its own group, then closes.
    fireEvent.click(okButton(second));
    await waitFor(() => expect(held).toHaveLength(2));
    held[1]!();
    await waitFor(() => expect(screen.getByTestId('selected')).toHaveTextContent('5:Lobby hall'));
    expect(api.callsTo('/api/v1/updatelabelName', 'POST').map((c) => c.body)).toMatchObject([
      { id: '3', name: 'Front gate' },
      { id: '5', name: 'Lobby hall' },
    ]);
  });

  it('move: refreshes the tree but keeps the next group selected and its dialog open', async () => {
    renderConsole(<Harness />);
    const gate = (await screen.findByText('Gate (0)')).closest<HTMLElement>('.ant-tree-treenode')!;
    fireEvent.click(gate.querySelector('.ant-tree-switcher')!);
    const first = await move('Hall', 'Gate');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    cancel(first);

    const second = await move('Lobby', '顶层');
    const listed = labellists();
    held[0]!();
    await waitFor(() => expect(labellists()).toBeGreaterThan(listed));
    await waitFor(() => expect(notices).toEqual(['success:操作成功']));
    expect(screen.getByTestId('selected')).toHaveTextContent('5:Lobby');
    expect(second).not.toHaveClass('ant-zoom-leave');
    expect(shownDialog(visible)).toBe(second);
    expect(second.querySelector('.ant-select-content')).toHaveTextContent('顶层');
  });
});
