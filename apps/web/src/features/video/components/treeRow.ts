/**
 * How a row of the sidebar trees fits the sidebar.
 *
 * antd Tree's title sits in a flex item that is never narrower than its text: a long channel name
 * (an NVR's "NVR-01 录像机 摄像机 Cam 001") made the row wider than the sidebar, so the name was cut
 * by the panel's edge instead of ending in "…", the favourite star went out of view, and a device's
 * hundred cameras read the same. A title of no width of its own, at least as wide as its row, lets
 * the row take the sidebar's width; the name gives way with an ellipsis and says itself in full on
 * hover (its `title`).
 */
import type { CSSProperties } from 'react';

export const SIDEBAR_TREE_STYLES: { itemTitle: CSSProperties } = {
  itemTitle: { display: 'block', width: 0, minWidth: '100%' },
};

/** A name in a tree row: one line, ending in "…" where the row is too narrow. */
export const ROW_NAME: CSSProperties = { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };
