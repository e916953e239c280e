/** The loop (tour) list: channels and the seconds per page, saved as loopChannels. */
import { useState } from 'react';
import { Button, Empty, Flex, InputNumber, List, Modal, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { channelId, MIN_LOOP_INTERVAL, type LoopState, type WallChannel } from '../wall';
import { PickChannelModal } from './PickChannelModal';

/** Tour channels listed per page of the dialog: the page and its pager fit the dialog without a scroll. */
const LIST_PAGE = 10;

interface Props {
  open: boolean;
  value: LoopState;
  onSave: (v: Pick<LoopState, 'channels' | 'interval'>) => void;
  onClose: () => void;
}

export function LoopModal({ open, value, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [channels, setChannels] = useState<WallChannel[]>(value.channels);
  const [seconds, setSeconds] = useState(value.interval);
  const [picking, setPicking] = useState(false);
  // Filled in from the saved tour as the dialog opens, in the same render: antd's afterOpenChange
  // comes when the opening motion ends and put back whatever the operator had typed by then.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setChannels(value.channels);
      setSeconds(value.interval);
    }
  }

  // The chooser stays open for several picks: a pick adds, a pick of a channel already in the tour takes it out.
  const toggle = (c: WallChannel) =>
    setChannels((prev) => (prev.some((p) => channelId(p) === channelId(c)) ? prev.filter((p) => channelId(p) !== channelId(c)) : [...prev, c]));
  // Every match of the chooser's search: those not in the tour yet join its end.
  const addAll = (cs: WallChannel[]) =>
    setChannels((prev) => {
      const have = new Set(prev.map(channelId));
      const added = cs.filter((c) => {
        const id = channelId(c);
        if (have.has(id)) return false;
        have.add(id);
        return true;
      });
      return [...prev, ...added];
    });
  const remove = (c: WallChannel) => setChannels((prev) => prev.filter((p) => channelId(p) !== channelId(c)));

  return (
    <Modal
      open={open}
      title={t('live.browse.loopSettings')}
      onCancel={onClose}
      onOk={() => onSave({ channels, interval: seconds })}
    >
      <Space style={{ marginBottom: 12 }}>
        <Typography.Text>{t('live.browse.interval')}</Typography.Text>
        <InputNumber min={MIN_LOOP_INTERVAL} max={3600} value={seconds} onChange={(v) => setSeconds(v ?? MIN_LOOP_INTERVAL)} />
        <Button icon={<PlusOutlined />} onClick={() => setPicking(true)}>
          {t('live.browse.add')}
        </Button>
      </Space>
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} data-testid="loop-count">
          {t('live.browse.loopChannels')} ({channels.length})
        </Typography.Title>
        {channels.length > 1 && (
          <Button size="small" type="link" danger onClick={() => setChannels([])}>
            {t('live.browse.removeAll')}
          </Button>
        )}
      </Flex>
      {channels.length ? (
        // A tour may hold a site's hundreds of cameras: a page of them at a time.
        <List
          size="small"
          bordered
          dataSource={channels}
          rowKey={channelId}
          pagination={channels.length > LIST_PAGE ? { pageSize: LIST_PAGE, size: 'small', showSizeChanger: false, align: 'center' } : false}
          renderItem={(c) => (
            <List.Item
              actions={[
                <Button
                  key="rm"
                  size="small"
                  type="text"
                  danger
                  aria-label={t('live.browse.remove')}
                  icon={<DeleteOutlined />}
                  onClick={() => remove(c)}
                />,
              ]}
            >
              {c.name}
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('live.browse.loopEmpty')} />
      )}
      <PickChannelModal
        open={picking}
        title={t('live.browse.add')}
        picked={new Set(channels.map(channelId))}
        onPick={toggle}
        onPickAll={addAll}
        onClose={() => setPicking(false)}
      />
    </Modal>
  );
}
