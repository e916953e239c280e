/**
 * The console's list table: antd's Table, laid out for a phone-wide window (narrower than antd's md,
 * 768 px, where the layout's sidebar also collapses) so that nothing is squeezed out of use.
 *
 * Why: the list pages give their tables a desktop width to scroll within (scroll.x 800–1100 px)
 * and a pinned actions column of up to 260 px. On a 390 px phone the table keeps about 300 px of
 * it, the pinned column covers most of that, and the remaining columns share what is left: a
 * device's 20-digit ID came out one character per line, the channel names two, the headers
 * broken mid-word, and a table without scroll.x (roles) pushed the whole page sideways.
 *
 * The rule on a phone, for every list the same: each cell keeps its text on one line and the table
 * is as wide as its content (scroll.x max-content), scrolling sideways inside its card. The row's
 * actions stay at hand beside the scrolling columns: the column keyed ACTIONS_KEY (and any column a
 * page pinned) is pinned right; one the page gave a width (its buttons wrap) is at most
 * PHONE_PINNED_WIDTH wide, one without takes its buttons' width. A column the page cuts with an
 * ellipsis (a camera address, a description) is PHONE_ELLIPSIS_WIDTH wide, cut as on a desktop:
 * on one line a long RTSP address made the table ~900 px wider. Wider windows get the page's props
 * as they are: desktop looks as before.
 */
import { Table, type TableProps } from 'antd';
import type { ColumnType, ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { usePhone } from './usePhone';

/** The key of a list's row-actions column: pinned right on a phone. */
export const ACTIONS_KEY = 'actions';

/** A pinned column's widest on a phone: two two-character actions side by side, longer ones wrapping. */
export const PHONE_PINNED_WIDTH = 104;

/** A column the page cuts with an ellipsis (an address, a description): its width on a phone. */
export const PHONE_ELLIPSIS_WIDTH = 200;

type CellProps = HTMLAttributes<HTMLElement>;

/** The cell's own props with its text kept on one line. */
function nowrap(own: CellProps | undefined): CellProps {
  return { ...own, style: { ...own?.style, whiteSpace: 'nowrap' } };
}

/** The cell's own props, at most PHONE_ELLIPSIS_WIDTH wide (its text cut with an ellipsis). */
function capped(own: CellProps | undefined): CellProps {
  return { ...own, style: { ...own?.style, whiteSpace: 'nowrap', maxWidth: PHONE_ELLIPSIS_WIDTH } };
}

/** A column as a phone shows it: the actions pinned (narrowed if the page sized them), others on one line. */
export function phoneColumn<T>(column: ColumnsType<T>[number]): ColumnsType<T>[number] {
  if ('children' in column) return column;
  const col = column as ColumnType<T>;
  if (col.fixed || col.key === ACTIONS_KEY) {
    const width = typeof col.width === 'number' ? Math.min(col.width, PHONE_PINNED_WIDTH) : undefined;
    return { ...col, fixed: col.fixed ?? 'right', width };
  }
  if (col.ellipsis) {
    return {
      ...col,
      width: PHONE_ELLIPSIS_WIDTH,
      onHeaderCell: (c) => nowrap(col.onHeaderCell?.(c) as CellProps | undefined),
      onCell: (record, index) => capped(col.onCell?.(record, index) as CellProps | undefined),
    };
  }
  return {
    ...col,
    onHeaderCell: (c) => nowrap(col.onHeaderCell?.(c) as CellProps | undefined),
    onCell: (record, index) => nowrap(col.onCell?.(record, index) as CellProps | undefined),
  };
}

export function ListTable<T extends object>(props: TableProps<T>) {
  const phone = usePhone();
  if (!phone) return <Table<T> {...props} />;
  return (
    <Table<T>
      {...props}
      tableLayout="auto"
      scroll={{ ...props.scroll, x: 'max-content' }}
      columns={props.columns?.map((c) => phoneColumn<T>(c))}
    />
  );
}
