/**
 * /config/white and /config/black: the GB28181 registration lists. Search, paging of 20 (spec 9),
 * add/edit in a dialog, delete and batch delete with confirmation; the whitelist page also holds
 * the whitelist switch. `?action=add` opens the add dialog.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Input, Popconfirm, Space, Switch, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { ListToolbar } from '../../../components/ListToolbar';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE, type GbListItem } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { runAction } from '../../../lib/runAction';
import { formatDateTime } from '../../../lib/time';
import { useAddAction } from '../../../lib/useAddAction';
import { useDebounced } from '../../../lib/useDebounced';
import { deleteEntries, deleteEntry, fetchList, setWhiteSwitch, type ListKind } from '../api';
import { ListEntryModal } from '../components/ListEntryModal';


export function GbListPage({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<GbListItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  // A new modal for every opening: the reused one kept its OK button's loading icon stuck in its leave
  // motion when it closed mid-transition (a busy machine), and the button read "loading 确定" afterwards.
  const [formKey, setFormKey] = useState(0);
  // The opening shown now: a save of an earlier opening that ends after this one opened still refreshes the
  // list, but must not close this one.
  const shownFormKey = useRef(formKey);
  useLayoutEffect(() => {
    shownFormKey.current = formKey;
  }, [formKey]);
  const [switching, setSwitching] = useState(false);

  const list = useQuery({
    queryKey: ['gb-list', kind, page, query],
    queryFn: () => fetchList(kind, { start: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, q: query }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.List ?? [];
  const total = list.data?.Total ?? 0;

  useEffect(() => setPage(1), [query]);
  useEffect(() => setSelected([]), [page, query, kind]);
  // A page emptied by deletes steps back to the last page that has rows.
  useEffect(() => {
    if (list.data && !rows.length && page > 1) setPage(Math.max(1, Math.ceil(total / PAGE_SIZE)));
  }, [list.data, rows.length, page, total]);

  const openAdd = () => {
    setEditing(null);
    setFormKey((k) => k + 1);
    setFormOpen(true);
  };
  useAddAction(openAdd);

  const reload = () => void list.refetch();
  const remove = async (row: GbListItem) => {
    if (await runAction(() => deleteEntry(kind, row.ID))) reload();
  };
  const removeSelected = async () => {
    if (await runAction(() => deleteEntries(kind, selected))) {
      setSelected([]);
      reload();
    }
  };
  const toggle = async (on: boolean) => {
    setSwitching(true);
    if (await runAction(() => setWhiteSwitch(on))) reload();
    setSwitching(false);
  };

  const title = t(kind === 'white' ? 'route.configWhite' : 'route.configBlack');
  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={title}
        extra={
          <ListToolbar
            leading={
              kind === 'white' && (
                <Space>
                  <Typography.Text>{t('gbAdmin.whiteSwitch')}</Typography.Text>
                  <Switch checked={!!list.data?.WhiteSwitch} loading={switching || list.isLoading} onChange={(on) => void toggle(on)} data-testid="white-switch" />
                </Space>
              )
            }
            search={<Input.Search allowClear placeholder={t('gbAdmin.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 220 }} />}
            actions={[
              <Popconfirm key="batch-delete" title={t('gbAdmin.batchDeleteConfirm', { n: selected.length })} onConfirm={() => void removeSelected()} disabled={!selected.length}>
                <Button danger icon={<DeleteOutlined />} disabled={!selected.length}>
                  {t('gbAdmin.batchDelete')}
                </Button>
              </Popconfirm>,
            ]}
            primary={{ label: t(kind === 'white' ? 'gbAdmin.addWhite' : 'gbAdmin.addBlack'), icon: <PlusOutlined />, onClick: openAdd }}
          />
        }
      />
      <Alert type={kind === 'white' && !list.data?.WhiteSwitch ? 'warning' : 'info'} showIcon style={{ marginBottom: 12 }} title={t(kind === 'white' ? 'gbAdmin.whiteHint' : 'gbAdmin.blackHint')} description={kind === 'white' ? t(list.data?.WhiteSwitch ? 'gbAdmin.whiteOn' : 'gbAdmin.whiteOff') : undefined} />
      <Card>
        <ListTable<GbListItem>
          rowKey="ID"
          size="middle"
          loading={list.isFetching}
          dataSource={rows}
          scroll={{ x: 800 }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage }}
          columns={[
            { title: t('gbAdmin.deviceId'), dataIndex: 'DeviceID', render: (v: string) => v || <Typography.Text type="secondary">{t('gbAdmin.any')}</Typography.Text> },
            { title: t('gbAdmin.ip'), dataIndex: 'IP', render: (v: string) => v || <Typography.Text type="secondary">{t('gbAdmin.any')}</Typography.Text> },
            { title: t('gbAdmin.name'), dataIndex: 'Name' },
            { title: t('gbAdmin.description'), dataIndex: 'Description', ellipsis: true },
            { title: t('gbAdmin.updatedAt'), dataIndex: 'UpdateTime', render: (v: string) => formatDateTime(v) },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, row) => (
                <Space>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => {
                      setEditing(row);
                      setFormKey((k) => k + 1);
                      setFormOpen(true);
                    }}
                  >
                    {t('common.edit')}
                  </Button>
                  <Popconfirm title={t('gbAdmin.deleteConfirm')} onConfirm={() => void remove(row)}>
                    <Button type="link" size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <ListEntryModal
        key={formKey}
        kind={kind}
        open={formOpen}
        entry={editing}
        onClose={() => setFormOpen(false)}
        onSaved={() => {
          if (shownFormKey.current === formKey) setFormOpen(false);
          reload();
        }}
      />
    </div>
  );
}
