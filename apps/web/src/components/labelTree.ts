/** Group (label) helpers: the flat alllabel list as a tree. */
import type { LabelRow } from '@opencvr/shared';

export interface LabelOption {
  value: number;
  title: string;
  key: number;
  children: LabelOption[];
}

/**
 * A group as its trees name it: its name and how many devices and channels are placed in it (the
 * group page's tree, the role dialog's), as the video tree follows a device with its channels.
 */
export const labelTitle = (l: Pick<LabelRow, 'Name' | 'ChannelNum' | 'DeviceNum'>) => `${l.Name} (${l.ChannelNum + l.DeviceNum})`;

/**
 * Nests a flat label list by ParentID; `without` leaves out one label and its branch (a move target
 * cannot be inside itself); `counted` names each with its count (labelTitle).
 */
export function labelTreeData(labels: LabelRow[], without?: number, counted = false): LabelOption[] {
  const byParent = new Map<number, LabelRow[]>();
  for (const l of labels) byParent.set(l.ParentID, [...(byParent.get(l.ParentID) ?? []), l]);
  const ids = new Set(labels.map((l) => l.ID));
  const build = (parent: number): LabelOption[] =>
    (byParent.get(parent) ?? [])
      .filter((l) => l.ID !== without)
      .map((l) => ({ value: l.ID, key: l.ID, title: counted ? labelTitle(l) : l.Name, children: build(l.ID) }));
  // Roots: labels whose parent is the top or is not in the list (a role sees only its branches).
  const roots = labels.filter((l) => l.ParentID === 0 || !ids.has(l.ParentID)).map((l) => l.ParentID);
  return [...new Set(roots)].flatMap(build);
}
