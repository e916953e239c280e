/** A light channel chooser for the wall: all/channels with a search, one click picks (errors stay quiet). */
import { useState } from 'react';
import { Badge, Empty, Input, List, Modal, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDebounced } from '../../../lib/useDebounced';
import { fetchAllChannels } from '../api';
import type { WallChannel } from '../wall';

interface Props {
  open: boolean;
  title: string;
  onPick: (c: WallChannel) => void;
  onClose: () => void;
}

export function PickChannelModal({ open, title, onPick, onClose }: Props) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const list = useQuery({
    queryKey: ['live', 'pick', query],
    queryFn: () => fetchAllChannels(query, 0, 200, true),
    enabled: open,
  });
  const rows = (list.data?.Channels ?? []).filter((c) => c.Parental !== 1);

  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      <Input.Search allowClear autoFocus value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('live.browse.search')} style={{ marginBottom: 8 }} />
      <Spin spinning={list.isFetching}>
        <div style={{ height: 380, overflow: 'auto' }} data-testid="wall-picker">
          {rows.length ? (
            <List
              size="small"
              dataSource={rows}
              renderItem={(c) => (
                <List.Item
                  style={{ cursor: 'pointer' }}
                  data-testid="wall-picker-item"
                  onClick={() => onPick({ device: c.ParentDeviceID, channel: c.ChannelID, name: c.Name })}
                >
                  <Badge status={c.Online === 1 ? 'success' : 'default'} text={c.Name} />
                  <span style={{ color: '#999', fontSize: 12 }}>{c.DeviceName}</span>
                </List.Item>
              )}
            />
          ) : (
            !list.isFetching && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('live.browse.noChannels')} />
          )}
        </div>
      </Spin>
    </Modal>
  );
}
