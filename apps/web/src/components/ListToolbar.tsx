/**
 * A list page's toolbar (beside its title): the search box, filters, secondary actions (batch
 * delete, clear) and the primary action (add).
 *
 * Why: on a phone-wide window (usePhone) the toolbars wrapped their fixed-width parts into two to
 * four rows (the device list's type filter, search, batch delete and add took three rows, the
 * alarm list's filters four more in their own card), pushing the table below the fold. There it
 * is one row: the search fills what is left beside three 32 px buttons; the filters open below
 * it from a toggle (marked while a filter is set, so a shortened list says why), the secondary
 * actions sit in a "more" popup as the same buttons (their confirmations included), and the
 * primary action keeps its icon with its words as the button's name. `leading` (a live badge,
 * a switch) stays beside the title. Wider windows get one wrapping row of the parts in the
 * order leading, filters, search, actions, primary: as the pages had it.
 */
import { Children, cloneElement, isValidElement, useState, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { Badge, Button, Dropdown, Flex, Space } from 'antd';
import { EllipsisOutlined, FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePhone } from './usePhone';

export interface PrimaryAction {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId?: string;
}

interface Props {
  /** Beside the title on a phone, first in the row on a desktop. */
  leading?: ReactNode;
  /** The page's search box (an Input.Search). */
  search?: ReactNode;
  /** Selects and pickers that narrow the list; each keyed. */
  filters?: ReactNode[];
  /** Whether a filter is set (the phone's collapsed filter toggle shows a dot). */
  filtered?: boolean;
  /** Actions other than the primary one (batch delete, clear), each keyed. */
  actions?: ReactNode[];
  primary?: PrimaryAction;
}

/** A filter as the phone shows it: the full width of the toolbar instead of its desktop width. */
function fullWidth(node: ReactNode): ReactNode {
  if (!isValidElement<{ style?: CSSProperties }>(node)) return node;
  const el = node as ReactElement<{ style?: CSSProperties }>;
  return cloneElement(el, { style: { ...el.props.style, width: '100%' } });
}

export function ListToolbar({ leading, search, filters = [], filtered = false, actions = [], primary }: Props) {
  const phone = usePhone();
  if (!phone) {
    return (
      <Space wrap>
        {leading}
        {filters}
        {search}
        {actions}
        {primary && (
          <Button type="primary" icon={primary.icon} onClick={primary.onClick} data-testid={primary.testId}>
            {primary.label}
          </Button>
        )}
      </Space>
    );
  }
  return <PhoneToolbar leading={leading} search={search} filters={filters} filtered={filtered} actions={actions} primary={primary} />;
}

function PhoneToolbar({ leading, search, filters = [], filtered, actions = [], primary }: Props) {
  const { t } = useTranslation();
  const [filtersOpen, setFiltersOpen] = useState(false);
  return (
    <>
      {leading}
      {/* With a search box, a row of its own under the title (all of its width); without, the
          buttons stay beside the title while they fit. */}
      <Flex gap={8} align="center" style={search ? { flexBasis: '100%', minWidth: 0 } : { marginInlineStart: 'auto' }} data-testid="list-toolbar">
        {search && <div style={{ flex: 1, minWidth: 0 }}>{fullWidth(search)}</div>}
        {filters.length > 0 && (
          <Badge dot={filtered} offset={[-4, 4]}>
            <Button
              icon={<FilterOutlined />}
              aria-label={t('common.filters')}
              title={t('common.filters')}
              aria-expanded={filtersOpen}
              type={filtersOpen ? 'primary' : 'default'}
              ghost={filtersOpen}
              onClick={() => setFiltersOpen((o) => !o)}
            />
          </Badge>
        )}
        {actions.length > 0 && (
          <Dropdown
            trigger={['click']}
            placement="bottomRight"
            popupRender={() => (
              <div className="ant-dropdown-menu" style={{ padding: 8 }}>
                <Flex vertical gap={8} align="stretch">
                  {actions}
                </Flex>
              </div>
            )}
          >
            <Button icon={<EllipsisOutlined />} aria-label={t('common.moreActions')} title={t('common.moreActions')} />
          </Dropdown>
        )}
        {primary && <Button type="primary" icon={primary.icon} onClick={primary.onClick} aria-label={primary.label} title={primary.label} data-testid={primary.testId} />}
      </Flex>
      {filtersOpen && (
        <Flex vertical gap={8} style={{ flexBasis: '100%' }} data-testid="list-toolbar-filters">
          {Children.map(filters, fullWidth)}
        </Flex>
      )}
    </>
  );
}
