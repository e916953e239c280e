/**
 * The list toolbar (components/ListToolbar.tsx): on a phone one row (search, filter toggle, "more",
 * the primary action by its icon with its words as its name), filters shown on demand and marked
 * while set, secondary actions in the popup keeping their confirmations; on a wide window every
 * part in one wrapping row, as the pages had them.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Button, Input, Popconfirm, Select } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListToolbar } from '../src/components/ListToolbar';
import { renderConsole } from './helpers/console';
import { openFilters, openMoreActions } from './helpers/toolbar';
import { wideWindow } from './helpers/viewport';

function Toolbar({ filtered = false, onAdd = () => {}, onDelete = () => {} }: { filtered?: boolean; onAdd?: () => void; onDelete?: () => void }) {
  return (
    <ListToolbar
      leading={<span>live</span>}
      search={<Input.Search placeholder="search here" style={{ width: 220 }} />}
      filters={[<Select key="type" data-testid="type-filter" style={{ width: 140 }} options={[{ value: '', label: 'all types' }]} value="" />]}
      filtered={filtered}
      actions={[
        <Popconfirm key="del" title="really delete?" onConfirm={onDelete}>
          <Button danger>batch delete</Button>
        </Popconfirm>,
      ]}
      primary={{ label: 'add device', icon: <PlusOutlined />, onClick: onAdd }}
    />
  );
}

afterEach(() => vi.restoreAllMocks());

describe('ListToolbar on a phone-wide window', () => {
  it('shows search and three buttons in one row; the filters only when asked, full width', () => {
    renderConsole(<Toolbar />);
    const row = screen.getByTestId('list-toolbar');
    expect(within(row).getByPlaceholderText('search here')).toBeInTheDocument();
    // The search takes what the buttons leave instead of its desktop width.
    expect((within(row).getByPlaceholderText('search here').closest('.ant-input-search') as HTMLElement).style.width).toBe('100%');
    expect(screen.queryByTestId('type-filter')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'batch delete' })).not.toBeInTheDocument();
    const filterToggle = within(row).getByRole('button', { name: '筛选' });
    expect(filterToggle).toHaveAttribute('aria-expanded', 'false');
    openFilters();
    expect(filterToggle).toHaveAttribute('aria-expanded', 'true');
    const filter = within(screen.getByTestId('list-toolbar-filters')).getByTestId('type-filter');
    expect(filter.style.width).toBe('100%');
    openFilters();
    expect(screen.queryByTestId('type-filter')).not.toBeInTheDocument();
  });

  it('marks the collapsed filter toggle while a filter is set', () => {
    const { rerender, container } = renderConsole(<Toolbar />);
    expect(container.querySelector('.ant-badge-dot')).toBeNull();
    rerender(<Toolbar filtered />);
    expect(container.querySelector('.ant-badge-dot')).not.toBeNull();
  });

  it('the primary action is an icon button named by its words; secondary actions keep their confirmation', async () => {
    const onAdd = vi.fn();
    const onDelete = vi.fn();
    renderConsole(<Toolbar onAdd={onAdd} onDelete={onDelete} />);
    const add = screen.getByRole('button', { name: 'add device' });
    expect(add).not.toHaveTextContent('add device');
    fireEvent.click(add);
    expect(onAdd).toHaveBeenCalledTimes(1);
    openMoreActions();
    fireEvent.click(await screen.findByRole('button', { name: 'batch delete' }));
    expect(await screen.findByText('really delete?')).toBeInTheDocument();
    const confirm = screen.getByText('really delete?').closest('.ant-popover')!;
    fireEvent.click(within(confirm as HTMLElement).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledTimes(1));
  });
});

describe('ListToolbar on a wide window', () => {
  it('lays every part out in one row in the pages’ order, the primary action with its words', () => {
    wideWindow();
    renderConsole(<Toolbar />);
    expect(screen.queryByTestId('list-toolbar')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '筛选' })).not.toBeInTheDocument();
    const items = Array.from(document.querySelectorAll('.ant-space-item'));
    expect(items.map((i) => i.textContent)).toEqual(['live', 'all types', '', 'batch delete', 'add device']);
    expect(screen.getByTestId('type-filter').style.width).toBe('140px');
    expect((screen.getByPlaceholderText('search here').closest('.ant-input-search') as HTMLElement).style.width).toBe('220px');
  });
});
